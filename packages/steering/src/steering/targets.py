"""Behaviours about other movers: hide from a hunter, interpose, offset pursuit and formations,
and velocity matching.

Each behaviour's maths is a compiled per-agent kernel; they arrive with
:func:`steering.basic.arrive` and evade with :func:`steering.basic.evade`, the kernels of
:class:`~steering.Arrive` and :class:`~steering.Evade`.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kern as kern
from ._checks import fast_points, finite, non_negative
from ._jit import njit_inline, njit_leaf, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .basic import arrive, evade
from .debug import HideDebug, InterposeDebug, MatchDebug, OffsetDebug, write
from .grid import (
    BUF_COLS,
    F_ICH,
    F_ICW,
    F_NX,
    F_NY,
    F_X0,
    F_Y0,
    build_grid,
    near_point,
)
from .obstacles import Obstacles
from .vec import EPSILON, FloatArray, as_complex, as_rows

__all__ = ["Hide", "Interpose", "MatchVelocity", "OffsetPursuit", "formation_offsets"]

_KINDS = ("circle", "column", "line", "wedge")

#: Arrive's brake fraction (the default of :class:`~steering.Arrive`).
_BRAKE = 0.8
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


@dataclass
class Hide:
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

    hunter: ArrayLike
    obstacles: Obstacles
    hunter_velocity: ArrayLike = (0.0, 0.0)
    distance_from_boundary: float = 30.0
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    def __post_init__(self) -> None:
        if not isinstance(self.obstacles, Obstacles):
            raise TypeError(
                f"Hide.obstacles: expected steering.Obstacles, got "
                f"{type(self.obstacles).__name__} {self.obstacles!r:.40}"
            )
        self.distance_from_boundary = finite(
            "Hide.distance_from_boundary", self.distance_from_boundary
        )
        self.panic_distance = non_negative(
            "Hide.panic_distance", self.panic_distance, allow_inf=True
        )
        self.gain = finite("Hide.gain", self.gain)
        self.slowing_radius = non_negative("Hide.slowing_radius", self.slowing_radius)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward each agent's hiding spot (or away from the hunter)."""
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
        _spots_rows(h)(
            hunters, obs.centers, obs.radii, self.distance_from_boundary, spots, defined, usable
        )
        spot = np.empty((n, 2))
        out = np.empty((n, 2))
        evading = np.empty(n, dtype=np.bool_)
        order = np.flatnonzero(usable[0]) if h == 1 else _NO_ORDER
        if m >= _GRID_SPOTS and n >= _GRID_AGENTS and order.size:
            points = np.ascontiguousarray(spots[0, order])
            grid = build_grid(points, _spot_cell(points), None)
            _hide_grid_rows(n)(
                agents.pos,
                agents.vel,
                agents.radius,
                agents.max_speed,
                agents.max_force,
                hunter,
                spots,
                usable,
                order,
                grid.ints,
                grid.floats,
                points,
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


@rows_kernel
def _spots_rows(
    hunters: FloatArray,
    centers: FloatArray,
    radii: FloatArray,
    distance: float,
    spots: NDArray[np.float64],
    defined: NDArray[np.bool_],
    usable: NDArray[np.bool_],
) -> None:
    """Per hunter, every rock's hiding spot, whether it exists (the hunter outside the rock,
    finite) and whether it is usable (outside every other rock)."""
    m = centers.shape[0]
    for h in prange(hunters.shape[0]):
        hx, hy = hunters[h, 0], hunters[h, 1]
        for j in range(m):
            cx, cy = centers[j, 0], centers[j, 1]
            ax = cx - hx
            ay = cy - hy
            d = hypot(ax, ay)
            sx, sy = cx, cy
            ok = d > radii[j] and d < math.inf
            if ok:
                reach = radii[j] + distance
                sx = cx + ax / d * reach
                sy = cy + ay / d * reach
                ok = math.isfinite(sx) and math.isfinite(sy)
            spots[h, j, 0] = sx
            spots[h, j, 1] = sy
            defined[h, j] = ok
        for j in range(m):
            ok = defined[h, j]
            if ok:
                sx, sy = spots[h, j, 0], spots[h, j, 1]
                for k in range(m):
                    dx = sx - centers[k, 0]
                    dy = sy - centers[k, 1]
                    if k != j and dx * dx + dy * dy < radii[k] * radii[k]:
                        ok = False
                        break
            usable[h, j] = ok


@njit_leaf
def _better_spot(
    spots: NDArray[np.float64],
    h: int,
    j: int,
    px: float,
    py: float,
    qx: float,
    qy: float,
    qq: float,
    allow: float,
    best_any: int,
    any_d2: float,
    best_safe: int,
    safe_d2: float,
    any_order: bool,
) -> tuple[int, float, int, float]:
    """Weigh hunter ``h``'s spot ``j`` for an agent at (px, py), the hunter at offset (qx, qy)
    (``qq`` its square, ``allow`` the slack of the safe test) against the best usable and best
    safe spots so far (-1: none) and their squared distances: nearest first, ties to the lower
    index. Spots weighed in index order need only the first; ``any_order`` (spots weighed in
    any order) also compares indices on a tie. (Written as one test, the tie made the whole
    scan 45% slower: callers pass it as a constant, which the compiler folds away.)"""
    wx = spots[h, j, 0] - px  # agent -> spot
    wy = spots[h, j, 1] - py
    d2 = wx * wx + wy * wy
    wq = wx * qx + wy * qy
    # The hunter is no nearer the spot than the agent: |w - q|^2 >= |w|^2.
    if not (wq + wq <= qq and d2 < math.inf):
        return best_any, any_d2, best_safe, safe_d2
    if d2 < any_d2 or (any_order and d2 == any_d2 and j < best_any):
        best_any, any_d2 = j, d2
    # Along a -> s the squared distance to the hunter bottoms out at
    # qq - tq * (2 wq - tq) / d2 with tq = clip(wq, 0, d2); it must stay above
    # (|q| - slack)^2, written without the division.
    tq = min(max(wq, 0.0), d2)
    if tq * (wq + wq - tq) <= allow * d2 and (
        d2 < safe_d2 or (any_order and d2 == safe_d2 and j < best_safe)
    ):
        best_safe, safe_d2 = j, d2
    return best_any, any_d2, best_safe, safe_d2


@njit_leaf
def _weigh_every(
    spots: NDArray[np.float64],
    usable: NDArray[np.bool_],
    h: int,
    px: float,
    py: float,
    qx: float,
    qy: float,
    qq: float,
    allow: float,
) -> tuple[int, int]:
    """The nearest usable and the nearest safe of hunter ``h``'s spots (-1: none), every
    usable spot weighed in index order (see :func:`_better_spot`)."""
    best_any, best_safe = -1, -1
    any_d2, safe_d2 = math.inf, math.inf
    for j in range(spots.shape[1]):
        if usable[h, j]:
            best_any, any_d2, best_safe, safe_d2 = _better_spot(
                spots, h, j, px, py, qx, qy, qq, allow, best_any, any_d2, best_safe, safe_d2, False
            )
    return best_any, best_safe


@njit_leaf
def _hunter_offset(
    pos: FloatArray, radius: FloatArray, hunter: FloatArray, i: int, t: int
) -> tuple[float, float, float, float]:
    """Agent ``i``'s offset to its hunter (row ``t``), its square, and the slack of the safe
    test: the agent may pass no closer to the hunter than it is now, less its radius."""
    qx = hunter[t, 0] - pos[i, 0]  # agent -> hunter
    qy = hunter[t, 1] - pos[i, 1]
    qq = qx * qx + qy * qy
    near_ = max(math.sqrt(qq) - max(radius[i], 1.0), 0.0)
    return qx, qy, qq, qq - near_ * near_


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
        _BRAKE,
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
        qx, qy, qq, allow = _hunter_offset(pos, radius, hunter, i, t)
        px, py = pos[i, 0], pos[i, 1]
        best_any, best_safe = _weigh_every(spots, usable, h, px, py, qx, qy, qq, allow)
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
    order: NDArray[np.intp],
    ints: NDArray[np.int64],
    floats: FloatArray,
    grid_pos: FloatArray,
    panic: float,
    gain: float,
    slowing_radius: float,
    evading: NDArray[np.bool_],
    spot: FloatArray,
    out: FloatArray,
) -> None:
    """:func:`_hide_rows` for one hunter whose usable spots (``grid_pos``, their indices
    ``order``, ascending) are in a grid: each agent searches discs from one cell wide (or
    from the grid's box, outside it), doubling, until one holds a safe spot (every spot
    nearer than it was weighed). An agent whose disc would gather, or has gathered,
    :data:`_WHOLE_SHARE` of the spots without a safe one, or whose position is not finite,
    weighs every spot instead. Either way the same choice as weighing every spot."""
    n = pos.shape[0]
    g = order.shape[0]
    for c in prange((n + _CHUNK - 1) // _CHUNK):
        buf = np.empty((64, BUF_COLS))
        for i in range(c * _CHUNK, min(n, (c + 1) * _CHUNK)):
            evading[i] = False
            if _calm(pos, hunter, i, 0, panic, spot, out):
                continue
            qx, qy, qq, allow = _hunter_offset(pos, radius, hunter, i, 0)
            best_any, best_safe = -1, -1
            any_d2, safe_d2 = math.inf, math.inf
            px, py = pos[i, 0], pos[i, 1]
            # From the cell's width, or from the grid's box for an agent outside it.
            r = max(1.0 / floats[F_ICW], _box_distance(floats, px, py))
            whole = not (math.isfinite(px) and math.isfinite(py))
            while not whole:
                if not _square_share(floats, px, py, r) < _WHOLE_SHARE:
                    # The disc would gather a good part of the spots: weigh them all in index
                    # order instead, without the grid's bookkeeping.
                    whole = True
                    break
                k = near_point(ints, floats, grid_pos, px, py, -1, r, buf)
                if k > buf.shape[0]:  # more than the buffer holds: grow it, ask again
                    buf = np.empty((2 * k, BUF_COLS))
                    k = near_point(ints, floats, grid_pos, px, py, -1, r, buf)
                for q in range(k):
                    best_any, any_d2, best_safe, safe_d2 = _better_spot(
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
                best_any, best_safe = _weigh_every(spots, usable, 0, px, py, qx, qy, qq, allow)
            pick = best_safe if best_safe >= 0 else best_any
            evading[i] = _hide_force(
                pos, vel, max_speed, max_force, hunter, spots, i, 0, 0, pick, gain,
                slowing_radius, spot, out,
            )  # fmt: skip


def _spot_cell(points: FloatArray) -> float:
    """A grid cell for ``points`` that holds about one of them on average (over their box)."""
    lo = points.min(axis=0)
    hi = points.max(axis=0)
    area = float((hi[0] - lo[0]) * (hi[1] - lo[1]))
    cell = math.sqrt(area / points.shape[0]) if area > 0.0 else 0.0
    return cell if 0.0 < cell < math.inf else 1.0


@njit_leaf
def _box_distance(floats: FloatArray, px: float, py: float) -> float:
    """How far (px, py) is from a grid's box (0 inside it)."""
    x0 = floats[F_X0]
    y0 = floats[F_Y0]
    x1 = x0 + floats[F_NX] / floats[F_ICW]
    y1 = y0 + floats[F_NY] / floats[F_ICH]
    dx = max(x0 - px, 0.0, px - x1)
    dy = max(y0 - py, 0.0, py - y1)
    return hypot(dx, dy)


@njit_leaf
def _square_share(floats: FloatArray, px: float, py: float, r: float) -> float:
    """The share of a grid's box inside the square of half-side ``r`` round (px, py): about
    the share of its points a disc that wide would gather (NaN for anything not finite)."""
    x0 = floats[F_X0]
    y0 = floats[F_Y0]
    w = floats[F_NX] / floats[F_ICW]
    h = floats[F_NY] / floats[F_ICH]
    ox = max(min(px + r, x0 + w) - max(px - r, x0), 0.0)
    oy = max(min(py + r, y0 + h) - max(py - r, y0), 0.0)
    if not (math.isfinite(ox) and math.isfinite(oy) and math.isfinite(r)):
        return math.nan
    return (ox / w) * (oy / h)


@dataclass
class Interpose:
    """Buckland's interpose: get between two movers, ``ratio`` of the way from ``a`` to ``b``.

    The time to reach the point between them now at max speed, ``t = |point - pos| /
    max_speed``, predicts where each will be; the agent arrives at the point ``ratio`` of the
    way between the predictions. It arrives in the frame that moves with that point (whose
    velocity is the same blend of ``a_velocity`` and ``b_velocity``), so between two movers
    going the same way it keeps up with the point instead of trailing it. Each of ``a``, ``b``
    and their velocities is one point for all or one per agent; ``ratio`` outside [0, 1]
    extrapolates beyond them.

    Fails when the point moves faster than the agent (it falls behind), and a straight
    prediction misleads when the movers turn sharply. An agent with no max speed predicts
    nothing (``t = 0``).

    Debug: ``"interpose.point"`` (N, 2) the point it arrives at.

    Raises:
        TypeError, ValueError: for a NaN ratio, gain or slowing radius (a negative one), or
            (at the call) movers or velocities that are not finite points of the right shape.
    """

    a: ArrayLike
    b: ArrayLike
    a_velocity: ArrayLike = (0.0, 0.0)
    b_velocity: ArrayLike = (0.0, 0.0)
    ratio: float = 0.5
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    def __post_init__(self) -> None:
        self.ratio = finite("Interpose.ratio", self.ratio)
        self.gain = finite("Interpose.gain", self.gain)
        self.slowing_radius = non_negative("Interpose.slowing_radius", self.slowing_radius)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the predicted point between ``a`` and ``b``."""
        n = agents.n
        a = fast_points("Interpose.a", self.a, n)
        b = fast_points("Interpose.b", self.b, n)
        va = fast_points("Interpose.a_velocity", self.a_velocity, n)
        vb = fast_points("Interpose.b_velocity", self.b_velocity, n)
        point = np.empty((n, 2))
        out = np.empty((n, 2))
        _interpose_rows(n)(
            agents.pos,
            agents.vel,
            agents.max_speed,
            agents.max_force,
            a,
            b,
            va,
            vb,
            self.ratio,
            self.gain,
            self.slowing_radius,
            point,
            out,
        )
        if debug is not None:
            write(InterposeDebug(point), debug)
        return out


@rows_kernel
def _interpose_rows(
    pos: FloatArray,
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    a: FloatArray,
    b: FloatArray,
    a_vel: FloatArray,
    b_vel: FloatArray,
    r: float,
    gain: float,
    slowing_radius: float,
    point: FloatArray,
    out: FloatArray,
) -> None:
    sa = 0 if a.shape[0] == 1 else 1
    sb = 0 if b.shape[0] == 1 else 1
    sva = 0 if a_vel.shape[0] == 1 else 1
    svb = 0 if b_vel.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        ia, ib, iva, ivb = i * sa, i * sb, i * sva, i * svb
        out[i, 0], out[i, 1], point[i, 0], point[i, 1] = interpose(
            pos[i, 0],
            pos[i, 1],
            vel[i, 0],
            vel[i, 1],
            a[ia, 0],
            a[ia, 1],
            b[ib, 0],
            b[ib, 1],
            a_vel[iva, 0],
            a_vel[iva, 1],
            b_vel[ivb, 0],
            b_vel[ivb, 1],
            r,
            max_speed[i],
            max_force[i],
            gain,
            slowing_radius,
        )


@njit_inline
def interpose(
    px: float,
    py: float,
    vx: float,
    vy: float,
    ax: float,
    ay: float,
    bx: float,
    by: float,
    vax: float,
    vay: float,
    vbx: float,
    vby: float,
    r: float,
    speed: float,
    max_force: float,
    gain: float,
    slowing_radius: float,
) -> tuple[float, float, float, float]:
    """:class:`Interpose`'s force for one agent, and the point it heads for: (fx, fy, x, y)."""
    nowx = ax + (bx - ax) * r
    nowy = ay + (by - ay) * r
    t = hypot(nowx - px, nowy - py) / speed if speed > EPSILON else 0.0
    pax = ax + vax * t
    pay = ay + vay * t
    pbx = bx + vbx * t
    pby = by + vby * t
    tx = pax + (pbx - pax) * r
    ty = pay + (pby - pay) * r
    # Arrive in the frame that moves with the point.
    tvx = vax + (vbx - vax) * r
    tvy = vay + (vby - vay) * r
    fx, fy = arrive(
        px, py, vx - tvx, vy - tvy, tx, ty, speed, max_force, slowing_radius, gain, _BRAKE
    )
    return fx, fy, tx, ty


@dataclass
class OffsetPursuit:
    """Buckland's offset pursuit: hold a slot fixed in a leader's frame (formations, escorts).

    ``offset`` is in the leader's frame, x ahead along ``leader_heading`` and y to its left;
    the slot in the world is ``leader + R(heading) @ offset``. The agent looks ahead
    ``t = |slot - pos| / (max_speed + |leader_velocity|)`` and arrives at ``slot +
    leader_velocity * t``, in the frame that moves with the leader, so once on its slot it
    keeps the leader's velocity instead of trailing by Arrive's slowing distance. A zero
    heading falls back to the leader's velocity direction, then to +x. Every argument is one
    value for all or one per agent (followers of several leaders); see
    :func:`formation_offsets` for slot layouts.

    Fails when the leader is faster than the follower, and while the leader turns: a slot
    away from the leader then moves faster (outside the turn) or slower than the leader, and
    the follower lags by about that difference times ``slowing_radius / max_speed``. Slots are
    not checked against rocks or each other: combine with separation and obstacle avoidance.

    Debug: ``"offset.slot"`` (N, 2) each slot in the world.

    Raises:
        TypeError, ValueError: for a NaN gain or a negative slowing radius, or (at the call)
            a leader, velocity, heading or offset that is not finite points of the right shape.
    """

    leader: ArrayLike
    leader_velocity: ArrayLike
    leader_heading: ArrayLike
    offset: ArrayLike
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    def __post_init__(self) -> None:
        self.gain = finite("OffsetPursuit.gain", self.gain)
        self.slowing_radius = non_negative("OffsetPursuit.slowing_radius", self.slowing_radius)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces that bring each agent to its slot beside the leader."""
        n = agents.n
        leader = fast_points("OffsetPursuit.leader", self.leader, n)
        lvel = fast_points("OffsetPursuit.leader_velocity", self.leader_velocity, n)
        heading = fast_points("OffsetPursuit.leader_heading", self.leader_heading, n)
        offset = fast_points("OffsetPursuit.offset", self.offset, n)
        slot = np.empty((n, 2))
        out = np.empty((n, 2))
        _offset_rows(n)(
            agents.pos,
            agents.vel,
            agents.max_speed,
            agents.max_force,
            leader,
            lvel,
            heading,
            offset,
            self.gain,
            self.slowing_radius,
            slot,
            out,
        )
        if debug is not None:
            write(OffsetDebug(slot), debug)
        return out


@rows_kernel
def _offset_rows(
    pos: FloatArray,
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    leader: FloatArray,
    leader_vel: FloatArray,
    leader_heading: FloatArray,
    offset: FloatArray,
    gain: float,
    slowing_radius: float,
    slot: FloatArray,
    out: FloatArray,
) -> None:
    sl = 0 if leader.shape[0] == 1 else 1
    sv = 0 if leader_vel.shape[0] == 1 else 1
    sh = 0 if leader_heading.shape[0] == 1 else 1
    so = 0 if offset.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        il, iv, ih, io = i * sl, i * sv, i * sh, i * so
        out[i, 0], out[i, 1], slot[i, 0], slot[i, 1] = offset_pursuit(
            pos[i, 0],
            pos[i, 1],
            vel[i, 0],
            vel[i, 1],
            leader[il, 0],
            leader[il, 1],
            leader_vel[iv, 0],
            leader_vel[iv, 1],
            leader_heading[ih, 0],
            leader_heading[ih, 1],
            offset[io, 0],
            offset[io, 1],
            max_speed[i],
            max_force[i],
            gain,
            slowing_radius,
        )


@njit_inline
def offset_pursuit(
    px: float,
    py: float,
    vx: float,
    vy: float,
    lx: float,
    ly: float,
    lvx: float,
    lvy: float,
    lhx: float,
    lhy: float,
    ox: float,
    oy: float,
    max_speed: float,
    max_force: float,
    gain: float,
    slowing_radius: float,
) -> tuple[float, float, float, float]:
    """:class:`OffsetPursuit`'s force for one agent, and its slot now: (fx, fy, x, y)."""
    fx, fy, moving = kern.unit(lvx, lvy)
    if not moving:
        fx, fy = 1.0, 0.0
    hx, hy, ok = kern.unit(lhx, lhy)
    if not ok:
        hx, hy = fx, fy
    # The offset turned from the leader's frame into the world.
    sx = lx + (hx * ox - hy * oy)
    sy = ly + (hx * oy + hy * ox)
    closing = max_speed + hypot(lvx, lvy)
    t = hypot(sx - px, sy - py) / closing if closing > EPSILON else 0.0
    # Arrive where the slot will be, in the frame that moves with the leader.
    gx, gy = arrive(
        px,
        py,
        vx - lvx,
        vy - lvy,
        sx + lvx * t,
        sy + lvy * t,
        max_speed,
        max_force,
        slowing_radius,
        gain,
        _BRAKE,
    )
    return gx, gy, sx, sy


def formation_offsets(kind: str, n: int, spacing: float) -> FloatArray:
    """Slots for ``n`` followers in a leader's frame (x ahead, y left) for :class:`OffsetPursuit`.

    Args:
        kind: ``"line"`` side by side, centerd, one ``spacing`` behind the leader, left to
            right; ``"column"`` one behind another, ``spacing`` apart; ``"wedge"`` a V behind
            the leader at 45 degrees, alternating left and right, each slot ``spacing`` from the
            one before it on its arm (the leader heads both arms); ``"circle"`` a ring around the
            leader, the first slot straight behind, counter-clockwise, neighbours ``spacing``
            apart, or farther for n < 6 so no slot is nearer than ``spacing`` to the leader.
        n: number of slots, >= 0.
        spacing: distance between neighbouring slots, finite and > 0.

    Returns:
        An (n, 2) float array.

    Raises:
        ValueError: on an unknown kind, a negative or non-integer ``n``, or a spacing that is
            not a finite number > 0.
    """
    if not isinstance(kind, str) or kind not in _KINDS:
        raise ValueError(f"formation kind: expected one of {', '.join(_KINDS)}, got {kind!r}")
    try:
        if isinstance(n, bool):
            raise TypeError
        count = operator.index(n)
    except TypeError:
        raise ValueError(f"formation n: expected a whole number >= 0, got {n!r}") from None
    if count < 0:
        raise ValueError(f"formation n: expected a whole number >= 0, got {count}")
    try:
        s = float(spacing)
    except (TypeError, ValueError):
        raise ValueError(f"formation spacing: expected a number > 0, got {spacing!r}") from None
    if not (math.isfinite(s) and s > 0.0):
        raise ValueError(f"formation spacing: expected a finite number > 0, got {s!r}")
    out = np.empty((count, 2))
    _formation(_KINDS.index(kind), s, out)
    return out


@njit_leaf
def _formation(kind: int, s: float, out: FloatArray) -> None:
    """Slots of formation ``_KINDS[kind]`` with spacing ``s``, one per row of ``out``."""
    count = out.shape[0]
    half = (count - 1) / 2.0
    step = s / math.sqrt(2.0)
    radius = s if count < 6 else s / (2.0 * math.sin(math.pi / count))
    for i in range(count):
        if kind == 2:  # line
            out[i, 0] = -s
            out[i, 1] = (half - i) * s
        elif kind == 1:  # column
            out[i, 0] = -(i + 1.0) * s
            out[i, 1] = 0.0
        elif kind == 3:  # wedge
            rank = i // 2 + 1.0
            side = 1.0 if i % 2 == 0 else -1.0
            out[i, 0] = -rank * step
            out[i, 1] = side * rank * step
        else:  # circle, from straight behind: -(cos, sin) is exact there
            angle = 2.0 * math.pi * i / count
            out[i, 0] = -radius * math.cos(angle)
            out[i, 1] = -radius * math.sin(angle)


@dataclass
class MatchVelocity:
    """gdx-ai's MatchVelocity: steer toward a target velocity (one for all or one per agent).

    The target is first truncated to the agent's max speed, then the force is ``(target -
    velocity) * gain`` limited to max force (gdx-ai's ``1 / timeToTarget`` is the gain). For
    convoys, escorts and the velocity part of flocking. Fails at keeping position: it matches
    velocity only, so any offset from a leader drifts; use :class:`OffsetPursuit` for that.

    Debug: ``"match.velocity"`` (N, 2) the truncated target velocity.

    Raises:
        TypeError, ValueError: for a NaN gain, or (at the call) a target velocity that is not
            finite points of the right shape.
    """

    target_velocity: ArrayLike
    gain: float = DEFAULT_GAIN

    def __post_init__(self) -> None:
        self.gain = finite("MatchVelocity.gain", self.gain)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the target velocity."""
        n = agents.n
        target = fast_points("MatchVelocity.target_velocity", self.target_velocity, n)
        desired = np.empty((n, 2))
        out = np.empty((n, 2))
        _match_rows(n)(
            agents.vel, agents.max_speed, agents.max_force, target, self.gain, desired, out
        )
        if debug is not None:
            write(MatchDebug(desired), debug)
        return out


@rows_kernel
def _match_rows(
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    target: FloatArray,
    gain: float,
    desired: FloatArray,
    out: FloatArray,
) -> None:
    ts = 0 if target.shape[0] == 1 else 1
    for i in prange(vel.shape[0]):
        t = i * ts
        dx, dy = kern.truncate(target[t, 0], target[t, 1], max_speed[i])
        desired[i, 0] = dx
        desired[i, 1] = dy
        out[i, 0], out[i, 1] = kern.steer(dx, dy, vel[i, 0], vel[i, 1], gain, max_force[i])
