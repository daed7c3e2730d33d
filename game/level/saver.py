"""Write a level back into its Tiled map without losing anything, atomically.

Only the objects the level owns (objects of a known class, matched by id) change in the raw
JSON; every other key, layer, property and unknown field stays as it was. The file is replaced
atomically and the previous version is kept as ``NAME.tmj.bak`` (:mod:`game.level.write`:
never a file the loader would refuse, written or kept).
"""

from __future__ import annotations

import copy
import logging
import os
from pathlib import Path
from typing import Any

from game.level.errors import LevelError, Where
from game.level.model import (
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    LevelObject,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Point,
    WallData,
)
from game.level.objects import parse_object
from game.level.properties import number_list
from game.level.schema import (
    CLASS_ORDER,
    CLASSES,
    DEFAULT_LAYER,
    MAP_PROPERTIES,
    PropSpec,
)
from game.level.tiled import (
    COORD_DECIMALS,
    SHAPE_KEYS,
    TILED_INT_MAX,
    TMX_POSITION_DIGITS,
    MapInfo,
    class_key,
    iter_object_layers,
    iter_objects,
    raw_class,
    read_raw,
    tiled_float,
)
from game.level.write import checked_level_bytes, dumps_map, write_level_file

__all__ = ["apply_level", "dumps_map", "new_map", "save_level", "save_level_and_map"]

logger = logging.getLogger(__name__)

#: What Tiled 1.8 writes; new maps claim it so Tiled 1.8 opens them without a warning.
TILED_VERSION = "1.8.2"
FORMAT_VERSION = "1.8"
_CLASS_OF: dict[type, str] = {
    PathData: "path",
    ObstacleData: "obstacle",
    PlayerSpawn: "player",
    ExitData: "exit",
    EnemySpawn: "enemy",
    NpcSpawn: "npc",
    FlowRegion: "flow",
    WallData: "wall",
}


def _coord(value: float) -> int | float:
    """A coordinate for the file: rounded like the loader's, then to the significant digits
    Tiled's TMX writer keeps (so a map saved as TMX in Tiled and back loads the same), and an
    int when whole."""
    value = tiled_float(round(float(value), COORD_DECIMALS), TMX_POSITION_DIGITS)
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _plain(value: float) -> int | float:
    """A float property for the file: at the precision Tiled keeps (so Tiled rewrites it
    unchanged), and an int when whole (as Tiled writes)."""
    value = tiled_float(value)
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _tiled_type(spec: PropSpec, written: object) -> str:
    """The Tiled type to write ``written`` with: an ``int`` beyond Tiled's 32-bit ints (a
    large seed) is a ``float`` property, which Tiled keeps whole to 15 digits."""
    if spec.kind == "int" and isinstance(written, int) and abs(written) > TILED_INT_MAX:
        return "float"
    return spec.tiled_type


def _types_for(spec: PropSpec, written: object) -> tuple[str, ...]:
    """The Tiled types a file's entry may keep for ``written`` (Tiled rounds a fraction in a
    whole-number type and wraps a large value in a 32-bit ``int``)."""
    if spec.kind not in ("float", "int") or not isinstance(written, int | float):
        return (spec.tiled_type,)
    if not float(written).is_integer():
        return ("float",)
    if abs(written) > TILED_INT_MAX:
        return ("float", "qlonglong")
    return ("float", "int", "qlonglong")


def _object_layer(layer_id: int, name: str) -> dict[str, Any]:
    """An empty Tiled 1.8 object layer."""
    return {
        "draworder": "topdown",
        "id": layer_id,
        "name": name,
        "objects": [],
        "opacity": 1,
        "type": "objectgroup",
        "visible": True,
        "x": 0,
        "y": 0,
    }


