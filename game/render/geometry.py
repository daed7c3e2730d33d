"""Pure NumPy geometry for drawing: polylines, direction chevrons, arrows, boxes, rectangles.

No arcade here, so every shape is testable without a window. Points are world coordinates
(x right, y up); results are float arrays ready for :mod:`game.render.batch`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "arrow_segments",
    "box_segments",
    "chevrons_along",
    "circle_segments",
    "convex_fan",
    "polyline_segments",
    "rect_outline",
    "rect_triangles",
    "sector_triangles",
]

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
    nodes run, starting ``offset`` px from the start.

    Returns:
        (2K, 4) segments (two per chevron).
    """
    seg = polyline_segments(points, closed)
    if seg.shape[0] == 0 or spacing <= 0:
        return np.zeros((0, 4))
    a, d = seg[:, :2], seg[:, 2:] - seg[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    cum = np.concatenate(([0.0], np.cumsum(length)))
    total = float(cum[-1])
    if total <= 0:
        return np.zeros((0, 4))
    s = np.arange(offset % spacing + spacing / 2, total, spacing)
    k = np.clip(np.searchsorted(cum, s, side="right") - 1, 0, seg.shape[0] - 1)
    u = d[k] / np.where(length[k] > 0, length[k], 1.0)[:, None]
    tip = a[k] + u * (s - cum[k])[:, None]
    nrm = np.stack((-u[:, 1], u[:, 0]), axis=1)
    back = tip - u * size
    left = back + nrm * size * 0.8
    right = back - nrm * size * 0.8
    return np.concatenate(
        (np.concatenate((left, tip), axis=1), np.concatenate((right, tip), axis=1))
    )


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


def sector_triangles(
    centres: ArrayLike,
    heading: ArrayLike,
    radius: ArrayLike,
    half_angle: ArrayLike,
    sides: int = 12,
) -> FloatArray:
    """(K * sides * 3, 2) triangle vertices of circular sectors (sight cones): each centred on
    its heading (radians from +x, counter-clockwise), ``half_angle`` radians to each side."""
    c = _points(centres)
    n = c.shape[0]
    h = np.broadcast_to(np.asarray(heading, dtype=np.float64), (n,))
    r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (n,))
    a = np.broadcast_to(np.asarray(half_angle, dtype=np.float64), (n,))
    t = np.linspace(-1.0, 1.0, sides + 1)
    ang = h[:, None] + a[:, None] * t[None, :]  # (n, sides + 1)
    rim = c[:, None, :] + r[:, None, None] * np.stack((np.cos(ang), np.sin(ang)), axis=2)
    tri = np.stack((np.broadcast_to(c[:, None, :], (n, sides, 2)), rim[:, :-1], rim[:, 1:]), axis=2)
    return tri.reshape(-1, 2)
