"""Wall segments as shared data: their geometry and the spatial index that finds the walls near
each agent (:class:`~steering.AvoidWalls` steers away from them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from .agents import AgentGroup
from .vec import FloatArray, as_complex, clamp

__all__ = ["MIN_WALL_LENGTH", "Walls"]

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


def _segments(values: ArrayLike) -> FloatArray:
    arr = np.array(values, dtype=np.float64)
    if arr.size == 0:
        arr = arr.reshape(0, 2, 2)
    if arr.ndim != 3 or arr.shape[1:] != (2, 2):
        raise ValueError(f"segments: expected an (M, 2, 2) array (start, end), got {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError("segments: values must be finite")
    return arr


@dataclass(eq=False)
class Walls:
    """M straight wall segments (level walls, doorways, pymunk segments), shared by every agent.

    Holds no per-agent memory. Built once with :meth:`create` or :meth:`from_polylines`;
    treat the arrays as read-only (the spatial index is built from them on first use).
    M = 0 is allowed and makes wall avoidance a no-op.

    The spatial index is a k-d tree over points along the walls: each wall is cut into pieces
    no longer than :attr:`piece_length` and the tree holds the piece midpoints, so a query
    for everything within ``r`` of a point asks the tree for midpoints within
    ``r + piece_length / 2``. Cutting keeps one long boundary wall from widening every query
    (a tree over whole-wall midpoints would need half the longest wall as slack).

    Attributes:
        start: (M, 2) first end of each wall, px.
        end: (M, 2) second end, px.
        direction: (M, 2) unit vectors from start to end.
        normal: (M, 2) left normals (``direction`` turned +90 degrees).
        length: (M,) lengths, px, all >= :data:`MIN_WALL_LENGTH`.
        piece_length: length of the index pieces, px (0 when M = 0).
    """

    start: FloatArray
    end: FloatArray
    direction: FloatArray = field(init=False)
    normal: FloatArray = field(init=False)
    length: FloatArray = field(init=False)
    piece_length: float = field(init=False, default=0.0)
    _piece_mid: FloatArray = field(init=False, repr=False)
    _piece_wall: IntArray = field(init=False, repr=False)
    _tree: cKDTree | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        seg = _segments(np.stack((self.start, self.end), axis=1))
        self.start = np.ascontiguousarray(seg[:, 0])
        self.end = np.ascontiguousarray(seg[:, 1])
        with np.errstate(over="ignore"):  # an overflowing difference is refused just below
            delta = self.end - self.start
        if not np.isfinite(delta).all():
            raise ValueError("segments: a wall is too long for float64 (its length overflows)")
        self.length = np.hypot(delta[:, 0], delta[:, 1])
        short = np.flatnonzero(~(self.length >= MIN_WALL_LENGTH))
        if short.size:
            raise ValueError(
                f"segments: wall {int(short[0])} has zero length (start == end); "
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
            pts = np.array(line, dtype=np.float64)
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

    def tree(self) -> cKDTree | None:
        """The k-d tree over the piece midpoints (None when M = 0), built on first use."""
        if len(self) == 0:
            return None
        if self._tree is None:
            self._tree = cKDTree(self._piece_mid)
        return self._tree

    def distances(self, points: FloatArray, walls: IntArray) -> FloatArray:
        """Distance from each ``points[k]`` to wall ``walls[k]`` (pairs, (K,) each)."""
        return _distances(self, as_complex(points), walls)

    def candidates(self, agents: AgentGroup, reach: ArrayLike) -> tuple[IntArray, IntArray]:
        """Index arrays ``(agent, wall)`` of every wall within ``reach`` of an agent's centre.

        ``reach`` is one distance (px) for all or one per agent; non-finite or negative
        reaches count as 0. Each pair appears once, sorted by agent then wall. One C call
        (``sparse_distance_matrix`` between the agents' cached tree and the pieces' tree)
        finds the candidates, then an exact point-segment distance keeps those within reach:
        no Python loop over agents or walls.
        """
        n, m = agents.n, len(self)
        r = np.broadcast_to(np.asarray(reach, dtype=np.float64), (n,))
        r = np.where(np.isfinite(r) & (r > 0.0), r, 0.0)
        wtree = self.tree()
        if wtree is None or n == 0 or not r.max() > 0.0:
            return _EMPTY_IDX, _EMPTY_IDX
        query = (float(r.max()) + 0.5 * self.piece_length) * (1.0 + 1e-9) + 1e-9
        found = agents.tree().sparse_distance_matrix(wtree, query, output_type="ndarray")
        # One key per (agent, wall): a plain sort and a neighbour test (np.unique's hashing
        # measured ten times slower here), skipped when no wall was cut into pieces.
        key = np.sort(found["i"].astype(np.int64) * m + self._piece_wall.take(found["j"]))
        if self._piece_wall.size > m and key.size > 1:
            key = key[np.concatenate(([True], key[1:] != key[:-1]))]
        ai = (key // m).astype(np.intp)
        wj = (key % m).astype(np.intp)
        keep = _distances(self, as_complex(agents.pos).take(ai), wj) <= r.take(ai)
        return ai[keep], wj[keep]


def _distances(walls: Walls, points: ComplexArray, idx: IntArray) -> FloatArray:
    """Distance from each point (complex) to wall ``idx[k]``: the real dot product written
    out (a complex product by the conjugate costs twice the multiplies) and 1-D gathers."""
    rel = points - as_complex(walls.start).take(idx)
    u = as_complex(walls.direction).take(idx)
    along = clamp(rel.real * u.real + rel.imag * u.imag, 0.0, walls.length.take(idx))
    return np.asarray(np.abs(rel - u * along))