def new_map(level: Level) -> dict[str, Any]:
    """Return an empty Tiled 1.8 map the size of ``level``, with one object layer per kind.

    Args:
        level: The level whose size and tile size the map takes.

    Returns:
        The raw map (objects are added by :func:`apply_level`).
    """
    names = list(dict.fromkeys(DEFAULT_LAYER[c] for c in CLASS_ORDER))
    return {
        "compressionlevel": -1,
        "height": 1,
        "infinite": False,
        "layers": [_object_layer(i + 1, name) for i, name in enumerate(names)],
        "nextlayerid": len(names) + 1,
        "nextobjectid": 1,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "tiledversion": TILED_VERSION,
        "tileheight": level.tile_height,
        "tilesets": [],
        "tilewidth": level.tile_width,
        "type": "map",
        "version": FORMAT_VERSION,
        "width": 1,
    }


def _prop_json(spec: PropSpec, value: object, base_dir: Path) -> object:
    """A property value as written to the file."""
    if spec.kind == "file":
        if value is None or value == "":
            return ""
        if isinstance(value, Path):
            return Path(os.path.relpath(value, base_dir)).as_posix()
        return str(value)
    if spec.kind == "float" and isinstance(value, int | float) and not isinstance(value, bool):
        return _plain(value)
    if spec.kind == "floats" and isinstance(value, tuple):
        # Tiled keeps strings as they are: the numbers stay exact.
        return ",".join(str(int(v) if float(v).is_integer() else float(v)) for v in value)
    return value


def _same_value(spec: PropSpec, old: object, written: object) -> bool:
    """Whether the file's value ``old`` already says ``written`` (a ``floats`` string is kept
    as the designer spaced it when it reads as the same numbers)."""
    if spec.kind == "floats" and isinstance(old, str) and isinstance(written, str):
        return number_list(old) == number_list(written)
    return type(old) is type(written) and old == written


def _set_properties(
    owner: dict[str, Any], specs: tuple[PropSpec, ...], values: dict[str, object], base_dir: Path
) -> None:
    """Set the known properties on a raw object or map, keeping unknown ones and their order.

    A property absent from the file is only added when its value differs from the default.
    """
    props = owner.get("properties")
    if not isinstance(props, list):
        props = []
    by_name = {
        p["name"]: p for p in props if isinstance(p, dict) and isinstance(p.get("name"), str)
    }
    # Tiled keeps properties sorted by name; a sorted list stays sorted when one is added.
    names = [
        str(p["name"]) for p in props if isinstance(p, dict) and isinstance(p.get("name"), str)
    ]
    was_sorted = len(names) == len(props) and names == sorted(names)
    for spec in specs:
        value = values[spec.name]
        written = _prop_json(spec, value, base_dir)
        entry = by_name.get(spec.name)
        if entry is not None:
            old = entry.get("value")
            if not _same_value(spec, old, written):
                entry["value"] = written
            if entry.get("type") not in _types_for(spec, written):
                entry["type"] = _tiled_type(spec, written)
        elif written != _prop_json(spec, spec.default, base_dir):
            props.append({"name": spec.name, "type": _tiled_type(spec, written), "value": written})
    if was_sorted:
        props.sort(key=lambda p: str(p["name"]))
    if props:
        owner["properties"] = props


