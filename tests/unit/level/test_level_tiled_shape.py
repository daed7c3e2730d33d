"""What the Tiled map editor (1.8) changes when it rewrites a map, pinned without Tiled: each
map below is written as Tiled writes it back (seen with ``tiled --export-map``), and must load
as the original does, or the saver must write what Tiled keeps unchanged."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from game.level import LevelError, PathData, WallData, load_level, save_level
from game.level.tiled import TILED_INT_MAX
from tests.helpers.level import assert_names, load, poly, prop, valid_map, write


def _path(props: list[dict[str, Any]]) -> dict[str, Any]:
    return poly(5, "path", 100, 100, [(0, 0), (300, 0)], False, props, name="route")


def _objects(raw: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for layer in raw["layers"] for o in layer.get("objects", [])]


def _props_of(path: Path, cls: str) -> list[dict[str, Any]]:
    """The property entries of the one object of class ``cls`` in the file."""
    (obj,) = [o for o in _objects(json.loads(path.read_text())) if o["type"] == cls]
    props: list[dict[str, Any]] = obj["properties"]
    return props


def _numbers(obj: dict[str, Any]) -> list[float]:
    """An object's position, size and point coordinates."""
    found = [obj[k] for k in ("x", "y", "width", "height")]
    for key in ("polyline", "polygon"):
        found += [v for p in obj.get(key, []) for v in (p["x"], p["y"])]
    return found


def _tmx(value: float) -> float:
    """A number as Tiled's TMX writer keeps it: six significant digits."""
    return float(f"{value:.6g}")


def test_an_untyped_whole_number_comes_back_as_a_qlonglong_property(tmp_path: Path) -> None:
    # Given a hand-written map whose properties have no type (the loader allows that)
    hand = valid_map([_path([{"name": "radius", "value": 24}, {"name": "drift", "value": 3}])])
    hand["properties"] = [{"name": "seed", "value": 5}]
    # When Tiled rewrites it, it types whole numbers "qlonglong" (and sorts the properties)
    tiled = valid_map([_path([prop("drift", "qlonglong", 3), prop("radius", "qlonglong", 24)])])
    tiled["properties"] = [prop("seed", "qlonglong", 5)]
    # Then both load as the same level
    original = load(tmp_path, hand, "hand.tmj")
    assert load(tmp_path, tiled, "tiled.tmj") == original
    assert (original.seed, original.paths[0].radius, original.paths[0].drift) == (5, 24.0, 3.0)


def test_a_float_property_is_read_at_the_fifteen_digits_tiled_keeps(tmp_path: Path) -> None:
    # Given a radius of 0.1 + 0.2 (17 digits), and the 0.3 Tiled writes back for it
    ours = load(tmp_path, valid_map([_path([prop("radius", "float", 0.1 + 0.2)])]), "a.tmj")
    tiled = load(tmp_path, valid_map([_path([prop("radius", "float", 0.3)])]), "b.tmj")
    # Then they load the same: 0.3
    assert ours == tiled
    assert ours.paths[0].radius == 0.3


def test_the_saver_writes_floats_that_tiled_rewrites_unchanged(tmp_path: Path) -> None:
    # Given a level with a radius of 1/3 and a drift of 0.1 + 0.2
    base = load(tmp_path, valid_map([_path([])]))
    path = PathData(
        points=((100.0, 540.0), (400.0, 540.0)), radius=1 / 3, drift=0.1 + 0.2, name="route"
    )
    target = tmp_path / "saved.tmj"
    # When it is saved
    saved = save_level(replace(base, paths=(path,), source=None), target)
    # Then the file holds 15-digit numbers (what Tiled writes), and they load as written
    props = {p["name"]: p["value"] for p in _props_of(target, "path")}
    assert props["radius"] == 0.333333333333333
    assert props["drift"] == 0.3
    assert saved.paths[0].radius == 0.333333333333333


