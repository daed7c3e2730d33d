"""Read a Tiled JSON map (``.tmj``) into frozen level data, refusing bad files clearly.

The loader reads the raw JSON itself: ``arcade.load_tilemap`` misplaces ellipses and
pytiled-parser raises bare ``KeyError``s (see docs/DESIGN.md). Every problem raises
:class:`LevelError` naming the file, the object (id and name) and the field.
"""

from __future__ import annotations

import difflib
import errno
import json
import logging
import math
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.level.errors import NO_ID, LevelError, describe
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
    Rect,
    WallData,
)
from game.level.schema import (
    CLASSES,
    MAP_PROPERTIES,
    MAX_AGENTS,
    MAX_FILE_BYTES,
    MAX_FLOW_CELLS,
    MAX_LAYER_DEPTH,
    MAX_OBJECTS,
    MAX_PATH_POINTS,
    MAX_WALL_POINTS,
    MAX_WORLD_PX,
    ClassSpec,
    PropSpec,
)
from game.level.shipped import IMAGE_ROOTS, LEVELS_DIR
from game.level.text import PLAIN_NUMBER, plain_number, text_problem

__all__ = ["load_level", "loads_level", "number_list", "parse_level", "read_raw"]

logger = logging.getLogger(__name__)

#: World coordinates are rounded to this many decimals, so that converting to Tiled's y-down
#: coordinates and back gives the same number (sub-micro-pixel noise would break load == save).
COORD_DECIMALS = 4
#: Allowed difference between an obstacle ellipse's width and height (px).
CIRCLE_TOLERANCE = 0.01
#: Plain numbers beyond this are refused as absurd before any range check.
MAX_MAGNITUDE = 1e12
#: The largest object id (Tiled's are small counters; ids are stored as 64-bit integers).
MAX_OBJECT_ID = 2**31 - 1
#: Gap between agents as they are placed (px; the world's spawn gap).
SPAWN_SPACING = 2.0
#: The share of the world the agents' starting squares may fill at most (rocks and the
#: spawns' spread take the rest).
MAX_CROWD_FILL = 0.5
#: The largest image a flow region may use: pixels a side, and bytes.
MAX_IMAGE_SIDE = 4096
MAX_IMAGE_BYTES = 32 * 1024 * 1024
#: Image files an ``image`` flow region may name.
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".gif", ".webp"})
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
_EPS = 1e-6
#: One number of a ``floats`` property (a JSON number; no ``nan``, ``inf`` or ``1_000``).
_NUMBER = PLAIN_NUMBER  # ASCII digits only


def tiled_float(value: float, digits: int = TILED_DIGITS) -> float:
    """``value`` at the precision Tiled writes it with (``digits`` significant digits).

    Args:
        value: A finite number.
        digits: Significant digits kept.

    Returns:
        The number as Tiled would write and read it back; -0.0 becomes 0.0.
    """
    return float(f"{value:.{digits}g}") + 0.0


def _q(value: float) -> float:
    """Round a world coordinate (see COORD_DECIMALS); -0.0 becomes 0.0."""
    return round(value, COORD_DECIMALS) + 0.0


def _show(value: float) -> str:
    """A number for a message, short even for a 4000-digit integer."""
    if isinstance(value, int) and abs(value) > 10**15:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:g}"


def _kind_of(value: object) -> str:
    """Describe a JSON value's type and value for a message: ``string "far"``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {json.dumps(value)}"
    if isinstance(value, int | float):
        return f"number {_show(value)}"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:40] + "..."
        return f"string {json.dumps(text, ensure_ascii=False)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """Return ``; did you mean "x"?`` for the nearest choice, or ""."""
    lowered = {c.lower(): c for c in choices}
    match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.5)
    return f'; did you mean "{lowered[match[0]]}"?' if match else ""


class _NonFinite:
    """Stands in for a JSON ``NaN``/``Infinity`` until the scan reports where it was."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


@dataclass(frozen=True)
class _Where:
    """The location errors are reported at."""

    file: Path | None
    object_id: int | None = None
    object_name: str | None = None
    object_class: str | None = None

    def error(self, reason: str, field: str | None = None) -> LevelError:
        """Build the error for a problem at this place."""
        return LevelError(
            reason,
            file=self.file,
            object_id=self.object_id,
            object_name=self.object_name,
            object_class=self.object_class,
            field=field,
        )

    def warn(self, reason: str, field: str | None = None) -> None:
        """Log a warning at this place."""
        where = describe(self.file, self.object_id, self.object_name, self.object_class, field)
        logger.warning("%s: %s", where, reason)


@dataclass(frozen=True)
class MapInfo:
    """What parsing one object needs to know about its map.

    Attributes:
        file: The level file (for messages).
        base_dir: Folder that relative file properties start from.
        width_px: World width.
        height_px: World height (flips Tiled's y-down coordinates).
    """

    file: Path | None
    base_dir: Path
    width_px: float
    height_px: float