def _write_object(
    obj: dict[str, Any],
    cls: str,
    item: LevelObject,
    ox: float,
    oy: float,
    info: MapInfo,
) -> None:
    """Rewrite one raw object from level data, keeping its unknown keys and properties, and
    its keys in the order they were (so a diff of the file shows only what changed)."""
    order = list(obj)
    obj[class_key(obj)] = cls
    if class_key(obj) == "class" and obj.get("type"):
        obj["type"] = cls
    obj["name"] = item.name
    for key in (*SHAPE_KEYS, "gid", "text", "template"):
        obj.pop(key, None)
    obj["rotation"] = 0
    height = info.height_px
    values: dict[str, object] = {}
    if isinstance(item, PathData) or (isinstance(item, WallData) and item.shape != "rect"):
        _write_points(obj, item.points, item.closed, ox, oy + height)
    elif isinstance(item, WallData) and item.shape == "rect":
        xs = [p[0] for p in item.points]
        ys = [p[1] for p in item.points]
        obj["x"], obj["y"] = _coord(min(xs) - ox), _coord(height - max(ys) - oy)
        obj["width"], obj["height"] = _coord(max(xs) - min(xs)), _coord(max(ys) - min(ys))
    elif isinstance(item, ObstacleData):
        r = item.radius
        obj["x"], obj["y"] = _coord(item.x - r - ox), _coord(height - item.y - r - oy)
        obj["width"] = obj["height"] = _coord(2 * r)
        obj["ellipse"] = True
    elif isinstance(item, ExitData | FlowRegion) or (
        isinstance(item, NpcSpawn) and item.area is not None
    ):
        rect = item.area if isinstance(item, NpcSpawn) else item.rect
        assert rect is not None
        obj["x"], obj["y"] = _coord(rect.left - ox), _coord(height - rect.top - oy)
        obj["width"], obj["height"] = _coord(rect.width), _coord(rect.height)
    else:
        assert isinstance(item, PlayerSpawn | EnemySpawn | NpcSpawn)
        obj["x"], obj["y"] = _coord(item.x - ox), _coord(height - item.y - oy)
        obj["width"] = obj["height"] = 0
        obj["point"] = True
    for spec in CLASSES[cls].props:
        values[spec.name] = getattr(item, spec.name)
    _set_properties(obj, CLASSES[cls].props, values, info.base_dir)
    for key, default in (("visible", True), ("rotation", 0)):
        obj.setdefault(key, default)
    _keep_order(obj, order)


def _write_points(
    obj: dict[str, Any], points: tuple[Point, ...], closed: bool, ox: float, top: float
) -> None:
    """Write a polyline or polygon: its first node as the object's position, every node
    relative to it, both as written (so that each node loads where it was, even when the
    position is rounded to what TMX keeps). ``top`` is the map height plus the layer's y
    offset."""
    nodes = [(_coord(x - ox), _coord(top - y)) for x, y in points]
    x0, y0 = nodes[0]
    obj["x"], obj["y"] = x0, y0
    obj["width"] = obj["height"] = 0
    obj["polygon" if closed else "polyline"] = [
        {"x": _coord(x - x0), "y": _coord(y - y0)} for x, y in nodes
    ]


def _keep_order(obj: dict[str, Any], order: list[str]) -> None:
    """Put ``obj``'s keys back in ``order`` (a new shape key where the old shape key was);
    keys it did not have go where Tiled, which sorts keys, would put them."""
    new_shapes = [k for k in obj if k in SHAPE_KEYS and k not in order]
    kept: dict[str, Any] = {}
    for key in order:
        if key in obj:
            kept[key] = obj[key]
        elif key in SHAPE_KEYS and new_shapes:
            shape = new_shapes.pop(0)
            kept[shape] = obj[shape]
    rest = [k for k in obj if k not in kept]
    if rest and list(kept) == sorted(kept):
        kept = {k: obj[k] for k in sorted([*kept, *rest])}
    else:
        kept.update((k, obj[k]) for k in rest)
    obj.clear()
    obj.update(kept)


def _level_items(level: Level, where: Where) -> list[tuple[str, LevelObject]]:
    """The level's objects with their classes, checking ids are not repeated."""
    items: list[tuple[str, LevelObject]] = []
    seen: dict[int, LevelObject] = {}
    for item in level.objects():
        cls = _CLASS_OF[type(item)]
        if item.id < 0:
            raise LevelError(
                f"object ids are positive (0 for a new object), got {item.id}",
                file=where.file,
                object_id=item.id,
                object_name=item.name,
                object_class=cls,
                field="id",
            )
        if item.id > 0:
            if item.id in seen:
                raise LevelError(
                    f"two objects of the level share id {item.id}",
                    file=where.file,
                    object_id=item.id,
                    object_name=item.name,
                    object_class=cls,
                    field="id",
                )
            seen[item.id] = item
        items.append((cls, item))
    return items


