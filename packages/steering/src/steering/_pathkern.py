"""Compiled per-agent path maths shared by :class:`~steering.Path`, :class:`~steering.PathSet`
and :class:`~steering.FollowPath`: arc-length wrapping, segment search, the search band and the
seeds' normal point (seed 000: the scalar projection clamped to the segment).

Every path of a registry (or a lone path, a registry of one) lives in four packed arrays, one
row per path or per segment, so a kernel takes the whole geometry in four arguments:

* ``pf`` (P, 7) floats per path: :data:`P_LENGTH`, :data:`P_CLOSED` (0 or 1), :data:`P_BASE`
  (its offset in the concatenated arc coordinate), :data:`P_RADIUS` (largest segment radius),
  :data:`P_UID`, :data:`P_VERSION`, :data:`P_LIVE` (0 for an emptied slot);
* ``pi`` (P, 2) ints per path: :data:`P_LO` (first global segment), :data:`P_COUNT`;
* ``sf`` (G, 12) floats per segment: :data:`S_GSTART` (base + arc length at its start, sorted
  over all paths), :data:`S_CUM`, :data:`S_LEN`, :data:`S_INV_LEN`, :data:`S_INV_L2` (0 for a
  zero-length segment), :data:`S_RADIUS`, :data:`S_AX`, :data:`S_AY` (start), :data:`S_DX`,
  :data:`S_DY` (delta), :data:`S_UX`, :data:`S_UY` (unit direction of the real segment it
  stands for);
* ``real`` (G,) ints: the real (non-zero-length) segment each segment stands for in searches.

The search is one loop per agent over the segments of its band, so nothing of size
agents x segments is ever allocated (a whole-path search of 10,000 agents on a 10,000-node
path runs in constant memory).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._jit import njit, njit_leaf, prange, rows_kernel
from ._kern import EPSILON, hypot
from .vec import FloatArray

P_LENGTH, P_CLOSED, P_BASE, P_RADIUS, P_UID, P_VERSION, P_LIVE = range(7)
P_LO, P_COUNT = 0, 1
(
    S_GSTART,
    S_CUM,
    S_LEN,
    S_INV_LEN,
    S_INV_L2,
    S_RADIUS,
    S_AX,
    S_AY,
    S_DX,
    S_DY,
    S_UX,
    S_UY,
) = range(12)
PF_WIDTH, SF_WIDTH = 7, 12


@njit
def clampf(x: float, lo: float, hi: float) -> float:
    """``min(max(x, lo), hi)``; NaN stays NaN (as ``np.minimum(np.maximum(...))``)."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@njit
def wrap_s(s: float, big_l: float, closed: bool) -> float:
    """An arc length brought onto a path of length ``big_l``: modulo the length if closed
    (NaN for an infinite one), else clamped; 0 on a degenerate path."""
    if not big_l > EPSILON:
        return 0.0
    if closed:
        if not (s > -math.inf and s < math.inf):
            return math.nan
        out = s % big_l
        if out >= big_l:
            return 0.0
        return out
    return clampf(s, 0.0, big_l)


@njit_leaf
def search(sf: FloatArray, lo: int, count: int, x: float) -> int:
    """``searchsorted(gstart, x, side="right") - 1`` within a path's run of segments, clamped
    to it (a NaN ``x`` sorts last, as in NumPy)."""
    a = lo
    b = lo + count
    while a < b:
        mid = (a + b) >> 1
        if sf[mid, S_GSTART] > x:
            b = mid
        else:
            a = mid + 1
    j = a - 1
    if j < lo:
        j = lo
    hi = lo + count - 1
    if j > hi:
        j = hi
    return j


@njit_leaf
def locate(pf: FloatArray, pi: FloatArray, sf: FloatArray, p: int, s: float) -> tuple[int, float]:
    """Global segment and fraction along it of arc length ``s`` of path ``p`` (wrapped or
    clamped onto the path first)."""
    s = wrap_s(s, pf[p, P_LENGTH], pf[p, P_CLOSED] > 0.5)
    j = search(sf, pi[p, P_LO], pi[p, P_COUNT], pf[p, P_BASE] + s)
    t = clampf((s - sf[j, S_CUM]) * sf[j, S_INV_LEN], 0.0, 1.0)  # 0 on a zero-length segment
    return j, t


