"""Every object of a level by reference: read, replace, add, remove, move and re-shape it, and
set its properties through the loader's own checks. Pure functions over frozen levels.

An object is named by a :class:`Ref`: the :class:`~game.level.Level` field that holds it and
its index there (the player is ``Ref("player", 0)``). The class of each field, and so the
properties the editor shows, come from :data:`FIELD_CLASS` and ``game.level.schema.CLASSES``;
a new class of the schema needs one line in :data:`FIELD_CLASS` (a wall's corners edit like
a path's nodes: see :mod:`game.editor.walls`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, TypeVar

from game.level import (
    CLASSES,
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    LevelError,
    LevelObject,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Point,
    PropSpec,
    Rect,
    WallData,
    loads_level,
)
from game.level.errors import Where
from game.level.images import resolve_image
from game.level.properties import property_value
from game.level.saver import apply_level, dumps_map, new_map
from game.level.tiled import quantize

from .geometry import clamp_point, round_coord

__all__ = [
    "FIELD_CLASS",
    "MIN_RECT",
    "NEW_RECT",
    "Ref",
    "RefusedError",
    "add",
    "anchor",
    "class_of",
    "get",
    "moved",
    "parse_text",
    "put",
    "rect_of",
    "refs",
    "remove",
    "span",
    "spec_of",
    "validate",
    "with_property",
    "with_rect",
]

#: Level field -> schema class of the objects it holds (the player field holds one object).
FIELD_CLASS: dict[str, str] = {
    "flows": "flow",
    "paths": "path",
    "obstacles": "obstacle",
    "player": "player",
    "exits": "exit",
    "enemies": "enemy",
    "npcs": "npc",
    "walls": "wall",
}
#: The smallest side of a rectangle an edit makes (px).
MIN_RECT = 8.0
#: The side of a rectangle made by a click without a drag (px).
NEW_RECT = 64.0


_T = TypeVar("_T")


class RefusedError(Exception):
    """An edit that would break a rule of the level; the message says which."""


@dataclass(frozen=True, order=True)
class Ref:
    """One object of a level.

    Attributes:
        field: The :class:`~game.level.Level` field holding it (``enemies``, ``player``, ...).
        index: Its index in that field (0 for the player).
    """

    field: str
    index: int = 0

    @property
    def cls(self) -> str:
        """The object's class in the level format (``enemy``, ``flow``, ...)."""
        return FIELD_CLASS[self.field]


def class_of(ref: Ref) -> str:
    """The schema class of the object ``ref`` names."""
    return FIELD_CLASS[ref.field]


def spec_of(ref: Ref) -> tuple[PropSpec, ...]:
    """The properties of the object's class, from the schema, in documentation order."""
    return CLASSES[class_of(ref)].props


