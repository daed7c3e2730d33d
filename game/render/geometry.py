"""Geometry for drawing: polylines, direction chevrons, arrows, boxes, rectangles (NumPy, and
one compiled loop for the chevrons that move every frame).

No arcade here, so every shape is testable without a window. Points are world coordinates
(x right, y up); results are float arrays ready for :mod:`game.render.batch`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from steering.kernels import njit, use_cache

__all__ = [
    "arrow_segments",
    "box_segments",
    "chevrons_along",
    "circle_segments",
    "convex_fan",
    "packed_chevrons",
    "packed_path_segments",
    "polyline_segments",
    "rect_outline",
    "rect_triangles",
]

use_cache(__file__)

FloatArray = NDArray[np.float64]


def _points(points: ArrayLike) -> FloatArray:
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)


def polyline_segments(points: ArrayLike, closed: bool) -> FloatArray:
    """(K, 4) ``x0, y0, x1, y1`` rows joining consecutive points (and the last to the first
    when ``closed``)."""
    p = _points(points)
    if p.shape[0] < 2:
        return np.zeros((0, 4))
    end = np.roll(p, -1, axis=0) if closed else p[1:]
    start = p if closed else p[:-1]
    return np.concatenate((start, end), axis=1)


def chevrons_along(
    points: ArrayLike, closed: bool, spacing: float, size: float, offset: float = 0.0
) -> FloatArray:
    """Direction marks: a ``>`` every ``spacing`` px along a polyline, pointing the way its
    nodes run, starting ``offset`` px from the start (one compiled pass: the path's
    chevrons move every frame).

    Returns:
        (2K, 4) segments (two per chevron: the K left strokes, then the K right ones).
    """
    p = np.ascontiguousarray(_points(points))
    m = p.shape[0]
    if m < 2 or spacing <= 0:
        return np.zeros((0, 4))
    count = m if closed else m - 1
    cum = np.empty(count + 1)
    _cumulative(p, count, cum)
    total = float(cum[-1])
    start = offset % spacing + spacing / 2
    if not total > 0 or start >= total:
        return np.zeros((0, 4))
    k = math.ceil((total - start) / spacing)
    out = np.empty((2 * k, 4))
    _chevrons(p, count, cum, start, spacing, size, out)
    return out


def packed_path_segments(geo: Any) -> tuple[FloatArray, FloatArray]:
    """Every live path's segments of a registry's packed geometry
    (:meth:`~steering.PathSet.geometry`), in slot order, as (G, 4) ``x0, y0, x1, y1`` rows,
    and each segment's radius: what :func:`polyline_segments` gives path by path, in one
    slice (emptied slots' placeholders left out)."""
    ax, ay, dx, dy = geo.ax, geo.ay, geo.dx, geo.dy
    seg = np.stack((ax, ay, ax + dx, ay + dy), axis=1)
    radius = np.asarray(geo.seg_radius)
    live = geo.live
    if live.all():
        return seg, radius.copy()
    keep = np.repeat(live, geo.count)
    return seg[keep], radius[keep]


def packed_chevrons(geo: Any, spacing: float, offset: float) -> FloatArray:
    """:func:`chevrons_along` of every live path of a packed geometry, each path's marks as
    large as its radius asks (half of it, 5 to 10 px), in one compiled call: (2K, 4), path
    by path, each path's left strokes then its right ones."""
    length = np.asarray(geo.length)
    if not spacing > 0 or length.size == 0:
        return np.zeros((0, 4))
    start = offset % spacing + spacing / 2
    # each live path's chevrons: one every spacing px from start (chevrons_along's count)
    ok = np.asarray(geo.live) & (np.asarray(geo.count) > 0) & (length > start)
    counts = np.where(ok, np.ceil((length - start) / spacing), 0.0).astype(np.intp)
    out = np.empty((2 * int(counts.sum()), 4))
    _packed_chevrons(
        geo.lo, geo.count, geo.radius, geo.cum, geo.seg_len, geo.ax, geo.ay, geo.dx, geo.dy,
        start, spacing, counts, out,
    )  # fmt: skip
    return out


@njit
def _packed_chevrons(
    lo: Any,
    count: Any,
    radius: Any,
    cum: Any,
    seg_len: Any,
    ax: Any,
    ay: Any,
    dx: Any,
    dy: Any,
    start: float,
    spacing: float,
    counts: Any,
    out: FloatArray,
) -> None:
    row = 0
    for p in range(lo.shape[0]):
        k = counts[p]
        if k == 0:
            continue
        size = min(10.0, max(radius[p] * 0.5, 5.0))
        first = lo[p]
        last = first + count[p] - 1
        j = first
        for i in range(k):
            s = start + i * spacing
            while j < last and cum[j] + seg_len[j] <= s:  # the segment holding arc length s
                j += 1
            seg = seg_len[j]
            inv = 1.0 / seg if seg > 0 else 1.0
            ux, uy = dx[j] * inv, dy[j] * inv
            tx = ax[j] + ux * (s - cum[j])
            ty = ay[j] + uy * (s - cum[j])
            bx, by = tx - ux * size, ty - uy * size
            nx, ny = -uy * size * 0.8, ux * size * 0.8
            a = row + i
            b = row + k + i
            out[a, 0], out[a, 1], out[a, 2], out[a, 3] = bx + nx, by + ny, tx, ty
            out[b, 0], out[b, 1], out[b, 2], out[b, 3] = bx - nx, by - ny, tx, ty
        row += 2 * k


@njit
def _cumulative(p: FloatArray, count: int, cum: FloatArray) -> None:
    """Arc length at the start of each of the polyline's ``count`` segments, and the total."""
    cum[0] = 0.0
    m = p.shape[0]
    for j in range(count):
        b = (j + 1) % m
        cum[j + 1] = cum[j] + math.hypot(p[b, 0] - p[j, 0], p[b, 1] - p[j, 1])


@njit
def _chevrons(
    p: FloatArray,
    count: int,
    cum: FloatArray,
    start: float,
    spacing: float,
    size: float,
    out: FloatArray,
) -> None:
    m = p.shape[0]
    k = out.shape[0] // 2
    j = 0
    for i in range(k):
        s = start + i * spacing
        while j + 1 < count and cum[j + 1] <= s:  # the segment holding arc length s
            j += 1
        b = (j + 1) % m
        dx = p[b, 0] - p[j, 0]
        dy = p[b, 1] - p[j, 1]
        seg = cum[j + 1] - cum[j]
        inv = 1.0 / seg if seg > 0 else 1.0
        ux, uy = dx * inv, dy * inv
        tx = p[j, 0] + ux * (s - cum[j])
        ty = p[j, 1] + uy * (s - cum[j])
        bx, by = tx - ux * size, ty - uy * size
        nx, ny = -uy * size * 0.8, ux * size * 0.8
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = bx + nx, by + ny, tx, ty
        out[k + i, 0], out[k + i, 1], out[k + i, 2], out[k + i, 3] = bx - nx, by - ny, tx, ty


def arrow_segments(tails: ArrayLike, heads: ArrayLike, head_size: float | ArrayLike) -> FloatArray:
    """Arrows from tails to heads: a shaft and two head strokes each.

    Zero-length arrows give a degenerate (invisible) arrow rather than NaN.

    Returns:
        (3K, 4) segments.
    """
    t = _points(tails)
    h = _points(heads)
    d = h - t
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / np.where(length > 0, length, 1.0)[:, None]
    nrm = np.stack((-u[:, 1], u[:, 0]), axis=1)
    size = np.minimum(
        np.broadcast_to(np.asarray(head_size, dtype=np.float64), length.shape), length
    )
    back = h - u * size[:, None]
    wing = nrm * (size * 0.6)[:, None]
    return np.concatenate(
        (
            np.concatenate((t, h), axis=1),
            np.concatenate((back + wing, h), axis=1),
            np.concatenate((back - wing, h), axis=1),
        )
    )


def circle_segments(centres: FloatArray, radius: FloatArray | float, sides: int = 16) -> FloatArray:
    """Outlines of circles as (K * sides, 4) segments."""
    c = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (c.shape[0],))
    t = np.linspace(0.0, 2.0 * math.pi, sides + 1)
    ring = np.stack((np.cos(t), np.sin(t)), axis=1)
    pts = c[:, None, :] + ring[None] * r[:, None, None]
    return np.concatenate((pts[:, :-1], pts[:, 1:]), axis=2).reshape(-1, 4)


