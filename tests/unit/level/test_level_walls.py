"""Walls in the level format: three shapes, a thickness, clear errors, and a lossless save."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from game.level import LevelError, WallData, load_level, save_level
from tests.helpers.level import (
    WORLD_H,
    assert_names,
    poly,
    prop,
    rect,
    valid_map,
    write,
)


def _wall_map(*walls: dict[str, Any]) -> dict[str, Any]:
    return valid_map(list(walls))


def _error(tmp_path: Path, raw: dict[str, Any]) -> tuple[LevelError, Path]:
    path = write(tmp_path, raw)
    with pytest.raises(LevelError) as info:
        load_level(path)
    return info.value, path


def test_wall_shapes_load_in_world_coordinates(tmp_path: Path) -> None:
    # Given an open wall, a closed wall and a block
    raw = _wall_map(
        poly(10, "wall", 300, 100, [(0, 0), (0, 200), (100, 200)], False, name="reef"),
        poly(11, "wall", 800, 300, [(0, 0), (50, 0), (50, 50)], True),
        rect(12, "wall", 600, 100, 64, 32, [prop("thickness", "float", 20)], "block"),
    )
    # When the level loads
    level = load_level(write(tmp_path, raw))
    # Then each keeps its shape, with y flipped to world coordinates
    reef, tri, block = level.walls
    assert reef.shape == "polyline" and not reef.closed
    assert reef.points == ((300, WORLD_H - 100), (300, WORLD_H - 300), (400, WORLD_H - 300))
    assert len(reef.segments) == 2
    assert tri.shape == "polygon" and tri.closed and len(tri.segments) == 3
    assert block.shape == "rect" and block.thickness == 20.0
    assert block.points == ((600, 508), (664, 508), (664, 540), (600, 540))
    assert reef.thickness == 12.0  # the default


@pytest.mark.parametrize(
    ("wall", "field", "words"),
    [
        (poly(10, "wall", 300, 100, [(0, 0), (0, 0)], False, name="w"), "polyline", "two distinct"),
        (poly(10, "wall", 300, 100, [(0, 0), (9, 9), (0, 0)], True, name="w"), "polygon", "three"),
        (rect(10, "wall", 300, 100, 0, 40, name="w"), "width", "> 0"),
        (
            poly(10, "wall", 300, 100, [(0, 0), (5000, 0)], False, name="w"),
            "polyline[1]",
            "outside the world",
        ),
        (
            rect(10, "wall", 300, 100, 50, 40, [prop("thickness", "float", 0)], "w"),
            "thickness",
            "must be > 0",
        ),
        (
            rect(10, "wall", 300, 100, 50, 40, [prop("thickness", "string", "thick")], "w"),
            "thickness",
            "expected a float property",
        ),
        (
            poly(10, "wall", 300, 100, [(0, 0), (1e300, 0)], False, name="w"),
            "x",
            "absurdly large",
        ),
    ],
    ids=["one-point", "polygon-two-points", "zero-width", "outside", "thin", "string", "huge"],
)
def test_bad_walls_are_refused_naming_object_and_field(
    tmp_path: Path, wall: dict[str, Any], field: str, words: str
) -> None:
    error, path = _error(tmp_path, _wall_map(wall))
    assert_names(error, path, field, 10, "w")
    assert words in str(error)


def test_a_non_finite_wall_point_is_refused(tmp_path: Path) -> None:
    wall = poly(10, "wall", 300, 100, [(0, 0), (0, 100)], False, name="w")
    path = tmp_path / "level.tmj"
    text = json.dumps(valid_map([wall])).replace('"y": 100}', '"y": NaN}')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LevelError) as info:
        load_level(path)
    assert_names(info.value, path, object_id=10)
    assert "NaN" in str(info.value)


def test_a_player_starting_inside_a_wall_is_refused(tmp_path: Path) -> None:
    # The player starts at Tiled (64, 320); a wall runs through it
    wall = poly(10, "wall", 64, 200, [(0, 0), (0, 300)], False, name="w")
    error, path = _error(tmp_path, _wall_map(wall))
    assert_names(error, path, "x", 1, "start")
    assert "inside wall object 10" in str(error)


def test_walls_round_trip_through_the_saver(tmp_path: Path) -> None:
    # Given a level with all three shapes, one with a thickness
    raw = _wall_map(
        poly(10, "wall", 300, 100, [(0, 0), (0, 200)], False, [prop("thickness", "float", 7)]),
        poly(11, "wall", 800, 300, [(0, 0), (50, 0), (50, 50)], True, name="tri"),
        rect(12, "wall", 600, 100, 64, 32, name="block"),
    )
    level = load_level(write(tmp_path, raw))
    # When it is saved into a new file and into its own, after moving the block
    fresh = save_level(level, tmp_path / "copy.tmj")
    moved = WallData(
        points=((0, 0), (64, 0), (64, 32), (0, 32)), shape="rect", thickness=30, id=12, name="b"
    )
    edited = replace(level, walls=(*level.walls[:2], moved))
    again = save_level(edited, backup=False)
    # Then both load back equal, and the block is still a rectangle in the file
    assert load_level(tmp_path / "copy.tmj") == level == fresh
    assert again.source is not None
    assert load_level(again.source) == edited
    objs = {o["id"]: o for o in json.loads(again.source.read_text())["layers"][0]["objects"]}
    assert "polygon" not in objs[12] and "polyline" not in objs[12]
    assert (objs[12]["width"], objs[12]["height"]) == (64, 32)
    assert "polyline" in objs[10] and "polygon" in objs[11]


def test_a_new_wall_gets_an_id_and_keeps_its_points(tmp_path: Path) -> None:
    level = load_level(write(tmp_path, valid_map()))
    wall = WallData(points=((100, 100), (200, 100)), id=0)
    saved = save_level(replace(level, walls=(wall,)), backup=False)
    assert saved.walls[0].id > 0
    assert saved.walls[0].points == wall.points


def test_walls_over_the_total_point_limit_are_refused_naming_the_wall(tmp_path: Path) -> None:
    # Given three walls of 8,000 points each (the limit is 20,000 in all walls together)
    zigzag = [(10.0 + 0.1 * i, float(i % 2)) for i in range(8000)]
    walls = [poly(10 + k, "wall", 200.0, 100.0 + 60.0 * k, zigzag, closed=False) for k in range(3)]
    error, path = _error(tmp_path, _wall_map(*walls))
    # Then the third wall is named, with the count and the limit
    assert_names(error, path, "polyline", object_id=12)
    assert "24,000 points; at most 20,000" in str(error)
    # and two of them load
    assert len(load_level(write(tmp_path, _wall_map(*walls[:2]), "two.tmj")).walls) == 2
