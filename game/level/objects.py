"""Validate one raw Tiled object and turn it into level data (a spawn, a path, a wall, a rock,
an exit or a flow region) in world coordinates.
"""

from __future__ import annotations

from typing import Any

from game.level.errors import Where
from game.level.images import resolve_image
from game.level.model import (
    EnemySpawn,
    ExitData,
    FlowRegion,
    LevelObject,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Point,
    Rect,
    WallData,
)
from game.level.properties import UnknownTally, property_value, warn_unknown
from game.level.schema import CLASSES, MAX_PATH_POINTS
from game.level.tiled import (
    SHAPE_WORDS,
    MapInfo,
    class_key,
    class_of,
    object_identity,
    quantize,
    read_properties,
    rotate,
    shape_of,
)
from game.level.values import read_number, short_text, suggest
from game.strict_json import describe

__all__ = ["CIRCLE_TOLERANCE", "parse_object"]


#: Allowed difference between an obstacle ellipse's width and height (px).
CIRCLE_TOLERANCE = 0.01

_EPS = 1e-6
#: Longest unknown class name shown whole (and matched against the known ones).
_CLASS_SHOWN = 60


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "an obstacle", "a path"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _inside(x: float, y: float, info: MapInfo) -> bool:
    """True when (x, y) is inside the world (border included)."""
    return -_EPS <= x <= info.width_px + _EPS and -_EPS <= y <= info.height_px + _EPS


def _outside(info: MapInfo) -> str:
    """The words for a position outside the world."""
    return f"is outside the world (0..{info.width_px:g} x 0..{info.height_px:g} px)"


def parse_object(
    obj: dict[str, Any],
    ox: float,
    oy: float,
    info: MapInfo,
    *,
    warn: bool = True,
    tally: UnknownTally | None = None,
) -> tuple[str, LevelObject] | None:
    """Turn one raw Tiled object into level data.

    Args:
        obj: The raw object.
        ox: Offset x of its layer (and groups).
        oy: Offset y of its layer (and groups).
        info: The map it belongs to.
        warn: Log unknown properties (the saver's comparisons turn this off).
        tally: Count unknown properties across a level (the first few are logged).

    Returns:
        (class name, level object), or None for an object without a class (a designer's note).

    Raises:
        LevelError: if the object is invalid.
    """
    where = object_identity(obj, Where(info.file))
    cls = class_of(obj, where)
    if "template" in obj:
        raise where.error(
            "object templates are not supported; detach them (Tiled: Detach Template)",
            "template",
        )
    if not cls:
        return None
    spec = CLASSES.get(cls)
    if spec is None:
        known = sorted(CLASSES)
        hint = suggest(cls, known) if len(cls) <= _CLASS_SHOWN else ""
        raise where.error(
            f"unknown class {short_text(cls, _CLASS_SHOWN)} (known: {', '.join(known)}){hint}",
            class_key(obj),
        )
    where = Where(where.file, where.object_id, where.object_name, cls)
    shape = shape_of(obj, where)
    x = read_number(obj, "x", where)
    y = read_number(obj, "y", where)
    w = read_number(obj, "width", where, 0.0)
    h = read_number(obj, "height", where, 0.0)
    rotation = read_number(obj, "rotation", where, 0.0)
    if shape == "rect" and w == 0 and h == 0 and "point" in spec.shapes:
        shape = "point"  # a hand-written object with no size and no "point": true
    if shape not in spec.shapes:
        allowed = " or ".join(SHAPE_WORDS[s] for s in spec.shapes)
        raise where.error(f"{_a(cls)} must be {_a(allowed)}, not {_a(SHAPE_WORDS[shape])}", "shape")
    props = read_properties(obj, where)
    values: dict[str, Any] = {p.name: property_value(props, p, where) for p in spec.props}
    if warn:
        warn_unknown(props, spec, where, tally)
    ident: dict[str, Any] = {"id": where.object_id, "name": where.object_name or ""}

    if cls == "path":
        points = _path_points(obj, shape, x, y, rotation, ox, oy, info, where)
        if not ident["name"]:
            raise where.error("a path needs a name: spawns refer to paths by name", "name")
        path = PathData(points=points, closed=shape == "polygon", **values, **ident)
        if path.radii and len(path.radii) != path.segment_count:
            raise where.error(
                f"expected {path.segment_count} values, one per segment of the "
                f"{len(points)}-node {shape}{_dropped(obj, shape, points)}, "
                f"got {len(path.radii)}",
                "radii",
            )
        return cls, path
    if cls == "wall":
        if shape == "rect":
            r = _rect(x, y, w, h, rotation, ox, oy, info, where)
            corners = ((r.left, r.bottom), (r.right, r.bottom), (r.right, r.top), (r.left, r.top))
            return cls, WallData(points=corners, shape="rect", **values, **ident)
        least = 3 if shape == "polygon" else 2
        points = _path_points(obj, shape, x, y, rotation, ox, oy, info, where, "a wall", least)
        return cls, WallData(points=points, shape=shape, **values, **ident)
    if cls == "obstacle":
        cx, cy, radius = _circle(x, y, w, h, rotation, ox, oy, info, where)
        return cls, ObstacleData(x=cx, y=cy, radius=radius, **values, **ident)
    if shape == "point":
        px, py = quantize(ox + x), quantize(info.height_px - (oy + y))
        if not _inside(px, py, info):
            raise where.error(f"position ({px:g}, {py:g}) {_outside(info)}", "x")
        if cls == "player":
            return cls, PlayerSpawn(x=px, y=py, **values, **ident)
        if cls == "enemy":
            return cls, EnemySpawn(x=px, y=py, **values, **ident)
        return cls, NpcSpawn(x=px, y=py, area=None, **values, **ident)
    rect = _rect(x, y, w, h, rotation, ox, oy, info, where)
    if cls == "exit":
        return cls, ExitData(rect=rect, **ident)
    if cls == "npc":
        cx, cy = rect.center
        return cls, NpcSpawn(x=quantize(cx), y=quantize(cy), area=rect, **values, **ident)
    image_value = values.pop("image")
    assert isinstance(image_value, str)
    image = resolve_image(image_value, info.base_dir, where, info.images) if image_value else None
    if values["kind"] == "image" and image is None:
        raise where.error("an image flow region needs an image property", "image")
    return cls, FlowRegion(rect=rect, image=image, **values, **ident)


