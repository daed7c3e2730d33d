"""Every bad input raises LevelError naming the file, the object (id and name) and the field."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from game.level import LevelError, load_level, loads_level
from tests.helpers.level import (
    assert_names,
    ellipse,
    exit_,
    layer,
    make_map,
    player,
    point,
    poly,
    prop,
    rect,
    valid_map,
    write,
)


def _error(tmp_path: Path, raw: Any) -> tuple[LevelError, Path]:
    """Write ``raw`` and return the LevelError loading it raises."""
    path = write(tmp_path, raw)
    with pytest.raises(LevelError) as info:
        load_level(path)
    return info.value, path


def _enemy(props: list[dict[str, Any]], oid: int = 7, name: str = "guard") -> dict[str, Any]:
    return point(oid, "enemy", 300, 300, props, name)


# --- the file itself ---------------------------------------------------------------------------


def test_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.tmj"
    path.write_text('{"width": 40,\n "height": }', encoding="utf-8")
    with pytest.raises(LevelError) as info:
        load_level(path)
    assert_names(info.value, path)
    assert "invalid JSON at line 2" in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match="cannot read"):
        load_level(tmp_path / "nope.tmj")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.tmj"
    path.write_bytes(b'{"title": "\xe9"}')
    with pytest.raises(LevelError, match="UTF-8"):
        load_level(path)


def test_top_level_not_an_object(tmp_path: Path) -> None:
    error, path = _error(tmp_path, [1, 2])
    assert_names(error, path)


def test_deeply_nested_json(tmp_path: Path) -> None:
    path = tmp_path / "deep.tmj"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(LevelError):
        load_level(path)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_in_a_property(tmp_path: Path, constant: str) -> None:
    # Given a property holding a non-finite number (json.loads accepts these by default)
    raw = valid_map([_enemy([prop("sight", "float", 1.0)])])
    text = json.dumps(raw).replace('"value": 1.0', f'"value": {constant}')
    path = tmp_path / "nan.tmj"
    path.write_text(text, encoding="utf-8")
    # Then loading names the object and the property
    with pytest.raises(LevelError) as info:
        load_level(path)
    assert_names(info.value, path, "sight", 7, "guard")


def test_nan_in_an_object_coordinate(tmp_path: Path) -> None:
    raw = valid_map([_enemy([])])
    raw["layers"][0]["objects"][2]["x"] = float("nan")
    error, path = _error(tmp_path, raw)
    assert_names(error, path, "x", 7, "guard")


def test_nan_outside_objects(tmp_path: Path) -> None:
    raw = valid_map()
    raw["layers"][0]["opacity"] = float("inf")
    error, path = _error(tmp_path, raw)
    assert_names(error, path, "layers[0].opacity")


# --- the map -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("width", 0),
        ("width", "40"),
        ("height", -3),
        ("tilewidth", 1.5),
        ("orientation", "isometric"),
        ("infinite", True),
        ("type", "tileset"),
        ("layers", {}),
    ],
)
def test_bad_map_keys(tmp_path: Path, key: str, value: Any) -> None:
    raw = valid_map()
    raw[key] = value
    error, path = _error(tmp_path, raw)
    assert_names(error, path, key)


@pytest.mark.parametrize("key", ["width", "height", "tilewidth", "layers"])
def test_missing_map_keys(tmp_path: Path, key: str) -> None:
    raw = valid_map()
    del raw[key]
    error, path = _error(tmp_path, raw)
    assert_names(error, path, key)


def test_bad_map_property_type(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map(props=[prop("seed", "string", "abc")]))
    assert_names(error, path, "seed")


def test_negative_map_seed(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map(props=[prop("seed", "int", -1)]))
    assert_names(error, path, "seed")
    assert ">= 0" in str(error)


# --- required objects ------------------------------------------------------------------------


def test_missing_player(tmp_path: Path) -> None:
    error, path = _error(tmp_path, make_map([exit_()]))
    assert_names(error, path)
    assert '"player"' in str(error)


def test_two_players(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([player(9, name="second")]))
    assert_names(error, path, "type", 9, "second")
    assert "object 1" in str(error)


def test_missing_exit(tmp_path: Path) -> None:
    error, path = _error(tmp_path, make_map([player()]))
    assert_names(error, path)
    assert '"exit"' in str(error)


def test_player_inside_exit(tmp_path: Path) -> None:
    error, path = _error(tmp_path, make_map([player(x=1200, y=300), exit_()]))
    assert_names(error, path, "x", 1, "start")


# --- paths -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "points", [[(0, 0)], [(0, 0), (0, 0)], [(5, 5), (5, 5), (5, 5)], []], ids=str
)
def test_path_with_fewer_than_two_distinct_points(
    tmp_path: Path, points: list[tuple[float, float]]
) -> None:
    error, path = _error(tmp_path, valid_map([poly(4, "path", 100, 100, points, False, name="p")]))
    assert_names(error, path, "polyline", 4, "p")
    assert "two distinct points" in str(error)


def test_path_without_name(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([poly(4, "path", 1, 1, [(0, 0), (5, 0)], True)]))
    assert_names(error, path, "name", 4, "")


def test_duplicate_path_name(tmp_path: Path) -> None:
    a = poly(4, "path", 1, 1, [(0, 0), (5, 0)], True, name="loop")
    b = poly(5, "path", 9, 9, [(0, 0), (5, 0)], True, name="loop")
    error, path = _error(tmp_path, valid_map([a, b]))
    assert_names(error, path, "name", 5, "loop")


def test_path_point_not_a_point(tmp_path: Path) -> None:
    line = poly(4, "path", 1, 1, [(0, 0), (5, 0)], False, name="p")
    line["polyline"][1] = [5, 0]
    error, path = _error(tmp_path, valid_map([line]))
    assert_names(error, path, "polyline[1]", 4, "p")


def test_path_point_wrong_type(tmp_path: Path) -> None:
    line = poly(4, "path", 1, 1, [(0, 0), (5, 0)], False, name="p")
    line["polyline"][1]["y"] = "0"
    error, path = _error(tmp_path, valid_map([line]))
    assert_names(error, path, "y", 4, "p")


def test_path_reference_that_does_not_exist(tmp_path: Path) -> None:
    loop = poly(4, "path", 1, 1, [(0, 0), (5, 0)], True, name="loop")
    guard = _enemy([prop("path", "string", "lop")])
    error, path = _error(tmp_path, valid_map([loop, guard]))
    assert_names(error, path, "path", 7, "guard")
    assert 'did you mean "loop"' in str(error)


def test_npc_path_reference_that_does_not_exist(tmp_path: Path) -> None:
    fish = point(8, "npc", 300, 300, [prop("path", "string", "river")], "fish")
    error, path = _error(tmp_path, valid_map([fish]))
    assert_names(error, path, "path", 8, "fish")


# --- obstacles and radii ---------------------------------------------------------------------


def test_ellipse_that_is_not_a_circle(tmp_path: Path) -> None:
    error, path = _error(
        tmp_path, valid_map([ellipse(4, "obstacle", 100, 100, 40, 30, name="egg")])
    )
    assert_names(error, path, "width", 4, "egg")
    assert "circle" in str(error)


@pytest.mark.parametrize("size", [0, -10])
def test_zero_or_negative_obstacle_radius(tmp_path: Path, size: float) -> None:
    rock = ellipse(4, "obstacle", 100, 100, size, size, name="dot")
    error, path = _error(tmp_path, valid_map([rock]))
    assert_names(error, path, "width", 4, "dot")
    assert "radius must be > 0" in str(error)


@pytest.mark.parametrize("cls", ["player", "enemy", "npc", "path"])
@pytest.mark.parametrize("value", [0, -5])
def test_zero_or_negative_agent_or_path_radius(tmp_path: Path, cls: str, value: float) -> None:
    props = [prop("radius", "float", value)]
    if cls == "player":
        raw = make_map([player(props=props), exit_()])
        oid, name = 1, "start"
    elif cls == "path":
        raw = valid_map([poly(4, "path", 1, 1, [(0, 0), (5, 0)], True, props, "p")])
        oid, name = 4, "p"
    else:
        raw = valid_map([point(4, cls, 300, 300, props, "a")])
        oid, name = 4, "a"
    error, path = _error(tmp_path, raw)
    assert_names(error, path, "radius", oid, name)
    assert "must be > 0" in str(error)


def test_obstacle_in_the_wrong_shape(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([rect(4, "obstacle", 1, 1, 10, 10, name="box")]))
    assert_names(error, path, "shape", 4, "box")
    assert "ellipse" in str(error)


@pytest.mark.parametrize("cls", ["player", "enemy"])
def test_point_class_as_rectangle(tmp_path: Path, cls: str) -> None:
    objects = [exit_(), rect(4, cls, 1, 1, 10, 10, name="big")]
    if cls == "enemy":
        objects.append(player())
    error, path = _error(tmp_path, make_map(objects))
    assert_names(error, path, "shape", 4, "big")


def test_exit_as_a_point(tmp_path: Path) -> None:
    error, path = _error(tmp_path, make_map([player(), point(4, "exit", 5, 5, name="door")]))
    assert_names(error, path, "shape", 4, "door")


def test_zero_width_rectangle(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([rect(4, "flow", 1, 1, 0, 10, name="thin")]))
    assert_names(error, path, "width", 4, "thin")


def test_rotated_rectangle(tmp_path: Path) -> None:
    flow = rect(4, "flow", 100, 100, 100, 100, name="tilted")
    flow["rotation"] = 30
    error, path = _error(tmp_path, valid_map([flow]))
    assert_names(error, path, "rotation", 4, "tilted")


# --- classes and properties ------------------------------------------------------------------


@pytest.mark.parametrize(("cls", "suggestion"), [("enmy", "enemy"), ("Obstacle", "obstacle")])
def test_unknown_class_suggests_the_nearest(tmp_path: Path, cls: str, suggestion: str) -> None:
    error, path = _error(tmp_path, valid_map([point(4, cls, 5, 5, name="x")]))
    assert_names(error, path, "type", 4, "x")
    assert f'did you mean "{suggestion}"' in str(error)


def test_unknown_class_in_class_key(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([point(4, "npcc", 5, 5, name="x", key="class")]))
    assert_names(error, path, "class", 4, "x")
    assert 'did you mean "npc"' in str(error)


def test_class_and_type_disagree(tmp_path: Path) -> None:
    obj = point(4, "enemy", 5, 5, name="x")
    obj["class"] = "npc"
    error, path = _error(tmp_path, valid_map([obj]))
    assert_names(error, path, "class", 4, "x")


@pytest.mark.parametrize(
    ("prop_name", "tiled_type", "value"),
    [
        ("sight", "float", "far"),  # a string where a number belongs
        ("sight", "string", "250"),  # a string property where a float belongs
        ("sight", "float", True),  # a bool is not a number
        ("sight", "float", None),
        ("sight", "float", [250]),
        ("count", "int", 1.5),  # not a whole number
        ("count", "bool", True),
        ("path", "string", 3),
        ("path", "int", 3),
        ("max_speed", "float", {"v": 1}),
    ],
)
def test_property_of_the_wrong_type(
    tmp_path: Path, prop_name: str, tiled_type: str, value: Any
) -> None:
    error, path = _error(tmp_path, valid_map([_enemy([prop(prop_name, tiled_type, value)])]))
    assert_names(error, path, prop_name, 7, "guard")
    assert "expected" in str(error)


@pytest.mark.parametrize(
    ("cls", "prop_name", "tiled_type", "value"),
    [
        ("npc", "wander", "int", 1),
        ("npc", "wander", "bool", "yes"),
        ("obstacle", "dynamic", "bool", 0),
        ("flow", "clockwise", "string", "true"),
        ("flow", "seed", "float", 2.5),
        ("flow", "image", "int", 3),
    ],
)
def test_bool_int_and_file_properties_of_the_wrong_type(
    tmp_path: Path, cls: str, prop_name: str, tiled_type: str, value: Any
) -> None:
    props = [prop(prop_name, tiled_type, value)]
    if cls == "obstacle":
        obj = ellipse(4, cls, 100, 100, 20, 20, props, "o")
    elif cls == "flow":
        obj = rect(4, cls, 100, 100, 20, 20, props, "o")
    else:
        obj = point(4, cls, 100, 100, props, "o")
    error, path = _error(tmp_path, valid_map([obj]))
    assert_names(error, path, prop_name, 4, "o")


def test_unknown_flow_kind_suggests_the_nearest(tmp_path: Path) -> None:
    flow = rect(4, "flow", 100, 100, 50, 50, [prop("kind", "string", "vortx")], "swirl")
    error, path = _error(tmp_path, valid_map([flow]))
    assert_names(error, path, "kind", 4, "swirl")
    assert 'did you mean "vortex"' in str(error)


@pytest.mark.parametrize(
    ("prop_name", "value"),
    [("max_speed", 0), ("max_force", -1), ("sight", -1), ("separation", -0.5), ("count", 0)],
)
def test_out_of_range_property(tmp_path: Path, prop_name: str, value: float) -> None:
    kind = "int" if prop_name == "count" else "float"
    error, path = _error(tmp_path, valid_map([_enemy([prop(prop_name, kind, value)])]))
    assert_names(error, path, prop_name, 7, "guard")


def test_malformed_properties_list(tmp_path: Path) -> None:
    guard = _enemy([])
    guard["properties"] = {"sight": 3}
    error, path = _error(tmp_path, valid_map([guard]))
    assert_names(error, path, "properties", 7, "guard")


def test_property_given_twice(tmp_path: Path) -> None:
    guard = _enemy([prop("sight", "float", 1), prop("sight", "float", 2)])
    error, path = _error(tmp_path, valid_map([guard]))
    assert_names(error, path, "sight", 7, "guard")


# --- objects ---------------------------------------------------------------------------------


def test_duplicate_object_id(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([ellipse(2, "obstacle", 50, 50, 20, 20, name="r")]))
    assert_names(error, path, "id", 2, "r")


@pytest.mark.parametrize("oid", [0, -1, "3", None, True])
def test_bad_object_id(tmp_path: Path, oid: Any) -> None:
    rock = ellipse(5, "obstacle", 50, 50, 20, 20, name="r")
    rock["id"] = oid
    error, path = _error(tmp_path, valid_map([rock]))
    assert_names(error, path, "id", None, "r")


@pytest.mark.parametrize("key", ["x", "y"])
def test_missing_coordinate(tmp_path: Path, key: str) -> None:
    guard = _enemy([])
    del guard[key]
    error, path = _error(tmp_path, valid_map([guard]))
    assert_names(error, path, key, 7, "guard")


def test_string_coordinate(tmp_path: Path) -> None:
    guard = _enemy([])
    guard["x"] = "300"
    error, path = _error(tmp_path, valid_map([guard]))
    assert_names(error, path, "x", 7, "guard")


@pytest.mark.parametrize(("x", "y"), [(-1, 100), (1281, 100), (100, 641), (100, -0.5)])
def test_object_outside_the_world(tmp_path: Path, x: float, y: float) -> None:
    error, path = _error(tmp_path, valid_map([point(7, "enemy", x, y, None, "g")]))
    assert_names(error, path, "x", 7, "g")
    assert "outside the world" in str(error)


def test_rectangle_reaching_outside_the_world(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([rect(4, "flow", 1200, 0, 200, 100, name="wide")]))
    assert_names(error, path, "x", 4, "wide")


def test_template_object(tmp_path: Path) -> None:
    obj = point(4, "enemy", 5, 5, name="t")
    obj["template"] = "guard.tx"
    error, path = _error(tmp_path, valid_map([obj]))
    assert_names(error, path, "template", 4, "t")


def test_object_that_is_not_an_object(tmp_path: Path) -> None:
    raw = valid_map()
    raw["layers"][0]["objects"].append("rock")
    error, path = _error(tmp_path, raw)
    assert_names(error, path, "objects[2]")


def test_layer_without_type(tmp_path: Path) -> None:
    raw = valid_map()
    del raw["layers"][0]["type"]
    error, path = _error(tmp_path, raw)
    assert_names(error, path, "layers[0].type")


def test_groups_nested_too_deep(tmp_path: Path) -> None:
    inner: dict[str, Any] = layer([player(), exit_()])
    for i in range(40):
        inner = {"id": 100 + i, "name": "g", "type": "group", "layers": [inner]}
    error, path = _error(tmp_path, make_map([], layers=[inner]))
    assert_names(error, path)
    assert "nest" in str(error)


# --- absurd sizes ----------------------------------------------------------------------------


def test_world_wider_than_the_limit(tmp_path: Path) -> None:
    raw = valid_map()
    raw["width"] = 100_000 // 32 + 1
    error, path = _error(tmp_path, raw)
    assert_names(error, path, "width")
    assert "100,000" in str(error)


def test_world_higher_than_the_limit(tmp_path: Path) -> None:
    raw = valid_map()
    raw["tileheight"] = 10_000
    error, path = _error(tmp_path, raw)
    assert_names(error, path, "height")


def test_too_many_objects(tmp_path: Path) -> None:
    notes = [rect(10 + i, "", 0, 0, 1, 1) for i in range(10_000)]
    error, path = _error(tmp_path, valid_map(notes))
    assert_names(error, path)
    assert "10,000 objects" in str(error)


def test_too_many_agents(tmp_path: Path) -> None:
    a = point(5, "npc", 100, 100, [prop("count", "int", 6000)], "a")
    b = point(6, "npc", 200, 100, [prop("count", "int", 4000)], "b")
    # a world large enough to hold them apart: the limit on numbers is what refuses them
    error, path = _error(tmp_path, valid_map([a, b], width=100, height=60))
    assert_names(error, path, "count", 6, "b")
    assert "10,000" in str(error)


def test_a_crowd_that_cannot_start_apart_is_refused(tmp_path: Path) -> None:
    # Given 1,000 NPCs and then 3,000 more in a 1280 x 640 px world: half of it, 409,600 px^2,
    # holds 1,264 squares of (2 x 8 + 2)^2 px^2; the player and the first spawn take the rest
    # but 261
    a = rect(5, "npc", 100, 100, 1, 1, [prop("count", "int", 1000)], "a")
    b = point(6, "npc", 200, 100, [prop("count", "int", 3000)], "b")
    error, path = _error(tmp_path, valid_map([a, b]))
    # Then the spawn that overfills the world is named, with how many would fit
    assert_names(error, path, "count", 6, "b")
    assert "3,000 agents of radius 8 do not fit" in str(error)
    assert str(error).endswith("at most 261 here")


def test_count_above_the_limit(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([_enemy([prop("count", "int", 10**9)])]))
    assert_names(error, path, "count", 7, "guard")


def test_too_many_flow_cells(tmp_path: Path) -> None:
    flow = rect(5, "flow", 0, 0, 1280, 640, [prop("cell", "float", 1)], "fine")
    more = rect(6, "flow", 0, 0, 1280, 640, [prop("cell", "float", 1)], "finer")
    error, path = _error(tmp_path, valid_map([flow, more]))
    assert_names(error, path, "cell", 6, "finer")
    assert "1,000,000" in str(error)


def test_absurdly_large_number(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([_enemy([prop("sight", "float", 1e300)])]))
    assert_names(error, path, "sight", 7, "guard")


def test_huge_integer(tmp_path: Path) -> None:
    guard = _enemy([])
    guard["x"] = 10**400
    error, path = _error(tmp_path, valid_map([guard]))
    assert_names(error, path, "x", 7, "guard")


# --- images ----------------------------------------------------------------------------------


def _image_flow(value: str, kind: str = "image") -> dict[str, Any]:
    props = [prop("kind", "string", kind), prop("image", "file", value)]
    return rect(5, "flow", 0, 0, 320, 320, props, "pic")


@pytest.mark.parametrize(
    "value", ["../../../../../../etc/passwd.png", "/etc/hostname", "/tmp/flow.png"]
)
def test_image_path_that_leaves_resources_and_levels(tmp_path: Path, value: str) -> None:
    error, path = _error(tmp_path, valid_map([_image_flow(value)]))
    assert_names(error, path, "image", 5, "pic")
    assert "outside" in str(error)


def test_image_that_does_not_exist(tmp_path: Path) -> None:
    from game.level import RESOURCES_DIR

    error, path = _error(tmp_path, valid_map([_image_flow(str(RESOURCES_DIR / "nope.png"))]))
    assert_names(error, path, "image", 5, "pic")
    assert "not found" in str(error)


def test_image_that_is_not_an_image(tmp_path: Path) -> None:
    from game.level import LEVELS_DIR

    error, path = _error(tmp_path, valid_map([_image_flow(str(LEVELS_DIR / "01_patrol.tmj"))]))
    assert_names(error, path, "image", 5, "pic")


def test_image_kind_without_image(tmp_path: Path) -> None:
    error, path = _error(tmp_path, valid_map([_image_flow("")]))
    assert_names(error, path, "image", 5, "pic")


# --- the error itself ------------------------------------------------------------------------


def test_level_error_is_a_value_error_with_parts() -> None:
    error = LevelError("bad", file="a.tmj", object_id=3, object_name="n\nx", field="f")
    assert isinstance(error, ValueError)
    assert str(error) == 'a.tmj: object 3 "n\\nx", field "f": bad'
    assert (error.file, error.object_id, error.field, error.reason) == ("a.tmj", 3, "f", "bad")
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error)


def test_loads_level_names_its_source() -> None:
    with pytest.raises(LevelError, match=r"^memory\.tmj: "):
        loads_level("{", "memory.tmj")


def test_integer_with_thousands_of_digits(tmp_path: Path) -> None:
    path = tmp_path / "digits.tmj"
    path.write_text('{"width": ' + "9" * 5000 + "}", encoding="utf-8")
    with pytest.raises(LevelError) as info:
        load_level(path)
    assert_names(info.value, path)


def test_an_id_of_zero_is_reported_as_object_0(tmp_path: Path) -> None:
    rock = ellipse(0, "obstacle", 300, 300, 40, 40, name="pillar")
    error, _ = _error(tmp_path, valid_map([rock]))
    assert 'object 0 "pillar"' in str(error)
    assert "integer id from 1 to 2,147,483,647, got number 0" in str(error)


def test_an_id_beyond_64_bits_is_refused(tmp_path: Path) -> None:
    rock = ellipse(10**40, "obstacle", 300, 300, 40, 40, name="pillar")
    error, _ = _error(tmp_path, valid_map([rock]))
    assert "integer id from 1 to 2,147,483,647" in str(error) and 'field "id"' in str(error)


def test_a_missing_id_is_reported_as_such(tmp_path: Path) -> None:
    rock = ellipse(9, "obstacle", 300, 300, 40, 40, name="pillar")
    del rock["id"]
    error, _ = _error(tmp_path, valid_map([rock]))
    assert 'object without an id "pillar"' in str(error)


def test_shape_messages_use_the_right_article(tmp_path: Path) -> None:
    error, _ = _error(tmp_path, valid_map([rect(9, "obstacle", 300, 300, 40, 40)]))
    assert "an obstacle must be an ellipse, not a rectangle" in str(error)


def test_a_level_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = write(tmp_path, valid_map())
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_level(path).title == load_level(write(tmp_path, valid_map(), "b.tmj")).title
