"""The swept boxes of a group's agents and the grid that finds which boxes overlap, for
unaligned collision avoidance (:class:`~steering.AvoidAgents`).

Each agent's box holds the path it sweeps within the time horizon, widened by its radius and
half the margin: agents whose boxes do not overlap cannot threaten each other. The grid holds
every agent in each cell its box touches, each cell's entries in four runs so that a pair is
tested once (:func:`cell_runs`); a few very large boxes are made wild (tested against
everyone) instead of widening every cell.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._jit import njit, njit_leaf
from .vec import FloatArray

__all__ = [
    "CELLS_PER_AGENT",
    "CELL_SHARE",
    "ENTRIES_PER_AGENT",
    "IN_GRID",
    "OUT",
    "WILD",
    "BoxGrid",
    "box_grid",
    "cell_runs",
    "residue",
    "swept_boxes",
]

IntArray = NDArray[np.int64]

#: Cell width of the search grid, as a share of the agents' typical swept-box side.
CELL_SHARE = 1.0
#: Grid cells, and grid entries (an agent sits in every cell its box touches), per agent at
#: most: a crowd spread thin over a large area, or very fast agents, get wider cells.
CELLS_PER_AGENT = 4
ENTRIES_PER_AGENT = 16
#: An agent's status in the search: in the grid; wild, so tested against everyone and
#: everyone against it (a box that is not finite although the position and velocity are, a
#: radius that is not finite; or a box far larger than the crowd's, below); or with a
#: position or velocity that is not finite, so no threat to anyone, nor threatened.
IN_GRID, WILD, OUT = 0, 1, 2
#: A box more than this many typical boxes wide is wild (a few very fast agents would
#: otherwise make every cell as wide as their boxes, and the search quadratic), while the
#: wild boxes are at most ``WILD_ROOT * sqrt(N) + 8`` (each costs a test of every agent).
WILD_SIDES = 16.0
WILD_ROOT = 2.0


class BoxGrid(NamedTuple):
    """The search grid of the swept boxes (:func:`box_grid`), passed whole to the search: a
    NamedTuple, so that the same record works compiled and with ``NUMBA_DISABLE_JIT=1``."""

    #: The cells' runs' starts into ``items`` (four runs a cell, see :func:`cell_runs`).
    start: IntArray
    #: The entries: slots (places in the visiting order).
    items: IntArray
    #: The boxes in visiting order.
    sbox: FloatArray
    #: The agents in visiting order (slot -> agent).
    order: IntArray
    #: The wild agents' slots.
    wild: IntArray
    #: Each agent's span of cells (first x, first y, last x, last y: unwrapped, at most one
    #: world across).
    span: IntArray
    #: Positions, velocities and radii in visiting order.
    spos: FloatArray
    svel: FloatArray
    srad: FloatArray
    #: The cell counts, x and y.
    gx: int
    gy: int
    #: Every agent's swept box (lo x, lo y, hi x, hi y), by agent, widened as the grid needs.
    box: FloatArray
    #: Every agent's status (:data:`IN_GRID`, :data:`WILD`, :data:`OUT`), by agent.
    status: NDArray[np.int8]
    #: No grid: every agent is tested against every other.
    brute: bool
    #: The torus's size (0, 0: an open plane): the other agent is taken at the minimal image.
    world_w: float
    world_h: float


@njit
def swept_boxes(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    horizon: float,
    margin: float,
    world_w: float,
    world_h: float,
    box: FloatArray,
    status: NDArray[np.int8],
) -> tuple[float, float]:
    """Every agent's swept box, into ``box`` (lo x, lo y, hi x, hi y): the box round the
    segment it covers within the horizon, ``pos`` to ``pos + vel * horizon``, widened by its
    radius and half the margin, and its ``status``. Returns the typical side of the boxes
    (their geometric mean: a few very long boxes do not move it) and the largest coordinate
    (the scale of rounding errors).

    Two agents closest at ``t`` in (0, horizon] within ``r_i + r_j + margin`` are then, at
    ``t``, each on its segment, and discs of ``r + margin / 2`` round them overlap: so do
    their boxes. Agents whose boxes do not overlap cannot threaten each other.
    """
    n = pos.shape[0]
    total = 0.0
    sides = 0
    scale = max(world_w, world_h, 1.0)
    for i in range(n):
        x = pos[i, 0]
        y = pos[i, 1]
        ex = x + vel[i, 0] * horizon
        ey = y + vel[i, 1] * horizon
        if not (
            math.isfinite(x)
            and math.isfinite(y)
            and math.isfinite(vel[i, 0])
            and math.isfinite(vel[i, 1])
        ):
            status[i] = OUT
            continue
        e = max(radius[i], 0.0) + 0.5 * margin
        lx = min(x, ex) - e
        ly = min(y, ey) - e
        hx = max(x, ex) + e
        hy = max(y, ey) + e
        if not (
            math.isfinite(lx) and math.isfinite(ly) and math.isfinite(hx) and math.isfinite(hy)
        ):
            status[i] = WILD
            continue
        status[i] = IN_GRID
        box[i, 0] = lx
        box[i, 1] = ly
        box[i, 2] = hx
        box[i, 3] = hy
        total += math.log(max(hx - lx, 1e-6)) + math.log(max(hy - ly, 1e-6))
        sides += 2
        scale = max(scale, abs(lx), abs(ly), abs(hx), abs(hy))
    return math.exp(total / max(sides, 1)), scale


@njit_leaf
def _wild_boxes(box: FloatArray, status: NDArray[np.int8], side: float, most: int) -> None:
    """Boxes wider or taller than ``side`` made wild (``status``), unless there are more than
    ``most`` of them (then the grid takes them all, with wider cells)."""
    count = 0
    for i in range(box.shape[0]):
        if status[i] == IN_GRID and max(box[i, 2] - box[i, 0], box[i, 3] - box[i, 1]) > side:
            count += 1
    if count == 0 or count > most:
        return
    for i in range(box.shape[0]):
        if status[i] == IN_GRID and max(box[i, 2] - box[i, 0], box[i, 3] - box[i, 1]) > side:
            status[i] = WILD


@njit_leaf
def residue(v: int, count: int) -> int:
    """``v`` modulo ``count``, without a division when it is already in range."""
    if 0 <= v < count:
        return v
    return v % count


@njit_leaf
def cell_runs(start: IntArray, cell: int, first_column: bool, first_row: bool) -> tuple[int, int]:
    """The entries of ``cell`` (its first run's index) that an agent whose box starts in
    ``first_column`` and ``first_row`` reads: all of them in its first cell; beyond its first
    column only the boxes that start in this column, beyond its first row only those that
    start in this row (so each pair is tested once, in the first cell of their overlap)."""
    lo = start[cell] if first_row else start[cell + 1]
    if not first_column:
        return lo, start[cell + 2]
    return lo, start[cell + 4] if first_row else start[cell + 3]


@njit_leaf
def _cell_index(v: float) -> int:
    """``floor(v)`` as a cell index, held within +-2**52 (where floats are still whole
    numbers) so that the conversion to an integer is defined for any coordinate; NaN: 0."""
    if not v > -_INDEX_MAX:
        return -_INDEX_MAX if v == v else 0
    if v > _INDEX_MAX:
        return _INDEX_MAX
    return math.floor(v)


_INDEX_MAX = 2**52


@njit_leaf
def _run_of(first_column: bool, first_row: bool) -> int:
    """Which of a cell's four runs holds a box that starts in the cell's column and row."""
    if first_column:
        return 1 if first_row else 0
    return 2 if first_row else 3


@njit
def box_grid(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    box: FloatArray,
    status: NDArray[np.int8],
    cell: float,
    scale: float,
    world_w: float,
    world_h: float,
    brute: bool,
) -> BoxGrid:
    """The search grid of the swept boxes: every agent in each cell its box touches, cells
    about ``cell`` wide (in a torus, a whole number of them across it), wider where the
    cells or the entries would pass :data:`CELLS_PER_AGENT` or :data:`ENTRIES_PER_AGENT` per
    agent; a few boxes far wider than ``cell`` are made wild first (``status``, in place,
    see :func:`_wild_boxes`). The boxes are widened (in place) by a trillionth of ``scale``,
    far more than a rounding error, so that boxes that touch (a threat at the limit) share a
    cell however their coordinates round. ``brute``: no grid, every agent is visited
    against every other.

    The agents are visited cell by cell, and their positions, velocities and radii copied
    in that order, so that neighbours sit close in memory; the grid holds slots (places in
    that order). Each cell's entries are in four runs: the boxes that start in its column
    but not its row, in both, in its row only, in neither (see :func:`cell_runs`).

    Returns:
        The grid, with ``box``, ``status``, ``brute`` and the world's size (see
        :class:`BoxGrid`).
    """
    n = box.shape[0]
    span = np.zeros((n, 4), dtype=np.int64)
    order = np.arange(n)
    gx = gy = 1
    total = 0
    if brute:
        start = np.zeros(5, dtype=np.int64)
    else:
        _wild_boxes(box, status, WILD_SIDES * cell, int(WILD_ROOT * math.sqrt(n)) + 8)
        eps = 1e-12 * scale
        x0 = y0 = math.inf
        x1 = y1 = -math.inf
        for i in range(n):
            if status[i] != IN_GRID:
                continue
            box[i, 0] -= eps
            box[i, 1] -= eps
            box[i, 2] += eps
            box[i, 3] += eps
            x0 = min(x0, box[i, 0])
            y0 = min(y0, box[i, 1])
            x1 = max(x1, box[i, 2])
            y1 = max(y1, box[i, 3])
        if world_w > 0.0:
            x0 = y0 = 0.0
            x1 = world_w
            y1 = world_h
        cell_cap = CELLS_PER_AGENT * n + 64
        entry_cap = ENTRIES_PER_AGENT * n + 64
        cell = max(cell, 1e-9 * scale)
        for _ in range(64):  # each round doubles the cells' width: ends long before 64
            extent_x = x1 - x0
            extent_y = y1 - y0
            if not (math.isfinite(extent_x) and math.isfinite(extent_y) and cell < math.inf):
                gx = gy = 1
                inv_x = inv_y = 0.0
            elif world_w > 0.0:
                gx = max(1, min(int(world_w / cell), cell_cap))
                gy = max(1, min(int(world_h / cell), cell_cap // gx))
                inv_x = gx / world_w
                inv_y = gy / world_h
            else:
                fx = extent_x / cell
                fy = extent_y / cell
                if (fx + 1.0) * (fy + 1.0) > cell_cap:
                    cell *= 2.0
                    continue
                gx = int(fx) + 1
                gy = int(fy) + 1
                inv_x = inv_y = 1.0 / cell
            total = 0
            for i in range(n):
                if status[i] != IN_GRID:
                    continue
                ax = _cell_index((box[i, 0] - x0) * inv_x)
                ay = _cell_index((box[i, 1] - y0) * inv_y)
                bx = min(_cell_index((box[i, 2] - x0) * inv_x), ax + gx - 1)
                by = min(_cell_index((box[i, 3] - y0) * inv_y), ay + gy - 1)
                span[i, 0] = ax
                span[i, 1] = ay
                span[i, 2] = bx
                span[i, 3] = by
                total += (bx - ax + 1) * (by - ay + 1)
            if total <= entry_cap or gx * gy == 1:
                break
            cell *= 2.0
        cells = gx * gy
        start = np.zeros(4 * cells + 1, dtype=np.int64)
        home = np.zeros(cells + 1, dtype=np.int64)
        for i in range(n):
            if status[i] != IN_GRID:
                continue
            hx = residue(span[i, 0], gx)
            hy = residue(span[i, 1], gy)
            home[hy * gx + hx + 1] += 1
            for cy in range(span[i, 1], span[i, 3] + 1):
                ry = residue(cy, gy)
                for cx in range(span[i, 0], span[i, 2] + 1):
                    rx = residue(cx, gx)
                    start[4 * (ry * gx + rx) + _run_of(rx == hx, ry == hy) + 1] += 1
        for c in range(4 * cells):
            start[c + 1] += start[c]
        for c in range(cells):
            home[c + 1] += home[c]
        rest = home[cells]  # the agents outside the grid are visited last
        for i in range(n):
            if status[i] == IN_GRID:
                h = residue(span[i, 1], gy) * gx + residue(span[i, 0], gx)
                order[home[h]] = i
                home[h] += 1
            else:
                order[rest] = i
                rest += 1
    items = np.empty(start[-1], dtype=np.int64)
    sbox = np.empty((n, 4))
    fill = start[:-1].copy()
    spos = np.empty((n, 2))
    svel = np.empty((n, 2))
    srad = np.empty(n)
    wild_count = 0
    for slot in range(n):
        i = order[slot]
        spos[slot, 0] = pos[i, 0]
        spos[slot, 1] = pos[i, 1]
        svel[slot, 0] = vel[i, 0]
        svel[slot, 1] = vel[i, 1]
        srad[slot] = max(radius[i], 0.0)
        sbox[slot, 0] = box[i, 0]
        sbox[slot, 1] = box[i, 1]
        sbox[slot, 2] = box[i, 2]
        sbox[slot, 3] = box[i, 3]
        if status[i] == WILD:
            wild_count += 1
        if brute or status[i] != IN_GRID:
            continue
        hx = residue(span[i, 0], gx)
        hy = residue(span[i, 1], gy)
        for cy in range(span[i, 1], span[i, 3] + 1):
            ry = residue(cy, gy)
            for cx in range(span[i, 0], span[i, 2] + 1):
                rx = residue(cx, gx)
                k = 4 * (ry * gx + rx) + _run_of(rx == hx, ry == hy)
                e = fill[k]
                items[e] = slot
                fill[k] = e + 1
    wild = np.empty(wild_count, dtype=np.int64)
    k = 0
    for slot in range(n):
        if status[order[slot]] == WILD:
            wild[k] = slot
            k += 1
    return BoxGrid(
        start, items, sbox, order, wild, span, spos, svel, srad, gx, gy, box, status, brute,
        world_w, world_h,
    )  # fmt: skip
