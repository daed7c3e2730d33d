"""Paths whose nodes move by themselves (seed 000 Exercise 5.11): :class:`DriftingPath`, a
smooth function of time that a world applies to a :class:`~steering.Path` every step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ._checks import finite, integer
from .path_edits import check_nodes
from .vec import FloatArray

if TYPE_CHECKING:
    from .path import Path

__all__ = ["DriftingPath"]


@dataclass
class DriftingPath:
    """Nodes that move by themselves (seed 000 Exercise 5.11), as a smooth function of time.

    Node k sits at ``base[k] + amplitude * sin(speed * rate_k * t + phase_k)`` per axis, with
    seeded random phases and rates (0.5..1.5), so the motion is reproducible, smooth and
    bounded (never leaves ``base +- amplitude``). The world calls :meth:`apply` every step;
    followers keep their progress because :meth:`Path.set_nodes` keeps the node count.
    Unlike the seed's bouncing nodes it needs no state beyond ``t``.

    Args:
        base: (M, 2) rest positions of the nodes.
        amplitude: (ax, ay) or one value for both axes (px); the seed moves nodes in y only.
        speed: angular speed (rad/s) of the average node.
        seed: random seed for the phases and rates.
    """

    base: ArrayLike
    amplitude: ArrayLike = (0.0, 30.0)
    speed: float = 1.0
    seed: int = 0
    _base: FloatArray = field(init=False, repr=False)
    _phase: FloatArray = field(init=False, repr=False)
    _rate: FloatArray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._base = check_nodes(self.base)
        try:
            amp = np.broadcast_to(np.asarray(self.amplitude, dtype=np.float64), (2,))
        except (TypeError, ValueError):
            raise ValueError(
                f"DriftingPath.amplitude: expected one value or (ax, ay), got {self.amplitude!r}"
            ) from None
        if not np.isfinite(amp).all():
            raise ValueError(f"DriftingPath.amplitude: must be finite, got {self.amplitude!r}")
        self.speed = finite("DriftingPath.speed", self.speed)
        self.seed = integer("DriftingPath.seed", self.seed)
        rng = np.random.default_rng(self.seed)
        m = self._base.shape[0]
        self._phase = rng.uniform(0.0, 2.0 * np.pi, (m, 2))
        self._rate = rng.uniform(0.5, 1.5, (m, 2))

    def nodes_at(self, t: float) -> FloatArray:
        """(M, 2) node positions at time ``t`` (s)."""
        amp = np.broadcast_to(np.asarray(self.amplitude, dtype=np.float64), (2,))
        return self._base + amp * np.sin(self.speed * self._rate * float(t) + self._phase)

    def apply(self, path: Path, t: float) -> None:
        """Move ``path``'s nodes to their positions at time ``t`` (:meth:`Path.drift_nodes`:
        followers keep their place)."""
        path.drift_nodes(self.nodes_at(t))

    @property
    def base_nodes(self) -> FloatArray:
        """(M, 2) the validated rest positions."""
        return self._base

    @property
    def amplitude_xy(self) -> FloatArray:
        """(2,) the amplitude per axis (px)."""
        return np.broadcast_to(np.asarray(self.amplitude, dtype=np.float64), (2,))

    @property
    def rates(self) -> FloatArray:
        """(M, 2) each node's rate per axis (times :attr:`speed`)."""
        return self._rate

    @property
    def phases(self) -> FloatArray:
        """(M, 2) each node's phase per axis (rad)."""
        return self._phase