@njit_leaf
def point_at(
    pf: FloatArray, pi: FloatArray, sf: FloatArray, p: int, s: float
) -> tuple[float, float]:
    """The point at arc length ``s`` of path ``p``."""
    j, t = locate(pf, pi, sf, p, s)
    return sf[j, S_AX] + t * sf[j, S_DX], sf[j, S_AY] + t * sf[j, S_DY]


@njit_leaf
def _band_end(
    pf: FloatArray, pi: FloatArray, sf: FloatArray, p: int, e: float, closed: bool
) -> int:
    """The segment holding arc length ``e`` counted in laps of the path (closed paths:
    segment ``lap * count + j``)."""
    big_l = pf[p, P_LENGTH]
    lo = pi[p, P_LO]
    s_count = pi[p, P_COUNT]
    lap = 0.0
    if closed:
        lap = math.floor(e / big_l) if big_l > 0.0 else math.nan
        if not (lap > -math.inf and lap < math.inf):
            lap = 0.0
    r = clampf(e - lap * big_l, 0.0, big_l)
    j = search(sf, lo, s_count, pf[p, P_BASE] + r) - lo
    return int(lap * s_count + j)


@njit_leaf
def band(
    pf: FloatArray, pi: FloatArray, sf: FloatArray, p: int, hint: float, w: float
) -> tuple[int, int]:
    """First local segment and segment count of path ``p`` overlapping the arc window
    ``[hint - w, hint + w]`` (wrapping on a closed path); a non-finite hint means the whole
    path, as does a window as long as a closed path."""
    big_l = pf[p, P_LENGTH]
    s_count = pi[p, P_COUNT]
    closed = pf[p, P_CLOSED] > 0.5
    whole = not (hint > -math.inf and hint < math.inf)
    w = clampf(w, 0.0, big_l) if w > -math.inf and w < math.inf else big_l
    h = wrap_s(0.0 if whole else hint, big_l, closed)
    start = _band_end(pf, pi, sf, p, h - w, closed)
    count = _band_end(pf, pi, sf, p, h + w, closed) - start + 1
    if whole or (closed and (2.0 * w >= big_l or count >= s_count)):
        return 0, s_count
    if count < 1:
        count = 1
    return start, count


@njit_leaf
def nearest(
    pf: FloatArray,
    pi: FloatArray,
    sf: FloatArray,
    real: FloatArray,
    p: int,
    start: int,
    count: int,
    px: float,
    py: float,
) -> tuple[int, float, float, float]:
    """The seeds' normal point of (px, py) over ``count`` real segments of path ``p`` from
    local segment ``start`` on: (global segment, arc length, x, y). The first of equally near
    segments wins."""
    lo = pi[p, P_LO]
    s_count = pi[p, P_COUNT]
    local = start % s_count  # a window reaching back past node 0 starts one lap below
    best_g = real[lo + local]
    best_t = 0.0
    best_d2 = math.inf
    for k in range(count):
        g = real[lo + local]
        local += 1
        if local == s_count:
            local = 0
        rx = px - sf[g, S_AX]
        ry = py - sf[g, S_AY]
        dx = sf[g, S_DX]
        dy = sf[g, S_DY]
        t = clampf((rx * dx + ry * dy) * sf[g, S_INV_L2], 0.0, 1.0)
        rx -= t * dx
        ry -= t * dy
        d2 = rx * rx + ry * ry
        if k == 0 or d2 < best_d2:
            best_g, best_t, best_d2 = g, t, d2
    s = sf[best_g, S_CUM] + best_t * sf[best_g, S_LEN]
    if pf[p, P_CLOSED] > 0.5 and s >= pf[p, P_LENGTH]:
        s = 0.0
    x = sf[best_g, S_AX] + best_t * sf[best_g, S_DX]
    y = sf[best_g, S_AY] + best_t * sf[best_g, S_DY]
    return best_g, s, x, y


