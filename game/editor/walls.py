"""Wall edits as pure level transforms: a wall's corners edit like a path's nodes.

A ``polyline`` wall keeps at least two corners and a ``polygon`` three; a ``rect`` wall stays
an axis-aligned rectangle while a corner is dragged (the opposite corner stays put), and
becomes a polygon when a corner is inserted or deleted. Points come in already placed (clamped
into the world and rounded or snapped by the edit model); the loader's own checks (corners
inside the world, the player not inside a wall) come after, in the edit model.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from game.level import Level, Point, Rect, WallData

from .geometry import round_coord
from .objects import RefusedError, span

__all__ = [
    "rect_corners",
    "wall_closed_toggled",
    "wall_node_deleted",
    "wall_node_inserted",
    "wall_node_moved",
    "wall_translated",
    "with_wall",
]


def rect_corners(a: Point, b: Point, width: float, height: float) -> tuple[Point, ...]:
    """The corners of the rectangle spanned by ``a`` and ``b`` (inside the world, at least
    the smallest rectangle an edit makes), counter-clockwise from the bottom left, as the
    loader reads a ``rect`` wall."""
    r = span(a, b, width, height)
    return ((r.left, r.bottom), (r.right, r.bottom), (r.right, r.top), (r.left, r.top))


def _free_corners(wall: WallData) -> tuple[Point, ...]:
    """A wall's corners as a polygon or polyline holds them: a rectangle's (whose right and
    top are ``left + width`` and ``bottom + height``, as the loader computes them) rounded
    as the loader rounds free corners."""
    if wall.shape != "rect":
        return wall.points
    return tuple((round_coord(x), round_coord(y)) for x, y in wall.points)


def _least(wall: WallData) -> int:
    return 2 if wall.shape == "polyline" else 3


def _keeps(wall: WallData, what: str) -> str:
    """The refusal in the designer's words (open, closed), not the format's shape names."""
    words = (
        "an open wall needs at least two"
        if _least(wall) == 2
        else "a closed wall needs at least three"
    )
    return f"{words} {what}"


def _check(points: tuple[Point, ...], wall: WallData) -> None:
    """Refuse corners the loader would refuse for ``wall``'s shape, or that repeat."""
    if len(set(points)) < _least(wall):
        raise RefusedError(_keeps(wall, "distinct corners"))
    ring = points + (points[:1] if wall.closed else ())
    if any(p == q for p, q in pairwise(ring)):
        raise RefusedError("two neighbouring corners of a wall cannot be on one spot")


def with_wall(level: Level, index: int, wall: WallData) -> Level:
    """``level`` with wall ``index`` replaced by ``wall``."""
    walls = list(level.walls)
    walls[index] = wall
    return replace(level, walls=tuple(walls))


def wall_node_moved(level: Level, index: int, node: int, point: Point) -> Level:
    """Corner ``node`` of wall ``index`` at ``point`` (a rectangle's opposite corner stays)."""
    wall = level.walls[index]
    if wall.shape == "rect":
        far = wall.points[(node + 2) % 4]
        points = rect_corners(point, far, level.width_px, level.height_px)
    else:
        pts = list(wall.points)
        pts[node] = point
        points = tuple(pts)
    _check(points, wall)
    return with_wall(level, index, replace(wall, points=points))


def wall_node_inserted(level: Level, index: int, at: int, point: Point) -> Level:
    """A new corner at ``point`` that becomes corner ``at`` of wall ``index`` (a rectangle
    becomes a polygon)."""
    wall = level.walls[index]
    corners = _free_corners(wall)
    points = (*corners[:at], point, *corners[at:])
    shape = "polygon" if wall.shape == "rect" else wall.shape
    new = replace(wall, points=points, shape=shape)
    _check(points, new)
    return with_wall(level, index, new)


def wall_node_deleted(level: Level, index: int, node: int) -> Level:
    """Wall ``index`` without corner ``node`` (a rectangle becomes a triangle)."""
    wall = level.walls[index]
    if len(wall.points) <= _least(wall):
        raise RefusedError(_keeps(wall, "corners"))
    corners = _free_corners(wall)
    points = corners[:node] + corners[node + 1 :]
    new = replace(wall, points=points, shape="polygon" if wall.shape == "rect" else wall.shape)
    _check(points, new)
    return with_wall(level, index, new)


def wall_closed_toggled(level: Level, index: int) -> Level:
    """Close an open wall (a polygon) or open a closed one (a polyline, also from a rect)."""
    wall = level.walls[index]
    shape = "polyline" if wall.closed else "polygon"
    new = replace(wall, points=_free_corners(wall), shape=shape)
    _check(new.points, new)
    return with_wall(level, index, new)


def wall_translated(level: Level, index: int, dx: float, dy: float) -> Level:
    """Wall ``index`` moved by (dx, dy), as far as the world's edges allow (the whole wall
    moves together, so its shape never changes)."""
    wall = level.walls[index]
    xs = [x for x, _ in wall.points]
    ys = [y for _, y in wall.points]
    dx = min(max(dx, -min(xs)), level.width_px - max(xs))
    dy = min(max(dy, -min(ys)), level.height_px - max(ys))
    points: tuple[Point, ...]
    if wall.shape == "rect":
        (left, bottom), (right, top) = wall.points[0], wall.points[2]
        r = Rect(
            round_coord(left + dx),
            round_coord(bottom + dy),
            round_coord(right - left),
            round_coord(top - bottom),
        )
        points = ((r.left, r.bottom), (r.right, r.bottom), (r.right, r.top), (r.left, r.top))
    else:
        points = tuple((round_coord(x + dx), round_coord(y + dy)) for x, y in wall.points)
    return with_wall(level, index, replace(wall, points=points))
