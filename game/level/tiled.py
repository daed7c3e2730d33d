"""The raw Tiled map (``.tmj``): read and decode it, walk its layers and objects, read an
object's identity, class, shape and property list, and turn Tiled's y-down coordinates into the
world's y-up ones.

The one module the loader, the saver and the editor share for the file itself. It reads the raw
JSON rather than through ``arcade.load_tilemap`` (which misplaces ellipses) or pytiled-parser
(which raises bare ``KeyError``s; see docs/DESIGN.md).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.level.errors import NO_ID, LevelError, Where
from game.level.schema import (
    MAX_FILE_BYTES,
    MAX_JSON_CONTAINERS,
    MAX_LAYER_DEPTH,
    MAX_OBJECTS,
    MAX_WORLD_PX,
)
from game.level.text import text_problem
from game.level.values import MAX_MAGNITUDE, is_number, short_text
from game.strict_json import (
    JsonFileError,
    JsonPath,
    describe,
    format_path,
    loads_strict,
    read_json_file,
)

__all__ = [
    "COORD_DECIMALS",
    "MAX_OBJECT_ID",
    "SHAPE_KEYS",
    "SHAPE_WORDS",
    "TILED_DIGITS",
    "TILED_INT_MAX",
    "TMX_POSITION_DIGITS",
    "MapInfo",
    "class_key",
    "class_of",
    "decode_map",
    "iter_object_layers",
    "iter_objects",
    "located_error",
    "object_identity",
    "quantize",
    "raw_class",
    "read_properties",
    "read_raw",
    "rotate",
    "shape_of",
    "tiled_float",
]


#: World coordinates are rounded to this many decimals, so that converting to Tiled's y-down
#: coordinates and back gives the same number (sub-micro-pixel noise would break load == save).
COORD_DECIMALS = 4

#: The largest object id (Tiled's are small counters; ids are stored as 64-bit integers).
MAX_OBJECT_ID = 2**31 - 1

#: Significant digits Tiled keeps of a number (JSON and TMX; a TMX position keeps only
#: :data:`TMX_POSITION_DIGITS`). Float properties are read at this precision, so that a map
#: and its Tiled export load the same.
TILED_DIGITS = 15

#: Significant digits Tiled's TMX writer keeps of an object's position, size and points.
TMX_POSITION_DIGITS = 6

#: Tiled's ``int`` properties are 32-bit: larger values wrap around (the saver writes them
#: as ``float`` properties, which Tiled keeps to :data:`TILED_DIGITS` digits).
TILED_INT_MAX = 2**31 - 1

#: Keys that mark an object's shape, as Tiled writes them.
SHAPE_KEYS = ("point", "ellipse", "polygon", "polyline")


def tiled_float(value: float, digits: int = TILED_DIGITS) -> float:
    """``value`` at the precision Tiled writes it with (``digits`` significant digits).

    Args:
        value: A finite number.
        digits: Significant digits kept.

    Returns:
        The number as Tiled would write and read it back; -0.0 becomes 0.0.
    """
    return float(f"{value:.{digits}g}") + 0.0


def quantize(value: float) -> float:
    """Round a world coordinate (see COORD_DECIMALS); -0.0 becomes 0.0."""
    return round(value, COORD_DECIMALS) + 0.0


@dataclass(frozen=True)
class MapInfo:
    """What parsing one object needs to know about its map.

    Attributes:
        file: The level file (for messages).
        base_dir: Folder that relative file properties start from.
        width_px: World width.
        height_px: World height (flips Tiled's y-down coordinates).
        images: The images of flow regions checked so far in this map, and their pixels: one
            file named by many regions is decoded once, and all of them are counted against
            :data:`~game.level.images.MAX_IMAGE_PIXELS`.
    """

    file: Path | None
    base_dir: Path
    width_px: float
    height_px: float
    images: dict[Path, int] = field(default_factory=dict, compare=False)


def read_raw(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a level file's raw JSON under the strict JSON policy (:mod:`game.strict_json`).

    Args:
        path: The ``.tmj`` file.

    Returns:
        The decoded JSON object.

    Raises:
        LevelError: if the file cannot be read, is not a JSON object, or holds a non-finite
            number or a key given twice (named with its object and field).
    """
    file = Path(path)
    try:
        data = read_json_file(
            file, max_bytes=MAX_FILE_BYTES, what="level file", max_containers=MAX_JSON_CONTAINERS
        )
    except JsonFileError as exc:
        raise _level_error(exc, file) from exc
    return _as_map(data, file)


def decode_map(text: str | bytes, file: Path | None) -> dict[str, Any]:
    """Decode a level's JSON text (see :func:`read_raw`); ``file`` is named in errors."""
    try:
        data = loads_strict(text, max_containers=MAX_JSON_CONTAINERS)
    except JsonFileError as exc:
        raise _level_error(exc, file) from exc
    return _as_map(data, file)


def _as_map(data: Any, file: Path | None) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise LevelError(
            f"not a Tiled map: the top level is {describe(data)}, not a JSON object", file=file
        )
    return data


def _level_error(exc: JsonFileError, file: Path | None) -> LevelError:
    """The strict reader's refusal as a level error naming the object and field it is in."""
    if not exc.at:
        return LevelError(exc.reason, file=file)
    return located_error(exc.document, exc.at, file, exc.reason)


def located_error(data: Any, at: JsonPath, file: Path | None, reason: str) -> LevelError:
    """An error for a bad value at ``at``, naming its object (the innermost element of an
    ``objects`` list on the way) and its property if any."""
    obj: dict[str, Any] | None = None
    depth = 0
    node: Any = data
    for k, part in enumerate(at):
        inside = k > 0 and at[k - 1] == "objects" and isinstance(part, int)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if inside and isinstance(node, dict):
            obj, depth = node, k + 1
    rel = at[depth:] if obj is not None else at
    owner: object = obj if obj is not None else data
    field = format_path(rel)
    if len(rel) == 3 and rel[0] == "properties" and rel[2] == "value" and isinstance(owner, dict):
        props = owner.get("properties")
        if isinstance(props, list) and isinstance(rel[1], int) and rel[1] < len(props):
            name = props[rel[1]].get("name") if isinstance(props[rel[1]], dict) else None
            if isinstance(name, str):
                field = name
    if obj is None:
        return LevelError(reason, file=file, field=field or "(top level)")
    oid = obj.get("id")
    name = obj.get("name")
    return LevelError(
        reason,
        file=file,
        object_id=oid if isinstance(oid, int) and not isinstance(oid, bool) else NO_ID,
        object_name=name if isinstance(name, str) else "",
        object_class=raw_class(obj) or None,
        field=field,
    )


def raw_class(obj: dict[str, Any]) -> str:
    """The object's class without validation: ``class`` (Tiled 1.9+) or ``type`` (1.8)."""
    for key in ("class", "type"):
        value = obj.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def class_key(obj: dict[str, Any]) -> str:
    """Which key holds the object's class: ``class`` when it has a non-empty one, else ``type``.

    Args:
        obj: A raw Tiled object.

    Returns:
        ``"class"`` or ``"type"``.
    """
    value = obj.get("class")
    return "class" if isinstance(value, str) and value else "type"


def class_of(obj: dict[str, Any], where: Where) -> str:
    """Read and check the object's class from ``class`` or ``type``."""
    found: dict[str, str] = {}
    for key in ("class", "type"):
        value = obj.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise where.error(f"expected a class name string, got {describe(value)}", key)
        if value:
            found[key] = value
    if len(found) == 2 and found["class"] != found["type"]:
        raise where.error(
            f'"class" is {short_text(found["class"])} but "type" is '
            f"{short_text(found['type'])}; keep one",
            "class",
        )
    return found.get("class") or found.get("type") or ""


def read_properties(owner: dict[str, Any], where: Where) -> dict[str, tuple[str | None, Any]]:
    """Read Tiled's ``properties`` list into ``{name: (declared type or None, value)}``.

    Args:
        owner: A raw object or the raw map.
        where: Location for errors.

    Returns:
        The properties by name.

    Raises:
        LevelError: if the list or an entry is malformed or a name repeats.
    """
    raw = owner.get("properties", [])
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise where.error(
            f"expected a list of {{name, type, value}} entries, got {describe(raw)}", "properties"
        )
    result: dict[str, tuple[str | None, Any]] = {}
    for index, entry in enumerate(raw):
        field = f"properties[{index}]"
        if not isinstance(entry, dict):
            raise where.error(
                f"expected a {{name, type, value}} object, got {describe(entry)}", field
            )
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise where.error(f"a property needs a non-empty name, got {describe(name)}", field)
        if "value" not in entry:
            raise where.error("property has no value", name)
        declared = entry.get("type")
        if declared is not None and not isinstance(declared, str):
            raise where.error(f"property type must be a string, got {describe(declared)}", name)
        if name in result:
            raise where.error("property appears twice", name)
        result[name] = (declared, entry["value"])
    return result


def iter_object_layers(
    raw: dict[str, Any], where: Where
) -> Iterator[tuple[dict[str, Any], list[Any], float, float]]:
    """Yield every object layer, group layers included, depth first in file order.

    Args:
        raw: The raw map.
        where: Location for errors.

    Yields:
        (layer, its ``objects`` list, offset x, offset y). The offsets add up the
        ``offsetx``/``offsety`` of the layer and its groups.

    Raises:
        LevelError: on malformed layers or too deep groups.
    """
    layers = raw.get("layers")
    if not isinstance(layers, list):
        raise where.error(f"expected a list of layers, got {describe(layers)}", "layers")

    def offset(layer: dict[str, Any], key: str, field: str) -> float:
        value = layer.get(key, 0)
        if not is_number(value) or abs(value) > MAX_WORLD_PX:
            raise where.error(f"expected a layer offset in px, got {describe(value)}", field)
        return float(value)

    def walk(
        items: list[Any], jpath: str, depth: int, ox: float, oy: float
    ) -> Iterator[tuple[dict[str, Any], list[Any], float, float]]:
        if depth > MAX_LAYER_DEPTH:
            raise where.error(f"group layers nest deeper than {MAX_LAYER_DEPTH}", jpath)
        for index, layer in enumerate(items):
            field = f"{jpath}[{index}]"
            if not isinstance(layer, dict):
                raise where.error(f"expected a layer object, got {describe(layer)}", field)
            kind = layer.get("type")
            if not isinstance(kind, str):
                raise where.error(
                    f"layer type must be a string, got {describe(kind)}", field + ".type"
                )
            lx = ox + offset(layer, "offsetx", field + ".offsetx")
            ly = oy + offset(layer, "offsety", field + ".offsety")
            if kind == "objectgroup":
                objects = layer.setdefault("objects", [])
                if not isinstance(objects, list):
                    raise where.error(
                        f"expected a list of objects, got {describe(objects)}", field + ".objects"
                    )
                yield layer, objects, lx, ly
            elif kind == "group":
                sub = layer.get("layers", [])
                if not isinstance(sub, list):
                    raise where.error(
                        f"expected a list of layers, got {describe(sub)}", field + ".layers"
                    )
                yield from walk(sub, field + ".layers", depth + 1, lx, ly)

    yield from walk(layers, "layers", 0, 0.0, 0.0)


def iter_objects(
    raw: dict[str, Any], where: Where
) -> Iterator[tuple[dict[str, Any], list[Any], float, float]]:
    """Yield every raw object of every object layer, in file order.

    Args:
        raw: The raw map.
        where: Location for errors.

    Yields:
        (object, the list holding it, layer offset x, layer offset y).

    Raises:
        LevelError: on malformed layers or objects, or more than MAX_OBJECTS objects.
    """
    count = 0
    for _layer, objects, ox, oy in iter_object_layers(raw, where):
        count += len(objects)
        if count > MAX_OBJECTS:
            raise where.error(f"more than {MAX_OBJECTS:,} objects in the map", "layers")
        for index, obj in enumerate(objects):
            if not isinstance(obj, dict):
                raise where.error(f"expected an object, got {describe(obj)}", f"objects[{index}]")
            yield obj, objects, ox, oy


def object_identity(obj: dict[str, Any], where: Where) -> Where:
    """Read an object's id and name and return the location to report its errors at.

    Args:
        obj: A raw object.
        where: The map-level location.

    Returns:
        The object's location (class not yet known).

    Raises:
        LevelError: if the id or name is missing or malformed.
    """
    raw_name = obj.get("name", "")
    name = raw_name if isinstance(raw_name, str) else ""
    oid = obj.get("id")
    if isinstance(oid, float) and oid.is_integer() and abs(oid) <= MAX_MAGNITUDE:
        oid = int(oid)
    if not isinstance(oid, int) or isinstance(oid, bool) or not 1 <= oid <= MAX_OBJECT_ID:
        raise LevelError(
            f"every object needs an integer id from 1 to {MAX_OBJECT_ID:,}, got {describe(oid)}",
            file=where.file,
            object_id=oid if isinstance(oid, int) and not isinstance(oid, bool) else NO_ID,
            object_name=name,
            object_class=raw_class(obj) or None,
            field="id",
        )
    here = Where(where.file, oid, name)
    if not isinstance(raw_name, str) and raw_name is not None:
        raise here.error(f"expected a string, got {describe(raw_name)}", "name")
    problem = text_problem(name, "name")
    if problem:
        raise here.error(problem, "name")
    return here


def shape_of(obj: dict[str, Any], where: Where) -> str:
    """Return the object's Tiled shape: point, ellipse, polygon, polyline, tile, text or rect."""
    for key in ("point", "ellipse"):
        value = obj.get(key, False)
        if not isinstance(value, bool):
            raise where.error(f"expected true or false, got {describe(value)}", key)
        if value:
            return key
    if "polygon" in obj and "polyline" in obj:
        raise where.error("an object has both a polygon and a polyline; keep one", "polygon")
    for key in ("polygon", "polyline"):
        if key in obj:
            return key
    if "gid" in obj:
        return "tile"
    if "text" in obj:
        return "text"
    return "rect"


SHAPE_WORDS = {
    "point": "point",
    "rect": "rectangle",
    "ellipse": "ellipse",
    "polyline": "polyline",
    "polygon": "polygon",
    "tile": "tile object",
    "text": "text object",
}


def rotate(px: float, py: float, degrees: float) -> tuple[float, float]:
    """Rotate a Tiled (y-down) offset clockwise on screen, as Tiled's ``rotation`` does."""
    if degrees == 0:
        return px, py
    rad = math.radians(degrees)
    cos, sin = math.cos(rad), math.sin(rad)
    return px * cos - py * sin, px * sin + py * cos