# ---------------------------------------------------------------------------------------------
# Reading the file


def read_raw(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a level file's raw JSON, refusing unreadable, huge, invalid or non-finite files.

    Args:
        path: The ``.tmj`` file.

    Returns:
        The decoded JSON object.

    Raises:
        LevelError: if the file cannot be read or is not a JSON object of finite numbers.
    """
    file = Path(path)
    try:
        info = file.stat()
        size = info.st_size
        if stat.S_ISDIR(info.st_mode):
            raise LevelError("is a directory, not a level file", file=file)
        if not stat.S_ISREG(info.st_mode):
            # never opened: reading a FIFO would block
            raise LevelError("not a regular file (a FIFO, socket or device)", file=file)
        if size > MAX_FILE_BYTES:
            raise LevelError(f"file is {size:,} bytes; at most {MAX_FILE_BYTES:,}", file=file)
        text = file.read_text(encoding="utf-8-sig")  # a byte-order mark is allowed
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise LevelError("cannot read: symbolic link loop", file=file) from exc
        raise LevelError(f"cannot read: {exc.strerror or exc}", file=file) from exc
    except UnicodeDecodeError as exc:
        raise LevelError(f"not UTF-8 text (byte {exc.start})", file=file) from exc
    return _decode(text, file)


def _decode(text: str, file: Path | None) -> dict[str, Any]:
    """Decode JSON text into a dict, reporting any NaN/Infinity with its object and field."""
    try:
        data = json.loads(text, parse_constant=_NonFinite)
    except json.JSONDecodeError as exc:
        raise LevelError(
            f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", file=file
        ) from exc
    except RecursionError as exc:
        raise LevelError("invalid JSON: nested too deeply", file=file) from exc
    except ValueError as exc:  # e.g. an integer longer than Python's 4300-digit limit
        raise LevelError(f"invalid JSON: {exc}", file=file) from exc
    if not isinstance(data, dict):
        raise LevelError(
            f"not a Tiled map: the top level is {_kind_of(data)}, not a JSON object", file=file
        )
    _refuse_non_finite(data, file)
    return data


def _refuse_non_finite(data: dict[str, Any], file: Path | None) -> None:
    """Raise at the first NaN, Infinity or overflowing number (``1e999``) anywhere in the map."""
    # Iterative: a deep but valid JSON tree must not hit Python's recursion limit here.
    stack: list[tuple[object, tuple[str | int, ...], dict[str, Any] | None, int]] = [
        (data, (), None, 0)
    ]
    while stack:
        value, jpath, obj, obj_depth = stack.pop()
        bad: str | None = None
        if isinstance(value, _NonFinite):
            bad = f"{value.text} is not allowed; every number must be finite"
        elif isinstance(value, float) and not math.isfinite(value):
            bad = "number out of range (it overflows to infinity)"
        if bad is not None:
            raise _located_error(data, jpath, obj, obj_depth, file, bad)
        children: list[tuple[object, tuple[str | int, ...], dict[str, Any] | None, int]] = []
        if isinstance(value, dict):
            for key, item in value.items():
                children.append((item, (*jpath, key), obj, obj_depth))
        elif isinstance(value, list):
            in_objects = bool(jpath) and jpath[-1] == "objects"
            for index, item in enumerate(value):
                if in_objects and isinstance(item, dict):
                    children.append((item, (*jpath, index), item, len(jpath) + 1))
                else:
                    children.append((item, (*jpath, index), obj, obj_depth))
        stack.extend(reversed(children))  # so the first bad value in the file is reported


def _located_error(
    data: dict[str, Any],
    jpath: tuple[str | int, ...],
    obj: dict[str, Any] | None,
    obj_depth: int,
    file: Path | None,
    reason: str,
) -> LevelError:
    """Build an error for a bad value at ``jpath``, naming its object and property if any."""
    rel = jpath[obj_depth:] if obj is not None else jpath
    owner: object = obj if obj is not None else data
    field = _format_jpath(rel)
    if len(rel) == 3 and rel[0] == "properties" and rel[2] == "value" and isinstance(owner, dict):
        props = owner.get("properties")
        if isinstance(props, list) and isinstance(rel[1], int):
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
        object_id=oid if isinstance(oid, int) and not isinstance(oid, bool) else -1,
        object_name=name if isinstance(name, str) else "",
        object_class=_raw_class(obj) or None,
        field=field,
    )


def _format_jpath(jpath: tuple[str | int, ...]) -> str:
    """Format a JSON path as ``layers[0].objects[2].x``."""
    text = ""
    for part in jpath:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


# ---------------------------------------------------------------------------------------------
# Small typed readers


def _is_number(value: object) -> bool:
    """True for JSON numbers (bool is not a number here)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(
    obj: dict[str, Any],
    key: str,
    where: _Where,
    default: float | None = None,
) -> float:
    """Read a finite number; ``default`` None makes the key required."""
    if key not in obj:
        if default is None:
            raise where.error("missing (a number is required)", key)
        return default
    value = obj[key]
    if not _is_number(value):
        raise where.error(f"expected a number, got {_kind_of(value)}", key)
    if abs(value) > MAX_MAGNITUDE:
        raise where.error(f"{_show(value)} is absurdly large", key)
    return float(value)


def _integer(obj: dict[str, Any], key: str, where: _Where, minimum: int, maximum: int) -> int:
    """Read a required integer in [minimum, maximum] (an integral float such as 3.0 is fine)."""
    if key not in obj:
        raise where.error("missing (an integer is required)", key)
    value = obj[key]
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_MAGNITUDE:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.error(f"expected an integer, got {_kind_of(value)}", key)
    if value < minimum:
        raise where.error(f"must be at least {minimum}, got {value}", key)
    if value > maximum:
        raise where.error(f"must be at most {maximum:,}, got {_show(value)}", key)
    return value


def _raw_class(obj: dict[str, Any]) -> str:
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


def _class_of(obj: dict[str, Any], where: _Where) -> str:
    """Read and check the object's class from ``class`` or ``type``."""
    found: dict[str, str] = {}
    for key in ("class", "type"):
        value = obj.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise where.error(f"expected a class name string, got {_kind_of(value)}", key)
        if value:
            found[key] = value
    if len(found) == 2 and found["class"] != found["type"]:
        raise where.error(
            f'"class" is {found["class"]!r} but "type" is {found["type"]!r}; keep one', "class"
        )
    return found.get("class") or found.get("type") or ""


# ---------------------------------------------------------------------------------------------
# Properties

#: Property types each kind of property accepts. ``qlonglong`` is what Tiled writes for a
#: whole number that had no type in the file it read (a hand-written map).
_TILED_TYPES = {
    "float": ("float", "int", "qlonglong"),
    "int": ("int", "float", "qlonglong"),
    "bool": ("bool",),
    "string": ("string",),
    "enum": ("string",),
    "file": ("file", "string"),
    "floats": ("string",),
}


def number_list(text: str) -> tuple[float, ...] | None:
    """Read the numbers of a ``floats`` property (``"40, 40,12.5"``; blank: none).

    Args:
        text: The property's string.

    Returns:
        The numbers, or None when an item is not a finite plain number.
    """
    if not text.strip():
        return ()
    numbers: list[float] = []
    for item in text.split(","):
        word = item.strip()
        if not _NUMBER.fullmatch(word):
            return None
        number = float(word)
        if not math.isfinite(number):
            return None
        numbers.append(number)
    return tuple(numbers)


def _floats(value: str, spec: PropSpec, where: _Where) -> tuple[float, ...]:
    """Check and read a ``floats`` property, naming the first bad item."""
    if not value.strip():
        return ()
    items = value.split(",")
    if len(items) > MAX_PATH_POINTS:
        raise where.error(f"{len(items):,} values; at most {MAX_PATH_POINTS:,}", spec.name)
    numbers: list[float] = []
    for k, item in enumerate(items, 1):
        word = item.strip()
        if not _NUMBER.fullmatch(word):
            raise where.error(
                f"expected numbers separated by commas; value {k} is {_kind_of(word)}",
                spec.name,
            )
        number = float(word)
        if not math.isfinite(number) or abs(number) > MAX_MAGNITUDE:
            raise where.error(f"value {k} ({word[:40]}) is absurdly large", spec.name)
        _check_range(number, spec, where, f"value {k} ")
        numbers.append(number)
    return tuple(numbers)


def read_properties(owner: dict[str, Any], where: _Where) -> dict[str, tuple[str | None, Any]]:
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
            f"expected a list of {{name, type, value}} entries, got {_kind_of(raw)}", "properties"
        )
    result: dict[str, tuple[str | None, Any]] = {}
    for index, entry in enumerate(raw):
        field = f"properties[{index}]"
        if not isinstance(entry, dict):
            raise where.error(
                f"expected a {{name, type, value}} object, got {_kind_of(entry)}", field
            )
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise where.error(f"a property needs a non-empty name, got {_kind_of(name)}", field)
        if "value" not in entry:
            raise where.error("property has no value", name)
        declared = entry.get("type")
        if declared is not None and not isinstance(declared, str):
            raise where.error(f"property type must be a string, got {_kind_of(declared)}", name)
        if name in result:
            raise where.error("property appears twice", name)
        result[name] = (declared, entry["value"])
    return result


