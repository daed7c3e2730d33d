"""Wall edits as pure transforms, and wall hits: corners edit like path nodes, a rectangle
stays a rectangle while a corner is dragged, and every result saves and loads back."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from game.editor import EditModel
from game.editor.hits import HitKind, hit_test
from game.editor.objects import Ref, RefusedError, validate
from game.editor.walls import (
    wall_closed_toggled,
    wall_node_deleted,
    wall_node_inserted,
    wall_node_moved,
    wall_translated,
)
from game.level import CLASSES, Level, WallData, load_level, resolve_level
from game.world import World


@pytest.fixture
def level() -> Level:
    """Patrol with an open wall and a rectangle wall, clear of the player."""
    base = load_level(resolve_level("patrol"))
    zig = WallData(points=((100.0, 500.0), (200.0, 520.0), (300.0, 500.0)), id=900)
    box = WallData(
        points=((600.0, 100.0), (700.0, 100.0), (700.0, 160.0), (600.0, 160.0)),
        shape="rect",
        thickness=20.0,
        id=901,
    )
    return validate(replace(base, walls=(zig, box)))


def test_moving_a_corner_of_an_open_wall_moves_only_it(level: Level) -> None:
    new = wall_node_moved(level, 0, 1, (210.0, 560.0))
    assert new.walls[0].points == ((100.0, 500.0), (210.0, 560.0), (300.0, 500.0))
    assert new.walls[1] is level.walls[1]
    assert validate(new) is new


def test_a_rectangle_stays_a_rectangle_its_opposite_corner_fixed(level: Level) -> None:
    # When the top-right corner of the box goes up and right
    new = wall_node_moved(level, 1, 2, (750.0, 200.0))
    # Then the bottom-left stays and the four corners are a rectangle again
    box = new.walls[1]
    assert box.shape == "rect"
    assert box.points == ((600.0, 100.0), (750.0, 100.0), (750.0, 200.0), (600.0, 200.0))
    validate(new)


def test_inserting_or_deleting_a_corner_of_a_rectangle_makes_a_polygon(level: Level) -> None:
    more = wall_node_inserted(level, 1, 1, (650.0, 80.0))
    assert more.walls[1].shape == "polygon" and len(more.walls[1].points) == 5
    assert more.walls[1].points[1] == (650.0, 80.0)
    fewer = wall_node_deleted(level, 1, 0)
    assert fewer.walls[1].shape == "polygon" and len(fewer.walls[1].points) == 3
    validate(more)
    validate(fewer)


def test_walls_keep_their_least_corners(level: Level) -> None:
    two = wall_node_deleted(level, 0, 1)
    assert len(two.walls[0].points) == 2
    with pytest.raises(RefusedError, match=r"^an open wall needs at least two corners$"):
        wall_node_deleted(two, 0, 0)
    with pytest.raises(RefusedError, match=r"^a closed wall needs at least three distinct"):
        wall_closed_toggled(two, 0)
    with pytest.raises(RefusedError, match="one spot"):
        wall_node_moved(level, 0, 1, (100.0, 500.0))


def test_closing_and_opening_a_wall(level: Level) -> None:
    closed = wall_closed_toggled(level, 0)
    assert closed.walls[0].shape == "polygon"
    assert wall_closed_toggled(closed, 0).walls[0].shape == "polyline"
    assert wall_closed_toggled(level, 1).walls[1].shape == "polyline"


def test_a_moved_wall_keeps_its_shape_and_stops_at_the_edge(level: Level) -> None:
    new = wall_translated(level, 0, -500.0, 10.0)
    xs = [x for x, _ in new.walls[0].points]
    assert min(xs) == 0.0
    assert new.walls[0].points[1] == (100.0, 530.0)


def test_hits_on_a_wall(level: Level) -> None:
    # A corner is a NODE of the wall
    hit = hit_test(level, 201.0, 521.0, 8.0)
    assert hit is not None and hit.kind is HitKind.NODE and hit.wall == 0 and hit.index == 1
    # The line between corners, or inside a thick wall, is the wall itself
    hit = hit_test(level, 150.0, 511.0, 8.0)
    assert hit is not None and hit.kind is HitKind.WALL and hit.wall == 0 and hit.index == 0
    hit = hit_test(level, 650.0, 108.0, 4.0)  # 8 px in, within the 20 px box wall's half
    assert hit is not None and hit.kind is HitKind.WALL and hit.wall == 1
    # Open water inside the box is not the wall
    water = hit_test(level, 650.0, 130.0, 4.0)
    assert water is None or water.wall is None


# -- the edit model's wall commands ------------------------------------------------------


def _model(level: Level) -> EditModel:
    return EditModel(level, next_id=1000)


def test_drawing_a_straight_wall_and_a_rectangle_each_one_undo_step(level: Level) -> None:
    model = _model(level)
    # A straight wall pressed at (400, 300) and dragged to (520, 340)
    assert model.begin_wall(400.0, 300.0)
    model.update_drag(470.0, 320.0)
    model.update_drag(520.0, 340.0)
    assert model.end_drag()
    wall = model.level.walls[-1]
    assert wall.points == ((400.0, 300.0), (520.0, 340.0)) and wall.shape == "polyline"
    assert wall.id == 1000 and model.selection == Ref("walls", 2)
    # A rectangle pressed at (800, 400) and dragged to (900, 460)
    assert model.begin_wall(800.0, 400.0, rect=True)
    model.update_drag(900.0, 460.0)
    model.end_drag()
    box = model.level.walls[-1]
    assert box.shape == "rect"
    assert box.points == ((800.0, 400.0), (900.0, 400.0), (900.0, 460.0), (800.0, 460.0))
    # A click without a drag keeps the default size
    ref = model.new_wall(1000.0, 200.0)
    assert ref is not None and model.level.walls[ref.index].points[1] == (1096.0, 200.0)
    # Each is one step; undo gives the level back, and it saves and loads
    for _ in range(3):
        assert model.undo()
    assert model.level == level
    validate(model.level)


def test_dragging_a_corner_and_the_wall_itself(level: Level) -> None:
    model = _model(level)
    # Drag the middle corner of the zigzag by (0, 40)
    hit = model.hit_test(200.0, 520.0, 8.0)
    assert hit is not None and hit.wall == 0 and hit.kind is HitKind.NODE
    assert model.begin_drag(hit, 200.0, 520.0)
    model.update_drag(200.0, 560.0)
    model.end_drag()
    assert model.level.walls[0].points[1] == (200.0, 560.0)
    assert model.selection == Ref("walls", 0)
    # Drag the box by its edge: every corner moves by the same amount
    hit = model.hit_test(650.0, 100.0, 8.0)
    assert hit is not None and hit.kind is HitKind.WALL and hit.wall == 1
    assert model.begin_drag(hit, 650.0, 100.0)
    model.update_drag(680.0, 150.0)
    model.end_drag()
    moved_box = model.level.walls[1]
    assert moved_box.shape == "rect"
    assert moved_box.points == ((630.0, 150.0), (730.0, 150.0), (730.0, 210.0), (630.0, 210.0))
    assert model.undo() and model.undo() and model.level == level


def test_corner_commands_close_and_thickness(level: Level) -> None:
    model = _model(level)
    assert model.insert_wall_node(0, 0, 150.0, 540.0)
    assert model.level.walls[0].points[1] == (150.0, 540.0)
    assert model.append_wall_node(0, 380.0, 480.0)
    assert model.level.walls[0].points[-1] == (380.0, 480.0)
    assert model.delete_wall_node(0, 0)
    assert len(model.level.walls[0].points) == 4
    assert model.toggle_wall_closed(0) and model.level.walls[0].shape == "polygon"
    # Three wheel notches on the box are one step, within the format's range
    for _ in range(3):
        assert model.scale_wall_thickness(1, 1.0)
    assert model.level.walls[1].thickness == pytest.approx(20.0 * 1.1**3, abs=0.1)
    assert model.undo() and model.level.walls[1].thickness == 20.0
    # The panel's property works on walls, and the loader's range is enforced
    spec = CLASSES["wall"].prop("thickness")
    assert model.set_property(Ref("walls", 1), spec, "30")
    assert model.level.walls[1].thickness == 30.0
    assert not model.set_property(Ref("walls", 1), spec, "-3")
    assert "thickness" in model.notice
    # Deleting a wall is one step too
    assert model.delete(Ref("walls", 0)) and len(model.level.walls) == 1
    validate(model.level)


def test_a_wall_over_the_player_start_is_refused(level: Level) -> None:
    model = _model(level)
    px, py = level.player.x, level.player.y
    assert not model.begin_wall(px - 20.0, py)
    assert "player" in model.notice
    assert model.level == level


def test_the_world_follows_wall_edits_live(level: Level) -> None:
    model = _model(level)
    world = World(level)
    for _ in range(30):
        world.step((1.0, 0.0))
    pos = world.agents.pos.copy()
    model.subscribe(lambda changes: world.edit(changes, model.level))
    assert model.move_wall_node(0, 1, 200.0, 600.0)
    # The world has the new wall's segments and its agents did not move
    assert world.level.walls[0].points[1] == (200.0, 600.0)
    segs = world.walls.segments
    assert any(np.allclose(s, [[100.0, 500.0], [200.0, 600.0]]) for s in segs)
    assert np.array_equal(world.agents.pos, pos)
    assert world.frame == 30
