"""Buckland's hide: get a rock between yourself and a hunter, else evade it.

The behaviour (:class:`Hide`), the hiding spots behind each rock and the search for an agent's
spot (every usable spot weighed, or, with many, a grid searched outward from the agent), and
its compiled loops. It arrives with :func:`steering.basic.arrive` and evades with
:func:`steering.basic.evade`, the kernels of :class:`~steering.Arrive` and
:class:`~steering.Evade`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kern as kern
from ._checks import fast_points, finite, non_negative, point_array, size, time_step
from ._jit import njit_leaf, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import ARRIVE_BRAKE, DEFAULT_GAIN, Debug
from .basic import arrive, evade
from .checked import ArraySettings, Checked, checks
from .debug import HideDebug, write
from .grid import BUF_COLS, F_ICW, build_grid, near_point
from .hiding_spots import (
    SpotGrid,
    better_spot,
    box_distance,
    hunter_offset,
    spot_cell,
    spots_rows,
    square_share,
    weigh_every,
)
from .obstacle_set import Obstacles
from .vec import FloatArray, as_complex, as_rows

__all__ = ["Hide"]

#: Evade's prediction limit (the default of :class:`~steering.Evade`).
_EVADE_PREDICTION = 1.5
#: Per-agent hunters are first reduced to the distinct ones when computing every agent's own
#: spots would cost more than this many (hunter, rock, rock) tests.
_DEDUP_WORK = 1 << 16
#: From how many rocks and agents (one hunter for all) the spots go into a grid that each agent
#: searches outward from itself instead of weighing every spot: measured at 10,000 agents and
#: 200 rocks (steering.bench's scene), 5.6 ms a call against 2.7-3.0 ms; a scan of a few dozen
#: spots costs about what building the grid does.
_GRID_SPOTS = 32
_GRID_AGENTS = 64
#: Agents per task of the compiled loop.
_CHUNK = 256
#: The share of the spots from which an agent's search weighs every spot instead of the grid's
#: (a disc's candidates cost several times a plain scan's: measured, a search that went on to
#: the whole grid cost 2-6x the whole scan).
_WHOLE_SHARE = 0.25
_NO_ORDER = np.zeros(0, dtype=np.intp)


def obstacle_set(name: str, value: Any) -> Obstacles:
    """A :class:`~steering.Obstacles`; TypeError otherwise."""
    if not isinstance(value, Obstacles):
        raise TypeError(
            f"{name}: expected steering.Obstacles, got {type(value).__name__} {value!r:.40}"
        )
    return value


@dataclass(eq=False)
class Hide(Checked, ArraySettings):
    """Buckland's hide: get a rock between yourself and a hunter, else evade it.

    Each rock's hiding spot lies on the far side from the hunter, ``distance_from_boundary``
    beyond its edge: ``center + unit(center - hunter) * (radius + distance_from_boundary)``.
    A spot is usable when the hunter is outside its rock, it is not inside another rock, and
    the hunter is no closer to it than the agent is (the hunter would get there first).
    Among usable spots an agent prefers those it reaches without passing closer to the hunter
    than it is now (by more than its radius), nearest first; only when there is none does it
    take the nearest usable spot. It arrives there (:class:`Arrive`), or, once deeper in the
    rock's shadow than the spot (a crowd hiding at one rock pushes some further back), at the
    point of the shadow's axis level with it: better than the seed, whose crowded hiders are
    pushed sideways out of the shadow. It evades the hunter
    (:class:`Evade`) when no spot is usable or there is no rock, and does nothing while the
    hunter is farther than ``panic_distance``.

    ``hunter`` and ``hunter_velocity`` are one point for all or one per agent.

    Fails where the geometry lies: the straight path to a spot may cross a rock (combine with
    :class:`~steering.AvoidObstacles`), and a spot may be outside the level (combine with
    :class:`~steering.Contain`). Stateless, so an agent halfway between two equally near
    spots can switch between them as the hunter moves. Costs, in compiled loops, M x M
    (rock x rock) tests per distinct hunter for the spots, then N x M (agent x spot) for the
    choice; with one hunter for all and some dozens of rocks or more, the spots go into a grid
    that each agent searches outward from itself until the nearest safe spot is known (the
    same choice, some 2x faster at 10,000 agents and 200 rocks). Fine for tens to a few
    hundred rocks (a few thousand would want a grid over the rocks for the spots, too).

    Debug: ``"hide.spot"`` (N, 2) the chosen spot (NaN when evading or calm), ``"hide.spots"``
    (M, 2) every rock's spot for the hunter (the first agent's hunter when there are several;
    NaN where the hunter is inside the rock).

    Raises:
        TypeError: for ``obstacles`` that are not :class:`~steering.Obstacles`, or (at the
            call) a hunter that is not points.
        ValueError: for a NaN or negative distance, panic distance or slowing radius, or (at
            the call) a hunter or velocity that is not finite points of the right shape.
    """

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            hunter: ArrayLike,
            obstacles: Obstacles,
            hunter_velocity: ArrayLike = ...,
            distance_from_boundary: float = ...,
            panic_distance: float = ...,
            gain: float = ...,
            slowing_radius: float = ...,
        ) -> None: ...

        @property
        def hunter(self) -> FloatArray: ...
        @hunter.setter
        def hunter(self, value: ArrayLike) -> None: ...

        @property
        def hunter_velocity(self) -> FloatArray: ...
        @hunter_velocity.setter
        def hunter_velocity(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        hunter: ArrayLike
    obstacles: Obstacles
    if not TYPE_CHECKING:
        hunter_velocity: ArrayLike = (0.0, 0.0)
    distance_from_boundary: float = 30.0
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    CHECKS = checks(
        "Hide",
        hunter=point_array,
        hunter_velocity=point_array,
        obstacles=obstacle_set,
        distance_from_boundary=finite,
        panic_distance=size,
        gain=finite,
        slowing_radius=non_negative,
    )

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward each agent's hiding spot (or away from the hunter)."""
        time_step("Hide", dt)
        n = agents.n
        hunter = fast_points("Hide.hunter", self.hunter, n)
        hunter_vel = fast_points("Hide.hunter_velocity", self.hunter_velocity, n)
        obs = self.obstacles
        m = len(obs)
        if hunter.shape[0] == 1:
            hunters = hunter
            which = np.zeros(n, dtype=np.intp)
        elif n * m * m <= _DEDUP_WORK:
            hunters = hunter
            which = np.arange(n, dtype=np.intp)
        else:
            unique, inverse = np.unique(as_complex(hunter), return_inverse=True)
            hunters = as_rows(unique)
            which = inverse.reshape(-1).astype(np.intp)
        h = hunters.shape[0]
        spots = np.empty((h, m, 2))
        defined = np.empty((h, m), dtype=np.bool_)
        usable = np.empty((h, m), dtype=np.bool_)
        spots_rows(h)(
            hunters, obs.centers, obs.radii, self.distance_from_boundary, spots, defined, usable
        )
        spot = np.empty((n, 2))
        out = np.empty((n, 2))
        evading = np.empty(n, dtype=np.bool_)
        order = np.flatnonzero(usable[0]) if h == 1 else _NO_ORDER
        if m >= _GRID_SPOTS and n >= _GRID_AGENTS and order.size:
            points = np.ascontiguousarray(spots[0, order])
            grid = build_grid(points, spot_cell(points), None)
            _hide_grid_rows(n)(
                agents.pos,
                agents.vel,
                agents.radius,
                agents.max_speed,
                agents.max_force,
                hunter,
                spots,
                usable,
                SpotGrid(order, grid.ints, grid.floats, points),
                self.panic_distance,
                self.gain,
                self.slowing_radius,
                evading,
                spot,
                out,
            )
        else:
            _hide_rows(n)(
                agents.pos,
                agents.vel,
                agents.radius,
                agents.max_speed,
                agents.max_force,
                hunter,
                which,
                spots,
                usable,
                self.panic_distance,
                self.gain,
                self.slowing_radius,
                evading,
                spot,
                out,
            )
        _evade_rest(n)(
            agents.pos,
            agents.vel,
            agents.heading,
            agents.max_speed,
            agents.max_force,
            hunter,
            hunter_vel,
            evading,
            self.gain,
            out,
        )
        if debug is not None:
            first = int(which[0]) if n else 0
            every = (
                np.where(defined[first][:, None], spots[first], np.nan)
                if h
                else np.full((m, 2), np.nan)
            )
            write(HideDebug(spot, every), debug)
        return out