def property_value(
    props: dict[str, tuple[str | None, Any]], spec: PropSpec, where: _Where
) -> float | int | bool | str | tuple[float, ...]:
    """Return a property's checked value, or its default when absent.

    Args:
        props: Properties from :func:`read_properties`.
        spec: The property's specification.
        where: Location for errors.

    Returns:
        A float, int, bool, str or (``floats``) tuple of floats according to ``spec.kind``.

    Raises:
        LevelError: on a wrong type or an out-of-range value.
    """
    if spec.name not in props:
        default = spec.default
        if spec.kind == "float" and isinstance(default, int | float):
            return float(default)
        return default
    declared, value = props[spec.name]
    field = spec.name
    allowed = _TILED_TYPES[spec.kind]
    if declared is not None and declared not in allowed:
        raise where.error(
            f"expected a {allowed[0]} property, got a {declared} property ({_kind_of(value)})",
            field,
        )
    if spec.kind in ("float", "int"):
        if not _is_number(value):
            raise where.error(f"expected a number, got {_kind_of(value)}", field)
        if abs(value) > MAX_MAGNITUDE:
            raise where.error(f"{_show(value)} is absurdly large", field)
        fraction = isinstance(value, float) and not value.is_integer()
        if spec.kind == "float" and declared in ("int", "qlonglong") and fraction:
            raise where.error(
                f"{value!r} in an {declared} property (Tiled rounds it to a whole number); "
                "make it a float property",
                field,
            )
        number: float | int
        if spec.kind == "int":
            if isinstance(value, float) and not value.is_integer():
                raise where.error(f"expected an integer, got {value!r}", field)
            number = int(value)
        else:
            number = tiled_float(value)
        _check_range(number, spec, where)
        return number
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise where.error(f"expected true or false, got {_kind_of(value)}", field)
        return value
    if not isinstance(value, str):
        expected = "numbers separated by commas in a string" if spec.kind == "floats" else ""
        raise where.error(f"expected {expected or 'a string'}, got {_kind_of(value)}", field)
    if spec.kind == "floats":
        return _floats(value, spec, where)
    problem = text_problem(value, field)
    if problem:
        raise where.error(problem, field)
    if spec.kind == "enum" and value not in spec.choices:
        choices = ", ".join(spec.choices)
        raise where.error(
            f"unknown value {value!r} (one of {choices}){_suggest(value, spec.choices)}", field
        )
    return value


