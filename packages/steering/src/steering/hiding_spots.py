"""Where to hide: each rock's hiding spot for a hunter, and the search for an agent's spot.

A rock's spot lies on its far side from the hunter; a spot is usable outside every other rock.
An agent takes the nearest usable spot it reaches without passing closer to the hunter than it
is (a safe one), else the nearest usable one. Every usable spot is weighed in index order
(:func:`weigh_every`; :func:`weigh_own` makes each spot as it weighs it), or, with many spots
and one hunter, a grid of them (:class:`SpotGrid`) is searched outward from the agent
(:func:`search_grid`): the same choice.
Per-agent functions of :class:`~steering.Hide`'s row (:mod:`steering.hide`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._jit import njit_leaf, prange, rows_kernel
from ._kern import hypot
from .grid import BUF_COLS, F_ICH, F_ICW, F_NX, F_NY, F_X0, F_Y0, near_point
from .vec import FloatArray

__all__ = [
    "SpotGrid",
    "better_spot",
    "box_distance",
    "grid_picks",
    "hunter_offset",
    "outside_others",
    "rock_spot",
    "search_grid",
    "spot_cell",
    "spots_rows",
    "square_share",
    "weigh_every",
    "weigh_own",
]


class SpotGrid(NamedTuple):
    """One hunter's usable spots in a uniform grid (:func:`steering.grid.build_grid`), passed
    whole to the compiled search: a NamedTuple, so the same record works compiled and with
    ``NUMBA_DISABLE_JIT=1``."""

    #: The usable spots' indices among every rock's spots, ascending.
    order: NDArray[np.intp]
    #: The grid's integer part (cell starts and items).
    ints: NDArray[np.int64]
    #: The grid's floats (origin, inverse cell sizes, size: the ``F_*`` columns).
    floats: FloatArray
    #: The usable spots themselves, one row each, in ``order``'s order.
    points: FloatArray


@njit_leaf
def rock_spot(
    cx: float, cy: float, radius: float, distance: float, hx: float, hy: float
) -> tuple[float, float, bool]:
    """The hiding spot behind the rock at (cx, cy) from the hunter at (hx, hy), and whether it
    exists (the hunter outside the rock, the spot finite; else the rock's centre, unused)."""
    ax = cx - hx
    ay = cy - hy
    d = hypot(ax, ay)
    sx, sy = cx, cy
    ok = d > radius and d < math.inf
    if ok:
        reach = radius + distance
        sx = cx + ax / d * reach
        sy = cy + ay / d * reach
        ok = math.isfinite(sx) and math.isfinite(sy)
    return sx, sy, ok


@njit_leaf
def outside_others(centers: FloatArray, radii: FloatArray, j: int, sx: float, sy: float) -> bool:
    """Whether rock ``j``'s spot (sx, sy) is outside every other rock (usable)."""
    for k in range(centers.shape[0]):
        dx = sx - centers[k, 0]
        dy = sy - centers[k, 1]
        if k != j and dx * dx + dy * dy < radii[k] * radii[k]:
            return False
    return True


@rows_kernel
def spots_rows(
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
            sx, sy, ok = rock_spot(centers[j, 0], centers[j, 1], radii[j], distance, hx, hy)
            spots[h, j, 0] = sx
            spots[h, j, 1] = sy
            defined[h, j] = ok
        for j in range(m):
            usable[h, j] = defined[h, j] and outside_others(
                centers, radii, j, spots[h, j, 0], spots[h, j, 1]
            )


@njit_leaf
def better_spot(
    sx: float,
    sy: float,
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
    """Weigh rock ``j``'s spot (sx, sy) for an agent at (px, py), the hunter at offset (qx, qy)
    (``qq`` its square, ``allow`` the slack of the safe test) against the best usable and best
    safe spots so far (-1: none) and their squared distances: nearest first, ties to the lower
    index. Spots weighed in index order need only the first; ``any_order`` (spots weighed in
    any order) also compares indices on a tie. (Written as one test, the tie made the whole
    scan 45% slower: callers pass it as a constant, which the compiler folds away.)"""
    wx = sx - px  # agent -> spot
    wy = sy - py
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
def weigh_every(
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
    usable spot weighed in index order (see :func:`better_spot`)."""
    best_any, best_safe = -1, -1
    any_d2, safe_d2 = math.inf, math.inf
    for j in range(spots.shape[1]):
        if usable[h, j]:
            best_any, any_d2, best_safe, safe_d2 = better_spot(
                spots[h, j, 0],
                spots[h, j, 1],
                j,
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
                False,
            )
    return best_any, best_safe


@njit_leaf
def weigh_own(
    centers: FloatArray,
    radii: FloatArray,
    distance: float,
    hx: float,
    hy: float,
    px: float,
    py: float,
    qx: float,
    qy: float,
    qq: float,
    allow: float,
) -> tuple[int, int]:
    """:func:`weigh_every` for an agent whose hunter (hx, hy) has no spots worked out: each
    rock's spot is made as it is weighed, and tested against the other rocks only when it
    would be chosen (a spot inside another rock is not usable: it changes no choice), so the
    agent costs what its hunter's spots cost, no more."""
    best_any, best_safe = -1, -1
    any_d2, safe_d2 = math.inf, math.inf
    for j in range(centers.shape[0]):
        sx, sy, ok = rock_spot(centers[j, 0], centers[j, 1], radii[j], distance, hx, hy)
        if not ok:
            continue
        a, a_d2, s, s_d2 = better_spot(
            sx, sy, j, px, py, qx, qy, qq, allow, best_any, any_d2, best_safe, safe_d2, False
        )
        # Weighed in index order, a spot that would be chosen changes an index.
        if (a != best_any or s != best_safe) and outside_others(centers, radii, j, sx, sy):
            best_any, any_d2, best_safe, safe_d2 = a, a_d2, s, s_d2
    return best_any, best_safe


@njit_leaf
def hunter_offset(
    pos: FloatArray, radius: FloatArray, hunter: FloatArray, i: int, t: int
) -> tuple[float, float, float, float]:
    """Agent ``i``'s offset to its hunter (row ``t``), its square, and the slack of the safe
    test: the agent may pass no closer to the hunter than it is now, less its radius."""
    qx = hunter[t, 0] - pos[i, 0]  # agent -> hunter
    qy = hunter[t, 1] - pos[i, 1]
    qq = qx * qx + qy * qy
    near_ = max(math.sqrt(qq) - max(radius[i], 1.0), 0.0)
    return qx, qy, qq, qq - near_ * near_


def spot_cell(points: FloatArray) -> float:
    """A grid cell for ``points`` that holds about one of them on average (over their box)."""
    lo = points.min(axis=0)
    hi = points.max(axis=0)
    area = float((hi[0] - lo[0]) * (hi[1] - lo[1]))
    cell = math.sqrt(area / points.shape[0]) if area > 0.0 else 0.0
    return cell if 0.0 < cell < math.inf else 1.0


@njit_leaf
def box_distance(floats: FloatArray, px: float, py: float) -> float:
    """How far (px, py) is from a grid's box (0 inside it)."""
    x0 = floats[F_X0]
    y0 = floats[F_Y0]
    x1 = x0 + floats[F_NX] / floats[F_ICW]
    y1 = y0 + floats[F_NY] / floats[F_ICH]
    dx = max(x0 - px, 0.0, px - x1)
    dy = max(y0 - py, 0.0, py - y1)
    return hypot(dx, dy)


@njit_leaf
def square_share(floats: FloatArray, px: float, py: float, r: float) -> float:
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


#: The share of the spots from which an agent's search weighs every spot instead of the grid's
#: (a disc's candidates cost several times a plain scan's: measured, a search that went on to
#: the whole grid cost 2-6x the whole scan).
WHOLE_SHARE = 0.25


@njit_leaf
def search_grid(
    spots: NDArray[np.float64],
    usable: NDArray[np.bool_],
    grid: SpotGrid,
    px: float,
    py: float,
    qx: float,
    qy: float,
    qq: float,
    allow: float,
    buf: FloatArray,
) -> tuple[int, int]:
    """:func:`weigh_every` for hunter 0's spots, searching their grid (``grid``): discs from
    one cell wide (or from the grid's box, outside it), doubling, until one holds a safe spot
    (every spot nearer than it was weighed). An agent whose disc would gather, or has
    gathered, :data:`WHOLE_SHARE` of the spots without a safe one, whose position is not
    finite, or whose disc holds more spots than ``buf`` has rows, weighs every spot instead.
    Either way the same choice as weighing every spot."""
    order, ints, floats, grid_pos = grid.order, grid.ints, grid.floats, grid.points
    g = order.shape[0]
    best_any, best_safe = -1, -1
    any_d2, safe_d2 = math.inf, math.inf
    # From the cell's width, or from the grid's box for an agent outside it.
    r = max(1.0 / floats[F_ICW], box_distance(floats, px, py))
    whole = not (math.isfinite(px) and math.isfinite(py))
    while not whole:
        if not square_share(floats, px, py, r) < WHOLE_SHARE:
            # The disc would gather a good part of the spots: weigh them all in index order
            # instead, without the grid's bookkeeping.
            whole = True
            break
        k = near_point(ints, floats, grid_pos, px, py, -1, r, buf)
        if k > buf.shape[0]:  # more than the buffer holds (not with a row per spot)
            whole = True
            break
        for q in range(k):
            j = order[int(buf[q, 0])]
            best_any, any_d2, best_safe, safe_d2 = better_spot(
                spots[0, j, 0],
                spots[0, j, 1],
                j,
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
        # No safe spot yet, and the disc held a good part of the spots: weigh every spot in
        # index order instead (cheaper than the grid from there).
        whole = k >= WHOLE_SHARE * g
        r *= 2.0
    if whole:
        return weigh_every(spots, usable, 0, px, py, qx, qy, qq, allow)
    return best_any, best_safe


#: Agents per task of :func:`grid_picks`.
_CHUNK = 256


@rows_kernel
def grid_picks(
    pos: FloatArray,
    radius: FloatArray,
    hunter: FloatArray,
    spots: NDArray[np.float64],
    usable: NDArray[np.bool_],
    grid: SpotGrid,
    panic: float,
    picks: NDArray[np.intp],
) -> None:
    """Each agent's spot among hunter 0's (-1: none, or calm beyond ``panic``), searched in
    their grid (:func:`search_grid`). A loop of its own, before the composite's: with the
    search inside the composite's loop that loop ran 7% slower (1,000 agents, 60 rocks,
    measured)."""
    n = pos.shape[0]
    for c in prange((n + _CHUNK - 1) // _CHUNK):
        buf = np.empty((max(grid.order.shape[0], 1), BUF_COLS))  # a row per spot: enough
        for i in range(c * _CHUNK, min(n, (c + 1) * _CHUNK)):
            px, py = pos[i, 0], pos[i, 1]
            picks[i] = -1
            if hypot(px - hunter[0, 0], py - hunter[0, 1]) > panic:
                continue
            qx, qy, qq, allow = hunter_offset(pos, radius, hunter, i, 0)
            best_any, best_safe = search_grid(spots, usable, grid, px, py, qx, qy, qq, allow, buf)
            picks[i] = best_safe if best_safe >= 0 else best_any
