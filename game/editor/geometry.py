"""Small pure geometry for the editor: nearest points on polylines, grid snapping, rounding,
and placing a rock so that it overlaps no other rock.

Everything is in world coordinates (x right, y up, px). No arcade, no pymunk.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from game.level import ObstacleData, Point

__all__ = [
    "COORD_DECIMALS",
    "RADIUS_DECIMALS",
    "ROCK_GAP",
    "SegmentPoint",
    "clamp_point",
    "max_free_radius",
    "nearest_on_polyline",
    "overlapping_rocks",
    "place_rock",
    "round_coord",
    "round_radius",
    "snap_point",
]

#: Edited positions are rounded to 0.01 px: exact through the saver's 0.0001 px rounding, so
#: a saved level loads back equal to the edited one, and files stay readable.
COORD_DECIMALS = 2
#: Edited radii are rounded to 0.1 px.
RADIUS_DECIMALS = 1
#: How far apart a pushed rock ends up from the rock it was pushed out of (px); more than the
#: rounding of coordinates, so rounding never brings two rocks back into contact.
ROCK_GAP = 0.05
#: How many push-outs :func:`place_rock` tries before it gives up.
_PUSH_TRIES = 24


class SegmentPoint(NamedTuple):
    """The nearest point of a polyline to a query point."""

    segment: int
    """Index of the segment (segment i runs from node i to node i + 1, the closing one last)."""
    t: float
    """Fraction along that segment, in [0, 1]."""
    point: Point
    """The nearest point itself."""
    distance: float
    """Distance from the query point to it (px)."""


def round_coord(value: float) -> float:
    """Round a coordinate to :data:`COORD_DECIMALS` places (-0.0 becomes 0.0)."""
    return round(float(value), COORD_DECIMALS) + 0.0


def round_radius(value: float) -> float:
    """Round a radius to :data:`RADIUS_DECIMALS` places."""
    return round(float(value), RADIUS_DECIMALS) + 0.0


def clamp_point(x: float, y: float, width: float, height: float) -> Point:
    """Bring (x, y) inside the world rectangle [0, width] x [0, height] and round it.

    Args:
        x: World x (px).
        y: World y (px).
        width: World width (px).
        height: World height (px).

    Returns:
        The rounded point inside the world.
    """
    return (
        round_coord(min(max(x, 0.0), width)),
        round_coord(min(max(y, 0.0), height)),
    )


def snap_point(x: float, y: float, grid: float) -> Point:
    """Snap (x, y) to the nearest corner of a square grid of cell ``grid`` anchored at (0, 0).

    Args:
        x: World x (px).
        y: World y (px).
        grid: Cell size (px); 0 or less returns the point rounded, unsnapped.

    Returns:
        The snapped point.
    """
    if grid <= 0:
        return (round_coord(x), round_coord(y))
    return (round_coord(round(x / grid) * grid), round_coord(round(y / grid) * grid))


def _segments(points: Sequence[Point], closed: bool) -> tuple[np.ndarray, np.ndarray]:
    """Start points and direction vectors of a polyline's segments, as (S, 2) arrays."""
    nodes = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if closed and len(nodes) > 1:
        ends = np.roll(nodes, -1, axis=0)
        return nodes, ends - nodes
    return nodes[:-1], nodes[1:] - nodes[:-1]


def nearest_on_polyline(
    points: Sequence[Point], closed: bool, x: float, y: float
) -> SegmentPoint | None:
    """Return the nearest point of a polyline to (x, y).

    Zero-length segments count as points. Ties go to the lower segment index.

    Args:
        points: The nodes.
        closed: Whether the last node joins the first.
        x: Query x (px).
        y: Query y (px).

    Returns:
        The nearest point, or None for a polyline with fewer than two nodes.
    """
    if len(points) < 2:
        return None
    a, d = _segments(points, closed)
    l2 = np.einsum("ij,ij->i", d, d)
    rel = np.array([x, y]) - a
    t = np.zeros(len(a))
    np.divide(np.einsum("ij,ij->i", rel, d), l2, out=t, where=l2 > 0.0)
    np.clip(t, 0.0, 1.0, out=t)
    near = a + t[:, None] * d
    dist = np.hypot(near[:, 0] - x, near[:, 1] - y)
    k = int(np.argmin(dist))
    return SegmentPoint(k, float(t[k]), (float(near[k, 0]), float(near[k, 1])), float(dist[k]))


def overlapping_rocks(rocks: Sequence[ObstacleData], index: int) -> list[int]:
    """Return the indices of the rocks that rock ``index`` overlaps (touching is allowed).

    Args:
        rocks: All rocks.
        index: The rock to test.

    Returns:
        Indices of the others it overlaps, in order.
    """
    me = rocks[index]
    return [
        j
        for j, other in enumerate(rocks)
        if j != index and math.hypot(me.x - other.x, me.y - other.y) < me.radius + other.radius
    ]


def place_rock(
    rocks: Sequence[ObstacleData],
    index: int,
    x: float,
    y: float,
    radius: float,
    width: float,
    height: float,
    away_from: Point | None = None,
) -> Point | None:
    """Find where rock ``index`` of radius ``radius`` goes when asked to go to (x, y).

    The rock is pushed straight out of every other rock it would overlap (the others never
    move), a few times over, and kept inside the world; the result is rounded like every
    edited coordinate. When no free place is found near the target (a gap too narrow, a
    crowd of rocks), the move is refused.

    Args:
        rocks: All rocks; rock ``index`` itself is ignored.
        index: The rock being placed.
        x: Target centre x (px).
        y: Target centre y (px).
        radius: Its radius (px).
        width: World width (px).
        height: World height (px).
        away_from: Where to push a rock whose target is exactly the centre of another (for
            instance where it came from); (1, 0) from that centre when None.

    Returns:
        The free centre, or None when the move is refused.
    """
    others = [r for j, r in enumerate(rocks) if j != index]
    px, py = clamp_point(x, y, width, height)
    if not others:
        return (px, py)
    centres = np.array([(r.x, r.y) for r in others], dtype=np.float64)
    radii = np.array([r.radius for r in others], dtype=np.float64)
    for _ in range(_PUSH_TRIES):
        rel = np.array([px, py]) - centres
        dist = np.hypot(rel[:, 0], rel[:, 1])
        depth = radii + radius - dist
        k = int(np.argmax(depth))
        if depth[k] <= 0.0:
            return (px, py)
        if dist[k] > 1e-9:
            ux, uy = rel[k] / dist[k]
        else:
            ax, ay = away_from if away_from is not None else (centres[k, 0] + 1.0, centres[k, 1])
            vx, vy = ax - centres[k, 0], ay - centres[k, 1]
            norm = math.hypot(vx, vy)
            ux, uy = (vx / norm, vy / norm) if norm > 1e-9 else (1.0, 0.0)
        reach = radii[k] + radius + ROCK_GAP
        px, py = clamp_point(centres[k, 0] + ux * reach, centres[k, 1] + uy * reach, width, height)
    return None


def max_free_radius(rocks: Sequence[ObstacleData], index: int) -> float:
    """Return the largest radius rock ``index`` can have without overlapping another rock.

    Args:
        rocks: All rocks.
        index: The rock to grow.

    Returns:
        The largest radius (px, may be negative when its centre is inside another rock), or
        infinity when it is the only rock.
    """
    me = rocks[index]
    best = math.inf
    for j, other in enumerate(rocks):
        if j != index:
            best = min(best, math.hypot(me.x - other.x, me.y - other.y) - other.radius)
    return best