def _check_range(value: float, spec: PropSpec, where: _Where, what: str = "") -> None:
    """Refuse a number outside the property's range (``what`` names an item of a list)."""
    low, high, got = spec.minimum, spec.maximum, plain_number(value)
    if low is not None:
        if spec.exclusive and value <= low:
            raise where.error(f"{what}must be > {plain_number(low)}, got {got}", spec.name)
        if not spec.exclusive and value < low:
            raise where.error(f"{what}must be >= {plain_number(low)}, got {got}", spec.name)
    if high is not None and value > high:
        raise where.error(f"{what}must be at most {plain_number(high)}, got {got}", spec.name)


def _warn_unknown(props: dict[str, tuple[str | None, Any]], spec: ClassSpec, where: _Where) -> None:
    """Log properties the class does not know (often a typo), with the nearest known name."""
    known = [p.name for p in spec.props]
    for name in props:
        if name not in known:
            where.warn(f"unknown {spec.name} property, ignored{_suggest(name, known)}", name)


def resolve_image(value: str, base_dir: Path, where: _Where) -> Path:
    """Resolve an image property and check it stays under resources/ or levels/.

    Args:
        value: The property value, relative to the level's folder or absolute.
        base_dir: The level's folder.
        where: Location for errors.

    Returns:
        The absolute, resolved path.

    Raises:
        LevelError: if the image is outside resources/ and levels/, missing or not an image.
    """
    try:
        path = (base_dir / value).resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        raise where.error(f"cannot resolve image path {value!r}: {exc}", "image") from exc
    roots = [root.resolve() for root in IMAGE_ROOTS]
    if not any(path.is_relative_to(root) for root in roots):
        raise where.error(
            f"image {value!r} resolves to {path}, outside the game's resources/ and levels/",
            "image",
        )
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise where.error(f"image {value!r} is not a .png, .jpg, .bmp, .gif or .webp", "image")
    try:
        info = path.stat()
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            missing = f"image file {value!r} not found (looked at {path})"
            raise where.error(missing, "image") from exc
        raise where.error(f"image {value!r}: {exc.strerror or exc}", "image") from exc
    if not stat.S_ISREG(info.st_mode):
        raise where.error(f"image {value!r} is not a regular file", "image")
    _verify_image(value, path, where)
    return path


