"""A path's ``radii`` property: one half width per segment, loaded, checked, saved back and
used by the world."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.level import LevelError, load_level, save_level
from tests.helpers.level import assert_names, poly, prop, valid_map, write

#: An open path of four nodes (three segments) and a closed one of three (three segments).
OPEN = [(0, 0), (200, 0), (200, 200), (400, 200)]
TRIANGLE = [(0, 0), (200, 0), (100, 150)]


def _path_map(radii: Any, closed: bool = False, kind: str = "string") -> dict[str, Any]:
    """A valid map with one path, object 10 "route", whose radii property is ``radii``."""
    nodes = TRIANGLE if closed else OPEN
    props = [prop("radius", "float", 25), prop("radii", kind, radii)]
    return valid_map([poly(10, "path", 300, 100, nodes, closed, props, "route")])


def _load(tmp_path: Path, raw: dict[str, Any]) -> Any:
    return load_level(write(tmp_path, raw)).paths[0]


# --- loading ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "closed", "expected"),
    [
        ("40,8,20", False, (40.0, 8.0, 20.0)),
        (" 40 , 8.5,  2e1 ", False, (40.0, 8.5, 20.0)),
        ("10,20,30", True, (10.0, 20.0, 30.0)),
        ("", False, ()),
        ("   ", True, ()),
    ],
)
def test_radii_load_as_one_number_per_segment(
    tmp_path: Path, text: str, closed: bool, expected: tuple[float, ...]
) -> None:
    # Given a path with a radii string
    # When the level loads
    path = _load(tmp_path, _path_map(text, closed))
    # Then radii are the numbers (none when blank) and radius stays the property's
    assert path.radii == expected
    assert path.radius == 25.0
    assert path.segment_radii == (expected or (25.0,) * 3)


def test_without_radii_every_segment_has_the_radius(tmp_path: Path) -> None:
    raw = valid_map([poly(10, "path", 300, 100, OPEN, False, [prop("radius", "float", 12)], "r")])
    path = _load(tmp_path, raw)
    assert path.radii == ()
    assert path.segment_radii == (12.0, 12.0, 12.0)


# --- refusing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("radii", "closed", "kind", "says"),
    [
        ("40,8", False, "string", "expected 3 values, one per segment of the 4-node polyline"),
        ("40,8,20,5", False, "string", "got 4"),
        ("1,2", True, "string", "expected 3 values, one per segment of the 3-node polygon"),
        ("40,wide,20", False, "string", 'value 2 is string "wide"'),
        ("40,,20", False, "string", 'value 2 is string ""'),
        ("40 8 20", False, "string", "expected numbers separated by commas"),
        ("40,nan,20", False, "string", 'value 2 is string "nan"'),
        ("40,inf,20", False, "string", 'value 2 is string "inf"'),
        ("40,1_0,20", False, "string", 'value 2 is string "1_0"'),
        ("40,0,20", False, "string", "value 2 must be > 0, got 0"),
        ("40,8,-1", False, "string", "value 3 must be > 0, got -1"),
        ("40,10001,20", False, "string", "value 2 must be at most 10000, got 10001"),
        ("40,1e999,20", False, "string", "value 2 (1e999) is absurdly large"),
        ("40,8,20\n", False, "string", None),  # a trailing newline is only space: loads
        (12, False, "float", "expected a string property, got a float property"),
        (12, False, "string", "expected numbers separated by commas in a string, got number 12"),
    ],
)
def test_bad_radii_are_one_line_errors_naming_file_object_and_field(
    tmp_path: Path, radii: Any, closed: bool, kind: str, says: str | None
) -> None:
    # Given a path whose radii are wrong in one way
    path = write(tmp_path, _path_map(radii, closed, kind))
    if says is None:
        assert load_level(path).paths[0].radii == (40.0, 8.0, 20.0)
        return
    # When it loads
    with pytest.raises(LevelError) as info:
        load_level(path)
    # Then one line names the file, the path and the field "radii", and says what is wrong
    assert_names(info.value, path, "radii", 10, "route")
    assert "(path)" in str(info.value)
    assert says in str(info.value), str(info.value)
    assert info.value.field == "radii"


def test_count_error_mentions_dropped_repeated_nodes(tmp_path: Path) -> None:
    # Given a polyline with a repeated node (dropped on load: 3 segments, not 4)
    nodes = [(0, 0), (200, 0), (200, 0), (200, 200), (400, 200)]
    props = [prop("radii", "string", "1,2,3,4")]
    raw = valid_map([poly(10, "path", 300, 100, nodes, False, props, "route")])
    with pytest.raises(LevelError, match=r"expected 3 values.*\(repeated nodes dropped\), got 4"):
        load_level(write(tmp_path, raw))


def test_a_huge_list_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, _path_map(",".join(["1"] * 20_000)))
    with pytest.raises(LevelError, match="20,000 values; at most 10,000"):
        load_level(path)


# --- saving -------------------------------------------------------------------------------------


def _radii_entry(path: Path) -> Any:
    raw = json.loads(path.read_text(encoding="utf-8"))
    (obj,) = [o for o in raw["layers"][0]["objects"] if o["id"] == 10]
    return {p["name"]: p for p in obj.get("properties", [])}.get("radii")


def test_radii_round_trip_through_save_level(tmp_path: Path) -> None:
    # Given a level whose path has radii spaced by hand
    file = write(tmp_path, _path_map(" 40 , 8.5,20"))
    level = load_level(file)
    before = json.loads(file.read_text(encoding="utf-8"))
    # When it is saved unchanged, the map is unchanged (the designer's spacing kept)
    save_level(level, backup=False)
    assert json.loads(file.read_text(encoding="utf-8")) == before
    # When its nodes move but radii stay, the radii string is still kept as written
    moved = replace(level.paths[0], points=tuple((x + 10, y) for x, y in level.paths[0].points))
    saved = save_level(replace(level, paths=(moved,)), backup=False)
    assert _radii_entry(file)["value"] == " 40 , 8.5,20"
    assert load_level(file) == saved and saved.paths[0].radii == (40.0, 8.5, 20.0)
    # When radii change, they are written plainly and load back equal
    wider = replace(moved, radii=(40.0, 12.25, 1e-5))
    saved = save_level(replace(level, paths=(wider,)), backup=False)
    assert _radii_entry(file) == {"name": "radii", "type": "string", "value": "40,12.25,1e-05"}
    assert load_level(file).paths[0].radii == (40.0, 12.25, 1e-5)


def test_radii_are_added_to_a_path_that_had_none_and_absent_when_empty(tmp_path: Path) -> None:
    # Given a path without radii
    raw = valid_map([poly(10, "path", 300, 100, OPEN, False, [], "route")])
    file = write(tmp_path, raw)
    level = load_level(file)
    # When saved with none, no property is written
    save_level(level, backup=False)
    assert _radii_entry(file) is None
    # When saved with some, a string property holds them, and they load back
    path = replace(level.paths[0], radii=(5.0, 6.0, 7.5))
    saved = save_level(replace(level, paths=(path,)), backup=False)
    assert _radii_entry(file) == {"name": "radii", "type": "string", "value": "5,6,7.5"}
    assert load_level(file) == saved


def test_save_refuses_radii_of_the_wrong_count(tmp_path: Path) -> None:
    file = write(tmp_path, _path_map("1,2,3"))
    level = load_level(file)
    before = file.read_text(encoding="utf-8")
    bad = replace(level.paths[0], radii=(1.0, 2.0))
    with pytest.raises(LevelError, match='field "radii"'):
        save_level(replace(level, paths=(bad,)))
    assert file.read_text(encoding="utf-8") == before


# --- the world ----------------------------------------------------------------------------------


def test_the_world_builds_paths_with_the_levels_radii(tmp_path: Path) -> None:
    from game.world.world import World

    level = load_level(write(tmp_path, _path_map("40,8,20")))
    world = World(level)
    np.testing.assert_array_equal(world.paths["route"].radii, [40.0, 8.0, 20.0])
    plain = load_level(write(tmp_path, _path_map("")))
    np.testing.assert_array_equal(World(plain).paths["route"].radii, [25.0, 25.0, 25.0])