def _set_size(raw: dict[str, Any], level: Level, where: Where) -> None:
    """Set the map's tile size and size in tiles from the level, when they differ."""
    for key, value in (("tilewidth", level.tile_width), ("tileheight", level.tile_height)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise where.error(f"tile size must be a positive integer, got {value!r}", key)
        if raw.get(key) != value:
            raw[key] = value
    for key, px, tile in (
        ("width", level.width_px, level.tile_width),
        ("height", level.height_px, level.tile_height),
    ):
        tiles = px / tile
        if not float(tiles).is_integer() or tiles < 1:
            raise where.error(
                f"the world's {key} ({px:g} px) must be a whole number of {tile} px tiles", key
            )
        if raw.get(key) != int(tiles):
            raw[key] = int(tiles)


def apply_level(raw: dict[str, Any], level: Level, target: Path) -> dict[str, Any]:
    """Write ``level`` into the raw map ``raw`` (in place) and return it.

    Objects of a known class whose id the level has are rewritten only when they differ
    from the level's data; those the level does not have are removed; the level's objects
    not in the map are added, taking ids from ``nextobjectid``. Everything else is kept.

    Args:
        raw: A decoded Tiled map (changed in place).
        level: The level to write.
        target: The file it will be written to (relative image paths start from its folder).

    Returns:
        ``raw``.

    Raises:
        LevelError: if the level cannot be written (repeated ids, size not in whole tiles).
    """
    where = Where(target)
    _set_size(raw, level, where)
    info = MapInfo(
        file=target,
        base_dir=Path(os.path.realpath(target)).parent,  # no RuntimeError on a link loop
        width_px=float(level.width_px),
        height_px=float(level.height_px),
    )
    meta = {"title": level.title, "seed": level.seed, "hint": level.hint}
    _set_properties(raw, MAP_PROPERTIES, dict(meta), info.base_dir)

    items = _level_items(level, where)
    by_id = {item.id: (cls, item) for cls, item in items if item.id > 0}
    kept: set[int] = set()
    last_layer: dict[str, tuple[list[Any], float, float]] = {}
    removals: list[tuple[list[Any], dict[str, Any]]] = []
    uses_class_key = False
    for obj, holder, ox, oy in list(iter_objects(raw, where)):
        uses_class_key = uses_class_key or class_key(obj) == "class"
        if raw_class(obj) not in CLASSES:
            continue  # not the level's: a designer's note, or an error the final check reports
        oid = obj.get("id")
        owned = by_id.get(oid) if isinstance(oid, int) and not isinstance(oid, bool) else None
        if owned is None or oid in kept:
            removals.append((holder, obj))
            continue
        assert isinstance(oid, int)
        kept.add(oid)
        cls, item = owned
        last_layer[cls] = (holder, ox, oy)
        try:
            current = parse_object(obj, ox, oy, info, warn=False)
        except LevelError:
            current = None
        if current != (cls, item):
            _write_object(obj, cls, item, ox, oy, info)
    for holder, obj in removals:
        holder[:] = [o for o in holder if o is not obj]

    used = {
        o.get("id") for o, _h, _x, _y in iter_objects(raw, where) if isinstance(o.get("id"), int)
    }
    next_id = raw.get("nextobjectid")
    if not isinstance(next_id, int) or isinstance(next_id, bool):
        next_id = 1
    next_id = max([next_id, *(i + 1 for i in used if isinstance(i, int))])
    for cls, item in items:
        if item.id > 0 and item.id in kept:
            continue
        # An id the map does not use yet is kept (a level built with explicit ids).
        oid = item.id if item.id > 0 and item.id not in used else next_id
        next_id = max(next_id, oid + 1)
        used.add(oid)
        holder, ox, oy = last_layer.get(cls) or _layer_for(raw, cls, where)
        new: dict[str, Any] = {
            "height": 0,
            "id": oid,
            "name": "",
            "rotation": 0,
            "class" if uses_class_key else "type": cls,
            "visible": True,
            "width": 0,
            "x": 0,
            "y": 0,
        }
        _write_object(new, cls, item, ox, oy, info)
        holder.append(dict(sorted(new.items())))
        last_layer[cls] = (holder, ox, oy)
    if raw.get("nextobjectid") != next_id:
        raw["nextobjectid"] = next_id
    return raw


def _layer_for(raw: dict[str, Any], cls: str, where: Where) -> tuple[list[Any], float, float]:
    """The object layer a new object of class ``cls`` goes to (created when there is none)."""
    layers = list(iter_object_layers(raw, where))
    for layer, objects, ox, oy in layers:
        if layer.get("name") == DEFAULT_LAYER[cls]:
            return objects, ox, oy
    if layers:
        _layer, objects, ox, oy = layers[0]
        return objects, ox, oy
    next_layer = raw.get("nextlayerid")
    if not isinstance(next_layer, int) or isinstance(next_layer, bool):
        next_layer = 1
    layer = _object_layer(next_layer, DEFAULT_LAYER[cls])
    raw["nextlayerid"] = next_layer + 1
    raw["layers"].append(layer)
    objects = layer["objects"]
    assert isinstance(objects, list)
    return objects, 0.0, 0.0


def save_level(
    level: Level,
    path: str | os.PathLike[str] | None = None,
    *,
    backup: bool = True,
    base: dict[str, Any] | None = None,
) -> Level:
    """:func:`save_level_and_map` without the map: save ``level`` into a Tiled map file,
    atomically, keeping the old file as ``.bak`` (see there for the arguments).

    Raises:
        LevelError: if the level is invalid or the file cannot be written.
    """
    return save_level_and_map(level, path, backup=backup, base=base)[0]


def save_level_and_map(
    level: Level,
    path: str | os.PathLike[str] | None = None,
    *,
    backup: bool = True,
    base: dict[str, Any] | None = None,
    known_good: str = "",
) -> tuple[Level, dict[str, Any]]:
    """Save ``level`` into a Tiled map file, atomically, keeping the old file as ``.bak``.

    The map the level was loaded from (``level.source``) is the starting point, so tile
    layers, tilesets, unknown keys and objects of no class survive; a level without a source
    file starts from an empty map. The new bytes are checked as the loader checks a file
    before anything is written (:func:`~game.level.write.checked_level_bytes`: the size limit,
    then decoded and parsed again), written compactly when indented they would be over the
    size limit; the old file becomes the ``.bak`` only when the game accepts it
    (:func:`~game.level.write.write_level_file`). A failure at any point leaves the old file
    and the ``.bak`` as they were.

    Args:
        level: The level to save.
        path: Where to write; ``level.source`` when None.
        backup: Keep the previous file as ``NAME.tmj.bak`` (tools regenerating files turn
            this off).
        base: The raw map to start from instead of reading ``level.source`` again (the
            editor keeps the map it opened, so a save never depends on the file on disk
            being readable or unchanged). It is not modified.
        known_good: The sha256 of a file the game accepted (the editor's last read or
            write): a file being replaced with those bytes becomes the ``.bak`` without being
            parsed again.

    Returns:
        The level as saved (new objects have their ids and ``source`` is ``path``) and the
        raw map written (what a later save can start from without reading the file again).

    Raises:
        LevelError: if the level is invalid or the file cannot be written.
    """
    if path is None:
        if level.source is None:
            raise LevelError("nowhere to save: the level has no source file; give a path")
        path = level.source
    target = Path(path)
    source = level.source
    if base is not None:
        raw = copy.deepcopy(base)
    elif source is not None and source.is_file():
        raw = read_raw(source)
    else:
        raw = new_map(level)
    apply_level(raw, level, target)
    data, written, saved = checked_level_bytes(raw, target)
    write_level_file(target, data, backup=backup, known_good=known_good)
    logger.info("saved %s (%d objects)", target, sum(1 for _ in saved.objects()))
    return saved, written
