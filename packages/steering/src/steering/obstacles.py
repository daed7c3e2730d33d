"""Buckland's detection-box obstacle avoidance (:class:`AvoidObstacles`), compiled per agent:
each agent's box reads only the cells of the obstacles' grid it overlaps. The obstacles
themselves (:class:`Obstacles`, :func:`candidate_pairs`) are :mod:`steering.obstacle_set`'s,
re-exported here.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from ._checks import choice, instance, non_negative, positive
from ._grid import Grid, build_grid, cell_span
from ._jit import njit, njit_leaf, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import Debug
from .checked import checks
from .composite import AgentCols, RowPart, row_function
from .debug import AvoidDebug, write
from .obstacle_set import Obstacles, candidate_pairs
from .records import Held, settings
from .vec import EPSILON, FloatArray

__all__ = ["AvoidObstacles", "Obstacles", "RockIndex", "candidate_pairs"]

IntArray = NDArray[np.intp]


class RockIndex(NamedTuple):
    """The obstacles and their grid as one agent's box search reads them (a NamedTuple: the
    same record compiled and with ``NUMBA_DISABLE_JIT=1``)."""

    #: (M, 2) centers and (M,) radii.
    centers: FloatArray
    radii: FloatArray
    #: The grid (:meth:`Obstacles.index`): each cell's run into ``items``, its origin,
    #: inverse cell size and cell counts.
    start: IntArray
    items: IntArray
    x0: float
    y0: float
    inv: float
    nx: int
    ny: int
    #: How far a center may have moved since the grid was built, and the largest radius.
    pad: float
    rmax: float


#: Debug columns of the compiled loop: rock, box length, local force (2), side, intersection,
#: then the box's four corners (8).
_REC = 14


@njit
def _box_length(vx: float, vy: float, max_speed: float, min_box_length: float) -> float:
    """Detection box length: ``min_box_length * (1 + speed / max_speed)``, the ratio clamped
    to [0, 1] and 0 for an agent with no max speed."""
    ratio = 0.0
    if max_speed > EPSILON:
        ratio = hypot(vx, vy) / max_speed
        if not ratio >= 0.0:
            ratio = 0.0
        elif ratio > 1.0:
            ratio = 1.0
    return min_box_length * (1.0 + ratio)


@njit
def _heading(hx: float, hy: float) -> tuple[float, float]:
    """The unit heading, (1, 0) for an agent with none."""
    ux, uy, ok = kern.unit(hx, hy)
    if ok:
        return ux, uy
    return 1.0, 0.0


@rows_kernel
def _box_length_rows(
    vel: FloatArray, max_speed: FloatArray, min_box_length: float, out: FloatArray
) -> None:
    for i in prange(vel.shape[0]):
        out[i] = _box_length(vel[i, 0], vel[i, 1], max_speed[i], min_box_length)


class AvoidRecord(NamedTuple):
    """:class:`AvoidObstacles`' parameters, rocks and agents' memory for one call."""

    side_col: FloatArray
    """(N,) memory: the side each agent last passed a rock on (+1 left, -1 right, 0)."""
    timer_col: FloatArray
    """(N,) memory: how long that side is kept, s."""
    centers: FloatArray
    """(M, 2) the rocks' centres."""
    radii: FloatArray
    """(M,) their radii."""
    start: IntArray
    """The rocks' grid: bucket starts."""
    items: IntArray
    """The rocks in bucket order."""
    x0: float
    """The grid's origin x."""
    y0: float
    """Its origin y."""
    inv: float
    """Its inverse cell size."""
    nx: int
    """Its cells across."""
    ny: int
    """Its cells up."""
    pad: float
    """How far a rock may reach past its cell."""
    rmax: float
    """The largest rock radius."""
    min_box_length: float
    """px."""
    braking_weight: float
    """Buckland's braking weight."""
    force_scale: float
    """The force per px of overlap."""
    side_memory: float
    """s."""
    margin: float
    """px added to the agent's radius."""
    tie: float
    """A dead-ahead rock's side: +1 left, -1 right, 0 by parity."""
    dt: float
    """The step, s."""
    rec: FloatArray
    """(N, 14) debug rows when asked, else (0, 14)."""


