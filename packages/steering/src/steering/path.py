"""Path following's path (seeds 000 and 001): a shared, editable polyline (``FollowPath``
follows it, :mod:`steering.follow`).

The path is shared data (nodes, closed flag, a radius per segment, an edit counter); each
agent's progress along it lives in the agent group's state columns, so any number of agents
and behaviours can follow one path, and the editor can move, insert or delete nodes while they
do. What an edit does to the radii and to arc lengths is :mod:`steering.path_edits`' (its radii
rules are re-exported here); nodes that move by themselves are :mod:`steering.drifting_path`'s.
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _pathkern as pk
from .path_edits import (
    ArcRemap,
    check_nodes,
    check_point,
    check_radii,
    check_radius,
    radii_after_close,
    radii_after_delete,
    radii_after_insert,
)
from .vec import EPSILON, FloatArray, as_points

__all__ = [
    "SEED_LOOKAHEAD",
    "SEED_SPEED",
    "SEED_TARGET_AHEAD",
    "Path",
    "Projection",
    "radii_after_close",
    "radii_after_delete",
    "radii_after_insert",
]

#: The seeds' vehicle speed, 2 px/frame at 60 frames a second (seed 000 Example 5.6 and the
#: starting velocity of seed 001's vehicles), in px/s.
SEED_SPEED = 120.0
#: How far ahead the seeds predict the future position at that speed (px).
SEED_LOOKAHEAD = 25.0
#: How far ahead of the normal point the seeds put the target (px).
SEED_TARGET_AHEAD = 25.0

#: How many edits a path remembers so that agents can carry their progress across them.
EDIT_HISTORY = 256

_uids = itertools.count(1)
#: How many times any path of this process changed (edited or drifted): a registry whose
#: arrays were current at some count needs no look at its paths while it stays the same.
_CHANGES = [0]


def changes() -> int:
    """The count of path changes in this process so far (every edit and every drift of any
    :class:`Path` adds one)."""
    return _CHANGES[0]


#: The arrays Path._rebuild derives from the nodes.
_DERIVED = frozenset(["_geo", "_cum", "_seg_len", "_length"])
IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


class Projection(NamedTuple):
    """The nearest point of a path to each query point."""

    s: FloatArray
    """(N,) arc length of the nearest point, in [0, length] ([0, length) on a closed path)."""
    point: FloatArray
    """(N, 2) the nearest point itself (the seeds' "normal point")."""
    segment: IntArray
    """(N,) index of the segment it lies on (segment i runs from node i to node i + 1)."""
    distance: FloatArray
    """(N,) distance from the query point to the nearest point."""


def _rows_of(name: str, value: ArrayLike, n: int) -> FloatArray:
    """``value`` as (n,) contiguous floats (a scalar for every row, or one per row)."""
    try:
        arr = np.asarray(value, dtype=np.float64)
        return np.ascontiguousarray(np.broadcast_to(arr, (n,)))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: expected a number or ({n},) numbers ({exc})") from None


class Path:
    """A polyline path with a radius per segment: shared, editable data, never per-agent state.

    Segment ``i`` runs from node ``i`` to node ``i + 1`` (on a closed path the last segment
    runs from the last node back to node 0). Positions along the path are arc lengths ``s``
    from node 0. Zero-length segments (duplicate nodes) are allowed and skipped by every
    query; a path whose nodes all coincide is *degenerate* (length 0) and acts as a point.

    Each segment has its own radius (OpenSteer's ``PolylineSegmentedPathwaySegmentRadii``):
    a corridor that is wide in open water and narrow through a gap. :attr:`radii` holds them;
    :attr:`radius` is the largest (the radius of every segment on a path of one width).
    Node edits keep them segment by segment (:func:`radii_after_insert`,
    :func:`radii_after_delete`, :func:`radii_after_close`).

    Every edit (:meth:`move_node`, :meth:`insert_node`, :meth:`delete_node`,
    :meth:`set_closed`, :meth:`set_nodes`, :meth:`set_radius` or setting :attr:`radius`)
    increments :attr:`version` and records how old arc lengths map to new ones
    (:meth:`remap`), so a follower's stored progress survives the edit. The last
    :data:`EDIT_HISTORY` edits are kept.

    Args:
        nodes: (M, 2) node positions, M >= 2, finite.
        closed: whether the last node connects back to the first.
        radius: half the width of the path (px), > 0: one value for every segment, or a
            sequence of one per segment (M - 1 when open, M when closed).

    Raises:
        ValueError: naming the field (``nodes`` or ``radius``) when it is invalid.
    """

    def __init__(
        self, nodes: ArrayLike, *, closed: bool = False, radius: float | ArrayLike = 20.0
    ) -> None:
        self._nodes = check_nodes(nodes)
        self._closed = bool(closed)
        m = self._nodes.shape[0]
        self._radii = check_radii(radius, m if self._closed else m - 1)
        #: A number unique to this path object (agents use it to notice a different path).
        self.uid = next(_uids)
        self._version = 0
        self._shape_version = 0
        self._remaps: deque[tuple[int, ArcRemap | None]] = deque(maxlen=EDIT_HISTORY)
        self._rebuild()

    def __repr__(self) -> str:
        r = self._radii
        radius = f"radius={r[0]}" if self.uniform else f"radii={r.min()}..{r.max()}"
        return (
            f"Path({self.n_nodes} nodes, closed={self._closed}, {radius}, "
            f"length={self.length:.1f}, version={self._version})"
        )

    # -- derived data ---------------------------------------------------------------------

    def __getattr__(self, name: str) -> object:
        # Derived arrays dropped by drift_nodes are rebuilt on first use (a drifting path
        # moves every step; its own arrays are needed only when something queries it).
        if name in _DERIVED and "_nodes" in self.__dict__:
            self._rebuild()
            return self.__dict__[name]
        raise AttributeError(name)

    def _rebuild(self) -> None:
        # The path as a registry of one (the packed arrays the compiled kernels read).
        geo = pk.build_geometry([self])
        self._geo = geo
        self._seg_len = geo.seg_len
        self._cum = np.append(geo.cum, geo.length[0])
        self._length = float(geo.length[0])

    @property
    def nodes(self) -> FloatArray:
        """(M, 2) node positions (read-only view; edit through the methods)."""
        view = self._nodes.view()
        view.flags.writeable = False
        return view

    @property
    def closed(self) -> bool:
        """Whether the path loops back from the last node to the first."""
        return self._closed

    @property
    def radius(self) -> float:
        """Half the path's width (px), the largest segment's; setting it sets every segment."""
        return float(self._radii.max())

    @radius.setter
    def radius(self, value: float) -> None:
        self.set_radius(check_radius(value))

    @property
    def radii(self) -> FloatArray:
        """(S,) each segment's radius (px): followers steer when their predicted position
        strays beyond the radius of the segment it is nearest to (read-only view)."""
        view = self._radii.view()
        view.flags.writeable = False
        return view

    @property
    def uniform(self) -> bool:
        """True when every segment has the same radius."""
        return bool((self._radii == self._radii[0]).all())

    def set_radius(self, radius: float | ArrayLike) -> None:
        """Set one radius for every segment, or one per segment (an edit: bumps the version).

        Raises:
            ValueError: for a value that is not finite and > 0, or the wrong count.
        """
        self._radii = check_radii(radius, self.n_segments)
        m = self.n_nodes
        self._record_edit(self._cum[:m].copy(), self._length, self._closed, np.arange(m), None)

    def radius_at(self, s: ArrayLike) -> FloatArray:
        """The radius of the segment at arc lengths ``s`` (wrapped or clamped as
        :meth:`point_at`; a zero-length segment counts as the real one it stands for)."""
        arr = np.asarray(s, dtype=np.float64)
        j, _ = self._locate(arr.reshape(-1))
        return self._radii[self._geo.real[j]].reshape(arr.shape)

    @property
    def version(self) -> int:
        """Edit counter: incremented by every edit."""
        return self._version

    @property
    def shape_version(self) -> int:
        """Counter of :meth:`drift_nodes` calls (moves that keep every follower's place)."""
        return self._shape_version

    def drift_nodes(self, nodes: ArrayLike) -> None:
        """Move every node at once, keeping the node count, without recording an edit.

        For nodes that move a little every step (a drifting path): followers keep their arc
        length and their windowed search absorbs the small change, so no remap is needed.
        The derived arrays are rebuilt lazily, when something queries this path.

        Raises:
            ValueError: if the node count changes or a value is not finite.
        """
        new = check_nodes(nodes)
        self._check_drift_count(new.shape[0])
        self._drift_checked(new)

    def _check_drift_count(self, m: int) -> None:
        """Refuse a drift to ``m`` nodes unless it is this path's node count."""
        if m != self.n_nodes:
            raise ValueError(f"nodes: drift_nodes keeps the node count {self.n_nodes}, got {m}")

    def _drift_checked(self, nodes: FloatArray) -> None:
        """:meth:`drift_nodes` with ``nodes`` already checked: finite (M, 2) float64 of this
        path's node count, not written by anyone afterwards (a registry's drift)."""
        self._nodes = nodes
        d = self.__dict__
        for name in _DERIVED:
            d.pop(name, None)
        self._shape_version += 1
        _CHANGES[0] += 1

    @property
    def n_nodes(self) -> int:
        """Number of nodes M."""
        return int(self._nodes.shape[0])

    @property
    def n_segments(self) -> int:
        """Number of segments: M - 1 when open, M when closed."""
        return int(self._seg_len.shape[0])

    @property
    def cumulative(self) -> FloatArray:
        """(S + 1,) arc length at the start of each segment, then the total length."""
        view = self._cum.view()
        view.flags.writeable = False
        return view

    @property
    def segment_lengths(self) -> FloatArray:
        """(S,) segment lengths (0 for duplicate nodes)."""
        view = self._seg_len.view()
        view.flags.writeable = False
        return view

    @property
    def length(self) -> float:
        """Total arc length (the closing segment included on a closed path)."""
        return self._length

    @property
    def degenerate(self) -> bool:
        """True when every node coincides (length 0): the path is a point."""
        return self._length <= EPSILON

    # -- queries --------------------------------------------------------------------------

    def wrap(self, s: ArrayLike) -> FloatArray:
        """Arc lengths brought onto the path: modulo the length if closed, else clamped.

        On a closed path an infinite arc length has no place and becomes NaN.
        """
        arr = np.asarray(s, dtype=np.float64)
        flat = np.ascontiguousarray(arr.reshape(-1))
        out = np.empty(flat.shape[0])
        pk.wrap_rows(out.shape[0])(self._geo.pf, pk.empty_index(out.shape[0]), flat, out)
        return out.reshape(arr.shape)

    def _locate(self, s: FloatArray) -> tuple[IntArray, FloatArray]:
        """Segment index and fraction along it for (K,) arc lengths (wrapped or clamped onto
        the path first)."""
        flat = np.ascontiguousarray(s, dtype=np.float64)
        n = flat.shape[0]
        j = np.empty(n, dtype=np.intp)
        t = np.empty(n)
        geo = self._geo
        pk.locate_rows(n)(geo.pf, geo.pi, geo.sf, pk.empty_index(n), flat, j, t)
        return j, t

    def point_at(self, s: ArrayLike) -> FloatArray:
        """Points at arc lengths ``s`` (any shape; result has a trailing axis of 2).

        A closed path wraps ``s`` modulo its length; an open one clamps it to [0, length].
        """
        arr = np.asarray(s, dtype=np.float64)
        j, t = self._locate(arr.reshape(-1))
        geo = self._geo
        pts = np.stack((geo.ax[j] + t * geo.dx[j], geo.ay[j] + t * geo.dy[j]), axis=-1)
        return pts.reshape(*arr.shape, 2)

    def tangent_at(self, s: ArrayLike) -> FloatArray:
        """Unit direction of travel (node 0 towards the end) at arc lengths ``s``.

        Zero vectors only on a degenerate path.
        """
        arr = np.asarray(s, dtype=np.float64)
        j, _ = self._locate(arr.reshape(-1))
        return self._geo.unit[j].reshape(*arr.shape, 2)

    def project(
        self,
        points: ArrayLike,
        hint_s: ArrayLike | None = None,
        window: ArrayLike | None = None,
    ) -> Projection:
        """Nearest point on the path for each of N points (one compiled search per point).

        Per segment this is the seeds' normal point: the scalar projection
        ``dot(p - a, b - a) / |b - a|`` clamped to the segment, so a normal point beyond a
        segment's end is replaced by that end. Zero-length segments are skipped.

        Args:
            points: (N, 2) query points (finite).
            hint_s: optional (N,) or scalar arc length near which to look, e.g. an agent's
                progress. Only segments overlapping ``[hint - window, hint + window]``
                (wrapping on a closed path) are searched, so a path that crosses itself or
                doubles back cannot pull the answer to a far part of it. A NaN hint searches
                the whole path for that point.
            window: (N,) or scalar half-width of the search in arc length (default 3 x
                the largest radius). Ignored without a hint.

        Returns:
            A :class:`Projection`; on a degenerate path, node 0 at ``s = 0`` for every point.
        """
        p = np.ascontiguousarray(as_points(points))
        n = p.shape[0]
        hint = np.full(n, np.nan) if hint_s is None else _rows_of("hint_s", hint_s, n)
        win = _rows_of("window", self.radius * 3.0 if window is None else window, n)
        s = np.empty(n)
        pt = np.empty((n, 2))
        seg = np.empty(n, dtype=np.intp)
        dist = np.empty(n)
        geo = self._geo
        pk.project_rows(n)(
            geo.pf, geo.pi, geo.sf, geo.real, pk.empty_index(n), p, hint, win, s, pt, seg, dist
        )
        return Projection(s, pt, seg, dist)

    # -- editing --------------------------------------------------------------------------

    def remap(self, s: ArrayLike, since_version: int) -> FloatArray:
        """Carry arc lengths measured on version ``since_version`` over to the current path.

        Returns NaN where that is impossible (a version older than the kept history, a
        future version, or an edit that replaced every node with a different count); a
        follower then searches the whole path again.
        """
        out = np.array(s, dtype=np.float64, copy=True)
        since = int(since_version)
        if since == self._version:
            return out
        if since > self._version or not self._remaps or since < self._remaps[0][0]:
            return np.full_like(out, np.nan)
        for version, step in self._remaps:
            if version < since:
                continue
            if step is None:
                return np.full_like(out, np.nan)
            out = step.apply(out)
        return out

    def _record_edit(
        self,
        old_node_arc: FloatArray,
        old_length: float,
        old_closed: bool,
        old_idx: IntArray,
        new_idx: IntArray | None,
    ) -> None:
        """Rebuild, then log how old arc lengths (anchored at surviving nodes) map to new."""
        self._rebuild()
        if new_idx is None:
            new_idx = old_idx
        new_node_arc = self._cum[: self.n_nodes]
        step = ArcRemap(
            old_node_arc[old_idx],
            new_node_arc[new_idx].copy(),
            old_length,
            self._length,
            old_closed,
            self._closed,
        )
        self._remaps.append((self._version, step))
        self._version += 1
        _CHANGES[0] += 1

    def _index(self, i: int, upper: int, name: str = "i") -> int:
        idx = int(i)
        if idx < 0:
            idx += upper
        if not 0 <= idx < upper:
            raise IndexError(f"{name}: node index {i} out of range for {self.n_nodes} nodes")
        return idx

    def _snapshot(self) -> tuple[FloatArray, float, bool]:
        return self._cum[: self.n_nodes].copy(), self._length, self._closed

    def move_node(self, i: int, xy: ArrayLike) -> None:
        """Move node ``i`` (negative counts from the end) to ``xy``."""
        idx = self._index(i, self.n_nodes)
        p = check_point(xy)
        arc, big_l, closed = self._snapshot()
        self._nodes = self._nodes.copy()
        self._nodes[idx] = p
        keep = np.arange(self.n_nodes)
        self._record_edit(arc, big_l, closed, keep, keep)

    def insert_node(self, i: int, xy: ArrayLike) -> None:
        """Insert a node at ``xy`` so that it becomes node ``i`` (0 <= i <= M); the segment
        it splits gives both halves its radius."""
        m = self.n_nodes
        idx = int(i)
        if not 0 <= idx <= m:
            raise IndexError(f"i: insert position {i} out of range 0..{m}")
        p = check_point(xy)
        arc, big_l, closed = self._snapshot()
        self._nodes = np.insert(self._nodes, idx, p, axis=0)
        self._radii = radii_after_insert(self._radii, idx, closed)
        old = np.arange(m)
        self._record_edit(arc, big_l, closed, old, np.where(old < idx, old, old + 1))

    def delete_node(self, i: int) -> None:
        """Delete node ``i`` (negative counts from the end); the segment that joins its
        neighbours keeps the radius of the segment before it.

        Raises:
            ValueError: if the path would be left with fewer than 2 nodes.
        """
        m = self.n_nodes
        idx = self._index(i, m)
        if m <= 2:
            raise ValueError(f"nodes: cannot delete node {i}: a path needs at least 2 nodes")
        arc, big_l, closed = self._snapshot()
        self._nodes = np.delete(self._nodes, idx, axis=0)
        self._radii = radii_after_delete(self._radii, idx, closed)
        old = np.delete(np.arange(m), idx)
        self._record_edit(arc, big_l, closed, old, np.where(old < idx, old, old - 1))

    def set_closed(self, closed: bool) -> None:
        """Open or close the loop (a no-op edit when unchanged still bumps the version); the
        closing segment takes the radius of the last one."""
        arc, big_l, was = self._snapshot()
        self._closed = bool(closed)
        if self._closed != was:
            self._radii = radii_after_close(self._radii, self._closed)
        keep = np.arange(self.n_nodes)
        self._record_edit(arc, big_l, was, keep, keep)

    def set_nodes(self, nodes: ArrayLike) -> None:
        """Replace every node at once (e.g. a drifting path, seed 000 Exercise 5.11).

        With the same node count, followers keep their place segment by segment; with a
        different count their progress is lost and they search the whole path again, and
        segment k of the new nodes takes the radius of the old segment at the same fraction
        of the segment list.
        """
        new = check_nodes(nodes)
        arc, big_l, closed = self._snapshot()
        same = new.shape[0] == self.n_nodes
        if not same:
            old_s = self._radii.shape[0]
            new_s = new.shape[0] if closed else new.shape[0] - 1
            self._radii = self._radii[np.minimum(np.arange(new_s) * old_s // new_s, old_s - 1)]
        self._nodes = new
        if same:
            keep = np.arange(self.n_nodes)
            self._record_edit(arc, big_l, closed, keep, keep)
        else:
            self._rebuild()
            self._remaps.append((self._version, None))
            self._version += 1
            _CHANGES[0] += 1

    def copy(self) -> Path:
        """An independent path with the same nodes, closed flag and radii (new uid)."""
        return Path(self._nodes.copy(), closed=self._closed, radius=self._radii.copy())