@pytest.mark.parametrize("seed", [TILED_INT_MAX + 1, 4_000_000_000, 2**32 - 1])
def test_a_seed_beyond_tileds_32_bit_ints_is_saved_as_a_float_property(
    tmp_path: Path, seed: int
) -> None:
    # Given a level whose seed does not fit Tiled's int properties (Tiled 1.8 wraps
    # 4000000000 to -294967296, which the loader refuses)
    level = load(tmp_path, valid_map())
    target = tmp_path / "big.tmj"
    # When it is saved
    save_level(replace(level, seed=seed, source=None), target)
    # Then the seed is a float property holding the whole number, which loads as the seed
    raw = json.loads(target.read_text())
    assert raw["properties"] == [{"name": "seed", "type": "float", "value": seed}]
    assert load_level(target).seed == seed


def test_a_seed_that_fits_stays_an_int_property(tmp_path: Path) -> None:
    level = load(tmp_path, valid_map())
    target = tmp_path / "small.tmj"
    save_level(replace(level, seed=TILED_INT_MAX, source=None), target)
    raw = json.loads(target.read_text())
    assert raw["properties"] == [{"name": "seed", "type": "int", "value": TILED_INT_MAX}]


def test_an_int_seed_entry_becomes_a_float_entry_when_the_seed_grows(tmp_path: Path) -> None:
    # Given a file whose seed is an int property
    source = write(tmp_path, valid_map(props=[prop("seed", "int", 7)]))
    level = load_level(source)
    # When the seed is set beyond 32 bits and saved
    save_level(replace(level, seed=3_000_000_000))
    # Then the entry's type is float
    raw = json.loads(source.read_text())
    assert raw["properties"] == [{"name": "seed", "type": "float", "value": 3_000_000_000}]


def test_a_fraction_in_a_whole_number_property_is_refused(tmp_path: Path) -> None:
    # Given a float property declared int with a fraction (Tiled rounds 24.5 to 25)
    path = write(tmp_path, valid_map([_path([prop("radius", "int", 24.5)])]))
    # When it is loaded, Then it is refused, naming the file, object and field
    with pytest.raises(LevelError) as info:
        load_level(path)
    assert_names(info.value, path, "radius", 5, "route")
    assert "make it a float property" in str(info.value)


def test_the_saver_retypes_an_int_entry_that_gets_a_fraction(tmp_path: Path) -> None:
    # Given a file with a radius declared int
    source = write(tmp_path, valid_map([_path([prop("radius", "int", 24)])]))
    level = load_level(source)
    # When the radius becomes 24.5 and the level is saved
    save_level(replace(level, paths=(replace(level.paths[0], radius=24.5),)))
    # Then the entry is a float property, so Tiled keeps 24.5
    assert _props_of(source, "path") == [{"name": "radius", "type": "float", "value": 24.5}]


def test_positions_are_saved_with_the_six_digits_tmx_keeps(tmp_path: Path) -> None:
    # Given a big world with a path, a wall and a rock at 4-decimal positions
    raw = valid_map(width=100, height=80)
    raw["layers"][0]["objects"][0]["y"] = 1280  # the player, inside the 3200 x 2560 world
    base = load(tmp_path, raw)
    path = PathData(
        points=((1234.5678, 1876.5432), (2345.6789, 1000.0001), (1500.25, 560.25)),
        closed=True,
        id=0,
        name="loop",
    )
    wall = WallData(points=((2500.1234, 300.2), (2600.3, 350.4)), id=0, name="reef")
    level = replace(base, paths=(path,), walls=(wall,), source=None)
    target = tmp_path / "big.tmj"
    # When it is saved
    saved = save_level(level, target)
    # Then every position, size and point in the file has at most six significant digits
    written = json.loads(target.read_text())
    for obj in _objects(written):
        assert all(_tmx(v) == v for v in _numbers(obj)), obj
    # And no node moves by more than a hundredth of a pixel (a position and an offset, each
    # rounded by at most 0.005 px in a world under 10,000 px)
    for a, b in zip(path.points, saved.paths[0].points, strict=True):
        assert math.dist(a, b) <= 0.01 * math.sqrt(2)
    # (y is cut in Tiled's y-down frame: 2560 - 1876.5432 = 683.4568 -> 683.457)
    assert saved.paths[0].points[0] == (1234.57, 1876.543)
    # And the first node of each polyline is at offset (0, 0), as Tiled makes them
    for obj in _objects(written):
        for key in ("polyline", "polygon"):
            if key in obj:
                assert obj[key][0] == {"x": 0, "y": 0}
