"""Small builders for hand-made Tiled maps in tests (Tiled coordinates: y down)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game.level import Level, LevelError, load_level

#: Test maps are 40 x 20 tiles of 32 px: a 1280 x 640 px world.
MAP_W, MAP_H, TILE = 40, 20, 32
WORLD_W, WORLD_H = MAP_W * TILE, MAP_H * TILE


def prop(name: str, kind: str, value: Any) -> dict[str, Any]:
    """A Tiled custom property."""
    return {"name": name, "type": kind, "value": value}


def _base(
    oid: int, cls: str, name: str, x: float, y: float, props: list[dict[str, Any]] | None, key: str
) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "id": oid,
        "name": name,
        key: cls,
        "x": x,
        "y": y,
        "width": 0,
        "height": 0,
        "rotation": 0,
        "visible": True,
    }
    if props:
        obj["properties"] = props
    return obj


def point(
    oid: int,
    cls: str,
    x: float,
    y: float,
    props: list[dict[str, Any]] | None = None,
    name: str = "",
    key: str = "type",
) -> dict[str, Any]:
    """A point object at Tiled (x, y)."""
    obj = _base(oid, cls, name, x, y, props, key)
    obj["point"] = True
    return obj


def rect(
    oid: int,
    cls: str,
    x: float,
    y: float,
    w: float,
    h: float,
    props: list[dict[str, Any]] | None = None,
    name: str = "",
    key: str = "type",
) -> dict[str, Any]:
    """A rectangle with its top-left corner at Tiled (x, y)."""
    obj = _base(oid, cls, name, x, y, props, key)
    obj["width"], obj["height"] = w, h
    return obj


def ellipse(
    oid: int,
    cls: str,
    x: float,
    y: float,
    w: float,
    h: float,
    props: list[dict[str, Any]] | None = None,
    name: str = "",
    key: str = "type",
) -> dict[str, Any]:
    """An ellipse with its bounding box's top-left corner at Tiled (x, y)."""
    obj = rect(oid, cls, x, y, w, h, props, name, key)
    obj["ellipse"] = True
    return obj


def poly(
    oid: int,
    cls: str,
    x: float,
    y: float,
    points: Sequence[tuple[float, float]],
    closed: bool,
    props: list[dict[str, Any]] | None = None,
    name: str = "",
    key: str = "type",
) -> dict[str, Any]:
    """A polygon (closed) or polyline (open) with points relative to Tiled (x, y)."""
    obj = _base(oid, cls, name, x, y, props, key)
    obj["polygon" if closed else "polyline"] = [{"x": px, "y": py} for px, py in points]
    return obj


def player(oid: int = 1, x: float = 64, y: float = 320, **kw: Any) -> dict[str, Any]:
    """The player start (world (64, 320) by default)."""
    return point(oid, "player", x, y, name=kw.pop("name", "start"), **kw)


def exit_(oid: int = 2, **kw: Any) -> dict[str, Any]:
    """An exit at the right edge."""
    return rect(oid, "exit", 1152, 256, 96, 128, name=kw.pop("name", "exit"), **kw)


def layer(objects: list[dict[str, Any]], lid: int = 1, name: str = "objects") -> dict[str, Any]:
    """An object layer."""
    return {
        "draworder": "topdown",
        "id": lid,
        "name": name,
        "objects": objects,
        "opacity": 1,
        "type": "objectgroup",
        "visible": True,
        "x": 0,
        "y": 0,
    }


def make_map(
    objects: list[dict[str, Any]],
    *,
    props: list[dict[str, Any]] | None = None,
    layers: list[dict[str, Any]] | None = None,
    width: int = MAP_W,
    height: int = MAP_H,
) -> dict[str, Any]:
    """A Tiled 1.8 map holding ``objects`` in one object layer (or the given layers)."""
    all_layers = layers if layers is not None else [layer(objects)]
    ids = [o["id"] for o in objects if isinstance(o, dict) and isinstance(o.get("id"), int)]
    raw: dict[str, Any] = {
        "compressionlevel": -1,
        "height": height,
        "infinite": False,
        "layers": all_layers,
        "nextlayerid": len(all_layers) + 1,
        "nextobjectid": max(ids, default=0) + 1,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "tiledversion": "1.8.2",
        "tileheight": TILE,
        "tilesets": [],
        "tilewidth": TILE,
        "type": "map",
        "version": "1.8",
        "width": width,
    }
    if props:
        raw["properties"] = props
    return raw


def valid_map(extra: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    """A valid map: player, exit, and ``extra`` objects."""
    return make_map([player(), exit_(), *(extra or [])], **kw)


def write(tmp_path: Path, raw: Any, name: str = "level.tmj") -> Path:
    """Write JSON (NaN allowed, to test refusing it) and return the file."""
    path = tmp_path / name
    path.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    return path


def load(tmp_path: Path, raw: Any, name: str = "level.tmj") -> Level:
    """Write and load a map."""
    return load_level(write(tmp_path, raw, name))


def assert_names(
    error: LevelError,
    path: Path,
    field: str | None = None,
    object_id: int | None = None,
    object_name: str | None = None,
) -> None:
    """Assert that the message names the file, and the object and field when given."""
    message = str(error)
    assert "\n" not in message
    assert str(path) in message, message
    if object_id is not None:
        assert f"object {object_id} " in message, message
    if object_name is not None:
        assert json.dumps(object_name) in message, message
    if field is not None:
        assert f'field "{field}"' in message, message
