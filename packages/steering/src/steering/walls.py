"""Wall segments as shared data: their geometry and the spatial index that finds the walls near
each agent (:class:`~steering.AvoidWalls` steers away from them).

The index is a uniform grid (:mod:`steering._grid`) over points along the walls, queried by
compiled per-agent loops; the per-agent helpers here (:func:`wall_span`, :func:`first_piece`,
:func:`segment_distance`) are what :mod:`steering.avoid_walls`' kernel uses too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._checks import all_finite, float_array
from ._grid import Grid, build_grid, cell_span
from ._jit import njit, njit_leaf, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .vec import FloatArray

__all__ = ["MIN_WALL_LENGTH", "WallIndex", "Walls"]

#: Segments shorter than this (px) have no direction: :meth:`Walls.create` refuses them
#: (or drops them when asked to), :meth:`Walls.from_polylines` drops repeated points.
MIN_WALL_LENGTH = 1e-9

IntArray = NDArray[np.intp]
ComplexArray = NDArray[np.complex128]

_EMPTY_IDX: IntArray = np.zeros(0, dtype=np.intp)

# The index cuts segments into pieces so that one long boundary wall does not widen every
# query: the piece length is the median wall length, raised until the pieces number at most
# this many per wall (plus a constant), so memory stays linear in M.
_PIECES_PER_WALL = 8
_EXTRA_PIECES = 1024


class WallIndex(NamedTuple):
    """The walls and their spatial index as compiled loops read them (:attr:`Walls.index`; a
    NamedTuple, so the same record works compiled and with ``NUMBA_DISABLE_JIT=1``)."""

    #: (M, 2) first end, (M, 2) unit direction and (M,) length of each wall.
    start: FloatArray
    direction: FloatArray
    length: FloatArray
    #: Each index piece's wall, and its cell as (column, row).
    piece_wall: IntArray
    piece_cell: IntArray
    #: The grid of piece midpoints: each cell's run into ``items`` (piece numbers).
    cell_start: IntArray
    items: IntArray
    #: The grid's origin, inverse cell size and cell counts.
    x0: float
    y0: float
    inv: float
    nx: int
    ny: int
    #: The longest piece (px): queries read that much further.
    piece_length: float


def _segments(values: ArrayLike, name: str = "Walls.segments") -> FloatArray:
    arr = float_array(name, values)
    if arr.size == 0:
        arr = arr.reshape(0, 2, 2)
    if arr.ndim != 3 or arr.shape[1:] != (2, 2):
        raise ValueError(f"{name}: expected an (M, 2, 2) array (start, end), got {arr.shape}")
    return all_finite(name, arr)


@dataclass(eq=False)
class Walls:
    """M straight wall segments (level walls, doorways, pymunk segments), shared by every agent.

    Holds no per-agent memory. Built once with :meth:`create` or :meth:`from_polylines`;
    treat the arrays as read-only (the spatial index is built from them on first use).
    M = 0 is allowed and makes wall avoidance a no-op.

    The spatial index is a uniform grid over points along the walls (compiled, built at
    construction): each wall is cut into pieces no longer than :attr:`piece_length` and the
    grid holds the piece midpoints, so a query for everything within ``r`` of a point reads
    the cells within ``r + piece_length / 2``. Cutting keeps one long boundary wall from
    widening every query (whole-wall midpoints would need half the longest wall as slack).
    A wall with several pieces in the cells read is examined once, at the first of them.

    Attributes:
        start: (M, 2) first end of each wall, px.
        end: (M, 2) second end, px.
        direction: (M, 2) unit vectors from start to end.
        normal: (M, 2) left normals (``direction`` turned +90 degrees).
        length: (M,) lengths, px, all >= :data:`MIN_WALL_LENGTH`.
        piece_length: length of the index pieces, px (0 when M = 0).
        index: the walls and their index as compiled loops read them (:class:`WallIndex`).
        index_fields: :attr:`index` as a plain tuple of its fields, the way a compiled loop
            takes it from Python and names it again: numba types a plain tuple in C, a
            NamedTuple in Python (some 0.5 us a call, measured).
    """

    start: FloatArray
    end: FloatArray
    direction: FloatArray = field(init=False)
    normal: FloatArray = field(init=False)
    length: FloatArray = field(init=False)
    piece_length: float = field(init=False, default=0.0)
    _piece_mid: FloatArray = field(init=False, repr=False)
    _piece_wall: IntArray = field(init=False, repr=False)
    _piece_cell: IntArray = field(init=False, repr=False)
    _grid: Grid = field(init=False, repr=False)
    index: WallIndex = field(init=False, repr=False)
    index_fields: tuple[Any, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        start = float_array("Walls.start", self.start)
        end = float_array("Walls.end", self.end)
        if start.shape != end.shape:
            raise ValueError(
                f"Walls.segments: start and end differ in shape: {start.shape} and {end.shape}"
            )
        seg = _segments(np.stack((start, end), axis=1))
        self.start = np.ascontiguousarray(seg[:, 0])
        self.end = np.ascontiguousarray(seg[:, 1])
        with np.errstate(over="ignore"):  # an overflowing difference is refused just below
            delta = self.end - self.start
        if not np.isfinite(delta).all():
            raise ValueError(
                "Walls.segments: a wall is too long for float64 (its length overflows)"
            )
        self.length = np.hypot(delta[:, 0], delta[:, 1])
        short = np.flatnonzero(~(self.length >= MIN_WALL_LENGTH))
        if short.size:
            raise ValueError(
                f"Walls.segments: wall {int(short[0])} has zero length (start == end); "
                "use drop_zero_length=True to leave such walls out"
            )
        self.direction = delta / self.length[:, None] if len(self) else np.zeros((0, 2))
        self.normal = np.stack((-self.direction[:, 1], self.direction[:, 0]), axis=1)
        self._build_pieces()

    @classmethod
    def create(cls, segments: ArrayLike, *, drop_zero_length: bool = False) -> Walls:
        """Build from an (M, 2, 2) array: ``segments[k] = ((x0, y0), (x1, y1))``.

        Args:
            segments: the walls, start then end point of each.
            drop_zero_length: leave out walls whose ends coincide instead of refusing them
                (the indices of later walls then shift down).

        Raises:
            ValueError: naming ``segments`` on a bad shape, a non-finite value or (unless
                ``drop_zero_length``) a zero-length wall.
        """
        seg = _segments(segments)
        if drop_zero_length and seg.shape[0]:
            d = seg[:, 1] - seg[:, 0]
            seg = seg[np.hypot(d[:, 0], d[:, 1]) >= MIN_WALL_LENGTH]
        return cls(seg[:, 0], seg[:, 1])

    @classmethod
    def from_polylines(cls, polylines: Sequence[ArrayLike], closed: bool = False) -> Walls:
        """Walls along point lists: ``[(x0, y0), (x1, y1), ...]`` gives one wall per edge.

        With ``closed`` each polyline also gets the edge from its last point back to its
        first (a room, a pillar). Repeated consecutive points are skipped; a polyline with
        fewer than two distinct points adds no wall.

        Raises:
            ValueError: naming the polyline on a bad shape or a non-finite point.
        """
        parts: list[FloatArray] = []
        for k, line in enumerate(polylines):
            pts = float_array(f"polylines[{k}]", line)
            if pts.size == 0:
                continue
            if pts.ndim != 2 or pts.shape[1] != 2:
                raise ValueError(f"polylines[{k}]: expected (K, 2) points, got {pts.shape}")
            if not np.isfinite(pts).all():
                raise ValueError(f"polylines[{k}]: points must be finite")
            if closed and pts.shape[0] > 2:
                pts = np.concatenate((pts, pts[:1]))
            parts.append(np.stack((pts[:-1], pts[1:]), axis=1))
        seg = np.concatenate(parts) if parts else np.zeros((0, 2, 2))
        return cls.create(seg, drop_zero_length=True)

    @classmethod
    def empty(cls) -> Walls:
        """No walls at all."""
        return cls(np.zeros((0, 2)), np.zeros((0, 2)))

    def __len__(self) -> int:
        return int(self.start.shape[0])

    @property
    def segments(self) -> FloatArray:
        """(M, 2, 2) start and end of each wall (a new array)."""
        return np.stack((self.start, self.end), axis=1)

    @property
    def max_length(self) -> float:
        """The longest wall, 0 when there is none."""
        return float(self.length.max()) if len(self) else 0.0

    def _build_pieces(self) -> None:
        m = len(self)
        if m == 0:
            self.piece_length = 0.0
            self._piece_mid = np.zeros((0, 2))
            self._piece_wall = _EMPTY_IDX
            self._grid = build_grid(self._piece_mid)
            self._piece_cell = np.zeros((0, 2), dtype=np.intp)
            self._index()
            return
        piece = float(np.median(self.length))
        budget = _PIECES_PER_WALL * m + _EXTRA_PIECES
        piece = max(piece, float(self.length.sum()) / (budget - m), MIN_WALL_LENGTH)
        count = np.maximum(np.ceil(self.length / piece), 1.0).astype(np.intp)
        wall = np.repeat(np.arange(m, dtype=np.intp), count)
        first = np.cumsum(count) - count
        k = np.arange(wall.size) - np.repeat(first, count)  # piece number within its wall
        frac = (k + 0.5) / count[wall]
        self.piece_length = float((self.length / count).max())
        self._piece_mid = self.start[wall] + (self.end - self.start)[wall] * frac[:, None]
        self._piece_wall = wall
        g = self._grid = build_grid(self._piece_mid, min_cell=self.piece_length)
        # Each piece's cell as (column, row): the kernels compare them without a division.
        self._piece_cell = np.stack((g.cell_of % g.nx, g.cell_of // g.nx), axis=1)
        self._index()

    def _index(self) -> None:
        g = self._grid
        self.index = WallIndex(
            self.start,
            self.direction,
            self.length,
            self._piece_wall,
            self._piece_cell,
            g.start,
            g.items,
            float(g.x0),
            float(g.y0),
            float(g.inv),
            int(g.nx),
            int(g.ny),
            float(self.piece_length),
        )
        self.index_fields = tuple(self.index)

    def distances(self, points: ArrayLike, walls: ArrayLike) -> FloatArray:
        """Distance from each ``points[k]`` to wall ``walls[k]`` (pairs, (K,) each).

        Raises:
            ValueError: for points that are not (K, 2) or wall indices not (K,).
            IndexError: for a wall index out of range.
        """
        p = float_array("points", points)
        w = np.asarray(walls, dtype=np.intp)
        if p.ndim != 2 or p.shape[1] != 2 or w.shape != (p.shape[0],):
            raise ValueError(f"points, walls: expected (K, 2) and (K,), got {p.shape}, {w.shape}")
        if w.size and not (int(w.min()) >= 0 and int(w.max()) < len(self)):
            raise IndexError(f"walls: index out of range for {len(self)} walls")
        out = np.empty(w.size)
        _distance_rows(w.size)(p, w, self.start, self.direction, self.length, out)
        return out

    def candidates(self, agents: AgentGroup, reach: ArrayLike) -> tuple[IntArray, IntArray]:
        """Index arrays ``(agent, wall)`` of every wall within ``reach`` of an agent's center.

        ``reach`` is one distance (px) for all or one per agent; non-finite or negative
        reaches count as 0. Each pair appears once, sorted by agent then wall. Two compiled
        passes over the agents (count, then fill) read the grid cells within reach and keep
        the walls whose exact point-segment distance is within it: no Python loop.
        """
        n = agents.n
        r = np.broadcast_to(np.asarray(reach, dtype=np.float64), (n,))
        if len(self) == 0 or n == 0:
            return _EMPTY_IDX, _EMPTY_IDX
        counts = np.empty(n + 1, dtype=np.intp)
        counts[0] = 0
        index = self.index_fields
        _candidate_rows(n)(agents.pos, r, index, counts, _EMPTY_IDX, False)
        offsets = np.cumsum(counts)
        wall = np.empty(int(offsets[-1]), dtype=np.intp)
        _candidate_rows(n)(agents.pos, r, index, offsets, wall, True)
        who = np.repeat(np.arange(n, dtype=np.intp), np.diff(offsets))
        return who, wall


@njit
def segment_distance(
    px: float, py: float, ax: float, ay: float, ux: float, uy: float, wlen: float
) -> tuple[float, float, float]:
    """From point (px, py) to the segment from (ax, ay) along unit (ux, uy) for ``wlen``:
    the vector from the closest point to the point, and its length."""
    relx, rely = px - ax, py - ay
    along = relx * ux + rely * uy
    along = min(max(along, 0.0), wlen)
    awx, awy = relx - ux * along, rely - uy * along
    return awx, awy, hypot(awx, awy)


@njit
def within(
    px: float, py: float, ax: float, ay: float, ux: float, uy: float, wlen: float, reach: float
) -> tuple[bool, float, float, float]:
    """:func:`segment_distance` and whether it is at most ``reach``; a cheap squared test
    first rejects walls clearly out of reach (most of those a query reads)."""
    relx, rely = px - ax, py - ay
    along = relx * ux + rely * uy
    along = min(max(along, 0.0), wlen)
    awx, awy = relx - ux * along, rely - uy * along
    if awx * awx + awy * awy > reach * reach * (1.0 + 1e-9):
        return False, awx, awy, math.inf
    d = hypot(awx, awy)
    return d <= reach, awx, awy, d


@njit
def wall_span(
    px: float, py: float, reach: float, piece_length: float, x0: float, y0: float,
    inv: float, nx: int, ny: int,
) -> tuple[int, int, int, int]:  # fmt: skip
    """The grid cells to read for every wall within ``reach`` of (px, py): x from ``ax`` to
    ``bx``, y from ``ay`` to ``by`` (empty when ``ax > bx``)."""
    q = (reach + 0.5 * piece_length) * (1.0 + 1e-9) + 1e-9
    ax, bx = cell_span(px - q, px + q, x0, inv, nx)
    ay, by = cell_span(py - q, py + q, y0, inv, ny)
    return ax, bx, ay, by


@njit_leaf
def first_piece(
    p: int, piece_wall: IntArray, piece_cell: IntArray, ax: int, bx: int, ay: int, by: int
) -> bool:
    """Whether piece ``p`` is the first piece of its wall in the cells read. A wall's pieces
    in a rectangle of cells are consecutive (its midpoints lie in order on a line), so it is
    enough that the piece before it, of the same wall, lies outside."""
    if p == 0 or piece_wall[p - 1] != piece_wall[p]:
        return True
    cx = piece_cell[p - 1, 0]
    cy = piece_cell[p - 1, 1]
    return not (ax <= cx <= bx and ay <= cy <= by)


@rows_kernel
def _distance_rows(
    points: FloatArray,
    walls: IntArray,
    start: FloatArray,
    direction: FloatArray,
    length: FloatArray,
    out: FloatArray,
) -> None:
    for k in prange(walls.shape[0]):
        w = walls[k]
        _, _, d = segment_distance(
            points[k, 0], points[k, 1], start[w, 0], start[w, 1],
            direction[w, 0], direction[w, 1], length[w],
        )  # fmt: skip
        out[k] = d


@rows_kernel
def _candidate_rows(
    pos: FloatArray,
    reach: FloatArray,
    index: tuple[Any, ...],
    offsets: IntArray,
    out: IntArray,
    fill: bool,
) -> None:
    """Count (``fill`` False: into ``offsets[i + 1]``) or list (into ``out`` from
    ``offsets[i]``, sorted) the walls within each agent's reach (``index``:
    :attr:`Walls.index_fields`)."""
    ix = WallIndex(*index)
    start, direction, length = ix.start, ix.direction, ix.length
    piece_wall, piece_cell, cell_start, items = (
        ix.piece_wall,
        ix.piece_cell,
        ix.cell_start,
        ix.items,
    )
    x0, y0, inv, nx, ny, piece_length = ix.x0, ix.y0, ix.inv, ix.nx, ix.ny, ix.piece_length
    for i in prange(pos.shape[0]):
        r = reach[i]
        k = offsets[i] if fill else 0
        first = k
        if r > 0.0 and r < math.inf:
            px, py = pos[i, 0], pos[i, 1]
            ax, bx, ay, by = wall_span(px, py, r, piece_length, x0, y0, inv, nx, ny)
            for cy in range(ay, by + 1):
                for cx in range(ax, bx + 1):
                    c = cy * nx + cx
                    for s in range(cell_start[c], cell_start[c + 1]):
                        p = items[s]
                        if not first_piece(p, piece_wall, piece_cell, ax, bx, ay, by):
                            continue
                        w = piece_wall[p]
                        near, _, _, _ = within(
                            px, py, start[w, 0], start[w, 1],
                            direction[w, 0], direction[w, 1], length[w], r,
                        )  # fmt: skip
                        if near:
                            if fill:
                                out[k] = w
                            k += 1
        if fill:
            out[first:k].sort()
        else:
            offsets[i + 1] = k
