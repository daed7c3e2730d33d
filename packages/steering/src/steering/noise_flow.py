"""A flow field that drifts over time (Exercise 5.7): 3-D noise whose third axis is time,
rewritten in place into one :class:`~steering.FlowField`."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _checks
from .flow import FlowField, grid_shape
from .noise_grid import NoiseGrid, angle_vectors, noise_angles, write_noise_rows
from .vec import FloatArray

__all__ = ["NoiseFlow"]


@dataclass(eq=False)
class NoiseFlow:
    """A flow field that drifts smoothly over time: 3-D noise at ``z = t * speed`` (Ex. 5.7).

    The seed rebuilds its field every 2 s, so the current jumps; here the third noise axis is
    time, so each update turns every vector a little. :attr:`field` is one :class:`FlowField`
    rewritten in place by :meth:`update` / :meth:`advance`, so a :class:`FollowFlow` holding it
    always sees the current time. Call one of them once per world step (not from a behaviour:
    two behaviours sharing the field would advance it twice). A 40 x 25 grid costs ~1.5-2 ms.

    Needs opensimplex (the ``noise`` extra), imported when the first noise field is built;
    :meth:`lookup` and :meth:`contains` make it a :class:`FlowSource` that
    :class:`FollowFlow` takes directly.

    Attributes:
        rows, cols, cell, origin: the grid, as for :class:`FlowField`.
        scale: noise units per cell (smaller is smoother).
        speed: noise units of z per second (the seed's clock step is 0.1 a second).
        seed: opensimplex seed.
        turns, base_angle: angle mapping, as in :meth:`FlowField.noise`.
        t: current time in seconds.
        field: the field at time :attr:`t`.
    """

    rows: int
    cols: int
    cell: float
    origin: tuple[float, float] = (0.0, 0.0)
    scale: float = 0.1
    speed: float = 0.1
    seed: int = 0
    turns: float = 1.0
    base_angle: float = math.pi
    t: float = 0.0
    field: FlowField = dataclasses.field(init=False)
    _noise: NoiseGrid = dataclasses.field(init=False, repr=False)
    _xs: FloatArray = dataclasses.field(init=False, repr=False)
    _ys: FloatArray = dataclasses.field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rows, self.cols = grid_shape(self.rows, self.cols)
        self.scale = _checks.positive("NoiseFlow.scale", self.scale)
        self.speed = _checks.finite("NoiseFlow.speed", self.speed)
        self.turns = _checks.finite("NoiseFlow.turns", self.turns)
        self.base_angle = _checks.finite("NoiseFlow.base_angle", self.base_angle)
        self.t = _checks.finite("NoiseFlow.t", self.t)
        self.seed = _checks.integer("NoiseFlow.seed", self.seed)
        self._noise = NoiseGrid(self.seed)
        self._xs = np.arange(self.cols, dtype=np.float64) * self.scale
        self._ys = np.arange(self.rows, dtype=np.float64) * self.scale
        self.field = FlowField(self._vectors(self.t), self.cell, self.origin)
        self.cell, self.origin = self.field.cell, self.field.origin

    def _vectors(self, t: float) -> FloatArray:
        n = self._noise.grid3(self._xs, self._ys, _checks.finite("NoiseFlow time", t) * self.speed)
        return angle_vectors(noise_angles(n, self.base_angle, self.turns))

    def update(self, t: float) -> FlowField:
        """Rewrite :attr:`field` in place for time ``t`` (seconds) and return it."""
        vec = self._vectors(t)
        self.field.vectors[...] = vec
        self.t = float(t)
        return self.field

    def update_rows(self, t: float, part: int, parts: int) -> FlowField:
        """Rewrite rows ``part, part + parts, ...`` of :attr:`field` for time ``t``.

        Called with ``part = frame % parts`` every step, it refreshes every row once per
        ``parts`` steps at the same cost each step (a whole-grid update every ``parts`` steps
        costs ``parts`` times as much in one step, a visible hitch on big fields); neighbouring
        rows are at most ``parts - 1`` steps apart in time, far below what the eye or an agent
        notices at the levels' noise speeds.
        """
        ys = self._ys[part % parts :: parts]
        if ys.size:
            z = _checks.finite("NoiseFlow time", t) * self.speed
            n = self._noise.grid3(self._xs, ys, z)
            write_noise_rows(
                n, self.base_angle, self.turns, self.field.vectors, part % parts, parts
            )
        self.t = float(t)
        return self.field

    def advance(self, dt: float) -> FlowField:
        """:meth:`update` to ``t + dt``."""
        return self.update(self.t + dt)

    def lookup(self, points: ArrayLike, bilinear: bool = True) -> FloatArray:
        """:meth:`FlowField.lookup` of the field at the current time (a :class:`FlowSource`)."""
        return self.field.lookup(points, bilinear)

    def contains(self, points: ArrayLike) -> NDArray[np.bool_]:
        """:meth:`FlowField.contains` of the field."""
        return self.field.contains(points)