@rows_kernel
def project_rows(
    pf: FloatArray,
    pi: FloatArray,
    sf: FloatArray,
    real: FloatArray,
    index: FloatArray,
    points: FloatArray,
    hint: FloatArray,
    window: FloatArray,
    out_s: FloatArray,
    out_pt: FloatArray,
    out_seg: FloatArray,
    out_d: FloatArray,
) -> None:
    """Nearest point of each row's path ``index[i]`` to ``points[i]``, searching the band
    around ``hint[i]`` of half-width ``window[i]`` (a NaN hint: the whole path)."""
    for i in prange(points.shape[0]):
        p = index[i]
        start, count = band(pf, pi, sf, p, hint[i], window[i])
        px, py = points[i, 0], points[i, 1]
        g, s, x, y = nearest(pf, pi, sf, real, p, start, count, px, py)
        out_s[i] = s
        out_pt[i, 0] = x
        out_pt[i, 1] = y
        out_seg[i] = g
        out_d[i] = hypot(px - x, py - y)


@rows_kernel
def locate_rows(
    pf: FloatArray,
    pi: FloatArray,
    sf: FloatArray,
    index: FloatArray,
    s: FloatArray,
    out_seg: FloatArray,
    out_t: FloatArray,
) -> None:
    """Global segment and fraction along it at arc length ``s[i]`` of path ``index[i]``."""
    for i in prange(s.shape[0]):
        j, t = locate(pf, pi, sf, index[i], s[i])
        out_seg[i] = j
        out_t[i] = t


@rows_kernel
def wrap_rows(pf: FloatArray, index: FloatArray, s: FloatArray, out: FloatArray) -> None:
    """Arc lengths ``s[i]`` brought onto path ``index[i]``."""
    for i in prange(s.shape[0]):
        p = index[i]
        out[i] = wrap_s(s[i], pf[p, P_LENGTH], pf[p, P_CLOSED] > 0.5)


def empty_index(n: int) -> np.ndarray:
    """(n,) zeros: every row on path 0."""
    return np.zeros(n, dtype=np.intp)


# -- the packed geometry -----------------------------------------------------------------------

#: Arc length left between two paths in the concatenated arc coordinate (keeps their runs of
#: the global segment starts strictly apart, so one binary search serves every path).
GAP = 1.0


class _Column:
    """A named view of :class:`Geometry`'s packed arrays: column ``col`` of table ``table``
    (columns ``col:stop`` when ``stop`` is given; ``flag``: the column read as booleans),
    made on first use and then kept on the instance."""

    def __init__(self, table: str, col: int, stop: int | None = None, flag: bool = False):
        self.table, self.col, self.stop, self.flag = table, col, stop, flag
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        arr = getattr(obj, self.table)
        view = arr[:, self.col : self.stop] if self.stop is not None else arr[:, self.col]
        if self.flag:
            view = view > 0.5
        obj.__dict__[self.name] = view
        return view


class Geometry:
    """The packed arrays of some paths (see the module docstring) and NumPy views of their
    columns by name (per path: ``lo``, ``count``, ``length``, ``closed``, ``radius``,
    ``base``, ``uid``, ``version``, ``first``, ``live``; per segment: ``gstart``, ``cum``,
    ``seg_len``, ``inv_seg``, ``inv_l2``, ``seg_radius``, ``ax``, ``ay``, ``dx``, ``dy``,
    ``real``, ``unit``)."""

    def __init__(
        self,
        pf: FloatArray,
        pi: np.ndarray,
        sf: FloatArray,
        real: np.ndarray,
        first: FloatArray,
        source: tuple[FloatArray, np.ndarray, np.ndarray, FloatArray] | None = None,
    ) -> None:
        self.pf, self.pi, self.sf, self.real, self.first = pf, pi, sf, real, first
        #: The five packed arrays in :func:`_pack`'s order.
        self.packed = (pf, pi, sf, real, first)
        #: What the arrays were packed from (every slot's nodes concatenated, each slot's
        #: node and segment count, every segment's radius), kept so that moved nodes repack
        #: in one call (:func:`repack`); None for geometry not made by :func:`build_geometry`.
        self.source = source

    # The columns by name, made on first use (drifting paths repack every step, and the
    # kernels read the packed arrays, not these).
    lo = _Column("pi", P_LO)
    count = _Column("pi", P_COUNT)
    length = _Column("pf", P_LENGTH)
    closed = _Column("pf", P_CLOSED, flag=True)
    base = _Column("pf", P_BASE)
    radius = _Column("pf", P_RADIUS)
    uid = _Column("pf", P_UID)
    version = _Column("pf", P_VERSION)
    live = _Column("pf", P_LIVE, flag=True)
    gstart = _Column("sf", S_GSTART)
    cum = _Column("sf", S_CUM)
    seg_len = _Column("sf", S_LEN)
    inv_seg = _Column("sf", S_INV_LEN)
    inv_l2 = _Column("sf", S_INV_L2)
    seg_radius = _Column("sf", S_RADIUS)
    ax = _Column("sf", S_AX)
    ay = _Column("sf", S_AY)
    dx = _Column("sf", S_DX)
    dy = _Column("sf", S_DY)
    unit = _Column("sf", S_UX, S_UY + 1)


