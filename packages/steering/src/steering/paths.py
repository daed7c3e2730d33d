"""The path registry: every path of a world in shared, concatenated arrays.

One :class:`~steering.FollowPath` call serves agents on any number of paths because the
segments of all paths live in one set of packed arrays (:mod:`steering._pathkern`), each path a
run of it (``lo``, ``count``), and the compiled per-agent loop searches only its agent's own
run. The arrays are rebuilt from the paths' nodes in one vectorised pass when a path is edited
or drifts, so the cost of a step does not grow with the number of paths; drifting paths (seed
000 Exercise 5.11) move all their nodes in one expression (:meth:`PathSet.drift`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _pathkern as pk
from .drifting_path import DriftingPath
from .path import Path, changes
from .vec import FloatArray

__all__ = ["PathSet"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

#: The concatenated arrays of a registry's paths (packed for the kernels, with named views).
_Geometry = pk.Geometry


@dataclass(eq=False)
class _Drifts:
    """Every drifting path's motion in one set of arrays (node k of drifting path p sits at
    ``base + amplitude * sin(speed * rate * t + phase)``, as :class:`DriftingPath`)."""

    slots: list[int]
    #: Each drifting path's (first, end) rows in the arrays.
    spans: list[tuple[int, int]]
    base: FloatArray
    amp: FloatArray
    freq: FloatArray
    phase: FloatArray
    #: ``slots`` and ``spans`` as arrays, for :func:`~steering._pathkern.repack`.
    slot_array: IntArray
    span_array: IntArray
    #: Whether some drifting path also sits in another slot (then the arrays are built
    #: afresh, not repacked: the repack writes the drifting slots only).
    shared: bool = False
    #: The path change count (:func:`~steering.path.changes`) after this record's last drift:
    #: while it stays, no path changed since, so the node counts checked then still hold.
    checked: int = -1


class PathSet(MutableMapping[str, Path]):
    """The world's one registry of paths: by name (a mapping) and by index (slots).

    A path keeps its slot for the life of the registry: agents refer to it by index
    (:attr:`PathParam.path_index <steering.follow.PathParam.path_index>`), so removing a path leaves
    an empty slot rather than moving the others. Edit a path through its own methods
    (``move_node``, ``insert_node``, ..., which keep followers' progress); the registry
    notices the new version and rebuilds its concatenated arrays once, before the next
    query.

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
        #: The path change count at which ``_geo`` was last known current (-1: never).
        self._seen = -1
        for name, path in paths:
            if name in self._index:
                raise ValueError(f"PathSet: the path name {name!r:.60} is given twice")
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
        self._drifts = None  # gathered again: which paths share a slot may have changed
        self._seen = -1

    def __delitem__(self, name: str) -> None:
        slot = self._index.pop(name)
        self._slots[slot] = None
        self._names[slot] = None
        self._seen = -1
        self._drifting.pop(slot, None)
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
        edit recorded (a step's drift is far smaller than a follower's search window). When
        the concatenated arrays were current, they are packed again at once, in one compiled
        call (:func:`~steering._pathkern.repack`), instead of from every path on the next
        query.
        """
        if not self._drifting:
            return
        d = self._drifts
        if d is None:
            d = self._drifts = self._gather_drifts()
        before = changes()
        current = self._geo is not None and self._seen == before
        nodes = np.empty_like(d.base)
        finite = pk.drift_nodes(d.base, d.amp, d.freq, d.phase, float(t), nodes)
        if d.checked != before or not finite:  # a path changed since: check before moving
            self._check_drift(d, nodes, finite, t)
        slots = self._slots
        for slot, (lo, hi) in zip(d.slots, d.spans, strict=True):
            path = slots[slot]
            if path is not None:
                path._drift_checked(nodes[lo:hi])
        d.checked = after = changes()
        if current and not d.shared and pk.repack(self._geo, d.slot_array, d.span_array, nodes):  # type: ignore[arg-type]
            self._seen = after

    def _check_drift(self, d: _Drifts, nodes: FloatArray, finite: bool, t: float) -> None:
        """Refuse a drift, naming the path, whose node count no longer matches its path's or
        whose nodes are not finite (every path checked before any moves)."""
        for slot, (lo, hi) in zip(d.slots, d.spans, strict=True):
            path = self._slots[slot]
            if path is None:
                continue
            try:
                path._check_drift_count(hi - lo)
                if not finite and not np.isfinite(nodes[lo:hi]).all():
                    raise ValueError(
                        f"nodes: drifting to time {t!r} gives values that are not finite"
                    )
            except ValueError as exc:
                raise ValueError(f"PathSet.drift: path {self._names[slot]!r}: {exc}") from None

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
        ends = np.cumsum(sizes).tolist()
        spans = [(end - size, end) for size, end in zip(sizes, ends, strict=True)]
        held = Counter(id(p) for p in self._slots if p is not None)
        shared = any(held[id(self._slots[s])] > 1 for s in slots)
        return _Drifts(
            slots,
            spans,
            np.ascontiguousarray(np.concatenate(base), dtype=np.float64),
            np.ascontiguousarray(np.concatenate(amp), dtype=np.float64),
            np.ascontiguousarray(np.concatenate(freq), dtype=np.float64),
            np.ascontiguousarray(np.concatenate(phase), dtype=np.float64),
            np.array(slots, dtype=np.intp),
            np.array(spans, dtype=np.intp).reshape(-1, 2),
            shared,
        )

    # -- the concatenated geometry ---------------------------------------------------------

    def geometry(self) -> _Geometry:
        """The concatenated arrays, rebuilt when any path changed since the last call.

        Removed slots keep a placeholder of zero length (agents on them get no force). The
        arrays are the registry's own: an edit gives new ones, while a drift (:meth:`drift`)
        packs the moved nodes into the current ones in place, so read them again after
        either rather than keep a copy.
        """
        seen = changes()
        geo = self._geo
        if seen == self._seen and geo is not None:  # no path changed anywhere since
            return geo
        key = tuple(
            (p.uid, p.version, p.shape_version) if p is not None else (0, 0, 0) for p in self._slots
        )
        if key != self._key or geo is None:
            geo = self._geo = pk.build_geometry(self._slots)
            self._key = key
        self._seen = seen
        return geo

    # -- queries per agent -------------------------------------------------------------------

    def wrap(self, index: IntArray, s: ArrayLike) -> FloatArray:
        """Arc lengths brought onto each agent's path: modulo length if closed, else
        clamped (NaN for an infinite arc length on a closed path)."""
        idx, arr = _index_rows(index), _float_rows(s, index)
        out = np.empty(idx.shape[0])
        pk.wrap_rows(idx.shape[0])(self.geometry().pf, idx, arr, out)
        return out

    def _locate(self, index: IntArray, s: FloatArray) -> tuple[IntArray, FloatArray]:
        """Global segment and fraction along it at arc lengths ``s`` of each agent's path."""
        geo = self.geometry()
        idx, arr = _index_rows(index), _float_rows(s, index)
        n = idx.shape[0]
        j = np.empty(n, dtype=np.intp)
        t = np.empty(n)
        pk.locate_rows(n)(geo.pf, geo.pi, geo.sf, idx, arr, j, t)
        return j, t

    def radius_at(self, index: IntArray, s: ArrayLike) -> FloatArray:
        """(N,) the radius of the segment at arc length ``s`` of each agent's path ``index``
        (a NaN arc length reads as the path's start)."""
        arr = _float_rows(s, index)
        j, _ = self._locate(index, np.where(np.isnan(arr), 0.0, arr))
        geo = self.geometry()
        return geo.seg_radius[geo.real[j]]

    def point_at(self, index: IntArray, s: ArrayLike) -> FloatArray:
        """(N, 2) points at arc lengths ``s`` along each agent's path ``index``."""
        j, t = self._locate(index, _float_rows(s, index))
        geo = self.geometry()
        return np.stack((geo.ax[j] + t * geo.dx[j], geo.ay[j] + t * geo.dy[j]), axis=-1)

    def project(self, index: IntArray, points: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Nearest point of each agent's whole path: (N,) arc lengths and (N, 2) points."""
        idx = _index_rows(index)
        n = idx.shape[0]
        p = np.ascontiguousarray(points, dtype=np.float64).reshape(n, 2)
        geo = self.geometry()
        s = np.empty(n)
        pt = np.empty((n, 2))
        seg = np.empty(n, dtype=np.intp)
        dist = np.empty(n)
        nan = np.full(n, np.nan)
        pk.project_rows(n)(geo.pf, geo.pi, geo.sf, geo.real, idx, p, nan, nan, s, pt, seg, dist)
        return s, pt


def _index_rows(index: ArrayLike) -> IntArray:
    """Path slots as (N,) contiguous ints."""
    return np.ascontiguousarray(np.asarray(index).reshape(-1), dtype=np.intp)


def _float_rows(s: ArrayLike, index: ArrayLike) -> FloatArray:
    """Arc lengths as (N,) contiguous floats, one per slot of ``index``."""
    n = np.asarray(index).reshape(-1).shape[0]
    return np.ascontiguousarray(np.broadcast_to(np.asarray(s, dtype=np.float64), (n,)))
