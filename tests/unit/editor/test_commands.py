"""Edit commands: each changes exactly what it says, keeps the level's rules, or is refused
with a reason and changes nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.editor import (
    MAX_PATH_RADIUS,
    MIN_PATH_RADIUS,
    MIN_ROCK_RADIUS,
    NEW_PATH_LENGTH,
    WHEEL_FACTOR,
    EditModel,
    overlapping_rocks,
)
from game.level import Level
from tests.unit.editor.helpers import LINE, LOOP, ROCKS, WORLD_H, WORLD_W, make_level


@pytest.fixture
def model() -> EditModel:
    return EditModel(make_level())


def only_path_changed(before: Level, after: Level, name: str) -> None:
    """Assert that nothing but the path ``name`` differs."""
    assert replace(after, paths=before.paths) == before
    for old, new in zip(before.paths, after.paths, strict=True):
        if old.name != name:
            assert new is old


def test_move_node(model: EditModel) -> None:
    # Given the loop
    before = model.level
    # When node 2 is moved to (420.5, 390.25)
    changed = model.move_node("loop", 2, 420.5, 390.25)
    # Then only that node moved
    assert changed
    assert model.path("loop").points == (
        LOOP.points[0],
        LOOP.points[1],
        (420.5, 390.25),
        LOOP.points[3],
    )
    only_path_changed(before, model.level, "loop")


def test_move_node_rounds_and_clamps_into_the_world(model: EditModel) -> None:
    # Given the line
    # When a node is moved outside the world, to a position with many decimals
    model.move_node("line", -1, 1300.0, 12.345678)
    # Then it stays on the world's border, rounded to 0.01 px
    assert model.path("line").points[-1] == (WORLD_W, 12.35)


def test_move_node_onto_its_neighbour_is_refused(model: EditModel) -> None:
    # Given the line's nodes 0 and 1
    before = model.level
    # When node 0 is moved onto node 1
    changed = model.move_node("line", 0, 800.0, 100.0)
    # Then nothing changes and the notice says why
    assert not changed
    assert model.level is before
    assert "same spot" in model.notice
    assert not model.can_undo


def test_move_node_with_snapping(model: EditModel) -> None:
    # Given snapping on a 16 px grid (half the 32 px tile)
    assert model.toggle_snap()
    assert model.grid == 16.0
    # When a node is moved to (421, 389)
    model.move_node("loop", 2, 421.0, 389.0)
    # Then it lands on the grid
    assert model.path("loop").points[2] == (416.0, 384.0)


def test_insert_node_on_a_segment(model: EditModel) -> None:
    # Given the line's segment 1, from (800, 100) to (1000, 100)
    # When a node is inserted at (900, 100)
    changed = model.insert_node("line", 1, 900.0, 100.0)
    # Then it becomes node 2
    assert changed
    assert model.path("line").points == (*LINE.points[:2], (900.0, 100.0), LINE.points[2])


def test_insert_node_on_the_closing_segment(model: EditModel) -> None:
    # Given the loop's closing segment 3, from (200, 400) to (200, 200)
    # When a node is inserted at (200, 300)
    model.insert_node("loop", 3, 200.0, 300.0)
    # Then it is the new last node
    assert model.path("loop").points == (*LOOP.points, (200.0, 300.0))


def test_insert_node_on_an_end_node_is_refused(model: EditModel) -> None:
    # Given the line
    # When a node is inserted exactly on node 1
    # Then it is refused
    assert not model.insert_node("line", 0, 800.0, 100.0)
    assert model.level.paths[1] is LINE


def test_append_node(model: EditModel) -> None:
    # Given the line
    # When a node is appended at (1100, 200)
    model.append_node("line", 1100.0, 200.0)
    # Then it is the new end, and the line is selected
    assert model.path("line").points[-1] == (1100.0, 200.0)
    assert len(model.path("line").points) == 4
    assert model.selected == "line"


def test_delete_node(model: EditModel) -> None:
    # Given the loop
    # When node 1 is deleted
    assert model.delete_node("loop", 1)
    # Then the other three remain in order
    assert model.path("loop").points == (LOOP.points[0], *LOOP.points[2:])


def test_delete_keeps_two_nodes(model: EditModel) -> None:
    # Given the line with three nodes
    assert model.delete_node("line", 1)
    # When one of the remaining two is deleted
    changed = model.delete_node("line", 0)
    # Then it is refused
    assert not changed
    assert len(model.path("line").points) == 2
    assert "at least two" in model.notice


def test_delete_that_joins_two_equal_nodes_is_refused() -> None:
    # Given an open path A, B, A
    a, b = (600.0, 100.0), (800.0, 100.0)
    level = make_level()
    model = EditModel(replace(level, paths=(LOOP, replace(LINE, points=(a, b, a)))))
    # When B is deleted (A would follow A)
    # Then it is refused
    assert not model.delete_node("line", 1)
    assert "same spot" in model.notice


def test_set_path_radius_rounds_and_clamps(model: EditModel) -> None:
    # Given the loop (radius 20)
    # When its radius is set to 33.333, then 0.5, then a million
    model.set_path_radius("loop", 33.333)
    r1 = model.path("loop").radius
    model.set_path_radius("loop", 0.5)
    r2 = model.path("loop").radius
    model.set_path_radius("loop", 1e6)
    r3 = model.path("loop").radius
    # Then it becomes 33.3, the minimum, the maximum
    assert (r1, r2, r3) == (33.3, MIN_PATH_RADIUS, MAX_PATH_RADIUS)


def test_scale_path_radius_by_wheel_notches(model: EditModel) -> None:
    # Given the loop (radius 20)
    # When the wheel turns two notches up, then one down
    model.scale_path_radius("loop", 2)
    up = model.path("loop").radius
    model.scale_path_radius("loop", -1)
    # Then the radius grows by the wheel factor per notch, rounded to 0.1 px
    assert up == round(20.0 * WHEEL_FACTOR**2, 1)
    assert model.path("loop").radius == round(up / WHEEL_FACTOR, 1)


def test_scale_path_radius_always_moves_a_little() -> None:
    # Given a path at the minimum radius
    model = EditModel(make_level())
    model.set_path_radius("loop", MIN_PATH_RADIUS)
    # When the wheel turns up by a tiny fraction of a notch
    model.scale_path_radius("loop", 0.01)
    # Then the radius still grows by 0.1 px
    assert model.path("loop").radius == MIN_PATH_RADIUS + 0.1


def test_toggle_closed(model: EditModel) -> None:
    # Given the open line and the closed loop
    # When both are toggled
    assert model.toggle_closed("line")
    assert model.toggle_closed("loop")
    # Then the line is closed and the loop open, nodes unchanged
    assert model.path("line").closed and model.path("line").points == LINE.points
    assert not model.path("loop").closed and model.path("loop").points == LOOP.points


def test_closing_a_path_whose_ends_coincide_is_refused(model: EditModel) -> None:
    # Given an open path whose last node is on its first
    model.append_node("line", 700.0, 300.0)
    model.move_node("line", -1, 600.0, 100.0)
    # When it is closed
    # Then it is refused (the loader would drop the repeated node)
    assert not model.toggle_closed("line")
    assert not model.path("line").closed


def test_new_path_has_a_unique_name_and_a_fresh_id(model: EditModel) -> None:
    # Given the test level (largest id 8)
    # When two new paths are started
    first = model.new_path(500.0, 500.0)
    second = model.new_path(500.0, 300.0)
    # Then they are path-1 and path-2, two nodes each, selected, with new ids
    assert (first, second) == ("path-1", "path-2")
    one = model.path("path-1")
    assert one.points == ((500.0, 500.0), (500.0 + NEW_PATH_LENGTH, 500.0))
    assert not one.closed
    assert model.selected == "path-2"
    assert {one.id, model.path("path-2").id} == {9, 10}


def test_new_path_near_the_right_edge_goes_left(model: EditModel) -> None:
    # Given a point near the right edge
    # When a path starts there
    name = model.new_path(WORLD_W - 10.0, 300.0)
    # Then its second node is to the left, inside the world
    assert name is not None
    assert model.path(name).points[1] == (WORLD_W - 10.0 - NEW_PATH_LENGTH, 300.0)


def test_move_rock(model: EditModel) -> None:
    # Given rock 2 at (800, 560)
    before = model.level
    # When it is moved to an empty place
    assert model.move_rock(2, 500.0, 550.0)
    # Then only it moved
    assert (model.level.obstacles[2].x, model.level.obstacles[2].y) == (500.0, 550.0)
    assert model.level.obstacles[:2] == before.obstacles[:2]
    assert replace(model.level, obstacles=before.obstacles) == before


def test_move_rock_into_another_pushes_it_out(model: EditModel) -> None:
    # Given rocks 0 and 1 (radius 40, 200 px apart)
    # When rock 0 is moved to 10 px from rock 1's centre
    assert model.move_rock(0, 890.0, 400.0)
    # Then it touches rock 1 from the left and overlaps nothing
    rock = model.level.obstacles[0]
    assert rock.y == 400.0 and 819.0 < rock.x < 820.0
    assert overlapping_rocks(model.level.obstacles, 0) == []


def test_move_rock_with_no_room_is_refused() -> None:
    # Given a corner walled in by two big rocks, and a small rock elsewhere
    rocks = (
        replace(ROCKS[0], x=500.0, y=500.0, radius=20.0),
        replace(ROCKS[1], x=60.0, y=0.0, radius=48.0),
        replace(ROCKS[2], x=0.0, y=60.0, radius=48.0),
    )
    model = EditModel(replace(make_level(), obstacles=rocks))
    before = model.level
    # When the small rock is asked into the corner
    changed = model.move_rock(0, 5.0, 5.0)
    # Then it is refused: nothing moves and the notice says why
    assert not changed and model.level is before
    assert "no room" in model.notice


def test_rocks_never_overlap_in_a_crowd() -> None:
    # Given rock 2 between rocks 0 and 1, grown until it touches both
    model = EditModel(make_level())
    model.move_rock(2, 800.0, 400.0)
    assert model.resize_rock(2, 200.0)
    assert model.level.obstacles[2].radius == 60.0
    # When rock 0 is asked onto rock 2's centre
    model.move_rock(0, 800.0, 400.0)
    # Then no rock overlaps another (it was pushed out, or refused)
    rocks = model.level.obstacles
    assert all(overlapping_rocks(rocks, i) == [] for i in range(len(rocks)))


def test_resize_rock_stops_where_it_touches(model: EditModel) -> None:
    # Given rock 0 (r 40), rock 1 at 200 px (r 40), rock 2 at 188.7 px (r 30)
    # When rock 0 is asked to grow to 500
    assert model.resize_rock(0, 500.0)
    # Then it grows to touch rock 2 at most, rounded down to 0.1 px
    assert model.level.obstacles[0].radius == 158.6
    assert model.notice == ""
    assert overlapping_rocks(model.level.obstacles, 0) == []


def test_resize_rock_shrinks_down_to_the_minimum(model: EditModel) -> None:
    # Given rock 0
    # When it is asked to shrink to 1 px
    model.resize_rock(0, 1.0)
    # Then it stops at the minimum radius
    assert model.level.obstacles[0].radius == MIN_ROCK_RADIUS


def test_scale_rock_radius(model: EditModel) -> None:
    # Given rock 2 (r 30)
    # When the wheel turns one notch down over it
    model.scale_rock_radius(2, -1)
    # Then it shrinks by the wheel factor
    assert model.level.obstacles[2].radius == round(30.0 / WHEEL_FACTOR, 1)


def test_rock_touching_another_cannot_grow(model: EditModel) -> None:
    # Given rock 0 grown until it touches
    model.resize_rock(0, 500.0)
    before = model.level
    # When it is asked to grow again
    changed = model.resize_rock(0, 170.0)
    # Then nothing changes
    assert not changed and model.level is before


def test_unknown_names_and_indices_are_programming_errors(model: EditModel) -> None:
    # Given the test level
    # When a command names a path or index that does not exist
    # Then KeyError / IndexError are raised (hits always name existing things)
    with pytest.raises(KeyError):
        model.move_node("nope", 0, 1.0, 1.0)
    with pytest.raises(IndexError):
        model.delete_node("loop", 4)
    with pytest.raises(IndexError):
        model.insert_node("line", 2, 1.0, 1.0)  # an open 3-node path has segments 0 and 1
    with pytest.raises(IndexError):
        model.move_rock(len(ROCKS), 1.0, 1.0)


def test_world_bounds_hold_for_rock_moves(model: EditModel) -> None:
    # Given rock 2
    # When moved far outside the world
    model.move_rock(2, -100.0, 1000.0)
    # Then its centre is on the world's border
    rock = model.level.obstacles[2]
    assert (rock.x, rock.y) == (0.0, WORLD_H)


# -- paths with a radius per segment ------------------------------------------------------------


@pytest.fixture
def varied() -> EditModel:
    """The test level with the loop's four segments 10, 20, 30 and 40 px wide, and the open
    line's two 5 and 15 px."""
    level = make_level()
    loop = replace(LOOP, radii=(10.0, 20.0, 30.0, 40.0))
    line = replace(LINE, radii=(5.0, 15.0))
    return EditModel(replace(level, paths=(loop, line)))