@njit_leaf
def _hide_force(
    pos: FloatArray,
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    hunter: FloatArray,
    spots: NDArray[np.float64],
    i: int,
    t: int,
    h: int,
    pick: int,
    gain: float,
    slowing_radius: float,
    spot: FloatArray,
    out: FloatArray,
) -> bool:
    """Agent ``i``'s force (``out``) and spot (``spot``): arrive at hunter ``h``'s spot
    ``pick``. Returns whether there is none (-1), when the agent is to evade instead
    (:func:`_evade_rest`)."""
    if pick < 0:
        return True
    px, py = pos[i, 0], pos[i, 1]
    hx, hy = hunter[t, 0], hunter[t, 1]
    sx, sy = spots[h, pick, 0], spots[h, pick, 1]
    spot[i, 0] = sx
    spot[i, 1] = sy
    # The shadow goes on past the spot: an agent already deeper in it (pushed there by a
    # crowd at the same rock) keeps its depth and only closes in on the axis.
    ux, uy, _ = kern.unit(sx - hx, sy - hy)
    depth = max((px - sx) * ux + (py - sy) * uy, 0.0)
    out[i, 0], out[i, 1] = arrive(
        px,
        py,
        vel[i, 0],
        vel[i, 1],
        sx + ux * depth,
        sy + uy * depth,
        max_speed[i],
        max_force[i],
        slowing_radius,
        gain,
        ARRIVE_BRAKE,
    )
    return False