def _verify_image(value: str, path: Path, where: _Where) -> None:
    """Decode the image now, so that a level that loads is a level whose current can be built.

    Raises:
        LevelError: for an empty, truncated or unknown file, or one larger than
            :data:`MAX_IMAGE_SIDE` px a side or :data:`MAX_IMAGE_BYTES`.
    """
    from PIL import Image  # lazy: most levels have no image

    size = path.stat().st_size
    if size == 0:
        raise where.error(f"image {value!r} is an empty file", "image")
    if size > MAX_IMAGE_BYTES:
        raise where.error(
            f"image {value!r} is {size:,} bytes; at most {MAX_IMAGE_BYTES:,}", "image"
        )
    try:
        with Image.open(path) as im:
            w, h = im.size
            if w > MAX_IMAGE_SIDE or h > MAX_IMAGE_SIDE:
                raise where.error(
                    f"image {value!r} is {w:,} x {h:,} px; at most {MAX_IMAGE_SIDE:,} px a side",
                    "image",
                )
            im.load()
    except LevelError:
        raise
    except Image.DecompressionBombError as exc:
        raise where.error(
            f"image {value!r} is too large to decode; at most {MAX_IMAGE_SIDE:,} px a side",
            "image",
        ) from exc
    except Exception as exc:  # PIL raises OSError, SyntaxError, ValueError, ... for bad data
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise where.error(f"image {value!r} cannot be decoded: {reason}", "image") from exc


# ---------------------------------------------------------------------------------------------
# Layers and objects


