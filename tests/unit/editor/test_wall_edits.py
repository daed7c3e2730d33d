"""Wall edits as pure transforms, and wall hits: corners edit like path nodes, a rectangle
stays a rectangle while a corner is dragged, and every result saves and loads back."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.editor.hits import HitKind, hit_test
from game.editor.objects import RefusedError, validate
from game.editor.walls import (
    wall_closed_toggled,
    wall_node_deleted,
    wall_node_inserted,
    wall_node_moved,
    wall_translated,
)
from game.level import Level, WallData, load_level, resolve_level


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
    with pytest.raises(RefusedError, match="at least 2"):
        wall_node_deleted(two, 0, 0)
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