def _with(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` with fields named at run time."""
    new: _T = replace(obj, **changes)  # type: ignore[type-var]
    return new


def _items(level: Level, field: str) -> tuple[Any, ...]:
    value = getattr(level, field)
    return value if isinstance(value, tuple) else (value,)


def refs(level: Level) -> list[Ref]:
    """Every object of ``level``, field by field."""
    return [
        Ref(field, i)
        for field in FIELD_CLASS
        if hasattr(level, field)
        for i in range(len(_items(level, field)))
    ]


def get(level: Level, ref: Ref) -> LevelObject:
    """The object ``ref`` names.

    Raises:
        IndexError: if there is no such object.
    """
    items = _items(level, ref.field)
    if not 0 <= ref.index < len(items):
        raise IndexError(f"{ref.field} {ref.index} out of range for {len(items)}")
    item: LevelObject = items[ref.index]
    return item


def put(level: Level, ref: Ref, new: LevelObject) -> Level:
    """``level`` with the object ``ref`` names replaced by ``new``."""
    get(level, ref)
    if ref.field == "player":
        return _with(level, player=new)
    items = list(_items(level, ref.field))
    items[ref.index] = new
    return _with(level, **{ref.field: tuple(items)})


def add(level: Level, field: str, new: LevelObject) -> tuple[Level, Ref]:
    """``level`` with ``new`` appended to ``field``, and its reference."""
    if field == "player":
        raise RefusedError("a level has exactly one player start; move it instead")
    items = _items(level, field)
    return _with(level, **{field: (*items, new)}), Ref(field, len(items))


def remove(level: Level, ref: Ref) -> Level:
    """``level`` without the object ``ref`` names.

    A deleted path is also taken off the spawns that followed it (they then guard their spot
    or wander), so the level stays loadable.

    Raises:
        RefusedError: for the player start and the last exit.
    """
    item = get(level, ref)
    if ref.field == "player":
        raise RefusedError("the player start cannot be deleted; drag it instead")
    if ref.field == "exits" and len(level.exits) == 1:
        raise RefusedError("a level needs at least one exit")
    items = _items(level, ref.field)
    level = _with(level, **{ref.field: items[: ref.index] + items[ref.index + 1 :]})
    if isinstance(item, PathData):
        for field in ("enemies", "npcs"):
            spawns = tuple(
                replace(s, path="") if s.path == item.name else s for s in _items(level, field)
            )
            level = _with(level, **{field: spawns})
    return level


def rect_of(item: LevelObject) -> Rect | None:
    """The rectangle of an exit, a flow region or an NPC area; None for other objects."""
    if isinstance(item, ExitData | FlowRegion):
        return item.rect
    if isinstance(item, NpcSpawn):
        return item.area
    return None


def anchor(item: LevelObject) -> Point:
    """Where an object is: a point, a rectangle's centre, a rock's centre, a path's first node."""
    rect = rect_of(item)
    if rect is not None:
        return rect.center
    if isinstance(item, PathData | WallData):
        return item.points[0]
    assert isinstance(item, PlayerSpawn | EnemySpawn | NpcSpawn | ObstacleData)
    return (item.x, item.y)


def span(a: Point, b: Point, width: float, height: float) -> Rect:
    """The rectangle with corners ``a`` and ``b``, inside the world, at least
    :data:`MIN_RECT` on a side, corners rounded."""
    ax, ay = clamp_point(*a, width, height)
    bx, by = clamp_point(*b, width, height)
    left, right = sorted((ax, bx))
    bottom, top = sorted((ay, by))
    if right - left < MIN_RECT:
        right = min(left + MIN_RECT, width)
        left = right - MIN_RECT
    if top - bottom < MIN_RECT:
        top = min(bottom + MIN_RECT, height)
        bottom = top - MIN_RECT
    return Rect(
        round_coord(left), round_coord(bottom), round_coord(right - left), round_coord(top - bottom)
    )


def with_rect(item: LevelObject, rect: Rect) -> LevelObject:
    """An exit, flow region or NPC spawn with the rectangle ``rect`` (an NPC's point is its
    centre)."""
    if isinstance(item, ExitData | FlowRegion):
        return replace(item, rect=rect)
    if isinstance(item, NpcSpawn):
        cx, cy = rect.center  # as the loader computes it from the rectangle
        return replace(item, area=rect, x=quantize(cx), y=quantize(cy))
    raise RefusedError("only exits, flow regions and NPC spawns have a rectangle")


def moved(item: LevelObject, x: float, y: float, width: float, height: float) -> LevelObject:
    """The object with its :func:`anchor` at (x, y), kept inside the world (rocks are placed
    by the edit model, which keeps them apart)."""
    rect = rect_of(item)
    if rect is not None:
        left = min(max(x - rect.width / 2, 0.0), max(width - rect.width, 0.0))
        bottom = min(max(y - rect.height / 2, 0.0), max(height - rect.height, 0.0))
        new = Rect(round_coord(left), round_coord(bottom), rect.width, rect.height)
        return with_rect(item, new)
    px, py = clamp_point(x, y, width, height)
    if isinstance(item, PathData | WallData):
        x0, y0 = item.points[0]
        pts = tuple(clamp_point(px + u - x0, py + v - y0, width, height) for u, v in item.points)
        return replace(item, points=pts)
    assert isinstance(item, PlayerSpawn | EnemySpawn | NpcSpawn | ObstacleData)
    return replace(item, x=px, y=py)


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def parse_text(spec: PropSpec, text: str) -> object:
    """Typed text as the raw value a Tiled file would hold for ``spec`` (the loader's checks
    come after): a number for ``float`` and ``int``, true/false for ``bool``, else the text.

    Raises:
        RefusedError: when the text is not of the property's kind at all.
    """
    text = text.strip()
    if spec.kind in ("float", "int"):
        try:
            number = float(text)
        except ValueError:
            raise RefusedError(f"{spec.name}: expected a number, got {text!r}") from None
        if not math.isfinite(number):
            raise RefusedError(f"{spec.name}: expected a finite number, got {text!r}")
        return int(number) if spec.kind == "int" and number.is_integer() else number
    if spec.kind == "bool":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise RefusedError(f"{spec.name}: expected true or false, got {text!r}")
    return text


def checked_value(spec: PropSpec, raw: object, where: Where, base_dir: Path) -> object:
    """The value the loader would read from a file holding ``raw`` for ``spec``.

    Raises:
        LevelError: the loader's own message, naming file, object and field.
    """
    value = property_value({spec.name: (None, raw)}, spec, where)
    if spec.kind == "file":
        return resolve_image(str(value), base_dir, where) if value else None
    return value


def with_property(level: Level, ref: Ref | None, spec: PropSpec, raw: object) -> Level:
    """``level`` with one property of an object (or of the map when ``ref`` is None) set to
    what the loader reads from ``raw``.

    Raises:
        LevelError: when the loader would refuse the value (its own message).
    """
    file = level.source
    base_dir = Path(os.path.realpath(file)).parent if file is not None else Path.cwd()
    if ref is None:
        value = checked_value(spec, raw, Where(file), base_dir)
        return _with(level, **{spec.name: value})
    item = get(level, ref)
    where = Where(file, item.id or None, item.name or None, class_of(ref))
    value = checked_value(spec, raw, where, base_dir)
    names = {f.name for f in fields(item)}
    if spec.name not in names:
        raise RefusedError(f"{class_of(ref)} has no field {spec.name!r} in this version")
    return put(level, ref, _with(item, **{spec.name: value}))


def validate(level: Level) -> Level:
    """Check the whole level as the loader would after saving it (one player outside the
    exits, spawns on existing paths, agent and flow-cell limits, ...).

    Returns:
        ``level`` unchanged.

    Raises:
        LevelError: the loader's message when the saved level would not load.
    """
    target = level.source or Path.cwd() / "untitled.tmj"
    raw = apply_level(new_map(level), level, target)
    loads_level(dumps_map(raw), target)
    return level


def refuse(err: LevelError) -> RefusedError:
    """A loader error as a refusal (the notice keeps the loader's whole message)."""
    return RefusedError(str(err))