def build_geometry(slots: Sequence[Any]) -> Geometry:
    """Pack the paths in ``slots`` (objects with ``nodes``, ``closed``, ``radii``, ``uid``
    and ``version``; None for an emptied slot, a zero-length placeholder): the slots are read
    in one Python pass, the arrays filled in one compiled one (:func:`_pack`; drifting paths
    repack every step)."""
    n_paths = len(slots)
    node_list: list[FloatArray] = []
    radii_list: list[FloatArray] = []
    m = [2] * n_paths
    count = [1] * n_paths
    pf = np.zeros((n_paths, PF_WIDTH))
    for k, path in enumerate(slots):
        if path is None:
            node_list.append(_PLACEHOLDER)
            radii_list.append(_PLACEHOLDER_RADII)
            continue
        nodes = path.nodes
        node_list.append(nodes)
        radii_list.append(path.radii)
        mk = m[k] = nodes.shape[0]
        count[k] = mk if path.closed else mk - 1
        row = pf[k]
        row[P_UID] = path.uid
        row[P_VERSION] = path.version
        row[P_LIVE] = 1.0
    if n_paths:
        nodes = np.concatenate(node_list).astype(np.float64, copy=False)
        radii = np.concatenate(radii_list).astype(np.float64, copy=False)
    else:
        nodes, radii = _PLACEHOLDER[:0], _PLACEHOLDER_RADII[:0]
    counts = np.array(count, dtype=np.intp)
    g = sum(count)
    sf = np.zeros((g, SF_WIDTH))
    real = np.empty(g, dtype=np.intp)
    pi = np.zeros((n_paths, 2), dtype=np.intp)
    first = np.zeros((n_paths, 2))
    node_counts = np.array(m, dtype=np.intp)
    _pack(nodes, node_counts, counts, radii, GAP, EPSILON, pf, pi, sf, real, first)
    return Geometry(pf, pi, sf, real, first, (nodes, node_counts, counts, radii))


def repack(geo: Geometry, slots: np.ndarray, spans: np.ndarray, moved: FloatArray) -> bool:
    """Move the nodes of some of ``geo``'s paths, their counts kept (drifting paths), and pack
    its arrays again in place, in one compiled call: path ``slots[k]`` takes rows
    ``spans[k, 0]:spans[k, 1]`` of ``moved``. The arrays end as :func:`build_geometry` would
    make them. False, and nothing changed, when ``geo`` keeps no source or a node count
    differs (then build it again)."""
    if geo.source is None:
        return False
    nodes, m, counts, radii = geo.source
    return bool(_repack(nodes, m, counts, radii, slots, spans, moved, GAP, EPSILON, *geo.packed))


@njit
def drift_nodes(
    base: FloatArray,
    amp: FloatArray,
    freq: FloatArray,
    phase: FloatArray,
    t: float,
    out: FloatArray,
) -> bool:
    """Drifting nodes at time ``t`` into ``out`` (:class:`~steering.DriftingPath`'s
    ``base + amplitude * sin(rate * t + phase)``, per node and axis); whether every value is
    finite."""
    finite = True
    for i in range(base.shape[0]):
        for k in range(2):
            a = freq[i, k] * t + phase[i, k]
            # (sin of an infinite angle is NaN; plain Python's math.sin would raise instead)
            v = base[i, k] + amp[i, k] * math.sin(a) if -math.inf < a < math.inf else math.nan
            out[i, k] = v
            if not (v > -math.inf and v < math.inf):
                finite = False
    return finite