def iter_object_layers(
    raw: dict[str, Any], where: _Where
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
        raise where.error(f"expected a list of layers, got {_kind_of(layers)}", "layers")

    def offset(layer: dict[str, Any], key: str, field: str) -> float:
        value = layer.get(key, 0)
        if not _is_number(value) or abs(value) > MAX_WORLD_PX:
            raise where.error(f"expected a layer offset in px, got {_kind_of(value)}", field)
        return float(value)

    def walk(
        items: list[Any], jpath: str, depth: int, ox: float, oy: float
    ) -> Iterator[tuple[dict[str, Any], list[Any], float, float]]:
        if depth > MAX_LAYER_DEPTH:
            raise where.error(f"group layers nest deeper than {MAX_LAYER_DEPTH}", jpath)
        for index, layer in enumerate(items):
            field = f"{jpath}[{index}]"
            if not isinstance(layer, dict):
                raise where.error(f"expected a layer object, got {_kind_of(layer)}", field)
            kind = layer.get("type")
            if not isinstance(kind, str):
                raise where.error(
                    f"layer type must be a string, got {_kind_of(kind)}", field + ".type"
                )
            lx = ox + offset(layer, "offsetx", field + ".offsetx")
            ly = oy + offset(layer, "offsety", field + ".offsety")
            if kind == "objectgroup":
                objects = layer.setdefault("objects", [])
                if not isinstance(objects, list):
                    raise where.error(
                        f"expected a list of objects, got {_kind_of(objects)}", field + ".objects"
                    )
                yield layer, objects, lx, ly
            elif kind == "group":
                sub = layer.get("layers", [])
                if not isinstance(sub, list):
                    raise where.error(
                        f"expected a list of layers, got {_kind_of(sub)}", field + ".layers"
                    )
                yield from walk(sub, field + ".layers", depth + 1, lx, ly)

    yield from walk(layers, "layers", 0, 0.0, 0.0)


def iter_objects(
    raw: dict[str, Any], where: _Where
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
                raise where.error(f"expected an object, got {_kind_of(obj)}", f"objects[{index}]")
            yield obj, objects, ox, oy


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "an obstacle", "a path"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _cell(spawn: EnemySpawn | NpcSpawn) -> float:
    """The square each agent of ``spawn`` needs to start apart from the others (px^2)."""
    return (2.0 * spawn.radius + SPAWN_SPACING) ** 2


def object_identity(obj: dict[str, Any], where: _Where) -> _Where:
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
            f"every object needs an integer id from 1 to {MAX_OBJECT_ID:,}, got {_kind_of(oid)}",
            file=where.file,
            object_id=oid if isinstance(oid, int) and not isinstance(oid, bool) else NO_ID,
            object_name=name,
            object_class=_raw_class(obj) or None,
            field="id",
        )
    here = _Where(where.file, oid, name)
    if not isinstance(raw_name, str) and raw_name is not None:
        raise here.error(f"expected a string, got {_kind_of(raw_name)}", "name")
    problem = text_problem(name, "name")
    if problem:
        raise here.error(problem, "name")
    return here


def _shape_of(obj: dict[str, Any], where: _Where) -> str:
    """Return the object's Tiled shape: point, ellipse, polygon, polyline, tile, text or rect."""
    for key in ("point", "ellipse"):
        value = obj.get(key, False)
        if not isinstance(value, bool):
            raise where.error(f"expected true or false, got {_kind_of(value)}", key)
        if value:
            return key
    for key in ("polygon", "polyline"):
        if key in obj:
            return key
    if "gid" in obj:
        return "tile"
    if "text" in obj:
        return "text"
    return "rect"


_SHAPE_WORDS = {
    "point": "point",
    "rect": "rectangle",
    "ellipse": "ellipse",
    "polyline": "polyline",
    "polygon": "polygon",
    "tile": "tile object",
    "text": "text object",
}


def _inside(x: float, y: float, info: MapInfo) -> bool:
    """True when (x, y) is inside the world (border included)."""
    return -_EPS <= x <= info.width_px + _EPS and -_EPS <= y <= info.height_px + _EPS


def _outside(info: MapInfo) -> str:
    """The words for a position outside the world."""
    return f"is outside the world (0..{info.width_px:g} x 0..{info.height_px:g} px)"


def _rotate(px: float, py: float, degrees: float) -> tuple[float, float]:
    """Rotate a Tiled (y-down) offset clockwise on screen, as Tiled's ``rotation`` does."""
    if degrees == 0:
        return px, py
    rad = math.radians(degrees)
    cos, sin = math.cos(rad), math.sin(rad)
    return px * cos - py * sin, px * sin + py * cos


def parse_object(
    obj: dict[str, Any], ox: float, oy: float, info: MapInfo, *, warn: bool = True
) -> tuple[str, LevelObject] | None:
    """Turn one raw Tiled object into level data.

    Args:
        obj: The raw object.
        ox: Offset x of its layer (and groups).
        oy: Offset y of its layer (and groups).
        info: The map it belongs to.
        warn: Log unknown properties (the saver's comparisons turn this off).

    Returns:
        (class name, level object), or None for an object without a class (a designer's note).

    Raises:
        LevelError: if the object is invalid.
    """
    where = object_identity(obj, _Where(info.file))
    cls = _class_of(obj, where)
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
        raise where.error(
            f"unknown class {cls!r} (known: {', '.join(known)}){_suggest(cls, known)}",
            class_key(obj),
        )
    where = _Where(where.file, where.object_id, where.object_name, cls)
    shape = _shape_of(obj, where)
    x = _number(obj, "x", where)
    y = _number(obj, "y", where)
    w = _number(obj, "width", where, 0.0)
    h = _number(obj, "height", where, 0.0)
    rotation = _number(obj, "rotation", where, 0.0)
    if shape == "rect" and w == 0 and h == 0 and "point" in spec.shapes:
        shape = "point"  # a hand-written object with no size and no "point": true
    if shape not in spec.shapes:
        allowed = " or ".join(_SHAPE_WORDS[s] for s in spec.shapes)
        raise where.error(
            f"{_a(cls)} must be {_a(allowed)}, not {_a(_SHAPE_WORDS[shape])}", "shape"
        )
    props = read_properties(obj, where)
    values: dict[str, Any] = {p.name: property_value(props, p, where) for p in spec.props}
    if warn:
        _warn_unknown(props, spec, where)
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
        px, py = _q(ox + x), _q(info.height_px - (oy + y))
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
        return cls, NpcSpawn(x=_q(cx), y=_q(cy), area=rect, **values, **ident)
    image_value = values.pop("image")
    assert isinstance(image_value, str)
    image = resolve_image(image_value, info.base_dir, where) if image_value else None
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
    where: _Where,
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
    left = _q(ox + x)
    bottom = _q(info.height_px - (oy + y + h))
    rect = Rect(left, bottom, _q(w), _q(h))
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
    where: _Where,
) -> tuple[float, float, float]:
    """A Tiled ellipse (bounding box top-left, y down) as a world circle (x, y, radius)."""
    if abs(w - h) > CIRCLE_TOLERANCE:
        raise where.error(
            f"an obstacle's ellipse must be a circle: width {w:g} != height {h:g}", "width"
        )
    radius = _q(w / 2)
    if radius <= 0:
        raise where.error(f"radius must be > 0, got {w / 2:g} (width {w:g})", "width")
    dx, dy = _rotate(w / 2, h / 2, rotation)
    cx = _q(ox + x + dx)
    cy = _q(info.height_px - (oy + y + dy))
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
    where: _Where,
    noun: str = "a path",
    least: int = 2,
) -> tuple[Point, ...]:
    """A polyline's or polygon's points in world coordinates, repeated nodes dropped; at
    least ``least`` distinct ones (``noun`` names the object in the message)."""
    raw = obj[shape]
    if not isinstance(raw, list):
        raise where.error(f"expected a list of {{x, y}} points, got {_kind_of(raw)}", shape)
    if len(raw) > MAX_PATH_POINTS:
        raise where.error(f"{len(raw):,} points; at most {MAX_PATH_POINTS:,}", shape)
    points: list[Point] = []
    for index, entry in enumerate(raw):
        field = f"{shape}[{index}]"
        if not isinstance(entry, dict):
            raise where.error(f"expected an {{x, y}} point, got {_kind_of(entry)}", field)
        px = _number(entry, "x", where)
        py = _number(entry, "y", where)
        dx, dy = _rotate(px, py, rotation)
        point = (_q(ox + x + dx), _q(info.height_px - (oy + y + dy)))
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


# ---------------------------------------------------------------------------------------------
# The map


