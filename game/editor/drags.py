"""Drags of the edit model: what a press starts dragging, and the level at each cursor place.

Pure functions over a :class:`Drag`; the model (:mod:`game.editor.core`) holds the drag in
progress, makes each level current and records the whole drag as one undo step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from game.level import Level, ObstacleData, Point

from .geometry import nearest_on_polyline
from .hits import OBJECT_KINDS, Hit, HitKind, corners
from .objects import Ref, anchor, get, rect_of
from .transforms import (
    Placing,
    checked,
    find_path,
    with_arrow,
    with_insert,
    with_moved,
    with_node,
    with_path_radius,
    with_rock_at,
    with_rock_radius,
    with_span,
)
from .walls import rect_corners, wall_node_moved, wall_translated, with_wall

#: A creating drag shorter than this keeps the new object's default size (px).
FRESH_PX = 6.0

_LABELS = {
    HitKind.SPAWN: "move {}",
    HitKind.AREA: "move {}",
    HitKind.CORNER: "resize {}",
    HitKind.ARROW: "flow direction",
    HitKind.WALL: "move {}",
}


@dataclass
class Drag:
    """A drag in progress: what is dragged and where it all started."""

    kind: HitKind
    path: str
    index: int
    start: Point
    origin: Point
    grab: float
    before: Level
    base: Level
    label: str
    ref: Ref | None = None
    anchor: Point = (0.0, 0.0)
    fresh: bool = False


def start_drag(level: Level, hit: Hit, x: float, y: float, placing: Placing) -> Drag | None:
    """The drag a press on ``hit`` with the cursor at (x, y) starts, or None (inside a tube).

    A press on a segment inserts a node there: the drag's ``base`` is then the level with
    that node, which the drag moves.

    Raises:
        RefusedError: when the node cannot be inserted.
    """
    kind, index, origin, grab, label, base = hit.kind, hit.index, hit.point, 0.0, "", level
    if kind is HitKind.NODE and hit.wall is not None:
        corner = level.walls[hit.wall].points[index]
        return Drag(kind, "", index, (x, y), corner, 0.0, level, level, "move wall corner", hit.ref)
    if kind is HitKind.NODE:
        origin, label = find_path(level, hit.path).points[index], "move node"
    elif kind is HitKind.SEGMENT:
        path = find_path(level, hit.path)
        base = with_insert(level, path, index + 1, placing.place(level, *hit.point))
        kind, index, label = HitKind.NODE, index + 1, "insert node"
        origin = find_path(base, hit.path).points[index]
    elif kind is HitKind.EDGE:
        path = find_path(level, hit.path)
        near = nearest_on_polyline(path.points, path.closed, x, y)
        edge = path.segment_radii[near.segment] if near else path.radius
        grab = edge - (near.distance if near else 0.0)
        label = "path radius"
    elif kind in (HitKind.ROCK, HitKind.RIM):
        # The rock's centre as the hit saw it: a pushable rock's live place while the
        # world runs (its handle follows it), else its place in the level.
        rock = level.obstacles[index]
        origin = hit.point
        grab = rock.radius - math.hypot(x - origin[0], y - origin[1])
        label = "move rock" if kind is HitKind.ROCK else "resize rock"
        return Drag(kind, "", index, (x, y), origin, grab, level, level, label, anchor=origin)
    elif kind in OBJECT_KINDS:
        ref = hit.ref
        assert ref is not None
        item = get(level, ref)
        rect = rect_of(item)
        origin, far = anchor(item), origin
        if kind is HitKind.CORNER and rect is not None:
            origin, far = corners(rect)[index], corners(rect)[(index + 2) % 4]
        if kind is HitKind.ARROW:
            origin = hit.point
        label = _LABELS[kind].format(ref.cls)
        return Drag(kind, "", index, (x, y), origin, 0.0, level, level, label, ref, far)
    else:
        return None
    return Drag(kind, hit.path, index, (x, y), origin, grab, level, base, label)


def creating_drag(before: Level, base: Level, ref: Ref, point: Point, label: str) -> Drag:
    """The drag that shapes the object ``ref`` just made in ``base``: a rock's radius, a
    rectangle's opposite corner from ``point`` (the placed press), a spawn point's place."""
    item = get(base, ref)
    if isinstance(item, ObstacleData):
        kind, start = HitKind.RIM, (item.x, item.y)
    elif rect_of(item) is not None:
        kind, start = HitKind.CORNER, point
    else:
        kind, start = HitKind.SPAWN, anchor(item)
    return Drag(kind, "", ref.index, start, start, 0.0, before, base, label, ref, start, True)


def dragged(drag: Drag, x: float, y: float, placing: Placing) -> Level:
    """The drag's base level with the dragged thing moved for the cursor at (x, y).

    Raises:
        RefusedError: when that place breaks a rule.
    """
    base = drag.base
    tx = drag.origin[0] + x - drag.start[0]
    ty = drag.origin[1] + y - drag.start[1]
    if drag.kind is HitKind.NODE and drag.ref is not None:
        return _wall_dragged(drag, x, y, placing.place(base, tx, ty), placing)
    if drag.kind is HitKind.NODE:
        path = find_path(base, drag.path)
        return with_node(base, path, drag.index, placing.place(base, tx, ty))
    if drag.kind is HitKind.EDGE:
        path = find_path(base, drag.path)
        near = nearest_on_polyline(path.points, path.closed, x, y)
        return with_path_radius(base, path, (near.distance if near else 0.0) + drag.grab)
    if drag.kind is HitKind.ROCK:
        return with_rock_at(base, drag.index, placing.place(base, tx, ty))
    if drag.kind is HitKind.RIM:
        cx, cy = drag.anchor
        reach = math.hypot(x - cx, y - cy)
        if drag.fresh and reach < FRESH_PX:
            return base
        return with_rock_radius(base, drag.index, reach + drag.grab)
    ref = drag.ref
    assert ref is not None
    if drag.fresh and math.hypot(x - drag.start[0], y - drag.start[1]) < FRESH_PX:
        return base
    if drag.kind is HitKind.CORNER:
        return with_span(base, ref, placing.place(base, *drag.anchor), placing.place(base, tx, ty))
    if drag.kind is HitKind.ARROW:
        return with_arrow(base, ref, tx, ty)
    if drag.kind is HitKind.WALL:
        px, py = placing.snapped(tx, ty)
        dx, dy = px - drag.origin[0], py - drag.origin[1]
        return checked(wall_translated(base, ref.index, dx, dy))
    return with_moved(base, ref, placing.snapped(tx, ty))


def _wall_dragged(drag: Drag, x: float, y: float, target: Point, placing: Placing) -> Level:
    """A wall's corner dragged to ``target`` (placed); a new wall's drag (``fresh``) keeps
    the default size until the cursor has moved :data:`FRESH_PX`, and a new rectangle spans
    the press and the cursor."""
    base, ref = drag.base, drag.ref
    assert ref is not None
    i = ref.index
    if drag.fresh:
        if math.hypot(x - drag.start[0], y - drag.start[1]) < FRESH_PX:
            return base
        wall = base.walls[i]
        if wall.shape == "rect":
            corner = placing.place(base, x, y)
            points = rect_corners(drag.anchor, corner, base.width_px, base.height_px)
            return checked(with_wall(base, i, replace(wall, points=points)))
    return checked(wall_node_moved(base, i, drag.index, target))