@rows_kernel
def _evade_rest(
    pos: FloatArray,
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    hunter: FloatArray,
    hunter_vel: FloatArray,
    evading: NDArray[np.bool_],
    gain: float,
    out: FloatArray,
) -> None:
    """The agents with no spot (``evading``) evade their hunters (forces into ``out``): a
    second pass, so that the evade's code stays out of the loop that weighs the spots (with
    it there that loop ran some 30% slower: 10,000 agents 2.4-2.6 against 1.65-1.95 ms,
    measured side by side)."""
    ts = 0 if hunter.shape[0] == 1 else 1
    vs = 0 if hunter_vel.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        if not evading[i]:
            continue
        t, v = i * ts, i * vs
        out[i, 0], out[i, 1], _, _ = evade(
            pos[i, 0],
            pos[i, 1],
            vel[i, 0],
            vel[i, 1],
            heading[i, 0],
            heading[i, 1],
            hunter[t, 0],
            hunter[t, 1],
            hunter_vel[v, 0],
            hunter_vel[v, 1],
            max_speed[i],
            max_force[i],
            _EVADE_PREDICTION,
            math.inf,
            gain,
        )


@njit_leaf
def _calm(
    pos: FloatArray,
    hunter: FloatArray,
    i: int,
    t: int,
    panic: float,
    spot: FloatArray,
    out: FloatArray,
) -> bool:
    """No spot for agent ``i`` yet; whether its hunter is beyond ``panic`` (zero force)."""
    spot[i, 0] = math.nan
    spot[i, 1] = math.nan
    if hypot(pos[i, 0] - hunter[t, 0], pos[i, 1] - hunter[t, 1]) > panic:
        out[i, 0] = 0.0
        out[i, 1] = 0.0
        return True
    return False