def parse_level(raw: dict[str, Any], source: str | os.PathLike[str] | None = None) -> Level:
    """Validate a decoded Tiled map and turn it into a Level.

    Args:
        raw: The decoded JSON (from :func:`read_raw`; must hold no NaN/Infinity).
        source: The file it came from: named in errors, and the folder relative image paths
            start from (the shipped levels folder when None).

    Returns:
        The level.

    Raises:
        LevelError: if anything is invalid.
    """
    file = Path(source) if source is not None else None
    where = _Where(file)
    if not isinstance(raw, dict):
        raise where.error(f"not a Tiled map: expected a JSON object, got {_kind_of(raw)}")
    kind = raw.get("type", "map")
    if kind != "map":
        raise where.error(f'not a Tiled map: type is {_kind_of(kind)}, expected "map"', "type")
    orientation = raw.get("orientation", "orthogonal")
    if orientation != "orthogonal":
        raise where.error(
            f"only orthogonal maps are supported, got {_kind_of(orientation)}", "orientation"
        )
    infinite = raw.get("infinite", False)
    if infinite not in (False, 0) or isinstance(infinite, float):
        raise where.error(f"infinite maps are not supported (got {_kind_of(infinite)})", "infinite")
    tile_w = _integer(raw, "tilewidth", where, 1, MAX_WORLD_PX)
    tile_h = _integer(raw, "tileheight", where, 1, MAX_WORLD_PX)
    width = _integer(raw, "width", where, 1, MAX_WORLD_PX)
    height = _integer(raw, "height", where, 1, MAX_WORLD_PX)
    for key, tiles, size in (("width", width, tile_w), ("height", height, tile_h)):
        if tiles * size > MAX_WORLD_PX:
            raise where.error(
                f"the world is {tiles * size:,} px {'wide' if key == 'width' else 'high'} "
                f"({tiles} tiles x {size} px); at most {MAX_WORLD_PX:,}",
                key,
            )
    info = MapInfo(
        file=file,
        base_dir=Path(os.path.realpath(file)).parent if file is not None else LEVELS_DIR,
        width_px=float(width * tile_w),
        height_px=float(height * tile_h),
    )
    map_props = read_properties(raw, where)
    meta = {p.name: property_value(map_props, p, where) for p in MAP_PROPERTIES}

    found: dict[str, list[LevelObject]] = {name: [] for name in CLASSES}
    ids: dict[int, dict[str, Any]] = {}
    for obj, _holder, ox, oy in iter_objects(raw, where):
        here = object_identity(obj, where)
        assert here.object_id is not None
        if here.object_id in ids:
            raise here.error(f"object id {here.object_id} is used twice", "id")
        ids[here.object_id] = obj
        parsed = parse_object(obj, ox, oy, info)
        if parsed is not None:
            found[parsed[0]].append(parsed[1])
    return _assemble(found, meta, info, tile_w, tile_h)


def _where_of(item: LevelObject, info: MapInfo, cls: str) -> _Where:
    """The error location of a parsed object."""
    return _Where(info.file, item.id, item.name, cls)


