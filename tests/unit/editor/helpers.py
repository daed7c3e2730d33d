"""Small levels for the editor tests, built in code or written as Tiled maps (tmp files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.level import (
    EnemySpawn,
    ExitData,
    Level,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Rect,
)
from tests.helpers.level import (
    ellipse,
    exit_,
    layer,
    make_map,
    player,
    point,
    poly,
    prop,
    rect,
)

#: The test world is 1280 x 640 px (40 x 20 tiles of 32 px).
WORLD_W, WORLD_H = 1280.0, 640.0

#: A closed square and an open three-node line.
LOOP = PathData(
    points=((200.0, 200.0), (400.0, 200.0), (400.0, 400.0), (200.0, 400.0)),
    closed=True,
    radius=20.0,
    id=3,
    name="loop",
)
LINE = PathData(
    points=((600.0, 100.0), (800.0, 100.0), (1000.0, 100.0)),
    closed=False,
    radius=30.0,
    id=4,
    name="line",
)
ROCKS = (
    ObstacleData(x=700.0, y=400.0, radius=40.0, id=5, name="a"),
    ObstacleData(x=900.0, y=400.0, radius=40.0, id=6, name="b"),
    ObstacleData(x=800.0, y=560.0, radius=30.0, id=7, name="c"),
)


def make_level() -> Level:
    """The test level: two paths, three rocks, a player, an exit and a guard on the loop."""
    return Level(
        width_px=WORLD_W,
        height_px=WORLD_H,
        player=PlayerSpawn(x=64.0, y=320.0, id=1, name="start"),
        exits=(ExitData(rect=Rect(1152.0, 256.0, 96.0, 128.0), id=2, name="exit"),),
        paths=(LOOP, LINE),
        obstacles=ROCKS,
        enemies=(EnemySpawn(x=200.0, y=200.0, path="loop", id=8, name="guard"),),
        title="Editor test",
    )


def rich_map() -> dict[str, Any]:
    """The test level as a Tiled map, with things the editor does not own: a class-less note,
    a tile layer, unknown keys and properties, and ids up to 30 in use."""
    h = WORLD_H
    objects = [
        player(1, 64, h - 320),
        exit_(2),
        poly(
            3,
            "path",
            200,
            h - 200,
            [(0, 0), (200, 0), (200, -200), (0, -200)],
            True,
            [prop("radius", "float", 20)],
            "loop",
        ),
        poly(
            4,
            "path",
            600,
            h - 100,
            [(0, 0), (200, 0), (400, 0)],
            False,
            [prop("radius", "float", 30), prop("colour", "string", "red")],
            "line",
        ),
        ellipse(5, "obstacle", 660, h - 440, 80, 80, name="a"),
        ellipse(6, "obstacle", 860, h - 440, 80, 80, name="b"),
        ellipse(7, "obstacle", 770, h - 590, 60, 60, name="c"),
        point(8, "enemy", 200, h - 200, [prop("path", "string", "loop")], "guard"),
        rect(30, "", 10, 10, 20, 20, [prop("note", "string", "designer note")], "note"),
    ]
    tiles = {
        "data": [1] * 800,
        "height": 20,
        "id": 7,
        "name": "ground",
        "opacity": 0.5,
        "type": "tilelayer",
        "visible": True,
        "width": 40,
        "x": 0,
        "y": 0,
    }
    raw = make_map(objects, layers=[tiles, layer(objects, 1)])
    raw["properties"] = [prop("music", "file", "song.ogg"), prop("title", "string", "Editor test")]
    raw["nextobjectid"] = 31
    raw["editorsettings"] = {"export": {"format": "json"}}
    return raw


def write_rich(folder: Path, name: str = "level.tmj") -> Path:
    """Write :func:`rich_map` to ``folder / name`` the way Tiled indents and return the path."""
    path = folder / name
    path.write_text(json.dumps(rich_map(), indent=1) + "\n", encoding="utf-8")
    return path


def read_json(path: Path) -> dict[str, Any]:
    """The decoded JSON of a file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def objects_by_id(raw: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Every object of a raw map by id (group layers included)."""
    found: dict[int, dict[str, Any]] = {}
    stack = [raw["layers"]]
    while stack:
        for lay in stack.pop():
            for obj in lay.get("objects", []):
                found[obj["id"]] = obj
            stack.append(lay.get("layers", []))
    return found