@rows_kernel
def _hide_rows(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    hunter: FloatArray,
    which: NDArray[np.intp],
    spots: NDArray[np.float64],
    usable: NDArray[np.bool_],
    panic: float,
    gain: float,
    slowing_radius: float,
    evading: NDArray[np.bool_],
    spot: FloatArray,
    out: FloatArray,
) -> None:
    """Each agent's hiding force, every usable spot of its hunter weighed (``evading``:
    the agents left to :func:`_evade_rest`)."""
    ts = 0 if hunter.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        t = i * ts
        evading[i] = False
        if _calm(pos, hunter, i, t, panic, spot, out):
            continue
        h = which[i]
        qx, qy, qq, allow = hunter_offset(pos, radius, hunter, i, t)
        px, py = pos[i, 0], pos[i, 1]
        best_any, best_safe = weigh_every(spots, usable, h, px, py, qx, qy, qq, allow)
        pick = best_safe if best_safe >= 0 else best_any
        evading[i] = _hide_force(
            pos, vel, max_speed, max_force, hunter, spots, i, t, h, pick, gain,
            slowing_radius, spot, out,
        )  # fmt: skip


@rows_kernel
def _hide_grid_rows(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    hunter: FloatArray,
    spots: NDArray[np.float64],
    usable: NDArray[np.bool_],
    grid: SpotGrid,
    panic: float,
    gain: float,
    slowing_radius: float,
    evading: NDArray[np.bool_],
    spot: FloatArray,
    out: FloatArray,
) -> None:
    """:func:`_hide_rows` for one hunter whose usable spots are in a grid (``grid``): each
    agent searches discs from one cell wide (or from the grid's box, outside it), doubling,
    until one holds a safe spot (every spot nearer than it was weighed). An agent whose disc
    would gather, or has gathered, :data:`_WHOLE_SHARE` of the spots without a safe one, or
    whose position is not finite, weighs every spot instead. Either way the same choice as
    weighing every spot."""
    n = pos.shape[0]
    order, ints, floats, grid_pos = grid.order, grid.ints, grid.floats, grid.points
    g = order.shape[0]
    for c in prange((n + _CHUNK - 1) // _CHUNK):
        buf = np.empty((64, BUF_COLS))
        for i in range(c * _CHUNK, min(n, (c + 1) * _CHUNK)):
            evading[i] = False
            if _calm(pos, hunter, i, 0, panic, spot, out):
                continue
            qx, qy, qq, allow = hunter_offset(pos, radius, hunter, i, 0)
            best_any, best_safe = -1, -1
            any_d2, safe_d2 = math.inf, math.inf
            px, py = pos[i, 0], pos[i, 1]
            # From the cell's width, or from the grid's box for an agent outside it.
            r = max(1.0 / floats[F_ICW], box_distance(floats, px, py))
            whole = not (math.isfinite(px) and math.isfinite(py))
            while not whole:
                if not square_share(floats, px, py, r) < _WHOLE_SHARE:
                    # The disc would gather a good part of the spots: weigh them all in index
                    # order instead, without the grid's bookkeeping.
                    whole = True
                    break
                k = near_point(ints, floats, grid_pos, px, py, -1, r, buf)
                if k > buf.shape[0]:  # more than the buffer holds: grow it, ask again
                    buf = np.empty((2 * k, BUF_COLS))
                    k = near_point(ints, floats, grid_pos, px, py, -1, r, buf)
                for q in range(k):
                    best_any, any_d2, best_safe, safe_d2 = better_spot(
                        spots,
                        0,
                        order[int(buf[q, 0])],
                        px,
                        py,
                        qx,
                        qy,
                        qq,
                        allow,
                        best_any,
                        any_d2,
                        best_safe,
                        safe_d2,
                        True,
                    )
                if best_safe >= 0:
                    break
                # No safe spot yet, and the disc held a good part of the spots: weigh every
                # spot in index order instead (cheaper than the grid from there).
                whole = k >= _WHOLE_SHARE * g
                r *= 2.0
            if whole:
                best_any, best_safe = weigh_every(spots, usable, 0, px, py, qx, qy, qq, allow)
            pick = best_safe if best_safe >= 0 else best_any
            evading[i] = _hide_force(
                pos, vel, max_speed, max_force, hunter, spots, i, 0, 0, pick, gain,
                slowing_radius, spot, out,
            )  # fmt: skip