@row_function
def avoid_agent(i: int, a: AgentCols, r: AvoidRecord) -> tuple[float, float]:
    """Agent ``i``'s avoidance (see :class:`AvoidObstacles`): box, closest rock, side (with
    memory), force, debug row."""
    px, py = a.pos[i, 0], a.pos[i, 1]
    hx, hy = _heading(a.heading[i, 0], a.heading[i, 1])
    box_len = _box_length(a.vel[i, 0], a.vel[i, 1], a.max_speed[i], r.min_box_length)
    rad = a.radius[i]
    half_w = (rad if rad > 0.0 else 0.0) + r.margin
    rocks = RockIndex(
        r.centers, r.radii, r.start, r.items, r.x0, r.y0, r.inv, r.nx, r.ny, r.pad, r.rmax
    )
    bj, cx, cy, r_exp, ip, gap = _closest_rock(px, py, hx, hy, half_w, box_len, rocks)
    side_mem = _sign(r.side_col[i])
    timer = r.timer_col[i] - (r.dt if r.dt > 0.0 else 0.0)
    if not timer > 0.0:
        timer = 0.0
    side = 0.0
    lx = ly = 0.0
    if bj >= 0:
        # The remembered side while its timer runs, else away from the center; a rock
        # dead ahead goes to the tie-break.
        if r.timer_col[i] > 0.0:
            side = side_mem
        if side == 0.0 and abs(cy) > 1e-9 * max(r_exp, 1.0):
            side = -_sign(cy)
        if side == 0.0:
            side = r.tie if r.tie != 0.0 else (1.0 if i % 2 == 0 else -1.0)
        multiplier = 1.0 + (box_len - min(gap, box_len)) / box_len
        lateral = side * (r_exp + side * cy) * multiplier
        braking = (r_exp - cx) * r.braking_weight
        lx, ly = kern.truncate(braking * r.force_scale, lateral * r.force_scale, a.max_force[i])
        # Back to world space: heading * braking + left * lateral (a rotation: the
        # truncation holds).
        fo_x = hx * lx - hy * ly
        fo_y = hx * ly + hy * lx
        r.side_col[i] = side
        r.timer_col[i] = r.side_memory
    else:
        fo_x = 0.0
        fo_y = 0.0
        r.side_col[i] = side_mem if timer > 0.0 else 0.0
        r.timer_col[i] = timer
    if r.rec.shape[0] > 0:
        r.rec[i, 0] = bj
        r.rec[i, 1] = box_len
        r.rec[i, 2] = lx
        r.rec[i, 3] = ly
        r.rec[i, 4] = side
        r.rec[i, 5] = ip if bj >= 0 else -1.0
        # Box corners: rear right, front right, front left, rear left.
        sx, sy = -hy * half_w, hx * half_w
        fx, fy = px + hx * box_len, py + hy * box_len
        r.rec[i, 6], r.rec[i, 7] = px - sx, py - sy
        r.rec[i, 8], r.rec[i, 9] = fx - sx, fy - sy
        r.rec[i, 10], r.rec[i, 11] = fx + sx, fy + sy
        r.rec[i, 12], r.rec[i, 13] = px + sx, py + sy
    return fo_x, fo_y