def _assemble(
    found: dict[str, list[LevelObject]],
    meta: dict[str, float | int | bool | str | tuple[float, ...]],
    info: MapInfo,
    tile_w: int,
    tile_h: int,
) -> Level:
    """Cross-check the parsed objects and build the Level."""
    players = [p for p in found["player"] if isinstance(p, PlayerSpawn)]
    exits = tuple(e for e in found["exit"] if isinstance(e, ExitData))
    paths = tuple(p for p in found["path"] if isinstance(p, PathData))
    enemies = tuple(e for e in found["enemy"] if isinstance(e, EnemySpawn))
    npcs = tuple(n for n in found["npc"] if isinstance(n, NpcSpawn))
    flows = tuple(f for f in found["flow"] if isinstance(f, FlowRegion))
    obstacles = tuple(o for o in found["obstacle"] if isinstance(o, ObstacleData))
    walls = tuple(w for w in found["wall"] if isinstance(w, WallData))
    total = 0
    for wall in walls:
        total += len(wall.points)
        if total > MAX_WALL_POINTS:
            raise _where_of(wall, info, "wall").error(
                f"the walls so far have {total:,} points; at most {MAX_WALL_POINTS:,} in all "
                "walls together",
                "polyline" if wall.shape == "polyline" else "polygon",
            )
    if not players:
        raise LevelError('no player start: add one point object of class "player"', file=info.file)
    if len(players) > 1:
        first, second = players[0], players[1]
        raise _where_of(second, info, "player").error(
            f"a second player start (the first is object {first.id}); exactly one is allowed",
            "type",
        )
    player = players[0]
    if not exits:
        raise LevelError('no exit: add a rectangle object of class "exit"', file=info.file)
    for exit_ in exits:
        if exit_.rect.contains(player.x, player.y):
            raise _where_of(player, info, "player").error(
                f"the player starts inside exit object {exit_.id}", "x"
            )
    for wall in walls:
        gap = _distance_to_wall(player.x, player.y, wall) - wall.thickness / 2
        if gap < player.radius:
            raise _where_of(player, info, "player").error(
                f"the player starts inside wall object {wall.id} (its edge is {gap:g} px from "
                f"the start, closer than the player's radius {player.radius:g})",
                "x",
            )
    names: dict[str, int] = {}
    for path in paths:
        if path.name in names:
            raise _where_of(path, info, "path").error(
                f"path name {path.name!r} is already used by object {names[path.name]}", "name"
            )
        names[path.name] = path.id
    agents = 1
    world_area = info.width_px * info.height_px
    crowd_area = (2.0 * player.radius + SPAWN_SPACING) ** 2
    spawns: list[tuple[str, EnemySpawn | NpcSpawn]] = [("enemy", e) for e in enemies]
    spawns += [("npc", n) for n in npcs]
    for cls, spawn in spawns:
        if spawn.path and spawn.path not in names:
            listed = ", ".join(sorted(names)) or "none"
            raise _where_of(spawn, info, cls).error(
                f"no path named {spawn.path!r}{_suggest(spawn.path, list(names))} "
                f"(paths: {listed})",
                "path",
            )
        if isinstance(spawn, EnemySpawn) and spawn.formation != "none" and spawn.role != "patrol":
            raise _where_of(spawn, info, cls).error(
                f"a {spawn.role} cannot hold a formation; formations are for patrols",
                "formation",
            )
        if isinstance(spawn, EnemySpawn) and spawn.formation != "none" and spawn.count < 2:
            raise _where_of(spawn, info, cls).error(
                f"a {spawn.formation} formation needs count > 1 (a leader and followers), "
                f"got {spawn.count}",
                "formation",
            )
        agents += spawn.count
        if agents > MAX_AGENTS:
            raise _where_of(spawn, info, cls).error(
                f"the level would spawn {agents:,} agents or more; at most {MAX_AGENTS:,}",
                "count",
            )
        # Agents start apart (overlapping bodies would stall the physics for minutes): a
        # spawn that cannot fit in the world beside the ones before it is refused.
        crowd_area += spawn.count * _cell(spawn)
        if crowd_area > world_area * MAX_CROWD_FILL:
            fits = int(
                max(world_area * MAX_CROWD_FILL - (crowd_area - spawn.count * _cell(spawn)), 0)
                // _cell(spawn)
            )
            raise _where_of(spawn, info, cls).error(
                f"{spawn.count:,} agents of radius {spawn.radius:g} do not fit in the "
                f"{info.width_px:g} x {info.height_px:g} px world beside the others; at most "
                f"{fits:,} here",
                "count",
            )
    cells = 0
    for flow in flows:
        cols, rows = flow.cells
        cells += cols * rows
        if cells > MAX_FLOW_CELLS:
            raise _where_of(flow, info, "flow").error(
                f"flow regions need {cells:,} cells or more; at most "
                f"{MAX_FLOW_CELLS:,} (make cell larger)",
                "cell",
            )
    title, seed, hint = meta["title"], meta["seed"], meta["hint"]
    assert isinstance(title, str) and isinstance(hint, str) and isinstance(seed, int)
    return Level(
        title=title,
        seed=seed,
        hint=hint,
        width_px=info.width_px,
        height_px=info.height_px,
        player=player,
        exits=exits,
        paths=paths,
        obstacles=obstacles,
        walls=walls,
        enemies=enemies,
        npcs=npcs,
        flows=flows,
        tile_width=tile_w,
        tile_height=tile_h,
        source=info.file,
    )


def _distance_to_wall(x: float, y: float, wall: WallData) -> float:
    """Distance from (x, y) to the nearest segment's centre line of ``wall`` (px)."""
    best = math.inf
    for (ax, ay), (bx, by) in wall.segments:
        dx, dy = bx - ax, by - ay
        t = ((x - ax) * dx + (y - ay) * dy) / max(dx * dx + dy * dy, 1e-12)
        t = min(max(t, 0.0), 1.0)
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def loads_level(text: str, source: str | os.PathLike[str] | None = None) -> Level:
    """Parse a level from JSON text.

    Args:
        text: The ``.tmj`` contents.
        source: The file name to report and to resolve relative image paths from.

    Returns:
        The level.

    Raises:
        LevelError: if the text is not a valid level.
    """
    file = Path(source) if source is not None else None
    return parse_level(_decode(text, file), file)


def load_level(path: str | os.PathLike[str]) -> Level:
    """Load and validate a level file.

    Args:
        path: A ``.tmj`` file.

    Returns:
        The level, in world coordinates, with ``source`` set to ``path``.

    Raises:
        LevelError: if the file cannot be read or is not a valid level.
    """
    file = Path(path)
    return parse_level(read_raw(file), file)