def test_set_path_radius_sets_every_segment(varied: EditModel) -> None:
    # Given the loop with a radius per segment
    # When its radius is set
    assert varied.set_path_radius("loop", 25.0)
    # Then every segment has it: the path has one radius again
    path = varied.path("loop")
    assert (path.radius, path.radii, path.segment_radii) == (25.0, (), (25.0,) * 4)
    varied.undo()
    assert varied.path("loop").radii == (10.0, 20.0, 30.0, 40.0)


def test_wheel_scales_each_segments_radius(varied: EditModel) -> None:
    varied.scale_path_radius("loop", 1)
    varied.scale_path_radius("loop", 1)
    expected = tuple(round(round(r * WHEEL_FACTOR, 1) * WHEEL_FACTOR, 1) for r in (10, 20, 30, 40))
    assert varied.path("loop").radii == expected
    assert varied.undo_labels == ("path radius",)


def test_node_edits_keep_one_radius_per_segment(varied: EditModel) -> None:
    # Given the line (segments 5, 15): a node inserted into its first segment splits it
    assert varied.insert_node("line", 0, 700.0, 120.0)
    assert varied.path("line").radii == (5.0, 5.0, 15.0)
    # a node appended after the end gives the new segment the end's radius
    assert varied.append_node("line", 1100.0, 100.0)
    assert varied.path("line").radii == (5.0, 5.0, 15.0, 15.0)
    # deleting a node keeps the radius of the segment before it
    assert varied.delete_node("line", 1)
    assert varied.path("line").radii == (5.0, 15.0, 15.0)
    # closing adds a closing segment with the last radius; opening drops it
    assert varied.toggle_closed("line")
    assert varied.path("line").radii == (5.0, 15.0, 15.0, 15.0)
    assert varied.toggle_closed("loop")
    assert varied.path("loop").radii == (10.0, 20.0, 30.0)
    # and a path with one radius keeps none per segment through all of these
    model = EditModel(make_level())
    model.insert_node("loop", 0, 300.0, 190.0)
    model.toggle_closed("loop")
    assert model.path("loop").radii == ()