@njit
def _repack(
    nodes: FloatArray,
    m: np.ndarray,
    count: np.ndarray,
    radii: FloatArray,
    slots: np.ndarray,
    spans: np.ndarray,
    moved: FloatArray,
    gap: float,
    eps: float,
    pf: FloatArray,
    pi: np.ndarray,
    sf: FloatArray,
    real: np.ndarray,
    first: FloatArray,
) -> bool:
    """:func:`repack`'s compiled part: the moved nodes copied into the concatenated ``nodes``,
    then every array packed again (False, and nothing changed, for a node count that
    differs)."""
    n_paths = m.shape[0]
    for k in range(slots.shape[0]):
        p = slots[k]
        if p < 0 or p >= n_paths or spans[k, 1] - spans[k, 0] != m[p]:
            return False
    base = 0
    for p in range(n_paths):
        for k in range(slots.shape[0]):
            if slots[k] == p:
                lo = spans[k, 0]
                for i in range(m[p]):
                    nodes[base + i, 0] = moved[lo + i, 0]
                    nodes[base + i, 1] = moved[lo + i, 1]
        base += m[p]
    _pack(nodes, m, count, radii, gap, eps, pf, pi, sf, real, first)
    return True


#: An emptied slot's placeholder: two nodes at the origin, one segment of radius 20.
_PLACEHOLDER = np.zeros((2, 2))
_PLACEHOLDER_RADII = np.full(1, 20.0)


@njit
def _pack(
    nodes: FloatArray,
    m: np.ndarray,
    count: np.ndarray,
    radii: FloatArray,
    gap: float,
    eps: float,
    pf: FloatArray,
    pi: np.ndarray,
    sf: FloatArray,
    real: np.ndarray,
    first: FloatArray,
) -> None:
    """Fill the packed arrays of :func:`build_geometry` (see the module docstring): per
    segment its start, delta, length and their inverses (zero for a zero-length segment), arc
    lengths summed along each path's own segments, the real segment each stands for (the
    nearest earlier real one of its path, else its path's first real one), per path its
    length, base, largest radius, first node and segment run."""
    node_lo = 0
    lo = 0
    base = 0.0
    for p in range(m.shape[0]):
        c = count[p]
        mp = m[p]
        pi[p, P_LO] = lo
        pi[p, P_COUNT] = c
        first[p, 0] = nodes[node_lo, 0]
        first[p, 1] = nodes[node_lo, 1]
        cum = 0.0
        biggest = -math.inf
        first_real = -1
        latest = -1
        for local in range(c):
            j = lo + local
            a = node_lo + local
            b = node_lo + (local + 1) % mp
            ax, ay = nodes[a, 0], nodes[a, 1]
            dx, dy = nodes[b, 0] - ax, nodes[b, 1] - ay
            length = math.hypot(dx, dy)
            real_seg = length > eps
            if not real_seg:
                length = 0.0
            sf[j, S_CUM] = cum
            sf[j, S_GSTART] = base + cum
            sf[j, S_LEN] = length
            if real_seg:
                sf[j, S_INV_LEN] = 1.0 / length
                sf[j, S_INV_L2] = 1.0 / (dx * dx + dy * dy)
                latest = j
                if first_real < 0:
                    first_real = j
            else:
                sf[j, S_INV_LEN] = 0.0
                sf[j, S_INV_L2] = 0.0
            sf[j, S_RADIUS] = radii[j]
            biggest = max(biggest, radii[j])
            sf[j, S_AX] = ax
            sf[j, S_AY] = ay
            sf[j, S_DX] = dx
            sf[j, S_DY] = dy
            real[j] = latest  # -1 until the path's first real segment (fixed below)
            cum += length
        if first_real < 0:
            first_real = lo
        for local in range(c):
            j = lo + local
            if real[j] < 0:
                real[j] = first_real
            # Each segment's unit direction is its real segment's (zero for none).
            r = real[j]
            rl = sf[r, S_LEN]
            if rl > 0.0:
                sf[j, S_UX] = sf[r, S_DX] / rl
                sf[j, S_UY] = sf[r, S_DY] / rl
            else:
                sf[j, S_UX] = 0.0
                sf[j, S_UY] = 0.0
        pf[p, P_LENGTH] = cum
        pf[p, P_CLOSED] = 1.0 if count[p] == mp else 0.0
        pf[p, P_BASE] = base
        pf[p, P_RADIUS] = biggest
        base += cum + gap
        node_lo += mp
        lo += c