@row_function
def avoid_row(i: int, a: AgentCols, r: AvoidRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s avoidance force in a composite."""
    return avoid_agent(i, a, r)


@dataclass
class AvoidObstacles(RowPart):
    """Steer around circular obstacles ahead: Buckland's detection box, compiled per agent.

    Each agent sweeps a box ahead along its heading, ``L = min_box_length * (1 + speed /
    max_speed)`` long and as wide on each side as its radius plus ``margin``. In the agent's
    local space (x along the heading, y to its left) obstacles whose center is behind (x < 0)
    are ignored; an obstacle hits the box when its radius expanded by the box half-width, R,
    covers the x axis (``|cy| < R``) within the box length. The agent reacts to the hit whose
    expanded circle crosses the x axis closest (``x = cx - sqrt(R^2 - cy^2)``, or ``cx + sqrt``
    when that is not positive: the seed's line-circle test), with, in local space,

    * lateral ``side * (R + side * cy) * multiplier``: on the natural side (``side =
      -sign(cy)``, away from the center) that is the seed's "expanded radius minus local y",
      the sideways distance still needed to clear; on the far side it is ``R + |cy|``;
    * ``multiplier = 1 + (L - gap) / L`` with ``gap`` the distance to the closest
      intersection (the seed's DistToCIB, 0 once overlapping), so 1 at the box end and 2 at
      contact. The seed uses the center's local x instead, which goes negative for a rock
      larger than the box: the agent then parked in front of it (measured), hence the change;
    * braking ``(R - cx) * braking_weight`` along x (the seed's, with the expanded radius);

    (Buckland's book uses ``1 + ...`` and a braking weight of 0.2, the defaults here; the C#
    port in the seed text uses ``1.5 + ...`` and 0.6.)

    both times ``force_scale`` (1/s^2): the seed's forces are lengths in px, and Buckland
    scales them by a large weight so that they saturate; with the default 100/s^2 a dead-ahead
    rock gives some 2,000 px/s^2 at first sight, above the 360-1,080 px/s^2 max forces of this
    game, so the direction (lateral against braking) is what the formula decides. The force is
    truncated to max force and turned back to world space (``heading * fx + left * fy``).

    Better than the seed: an agent keeps the side it chose (state ``"avoid.side"``, +1 left,
    -1 right) while it keeps reacting and for ``side_memory`` seconds after (``"avoid.timer"``),
    so two rocks competing for the closest place cannot flip it left-right-left (the jiggle) or
    squeeze it into a gap too narrow to pass; and a rock dead ahead (``cy == 0``), where the
    seed's sign is arbitrary, is passed on a fixed side (``tie_break``) kept to the end.

    Trade-offs and failures: with the memory, the next rock met within ``side_memory`` is
    passed on the same side even when the other would be shorter (``side_memory=0`` restores
    the seed's per-step choice). Only the closest rock counts, so a dense cluster can still
    squeeze an agent; rocks whose center is behind it are ignored even when overlapping (the
    physics resolves those). A box shorter than the distance needed to turn (fast, weak agents)
    reacts too late: raise ``min_box_length``. Braking grows with the distance to the rock, as
    in the seed, so agents slow down when they first see one. Circles only, no walls. Calling
    the behaviour advances the memory timer by ``dt``: call it once per step.

    Attributes:
        obstacles: the shared obstacle set.
        min_box_length: detection box length at rest, px; doubled at max speed.
        braking_weight: weight of the braking (along-heading) component.
        force_scale: 1/s^2, turns the seed's px-valued force into px/s^2.
        side_memory: seconds an agent keeps its chosen side after its last reaction.
        margin: clearance, px, added to the box half-width and so to every expanded radius;
            without it agents settle exactly tangent to the rock, since the lateral force
            vanishes there.
        tie_break: side for a dead-ahead rock with no remembered side: "left" (+1), "right"
            (-1), or "parity" (even agent index left, odd right, so a crowd splits).
    """

    ROW = avoid_row
    ROW_RECORD = AvoidRecord

    obstacles: Obstacles
    min_box_length: float = 50.0
    braking_weight: float = 0.2
    force_scale: float = 100.0
    side_memory: float = 0.5
    margin: float = 3.0
    tie_break: Literal["left", "right", "parity"] = "parity"

    CHECKS = checks(
        "AvoidObstacles",
        obstacles=functools.partial(instance, cls=Obstacles),
        tie_break=functools.partial(choice, options=("left", "right", "parity")),
        min_box_length=positive,
        braking_weight=non_negative,
        force_scale=non_negative,
        side_memory=non_negative,
        margin=non_negative,
    )

    def box_lengths(self, agents: AgentGroup) -> FloatArray:
        """(N,) detection box lengths: ``min_box_length * (1 + speed / max_speed)``."""
        out = np.empty(agents.n)
        _box_length_rows(agents.n)(agents.vel, agents.max_speed, self.min_box_length, out)
        return out

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> AvoidRecord:
        """This call's record.

        Debug output (:class:`~steering.debug.AvoidDebug`): the box corners (rear right,
        front right, front left, rear left), the rock reacted to or -1, the box length, the
        force in local space (braking, lateral) after truncation, the side used (0: none) and
        the seed's closest intersection x, px ahead (-1: none).
        """
        if debug:
            return self._record(agents, dt, np.full((agents.n, _REC), np.nan))
        # Without debug output the last record is kept while the group's columns, the rocks'
        # arrays and grid, how far they moved and this behaviour's settings are the same.
        obs = self.obstacles
        grid, pad, rmax = obs.index() if len(obs) else (None, 0.0, 0.0)
        if pad > 0.0:
            # Rocks that moved: queries widen by the most they may move before the grid is
            # rebuilt, so that the record holds while they move within it (a wider search
            # finds the same rock: each is tested exactly).
            pad = obs.shift_bound()
        state = agents.state
        stamp = (
            agents,
            agents.pos,
            agents.vel,
            agents.heading,
            agents.max_speed,
            agents.max_force,
            agents.radius,
            state.get("avoid.side"),
            state.get("avoid.timer"),
            obs.centers,
            obs.radii,
            grid,
            *settings(self),
        )
        held = self.__dict__.get("_held")
        if held is None:
            held = self.__dict__["_held"] = Held()
        record = held.get(stamp, dt)
        if record is not None:
            if record.pad == pad and record.rmax == rmax:
                return record
            # The rocks moved within their grid's slack: only how far, and the largest radius.
            return held.put(stamp, dt, record._replace(pad=pad, rmax=rmax))
        record = self._record(agents, dt, _NO_REC)
        state = agents.state
        stamp = (*stamp[:7], state.get("avoid.side"), state.get("avoid.timer"), *stamp[9:])
        return held.put(stamp, dt, record)

    def kept(self, agents: AgentGroup, record: AvoidRecord) -> bool:
        """The record holds while the rocks are the same arrays and their grid, how far they
        moved and the largest radius are the same (:meth:`Obstacles.index`)."""
        obs = self.obstacles
        if record.centers is not obs.centers or record.radii is not obs.radii:
            return False
        if not len(obs):  # nothing to avoid
            return True
        grid, pad, rmax = obs.index()
        if pad > 0.0:
            pad = obs.shift_bound()
        return grid.start is record.start and pad == record.pad and rmax == record.rmax

    def report(self, agents: AgentGroup, record: AvoidRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.AvoidDebug`."""
        rec = record.rec
        n = rec.shape[0]
        out = AvoidDebug(
            box=rec[:, 6:].reshape(n, 4, 2),
            obstacle=np.where(np.isnan(rec[:, 0]), -1, rec[:, 0]).astype(np.intp),
            length=rec[:, 1].copy(),
            local=rec[:, 2:4].copy(),
            side=rec[:, 4].copy(),
            intersection=rec[:, 5].copy(),
        )
        write(out, debug)

    def _record(self, agents: AgentGroup, dt: float, rec: FloatArray) -> AvoidRecord:
        """A record made afresh, with debug rows ``rec``; the memory columns are made here
        when the group has none."""
        obs = self.obstacles
        # Fill 0.0: no side remembered, no time left (new agents and sub-groups start so).
        side_col = agents.column("avoid.side", 0.0)
        timer_col = agents.column("avoid.timer", 0.0)
        if len(obs):
            grid, pad, rmax = obs.index()
            if pad > 0.0:  # as in bind: the most the rocks may move within the grid
                pad = obs.shift_bound()
        else:
            grid, pad, rmax = _no_grid(), 0.0, 0.0
        return AvoidRecord(
            side_col=side_col,
            timer_col=timer_col,
            centers=obs.centers,
            radii=obs.radii,
            start=grid.start,
            items=grid.items,
            x0=grid.x0,
            y0=grid.y0,
            inv=grid.inv,
            nx=grid.nx,
            ny=grid.ny,
            pad=pad,
            rmax=rmax,
            min_box_length=self.min_box_length,
            braking_weight=self.braking_weight,
            force_scale=self.force_scale,
            side_memory=self.side_memory,
            margin=self.margin,
            tie=_TIE[self.tie_break],
            dt=float(dt),
            rec=rec,
        )


_NO_REC = np.zeros((0, _REC))

#: Side for a dead-ahead rock with no remembered side: +1 left, -1 right, 0 by parity.
_TIE = {"left": 1.0, "right": -1.0, "parity": 0.0}


#: The grid of no obstacle at all (one empty cell).
@functools.cache
def _no_grid() -> Grid:
    """The grid of no obstacle, made on first use (not at import: it runs a kernel)."""
    return build_grid(np.zeros((0, 2)))


@njit_leaf
def _closest_rock(
    px: float,
    py: float,
    hx: float,
    hy: float,
    half_w: float,
    box_len: float,
    rocks: RockIndex,
) -> tuple[int, float, float, float, float, float]:
    """Steps A-D of the seed for one agent: the rock whose expanded circle crosses the box's
    axis closest (ties: the lowest index), or -1, and its local x, local y, expanded radius,
    intersection x and gap (distance to the intersection, 0 when overlapping)."""
    centers, radii, start, items = rocks.centers, rocks.radii, rocks.start, rocks.items
    x0, y0, inv, nx, ny, pad, rmax = (
        rocks.x0, rocks.y0, rocks.inv, rocks.nx, rocks.ny, rocks.pad, rocks.rmax
    )  # fmt: skip
    # Every rock that can hit has its center in the local rectangle x in [0, box + R],
    # |y| < R, with R the largest expanded radius; its grid snapshot is within `pad` of that.
    wide = rmax + half_w + pad
    back, front = -pad, box_len + rmax + half_w + pad
    slack = 1e-9 * (abs(px) + abs(py) + front + wide) + 1e-9
    ahx, ahy = abs(hx), abs(hy)
    ax, bx = cell_span(
        px + min(hx * back, hx * front) - ahy * wide - slack,
        px + max(hx * back, hx * front) + ahy * wide + slack,
        x0,
        inv,
        nx,
    )
    ay, by = cell_span(
        py + min(hy * back, hy * front) - ahx * wide - slack,
        py + max(hy * back, hy * front) + ahx * wide + slack,
        y0,
        inv,
        ny,
    )
    best = math.inf
    bj = -1
    bcx = bcy = br = bgap = 0.0
    for gy in range(ay, by + 1):
        for gx in range(ax, bx + 1):
            c = gy * nx + gx
            for s in range(start[c], start[c + 1]):
                j = items[s]
                # Into local space (x along the heading, y to its left).
                dx = centers[j, 0] - px
                dy = centers[j, 1] - py
                cx = dx * hx + dy * hy
                cy = dy * hx - dx * hy
                r_exp = radii[j] + half_w
                s2 = r_exp * r_exp - cy * cy
                if not (cx >= 0.0 and s2 > 0.0):
                    continue  # behind, or beside the box
                root = math.sqrt(s2)
                near = cx - root
                if not near <= box_len:
                    continue  # beyond the box end
                ip = cx + root if near <= 0.0 else near
                if ip < best or (ip == best and j < bj):
                    best, bj = ip, j
                    bcx, bcy, br = cx, cy, r_exp
                    bgap = near if near > 0.0 else 0.0
    return bj, bcx, bcy, br, best, bgap


@njit
def _sign(x: float) -> float:
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return 0.0