def _dropped(obj: dict[str, Any], shape: str, points: tuple[Point, ...]) -> str:
    """Words saying repeated nodes were dropped (they change the segment count), or ""."""
    raw = obj[shape]
    return " (repeated nodes dropped)" if len(raw) != len(points) else ""


def _rect(
    x: float,
    y: float,
    w: float,
    h: float,
    rotation: float,
    ox: float,
    oy: float,
    info: MapInfo,
    where: Where,
) -> Rect:
    """A Tiled rectangle (top-left x, y; y down) as a world Rect."""
    if w <= 0:
        raise where.error(f"a rectangle's width must be > 0, got {w:g}", "width")
    if h <= 0:
        raise where.error(f"a rectangle's height must be > 0, got {h:g}", "height")
    if rotation % 360 != 0:
        raise where.error(
            f"rotated rectangles are not supported; rotation must be 0, got {rotation:g}",
            "rotation",
        )
    left = quantize(ox + x)
    bottom = quantize(info.height_px - (oy + y + h))
    rect = Rect(left, bottom, quantize(w), quantize(h))
    if not (_inside(rect.left, rect.bottom, info) and _inside(rect.right, rect.top, info)):
        raise where.error(
            f"rectangle {rect.left:g}..{rect.right:g} x {rect.bottom:g}..{rect.top:g} "
            f"{_outside(info)}",
            "x",
        )
    return rect


def _circle(
    x: float,
    y: float,
    w: float,
    h: float,
    rotation: float,
    ox: float,
    oy: float,
    info: MapInfo,
    where: Where,
) -> tuple[float, float, float]:
    """A Tiled ellipse (bounding box top-left, y down) as a world circle (x, y, radius)."""
    if abs(w - h) > CIRCLE_TOLERANCE:
        raise where.error(
            f"an obstacle's ellipse must be a circle: width {w:g} != height {h:g}", "width"
        )
    radius = quantize(w / 2)
    if radius <= 0:
        raise where.error(f"radius must be > 0, got {w / 2:g} (width {w:g})", "width")
    dx, dy = rotate(w / 2, h / 2, rotation)
    cx = quantize(ox + x + dx)
    cy = quantize(info.height_px - (oy + y + dy))
    if not _inside(cx, cy, info):
        raise where.error(f"centre ({cx:g}, {cy:g}) {_outside(info)}", "x")
    return cx, cy, radius


def _path_points(
    obj: dict[str, Any],
    shape: str,
    x: float,
    y: float,
    rotation: float,
    ox: float,
    oy: float,
    info: MapInfo,
    where: Where,
    noun: str = "a path",
    least: int = 2,
) -> tuple[Point, ...]:
    """A polyline's or polygon's points in world coordinates, repeated nodes dropped; at
    least ``least`` distinct ones (``noun`` names the object in the message)."""
    raw = obj[shape]
    if not isinstance(raw, list):
        raise where.error(f"expected a list of {{x, y}} points, got {describe(raw)}", shape)
    if len(raw) > MAX_PATH_POINTS:
        raise where.error(f"{len(raw):,} points; at most {MAX_PATH_POINTS:,}", shape)
    points: list[Point] = []
    for index, entry in enumerate(raw):
        field = f"{shape}[{index}]"
        if not isinstance(entry, dict):
            raise where.error(f"expected an {{x, y}} point, got {describe(entry)}", field)
        px = read_number(entry, "x", where)
        py = read_number(entry, "y", where)
        dx, dy = rotate(px, py, rotation)
        point = (quantize(ox + x + dx), quantize(info.height_px - (oy + y + dy)))
        if not _inside(*point, info):
            raise where.error(f"point ({point[0]:g}, {point[1]:g}) {_outside(info)}", field)
        if not points or points[-1] != point:
            points.append(point)
    if shape == "polygon" and len(points) > 1 and points[-1] == points[0]:
        points.pop()
    if len(set(points)) < least:
        words = {2: "two", 3: "three"}.get(least, str(least))
        raise where.error(
            f"{noun} needs at least {words} distinct points, got {len(set(points))}", shape
        )
    return tuple(points)
