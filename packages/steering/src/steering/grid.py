"""Neighbour search: a compiled uniform grid (cell list), shared by every group behaviour.

A behaviour asks for the neighbours of agent ``i`` closer than its own distance ``r_i``
(:func:`near`, called inside its compiled loop over agents). Below :data:`BRUTE_MAX` agents there
is no grid at all: :func:`near` measures the distance to every other agent, which at a handful
of agents is faster than building anything. From there up the agents are sorted into square cells
once per step per cell size (:class:`GridCache`, kept on the group and rebuilt when positions
change), and :func:`near` visits only the cells that the disc of radius ``r_i`` touches, so
per-agent distances (enemies 40 px, NPCs 13-24 px in one crowd) share one grid.

The grid covers the crowd's bounding box. When the box holds many more cells than agents (a
sparse crowd, or groups far apart) the cells are hashed into a table of about twice as many
buckets as agents, each candidate checked against the cell it claims to be in, so memory stays
O(N) whatever the coordinates. In a wrap-around world (``world_size``) the grid is the world: cells
wrap at its edges and offsets are the minimal image (the nearest copy across the seam).

A grid is two arrays that compiled kernels take as they are: ``ints`` (bucket starts, agents in
bucket order, each agent's cell key) and ``floats`` (:data:`F_MODE` ... :data:`F_H`). A group's
grid of a cell size is rebuilt into the same arrays when the positions change (when they hold
it): a grid is the current positions', not a copy to keep across steps.

Why one file: the grid's layout is written by the build and read by every query here; split,
each half would restate it.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._jit import njit, njit_leaf
from .vec import FloatArray

__all__ = [
    "BRUTE_MAX",
    "Grid",
    "GridCache",
    "agent_at",
    "brute_grid",
    "build_grid",
    "covering_distance",
    "directed_pairs",
    "minimal_offset",
    "near",
    "near_point",
    "query",
]

#: Crowds of at most this many agents are searched by measuring every pair (no grid). Measured
#: (a step of Separate or Flock plus integrate, density of a flock): every pair wins below some
#: 20 agents (8 against 12 us at 12 agents), the grid from some 32 on (16 against 21 us at 32,
#: 26 against 65 us at 64).
BRUTE_MAX = 24

# The floats of a grid.
F_MODE, F_X0, F_Y0, F_ICW, F_ICH, F_NX, F_NY, F_T, F_W, F_H = range(10)
#: Where the agents' positions in bucket order start in a grid's floats (x, y interleaved).
F_POS = 10
MODE_BRUTE, MODE_DENSE, MODE_HASH = 0.0, 1.0, 2.0

#: Columns of a neighbour buffer: neighbour index, offset x, y, distance, grid slot.
BUF_COLS = 5

#: Largest cell count per axis (cell coordinates and keys stay well inside int64).
_MAX_CELLS_AXIS = 2.0**28
#: Grids kept per group at once (one per cell size in use this step).
_MAX_GRIDS = 8
#: Padding, in cells, of every query range: covers rounding where a disc edge meets a cell edge.
_PAD = 1e-6

IntArray = NDArray[np.int64]


class Grid(NamedTuple):
    """A built grid (or the brute-force marker), as compiled kernels read it."""

    ints: IntArray
    """Bucket starts (T + 1), agents in bucket order (N), their cell keys (N)."""
    floats: FloatArray
    """Mode, origin, inverse cell sizes, cells per axis, buckets, world size (0: open), then
    the positions in bucket order (x, y interleaved)."""


@functools.lru_cache(maxsize=64)
def brute_grid(world_size: tuple[float, float] | None) -> Grid:
    """The no-grid marker: :func:`near` measures every pair (minimal image in a torus). Kept,
    one per world size (never written), so that records holding it stay the same."""
    grid = _BRUTE.get(world_size)
    if grid is None:
        f = np.zeros(F_POS)
        f[F_MODE] = MODE_BRUTE
        if world_size is not None:
            f[F_W], f[F_H] = world_size
        grid = Grid(np.zeros(1, dtype=np.int64), f)
        if len(_BRUTE) > 64:  # world sizes that keep changing: start again
            _BRUTE.clear()
        _BRUTE[world_size] = grid
    return grid


_BRUTE: dict[tuple[float, float] | None, Grid] = {}


def build_grid(pos: FloatArray, cell: float, world_size: tuple[float, float] | None) -> Grid:
    """Sort ``pos`` into cells at least ``cell`` px wide (O(N), compiled)."""
    w, h = world_size if world_size is not None else (0.0, 0.0)
    ints, floats = _build(pos, float(cell), float(w), float(h))
    return Grid(ints, floats)


class GridCache:
    """The grids of one group's current positions, one per cell size.

    :meth:`get` compares the positions with the copy the grids were built from (a compiled loop
    that stops at the first difference, so after a step it costs next to nothing and for the
    second behaviour of a step one pass over the positions) and drops every grid when they
    changed. :meth:`AgentGroup.with_limits` groups share the cache; ``add`` and ``remove`` clear
    it.
    """

    __slots__ = ("builds", "grids", "last", "pos", "world")

    def __init__(self) -> None:
        self.pos: FloatArray | None = None
        self.world: tuple[float, float] | None = None
        self.grids: dict[float, Grid] = {}
        #: The grids of the positions before, whose arrays the next build of the same cell
        #: size writes into when they are large enough (so that records holding a grid stay
        #: the same objects from step to step, and compiled loops read it in place).
        self.last: dict[float, Grid] = {}
        #: Grids built so far (for tests and benchmarks).
        self.builds = 0

    def clear(self) -> None:
        """Forget every grid (the agents changed)."""
        self.pos = None
        self.grids = {}
        self.last = {}

    def get(self, pos: FloatArray, world_size: tuple[float, float] | None, cell: float) -> Grid:
        """The grid over ``pos`` with cells of at least ``cell`` px; the brute-force marker for
        at most :data:`BRUTE_MAX` agents or a cell that is not positive and finite."""
        if pos.shape[0] <= BRUTE_MAX or not (0.0 < cell < math.inf):
            return brute_grid(world_size)
        snap = self.pos
        if (
            snap is None
            or snap.shape != pos.shape
            or self.world != world_size
            or not _same(snap, pos)
        ):
            snap = np.array(pos, dtype=np.float64, order="C")
            self.pos = snap
            self.world = world_size
            if self.grids:
                self.last = self.grids
            self.grids = {}
        key = float(cell)
        grid = self.grids.get(key)
        if grid is None:
            if len(self.grids) >= _MAX_GRIDS:
                # positions that stand still while cell sizes vary (AvoidAgents sizes its
                # cells by the current speeds): keep the cache small
                self.grids = {}
            grid = _reuse(self.last.pop(key, None), build_grid(snap, key, world_size))
            self.grids[key] = grid
            self.builds += 1
        return grid


def _reuse(old: Grid | None, new: Grid) -> Grid:
    """``new`` written into ``old``'s arrays when they hold it (the same agents, at most as
    many buckets: the tail of ``ints`` is not read), else ``new`` with room for a quarter
    more buckets the next time."""
    m = new.ints.shape[0]
    if old is not None and old.floats.shape == new.floats.shape and old.ints.shape[0] >= m:
        old.ints[:m] = new.ints
        old.floats[:] = new.floats
        return Grid(old.ints, old.floats)  # another grid, in the same arrays
    ints = np.zeros(m + m // 4, dtype=np.int64)
    ints[:m] = new.ints
    return Grid(ints, new.floats)


def covering_distance(distances: FloatArray, finite_only: bool = False) -> float:
    """A cell size for per-agent distances: the smallest positive distance that at most 1/16 of
    the agents exceed (those few visit more cells); 0 when none is positive. With
    ``finite_only`` a distance that is not finite counts as 0 (no neighbours). One compiled
    pass (a sort only when the smallest distance does not already cover enough agents)."""
    d = distances if distances.dtype == np.float64 else distances.astype(np.float64)
    return float(_covering(d, finite_only))


@njit
def _covering(distances: FloatArray, finite_only: bool) -> float:
    n = distances.shape[0]
    m = 0
    smallest = math.inf
    for k in range(n):
        d = distances[k]
        if d > 0.0 and (d < math.inf or not finite_only):
            m += 1
            smallest = min(smallest, d)
    if m == 0:
        return 0.0
    above = 0
    for k in range(n):
        d = distances[k]
        if d > smallest and (d < math.inf or not finite_only):
            above += 1
    if 16 * above <= n:
        return smallest
    values = np.empty(m)
    j = 0
    for k in range(n):
        d = distances[k]
        if d > 0.0 and (d < math.inf or not finite_only):
            values[j] = d
            j += 1
    values.sort()
    k = 0
    while k < m:
        last = k
        while last + 1 < m and values[last + 1] == values[k]:
            last += 1
        if 16 * (m - last - 1) <= n:  # the agents whose distance exceeds this one
            return values[k]
        k = last + 1
    return values[m - 1]


def directed_pairs(
    grid: Grid, pos: FloatArray, radii: FloatArray, rows: NDArray[np.intp] | None = None
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Every (receiver ``i``, neighbour ``j``) with ``j != i`` closer than ``radii[i]``, for
    ``rows`` (all agents when None), receivers ascending. For debug output, ``pairs_within`` and
    ``directed_candidates``: behaviours walk the grid in their own kernels."""
    r = np.arange(pos.shape[0], dtype=np.int64) if rows is None else rows.astype(np.int64)
    counts = np.zeros(r.size, dtype=np.int64)
    _count_pairs(grid.ints, grid.floats, pos, radii, r, counts)
    offsets = np.zeros(r.size + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    i = np.empty(int(offsets[-1]), dtype=np.int64)
    j = np.empty_like(i)
    _fill_pairs(grid.ints, grid.floats, pos, radii, r, offsets, i, j)
    return i.astype(np.intp), j.astype(np.intp)


# -- kernels ---------------------------------------------------------------------------------


@njit_leaf
def _same(a: FloatArray, b: FloatArray) -> bool:
    """Whether two (N, 2) arrays hold the same values (stops at the first difference)."""
    for k in range(a.shape[0]):  # noqa: SIM110 (a loop numba compiles)
        if a[k, 0] != b[k, 0] or a[k, 1] != b[k, 1]:
            return False
    return True


@njit
def minimal_offset(d: float, size: float) -> float:
    """``d`` as the shortest offset on a circle of circumference ``size`` (0: no wrap)."""
    if size > 0.0:
        return d - size * np.floor(d / size + 0.5)
    return d


@njit
def _cell_of(v: float, inv: float, cells: int) -> int:
    """The cell of coordinate ``v`` (already relative to the origin), clamped to the grid."""
    f = np.floor(v * inv)
    if not f > 0.0:  # negative (rounding at the origin)
        return 0
    if f >= cells:
        return cells - 1
    return int(f)


@njit
def _hash(cx: int, cy: int, mask: int) -> int:
    return ((cx * 73856093) ^ (cy * 19349663)) & mask


@njit
def _build(pos: FloatArray, cell: float, w: float, h: float) -> tuple[IntArray, FloatArray]:
    n = pos.shape[0]
    f = np.zeros(F_POS + 2 * n)
    f[F_W] = w
    f[F_H] = h
    if w > 0.0:
        # The world is the grid: a whole number of cells at least `cell` wide per axis.
        nxf = max(np.floor(min(w / cell, _MAX_CELLS_AXIS)), 1.0)
        nyf = max(np.floor(min(h / cell, _MAX_CELLS_AXIS)), 1.0)
        x0 = 0.0
        y0 = 0.0
        icw = nxf / w
        ich = nyf / h
    else:
        xmin = math.inf
        ymin = math.inf
        xmax = -math.inf
        ymax = -math.inf
        for k in range(n):
            x = pos[k, 0]
            y = pos[k, 1]
            # The box of the finite positions (an agent a step left at inf or NaN goes to an
            # edge cell and is no one's neighbour; in the box, its inf made every cell NaN).
            if math.isfinite(x) and math.isfinite(y):
                xmin = min(xmin, x)
                xmax = max(xmax, x)
                ymin = min(ymin, y)
                ymax = max(ymax, y)
        if not xmin <= xmax:  # no finite position at all
            xmin = xmax = ymin = ymax = 0.0
        # Halves: the span of finite coordinates may not be finite itself.
        c = max(cell, (0.5 * xmax - 0.5 * xmin) / (0.5 * _MAX_CELLS_AXIS))
        c = max(c, (0.5 * ymax - 0.5 * ymin) / (0.5 * _MAX_CELLS_AXIS))
        x0 = xmin
        y0 = ymin
        icw = 1.0 / c
        ich = icw
        nxf = min(np.floor((xmax - xmin) * icw), _MAX_CELLS_AXIS) + 1.0
        nyf = min(np.floor((ymax - ymin) * ich), _MAX_CELLS_AXIS) + 1.0
    nx = int(nxf)
    ny = int(nyf)
    if nxf * nyf <= max(4.0 * n, 1024.0):
        mode = MODE_DENSE
        t = nx * ny
    else:
        mode = MODE_HASH
        t = 1
        while t < 2 * n:
            t *= 2
    f[F_MODE] = mode
    f[F_X0] = x0
    f[F_Y0] = y0
    f[F_ICW] = icw
    f[F_ICH] = ich
    f[F_NX] = nxf
    f[F_NY] = nyf
    f[F_T] = t
    ints = np.zeros(t + 1 + 2 * n, dtype=np.int64)
    bucket = np.empty(n, dtype=np.int64)
    key = np.empty(n, dtype=np.int64)
    for k in range(n):
        x = pos[k, 0]
        y = pos[k, 1]
        if w > 0.0:
            x -= w * np.floor(x / w)
            y -= h * np.floor(y / h)
        cx = _cell_of(x - x0, icw, nx)
        cy = _cell_of(y - y0, ich, ny)
        key[k] = cx * ny + cy
        b = _hash(cx, cy, t - 1) if mode == MODE_HASH else cy * nx + cx
        bucket[k] = b
        ints[b + 1] += 1
    for b in range(t):
        ints[b + 1] += ints[b]
    cursor = ints[:t].copy()
    for k in range(n):  # ascending: agents in a bucket keep their order
        b = bucket[k]
        slot = cursor[b]
        cursor[b] = slot + 1
        ints[t + 1 + slot] = k
        ints[t + 1 + n + slot] = key[k]
        f[F_POS + 2 * slot] = pos[k, 0]
        f[F_POS + 2 * slot + 1] = pos[k, 1]
    return ints, f


@njit_leaf
def _consider(
    pos: FloatArray,
    j: int,
    slot: int,
    xi: float,
    yi: float,
    r: float,
    w: float,
    h: float,
    buf: FloatArray,
    count: int,
) -> int:
    dx = minimal_offset(pos[j, 0] - xi, w)
    dy = minimal_offset(pos[j, 1] - yi, h)
    d = distance_below(dx, dy, r)
    if d < r:
        if count < buf.shape[0]:
            buf[count, 0] = j
            buf[count, 1] = dx
            buf[count, 2] = dy
            buf[count, 3] = d
            buf[count, 4] = slot
        count += 1
    return count


@njit
def distance_below(dx: float, dy: float, r: float) -> float:
    """``hypot(dx, dy)`` where that is below ``r``; some value >= ``r`` (or NaN) otherwise.

    The usual case is decided on squares (``hypot`` costs some 25 ns in compiled code, several
    times a squared distance); ``hypot`` itself is used only where squares could overflow or
    lose precision (lengths beyond 1e150 or below 1e-140)."""
    s = dx * dx + dy * dy
    r2 = r * r
    if 1e-280 < s < 1e300 and r2 < 1e300:
        if s >= r2:
            return r
        return math.sqrt(s)
    return math.hypot(dx, dy)


@njit
def _range(v: float, r: float, inv: float, cells: int, wrap: bool) -> tuple[int, int]:
    """The cells (first, last) that the interval ``v +- r`` touches; in a wrapped axis they may
    run past the edges (the caller wraps them), or are all cells when they would repeat."""
    lo = np.floor((v - r) * inv - _PAD)
    hi = np.floor((v + r) * inv + _PAD)
    if wrap:
        if not hi - lo + 1.0 < cells:  # also NaN-safe
            return 0, cells - 1
        return int(lo), int(hi)
    lo = min(max(lo, 0.0), cells - 1.0)
    hi = min(max(hi, 0.0), cells - 1.0)
    if not lo <= hi:  # NaN: no cells (int() of a NaN is undefined, and read out of bounds)
        return 0, -1
    return int(lo), int(hi)


@njit_leaf
def _cells_near(floats: FloatArray, xi: float, yi: float, r: float) -> tuple[int, int, int, int]:
    """The cells (first and last column, first and last row) that the disc of radius ``r``
    round (xi, yi) touches, the point taken into the world first in a wrap-around one (see
    :func:`_range`)."""
    w = floats[F_W]
    h = floats[F_H]
    wrap = w > 0.0
    if wrap:
        xq = xi - w * np.floor(xi / w)
        yq = yi - h * np.floor(yi / h)
    else:
        xq = xi - floats[F_X0]
        yq = yi - floats[F_Y0]
    lx, hx = _range(xq, r, floats[F_ICW], int(floats[F_NX]), wrap)
    ly, hy = _range(yq, r, floats[F_ICH], int(floats[F_NY]), wrap)
    return lx, hx, ly, hy


@njit_leaf
def near(
    ints: IntArray, floats: FloatArray, pos: FloatArray, i: int, r: float, buf: FloatArray
) -> int:
    """The neighbours ``j != i`` of agent ``i`` closer than ``r``, written as rows ``(j, dx, dy,
    d, slot)`` of ``buf`` (offset from ``i`` to ``j``, minimal image in a torus, its length, and
    ``j``'s place in grid order, see :func:`in_grid_order`), in a fixed order. Returns how many
    there are; when that exceeds the rows of ``buf`` only the first fit and the caller grows
    ``buf`` and asks again. ``r`` that is not positive (or NaN) finds none."""
    return near_point(ints, floats, pos, pos[i, 0], pos[i, 1], i, r, buf)


@njit_leaf
def near_point(
    ints: IntArray,
    floats: FloatArray,
    pos: FloatArray,
    xi: float,
    yi: float,
    i: int,
    r: float,
    buf: FloatArray,
) -> int:
    """:func:`near` around the point (xi, yi), leaving out point ``i`` of ``pos`` (-1: none):
    the points of a grid nearer than ``r`` to any place, such as the hiding spots near an
    agent. A point that is not finite has no neighbours."""
    n = pos.shape[0]
    count = 0
    if not (r > 0.0 and math.isfinite(xi) and math.isfinite(yi)):
        return 0
    w = floats[F_W]
    h = floats[F_H]
    mode = floats[F_MODE]
    if mode == MODE_BRUTE:
        for j in range(n):
            if j != i:
                count = _consider(pos, j, j, xi, yi, r, w, h, buf, count)
        return count
    wrap = w > 0.0
    nx = int(floats[F_NX])
    ny = int(floats[F_NY])
    t = int(floats[F_T])
    lx, hx, ly, hy = _cells_near(floats, xi, yi, r)
    hashed = mode == MODE_HASH
    if hashed and (hx - lx + 1) * (hy - ly + 1) > t:
        # A disc wider than the table: every agent once (cheaper than every cell).
        for j in range(n):
            if j != i:
                count = _consider(pos, j, j, xi, yi, r, w, h, buf, count)
        return count
    order = t + 1
    keys = t + 1 + n
    cap = buf.shape[0]
    r2 = r * r
    if r2 < 1e300 and not hashed and not wrap:
        # The common case, kept lean: squared distances decide exactly here (a square that
        # overflows belongs to a distance far beyond r; one that underflows to a coincident
        # neighbour). Every candidate is written at the next free row and kept by counting it,
        # without a branch on the distance: about a third of the candidates are kept, in no
        # pattern a branch predictor learns, and a mispredicted branch cost more than the
        # stores (the scan of 10,000 agents went from 250 to 200 ns an agent). The square
        # roots are taken afterwards, of the kept rows only.
        for cy in range(ly, hy + 1):
            row = cy * nx
            for k in range(ints[row + lx], ints[row + hx + 1]):
                # positions in bucket order: the cells of a row are one run of memory
                dx = floats[F_POS + 2 * k] - xi
                dy = floats[F_POS + 2 * k + 1] - yi
                s = dx * dx + dy * dy
                j = ints[order + k]
                if count < cap:
                    buf[count, 0] = j
                    buf[count, 1] = dx
                    buf[count, 2] = dy
                    buf[count, 3] = s
                    buf[count, 4] = k
                count += (s < r2) & (j != i)
        for q in range(min(count, cap)):
            buf[q, 3] = math.sqrt(buf[q, 3])
        return count
    for cy in range(ly, hy + 1):
        cyw = cy % ny if wrap else cy
        for cx in range(lx, hx + 1):
            cxw = cx % nx if wrap else cx
            key = cxw * ny + cyw
            b = _hash(cxw, cyw, t - 1) if hashed else cyw * nx + cxw
            for k in range(ints[b], ints[b + 1]):
                if hashed and ints[keys + k] != key:
                    continue
                j = ints[order + k]
                if j != i:
                    count = _consider(pos, j, k, xi, yi, r, w, h, buf, count)
    return count


@njit_leaf
def agent_at(ints: IntArray, floats: FloatArray, s: int) -> int:
    """The ``s``-th agent in grid order (bucket by bucket; index order without a grid).
    Loops over agents in this order find their neighbours in memory the previous agent just
    read, several times faster in large crowds than index order."""
    if floats[F_MODE] == MODE_BRUTE:
        return s
    return ints[int(floats[F_T]) + 1 + s]


@njit
def in_grid_order(ints: IntArray, floats: FloatArray, values: FloatArray) -> FloatArray:
    """(N, 2) ``values`` rows in grid order: row ``slot`` of the result is the row of the agent
    at that slot. Kernels that read a neighbour's velocity gather it once so that neighbours
    in one cell sit side by side in memory (read by slot instead of by agent index)."""
    n = values.shape[0]
    out = np.empty((n, 2))
    for s in range(n):
        j = agent_at(ints, floats, s)
        out[s, 0] = values[j, 0]
        out[s, 1] = values[j, 1]
    return out


@njit
def query(
    ints: IntArray, floats: FloatArray, pos: FloatArray, i: int, r: float, buf: FloatArray
) -> tuple[int, FloatArray]:
    """:func:`near` with ``buf`` grown as needed: (count, the buffer holding them).

    For loops that run once per agent, write its four lines out instead (``k = near(...)``,
    and when ``k`` exceeds the buffer's rows a buffer of ``2 * k`` rows and ``near`` again):
    a compiled call that returns an array keeps numba's reference counting and is never
    inlined, which cost 50-70 ns an agent (measured: 10,000 agents' neighbours at 25 px, 0.83
    ms written out, 1.51 ms through this function)."""
    k = near(ints, floats, pos, i, r, buf)
    if k > buf.shape[0]:
        buf = np.empty((2 * k, BUF_COLS))
        k = near(ints, floats, pos, i, r, buf)
    return k, buf


@njit
def _count_pairs(
    ints: IntArray,
    floats: FloatArray,
    pos: FloatArray,
    radii: FloatArray,
    rows: IntArray,
    counts: IntArray,
) -> None:
    buf = np.empty((64, BUF_COLS))
    for a in range(rows.shape[0]):
        i = rows[a]
        k, buf = query(ints, floats, pos, i, radii[i], buf)
        counts[a] = k


@njit
def _fill_pairs(
    ints: IntArray,
    floats: FloatArray,
    pos: FloatArray,
    radii: FloatArray,
    rows: IntArray,
    offsets: IntArray,
    out_i: IntArray,
    out_j: IntArray,
) -> None:
    buf = np.empty((64, BUF_COLS))
    for a in range(rows.shape[0]):
        i = rows[a]
        k, buf = query(ints, floats, pos, i, radii[i], buf)
        s = offsets[a]
        for m in range(k):
            out_i[s + m] = i
            out_j[s + m] = int(buf[m, 0])