def box_segments(corners: ArrayLike) -> FloatArray:
    """Closed outlines of quadrilaterals given as (N, 4, 2) corners: (4N, 4) segments."""
    c = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)
    nxt = np.roll(c, -1, axis=1)
    return np.concatenate((c, nxt), axis=2).reshape(-1, 4)


def rect_triangles(left: float, bottom: float, width: float, height: float) -> FloatArray:
    """Two triangles covering a rectangle: (6, 2) vertices."""
    x0, y0, x1, y1 = left, bottom, left + width, bottom + height
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y0], [x1, y1], [x0, y1]], dtype=float)


def rect_outline(left: float, bottom: float, width: float, height: float) -> FloatArray:
    """The four sides of a rectangle: (4, 4) segments."""
    x0, y0, x1, y1 = left, bottom, left + width, bottom + height
    return box_segments(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float))


def convex_fan(points: ArrayLike) -> FloatArray:
    """(3K, 2) triangle vertices filling the polygon through ``points`` when it is convex
    (a fan from the first point), else none: a concave wall is drawn by its outline only."""
    p = _points(points)
    if p.shape[0] < 3:
        return np.zeros((0, 2))
    e = np.roll(p, -1, axis=0) - p
    turn = e[:, 0] * np.roll(e, -1, axis=0)[:, 1] - e[:, 1] * np.roll(e, -1, axis=0)[:, 0]
    if not ((turn >= -1e-9).all() or (turn <= 1e-9).all()):
        return np.zeros((0, 2))
    k = np.arange(1, p.shape[0] - 1)
    tri = np.stack((np.broadcast_to(p[0], (k.size, 2)), p[k], p[k + 1]), axis=1)
    return tri.reshape(-1, 2)
