"""Tiled (y down, top-left) to world (y up, bottom-left) for every shape, layers and groups.

The test world is 1280 x 640 px, so y_world = 640 - y_tiled.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.level import Rect
from tests.helpers.level import (
    WORLD_H,
    WORLD_W,
    ellipse,
    exit_,
    layer,
    load,
    make_map,
    player,
    point,
    poly,
    rect,
    valid_map,
)


def test_world_size_is_tiles_times_tile_size(tmp_path: Path) -> None:
    level = load(tmp_path, valid_map())
    assert (level.width_px, level.height_px) == (WORLD_W, WORLD_H) == (1280, 640)
    assert (level.tile_width, level.tile_height) == (32, 32)


def test_point_flips_y(tmp_path: Path) -> None:
    # Given a player at Tiled (100, 40), 40 px below the top edge
    level = load(tmp_path, make_map([player(x=100, y=40), exit_()]))
    # Then it is 40 px below the top in world coordinates too
    assert (level.player.x, level.player.y) == (100, 600)


def test_rectangle_top_left_becomes_left_bottom(tmp_path: Path) -> None:
    # Tiled's exit at (1152, 256) 96 x 128: its top is 256 px below the map's top edge
    level = load(tmp_path, valid_map())
    assert level.exits[0].rect == Rect(1152, 640 - 256 - 128, 96, 128)
    assert level.exits[0].rect.top == 640 - 256


def test_ellipse_bounding_box_becomes_centre_and_radius(tmp_path: Path) -> None:
    rock = ellipse(5, "obstacle", 600, 280, 80, 80, name="boulder")
    level = load(tmp_path, valid_map([rock]))
    obstacle = level.obstacles[0]
    assert (obstacle.x, obstacle.y, obstacle.radius) == (640, 640 - 320, 40)
    assert (obstacle.id, obstacle.name) == (5, "boulder")


def test_polygon_points_are_relative_to_the_object(tmp_path: Path) -> None:
    square = poly(3, "path", 480, 160, [(0, 0), (320, 0), (320, 320), (0, 320)], True, name="sq")
    path = load(tmp_path, valid_map([square])).paths[0]
    assert path.closed
    assert path.points == ((480, 480), (800, 480), (800, 160), (480, 160))


def test_polyline_is_an_open_path(tmp_path: Path) -> None:
    line = poly(3, "path", 10, 20, [(0, 0), (30, 40)], False, name="l")
    path = load(tmp_path, valid_map([line])).paths[0]
    assert not path.closed
    assert path.points == ((10, 620), (40, 580))


def test_repeated_path_nodes_are_dropped(tmp_path: Path) -> None:
    pts = [(0, 0), (0, 0), (50, 0), (50, 50), (0, 0)]
    path = load(tmp_path, valid_map([poly(3, "path", 100, 100, pts, True, name="p")])).paths[0]
    assert path.points == ((100, 540), (150, 540), (150, 490))


def test_npc_point_and_area(tmp_path: Path) -> None:
    spot = point(5, "npc", 100, 100)
    area = rect(6, "npc", 200, 100, 100, 50)
    npcs = load(tmp_path, valid_map([spot, area])).npcs
    assert (npcs[0].x, npcs[0].y, npcs[0].area) == (100, 540, None)
    assert npcs[1].area == Rect(200, 490, 100, 50)
    assert (npcs[1].x, npcs[1].y) == (250, 515)


def test_flow_rectangle(tmp_path: Path) -> None:
    flow = load(tmp_path, valid_map([rect(5, "flow", 0, 0, 1280, 640)])).flows[0]
    assert flow.rect == Rect(0, 0, 1280, 640)
    assert flow.cells == (40, 20)


def test_zero_size_rectangle_counts_as_a_point(tmp_path: Path) -> None:
    enemy = rect(5, "enemy", 300, 100, 0, 0)
    level = load(tmp_path, valid_map([enemy]))
    assert (level.enemies[0].x, level.enemies[0].y) == (300, 540)


def test_objects_in_several_layers_and_nested_groups(tmp_path: Path) -> None:
    group = {
        "id": 3,
        "name": "group",
        "type": "group",
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
        "layers": [
            {
                "id": 4,
                "name": "inner",
                "type": "group",
                "layers": [layer([ellipse(9, "obstacle", 600, 280, 80, 80)], 5)],
            }
        ],
    }
    tiles = {"id": 6, "name": "ground", "type": "tilelayer", "width": 40, "height": 20, "data": []}
    raw = make_map([], layers=[tiles, layer([player()], 1), layer([exit_()], 2), group])
    level = load(tmp_path, raw)
    assert [o.id for o in level.obstacles] == [9]
    assert level.exits[0].id == 2


def test_layer_offsets_add_up_through_groups(tmp_path: Path) -> None:
    inner = layer([ellipse(9, "obstacle", 100, 100, 20, 20)], 5)
    inner["offsetx"], inner["offsety"] = 10, 5
    group = {
        "id": 3,
        "name": "g",
        "type": "group",
        "offsetx": 100,
        "offsety": 50,
        "layers": [inner],
    }
    raw = make_map([], layers=[layer([player(), exit_()]), group])
    rock = load(tmp_path, raw).obstacles[0]
    assert (rock.x, rock.y) == (100 + 10 + 100 + 10, 640 - (100 + 10 + 50 + 5))


def test_objects_without_class_are_ignored(tmp_path: Path) -> None:
    note = rect(7, "", 0, 0, 10, 10, name="designer note")
    level = load(tmp_path, valid_map([note]))
    assert all(o.id != 7 for o in level.objects())


def test_rotated_circle_moves_its_centre_like_tiled(tmp_path: Path) -> None:
    # Tiled rotates about the object's top-left corner, clockwise on screen: a 90 degree turn
    # takes the bounding box's centre offset (20, 20) to (-20, 20).
    rock = ellipse(5, "obstacle", 600, 280, 40, 40)
    rock["rotation"] = 90
    obstacle = load(tmp_path, valid_map([rock])).obstacles[0]
    assert (obstacle.x, obstacle.y) == pytest.approx((580, 640 - 300))


def test_rotated_path_rotates_its_points(tmp_path: Path) -> None:
    line = poly(3, "path", 100, 100, [(0, 0), (50, 0)], False, name="r")
    line["rotation"] = 90
    path = load(tmp_path, valid_map([line])).paths[0]
    assert path.points == ((100, 540), (100, 490))


def test_coordinates_are_rounded_to_a_ten_thousandth(tmp_path: Path) -> None:
    level = load(tmp_path, make_map([player(x=10.123456789, y=20), exit_()]))
    assert level.player.x == 10.1235


def test_file_order_is_kept_per_class(tmp_path: Path) -> None:
    rocks = [ellipse(i, "obstacle", 100 * i, 100, 20, 20) for i in (9, 4, 7)]
    level = load(tmp_path, valid_map(rocks))
    assert [o.id for o in level.obstacles] == [9, 4, 7]


def test_level_helpers(tmp_path: Path) -> None:
    enemy = point(5, "enemy", 100, 100, [{"name": "count", "type": "int", "value": 3}])
    loop = poly(6, "path", 10, 10, [(0, 0), (10, 0)], False, name="loop")
    level = load(tmp_path, valid_map([enemy, loop]))
    assert level.agent_count == 1 + 3
    assert level.path_named("loop") is level.paths[0]
    assert level.path_named("nope") is None
    assert level.source == tmp_path / "level.tmj"
    assert Rect(0, 0, 10, 10).contains(10, 5)
    assert not Rect(0, 0, 10, 10).contains(11, 5)
