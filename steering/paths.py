"""The path registry: every path of a world in shared, concatenated arrays.

One :class:`~steering.FollowPath` call serves agents on any number of paths because the
segments of all paths live in one set of arrays, each path a run of it (``lo``, ``count``),
with its arc lengths offset so that one ``searchsorted`` finds a segment of any path. The
arrays are rebuilt from the paths' nodes in one vectorised pass when a path is edited, so the
cost of a step does not grow with the number of paths; drifting paths (seed 000 Exercise 5.11)
move all their nodes in one expression (:meth:`PathSet.drift`).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .path import DriftingPath, Path, nearest_on_segments
from .vec import EPSILON, FloatArray, clamp

__all__ = ["PathSet"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

#: Arc length left between two paths in the concatenated arc coordinate (keeps their runs
#: of the global segment starts strictly apart, so one ``searchsorted`` serves every path).
_GAP = 1.0


@dataclass(eq=False)
class _Geometry:
    """Concatenated segment arrays of every path (G segments in all, P paths)."""

    # per path (P,)
    lo: IntArray
    count: IntArray
    length: FloatArray
    closed: BoolArray
    radius: FloatArray  # the largest segment radius (the search window scales with it)
    base: FloatArray
    uid: FloatArray
    version: FloatArray
    first: FloatArray  # (P, 2) node 0, where a degenerate path is
    live: BoolArray  # (P,) slots that hold a path
    # per segment (G,)
    gstart: FloatArray
    cum: FloatArray
    seg_len: FloatArray
    inv_seg: FloatArray
    inv_l2: FloatArray
    seg_radius: FloatArray
    ax: FloatArray
    ay: FloatArray
    dx: FloatArray
    dy: FloatArray
    az: NDArray[np.complex128]
    dz: NDArray[np.complex128]
    real: IntArray
    unit: FloatArray


def _geometry(slots: Sequence[Path | None]) -> _Geometry:
    """Build the concatenated arrays of the paths in ``slots`` from their nodes, in one pass
    (an empty slot, None, is a placeholder of zero length)."""
    live = np.array([p is not None for p in slots], dtype=bool)
    paths = [p if p is not None else _PLACEHOLDER for p in slots]
    m = np.array([p.n_nodes for p in paths], dtype=np.intp)
    closed = np.array([p.closed for p in paths], dtype=bool)
    nodes = np.concatenate([p.nodes for p in paths]) if paths else np.zeros((0, 2))
    node_lo = np.concatenate(([0], np.cumsum(m)[:-1])).astype(np.intp) if paths else m
    count = np.where(closed, m, m - 1)
    lo = np.concatenate(([0], np.cumsum(count)[:-1])).astype(np.intp) if paths else count
    g = int(count.sum())
    owner = np.repeat(np.arange(len(paths)), count)
    local = np.arange(g) - lo[owner]
    ia = node_lo[owner] + local
    ib = node_lo[owner] + (local + 1) % m[owner]
    a = nodes[ia]
    d = nodes[ib] - a
    seg_len = np.hypot(d[:, 0], d[:, 1])
    nonzero = seg_len > EPSILON
    seg_len[~nonzero] = 0.0
    l2 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
    inv_l2 = np.zeros(g)
    np.divide(1.0, l2, out=inv_l2, where=nonzero)
    inv_seg = np.zeros(g)
    np.divide(1.0, seg_len, out=inv_seg, where=nonzero)
    # Arc lengths by a cumulative sum along each path's own row, so every value is exactly
    # what the path computes alone (a sum over all paths would carry rounding across them).
    rows = np.zeros((len(paths), int(count.max()) + 1 if g else 1))
    rows[owner, local + 1] = seg_len
    np.cumsum(rows, axis=1, out=rows)
    cum = rows[owner, local]
    length = rows[np.arange(len(paths)), count]
    base = np.concatenate(([0.0], np.cumsum(length + _GAP)[:-1])) if paths else length
    # A zero-length segment stands for its nearest earlier real segment of the same path
    # (else the path's first real one), as in Path.
    gi = np.arange(g)
    latest = np.maximum.accumulate(np.where(nonzero, gi, -1)) if g else gi
    first_real = np.minimum.reduceat(np.where(nonzero, gi, g), lo) if g else lo
    first_real = np.where(first_real < g, first_real, lo)
    real = np.where(latest >= lo[owner], latest, first_real[owner]).astype(np.intp)
    unit = np.zeros_like(d)
    np.divide(d, seg_len[:, None], out=unit, where=nonzero[:, None])
    return _Geometry(
        lo=lo,
        count=count,
        length=length,
        closed=closed,
        radius=np.array([p.radius for p in paths], dtype=np.float64),
        base=base,
        uid=np.array([p.uid for p in paths], dtype=np.float64),
        version=np.array([p.version for p in paths], dtype=np.float64),
        first=nodes[node_lo] if paths else np.zeros((0, 2)),
        live=live,
        gstart=base[owner] + cum,
        cum=cum,
        seg_len=seg_len,
        inv_seg=inv_seg,
        inv_l2=inv_l2,
        seg_radius=np.concatenate([p.radii for p in paths]) if paths else np.zeros(0),
        ax=a[:, 0].copy(),
        ay=a[:, 1].copy(),
        dx=d[:, 0].copy(),
        dy=d[:, 1].copy(),
        az=a[:, 0] + 1j * a[:, 1],
        dz=d[:, 0] + 1j * d[:, 1],
        real=real,
        unit=unit[real],
    )


@dataclass(eq=False)
class _Drifts:
    """Every drifting path's motion in one set of arrays (node k of drifting path p sits at
    ``base + amplitude * sin(speed * rate * t + phase)``, as :class:`DriftingPath`)."""

    slots: list[int]
    sizes: list[int]
    base: FloatArray
    amp: FloatArray
    freq: FloatArray
    phase: FloatArray


class PathSet(MutableMapping[str, Path]):
    """The world's one registry of paths: by name (a mapping) and by index (slots).

    A path keeps its slot for the life of the registry: agents refer to it by index
    (``path.index`` columns), so removing a path leaves an empty slot rather than moving
    the others. Edit a path through its own methods (``move_node``, ``insert_node``, ...,
    which keep followers' progress); the registry notices the new version and rebuilds its
    concatenated arrays once, before the next query.

    Args:
        paths: name -> path, in slot order.
    """

    def __init__(self, paths: Sequence[tuple[str, Path]] = ()) -> None:
        self._slots: list[Path | None] = []
        self._names: list[str | None] = []
        self._index: dict[str, int] = {}
        self._drifting: dict[int, DriftingPath] = {}
        self._drifts: _Drifts | None = None
        self._key: tuple[tuple[int, int, int], ...] | None = None
        self._geo: _Geometry | None = None
        for name, path in paths:
            self[name] = path

    # -- the mapping -----------------------------------------------------------------------

    def __getitem__(self, name: str) -> Path:
        path = self._slots[self._index[name]]
        assert path is not None
        return path

    def __setitem__(self, name: str, path: Path) -> None:
        if not isinstance(path, Path):
            raise TypeError(f"paths[{name!r}]: expected a Path, got {type(path).__name__}")
        slot = self._index.get(name)
        if slot is None:
            slot = len(self._slots)
            self._slots.append(path)
            self._names.append(name)
            self._index[name] = slot
        else:
            self._slots[slot] = path
            self._drifting.pop(slot, None)
            self._drifts = None

    def __delitem__(self, name: str) -> None:
        slot = self._index.pop(name)
        self._slots[slot] = None
        self._names[slot] = None
        if self._drifting.pop(slot, None) is not None:
            self._drifts = None

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __repr__(self) -> str:
        return f"PathSet({list(self._index)})"

    # -- slots -------------------------------------------------------------------------------

    @property
    def n_slots(self) -> int:
        """Number of slots (paths ever added; removed ones leave an empty slot)."""
        return len(self._slots)

    def slot(self, name: str) -> int:
        """The slot index of path ``name``."""
        return self._index[name]

    def at(self, slot: int) -> Path | None:
        """The path in ``slot`` (None once removed)."""
        return self._slots[slot]

    def name_at(self, slot: int) -> str | None:
        """The name of the path in ``slot`` (None once removed)."""
        return self._names[slot]

    # -- drifting paths ------------------------------------------------------------------------

    @property
    def drifts(self) -> dict[str, DriftingPath]:
        """The drifting paths' motions, by name (a copy; set with :meth:`set_drift`)."""
        return {self._names[s] or "": d for s, d in self._drifting.items()}

    def drift_of(self, name: str) -> DriftingPath | None:
        """The motion of path ``name`` if it drifts."""
        return self._drifting.get(self._index[name])

    def set_drift(self, name: str, drift: DriftingPath | None) -> None:
        """Make path ``name`` drift with ``drift`` (None: stop drifting)."""
        slot = self._index[name]
        if drift is None:
            self._drifting.pop(slot, None)
        else:
            self._drifting[slot] = drift
        self._drifts = None

    def drift(self, t: float) -> None:
        """Move every drifting path's nodes to their places at time ``t`` (s), all at once.

        The node count stays, so followers keep their place: the nodes move in place with no
        edit recorded (a step's drift is far smaller than a follower's search window).
        """
        if not self._drifting:
            return
        d = self._drifts
        if d is None:
            d = self._drifts = self._gather_drifts()
        nodes = d.base + d.amp * np.sin(d.freq * float(t) + d.phase)
        bounds = np.cumsum(d.sizes)[:-1]
        for slot, chunk in zip(d.slots, np.split(nodes, bounds), strict=True):
            path = self._slots[slot]
            if path is not None:
                path.drift_nodes(chunk)

    def _gather_drifts(self) -> _Drifts:
        slots, sizes, base, amp, freq, phase = [], [], [], [], [], []
        for slot, dp in self._drifting.items():
            b = dp.base_nodes
            slots.append(slot)
            sizes.append(b.shape[0])
            base.append(b)
            amp.append(np.broadcast_to(dp.amplitude_xy, b.shape))
            freq.append(dp.speed * dp.rates)
            phase.append(dp.phases)
        return _Drifts(
            slots,
            sizes,
            np.concatenate(base),
            np.concatenate(amp),
            np.concatenate(freq),
            np.concatenate(phase),
        )

    # -- the concatenated geometry ---------------------------------------------------------

    def geometry(self) -> _Geometry:
        """The concatenated arrays, rebuilt when any path changed since the last call.

        Removed slots keep a placeholder of zero length (agents on them get no force).
        """
        key = tuple(
            (p.uid, p.version, p.shape_version) if p is not None else (0, 0, 0) for p in self._slots
        )
        if key != self._key or self._geo is None:
            self._geo = _geometry(self._slots)
            self._key = key
        return self._geo

    # -- queries per agent -------------------------------------------------------------------

    def wrap(self, index: IntArray, s: FloatArray) -> FloatArray:
        """Arc lengths brought onto each agent's path: modulo length if closed, else
        clamped (NaN for an infinite arc length on a closed path)."""
        return self._wrap(self.geometry(), index, s)

    @staticmethod
    def _wrap(geo: _Geometry, index: IntArray, s: FloatArray) -> FloatArray:
        big_l = geo.length[index]
        closed = geo.closed[index]
        with np.errstate(invalid="ignore", divide="ignore"):
            looped = np.mod(np.where(np.isfinite(s), s, np.nan), big_l)
        looped = np.where(looped >= big_l, 0.0, looped)
        out = np.where(closed, looped, clamp(s, 0.0, big_l))
        return np.where(big_l > EPSILON, out, 0.0)

    @staticmethod
    def _locate(geo: _Geometry, index: IntArray, s: FloatArray) -> tuple[IntArray, FloatArray]:
        """Global segment and fraction along it for arc lengths already on the paths."""
        lo = geo.lo[index]
        hi = lo + geo.count[index] - 1
        j = np.searchsorted(geo.gstart, geo.base[index] + s, side="right") - 1
        j = np.minimum(np.maximum(j, lo), hi)
        t = (s - geo.cum[j]) * geo.inv_seg[j]
        return j, clamp(t, 0.0, 1.0, out=t)

    def radius_at(self, index: IntArray, s: ArrayLike) -> FloatArray:
        """(N,) the radius of the segment at arc length ``s`` of each agent's path ``index``
        (a NaN arc length reads as the path's start)."""
        geo = self.geometry()
        arr = np.asarray(s, dtype=np.float64)
        arr = self._wrap(geo, index, np.where(np.isnan(arr), 0.0, arr))
        j, _ = self._locate(geo, index, arr)
        return geo.seg_radius[geo.real[j]]

    def point_at(self, index: IntArray, s: ArrayLike) -> FloatArray:
        """(N, 2) points at arc lengths ``s`` along each agent's path ``index``."""
        return self._point_at(self.geometry(), index, np.asarray(s, dtype=np.float64))

    @classmethod
    def _point_at(cls, geo: _Geometry, index: IntArray, s: FloatArray) -> FloatArray:
        arr = cls._wrap(geo, index, s)
        j, t = cls._locate(geo, index, arr)
        return (geo.az[j] + t * geo.dz[j]).view(np.float64).reshape(-1, 2)

    @classmethod
    def band(cls, geo: _Geometry, index: IntArray, hint: FloatArray, w: FloatArray) -> IntArray:
        """(N, K) global indices of the real segments of each agent's path overlapping its
        arc window ``[hint - w, hint + w]`` (wrapping on closed paths); a NaN hint means the
        whole path. Rows shorter than K repeat their last segment. ``geo`` is this step's
        :meth:`geometry`."""
        s_count = geo.count[index]
        big_l = geo.length[index]
        lo = geo.lo[index]
        last = s_count - 1
        closed = geo.closed[index]
        whole = ~np.isfinite(hint)
        w = np.where(np.isfinite(w), clamp(w, 0.0, big_l), big_l)
        h = cls._wrap(geo, index, np.where(whole, 0.0, hint))
        both = np.concatenate((h - w, h + w))
        both_i = np.concatenate((index, index))
        bl = np.concatenate((big_l, big_l))
        with np.errstate(invalid="ignore", divide="ignore"):
            lap = np.where(np.concatenate((closed, closed)), np.floor(both / bl), 0.0)
        lap = np.where(np.isfinite(lap), lap, 0.0)
        r = clamp(both - lap * bl, 0.0, bl)
        j = np.searchsorted(geo.gstart, geo.base[both_i] + r, side="right") - 1
        lo2 = np.concatenate((lo, lo))
        j = np.minimum(np.maximum(j, lo2), lo2 + np.concatenate((last, last))) - lo2
        n = index.shape[0]
        sc2 = np.concatenate((s_count, s_count))
        ends = (lap * sc2 + j).astype(np.intp)
        start = ends[:n]
        count = ends[n:] - start + 1
        full = whole | (closed & ((2.0 * w >= big_l) | (count >= s_count)))
        start = np.where(full, 0, start)
        count = np.where(full, s_count, np.maximum(count, 1))
        k = int(count.max()) if n else 1
        local = start[:, None] + np.minimum(np.arange(k), count[:, None] - 1)
        local %= s_count[:, None]
        return geo.real[lo[:, None] + local]

    @staticmethod
    def nearest(
        geo: _Geometry, index: IntArray, p: FloatArray, idx: IntArray
    ) -> tuple[FloatArray, FloatArray, IntArray, FloatArray, FloatArray]:
        """Nearest point of (B, N, 2) points among each row's (N, K) candidate segments.

        Returns (B, N) arc lengths on each agent's path, (B, N, 2) points, (B, N) global
        segments, (B, N) distances and (B, N) fractions along the segment.
        """
        seg, tk, d2 = nearest_on_segments(p, idx, geo.ax, geo.ay, geo.dx, geo.dy, geo.inv_l2)
        b, n = seg.shape
        s = geo.cum[seg] + tk * geo.seg_len[seg]
        big_l = geo.length[index]
        s = np.where(geo.closed[index] & (s >= big_l), 0.0, s)
        pt = (geo.az[seg] + tk * geo.dz[seg]).view(np.float64).reshape(b, n, 2)
        return s, pt, seg, np.sqrt(d2), tk

    def project(self, index: IntArray, points: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Nearest point of each agent's whole path: (N,) arc lengths and (N, 2) points."""
        n = index.shape[0]
        if n == 0:
            return np.zeros(0), np.zeros((0, 2))
        geo = self.geometry()
        band = self.band(geo, index, np.full(n, np.nan), np.zeros(n))
        s, pt, _, _, _ = self.nearest(geo, index, points[None], band)
        return s[0], pt[0]


#: What an emptied slot holds in the concatenated arrays (its agents get no force).
_PLACEHOLDER = Path([[0.0, 0.0], [0.0, 0.0]])
