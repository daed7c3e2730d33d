"""Editor geometry: snapping, clamping, nearest points, and placing rocks without overlap."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.editor import (
    ROCK_GAP,
    clamp_point,
    max_free_radius,
    nearest_on_polyline,
    overlapping_rocks,
    place_rock,
    snap_point,
)
from game.level import ObstacleData
from tests.unit.editor.helpers import ROCKS, WORLD_H, WORLD_W


def test_snap_point_goes_to_the_nearest_grid_corner() -> None:
    # Given a 16 px grid
    # When snapping (23, 41) and (-7, 9)
    # Then they go to (16, 48) and (0, 16) (-0 is 0)
    assert snap_point(23.0, 41.0, 16.0) == (16.0, 48.0)
    assert snap_point(-7.0, 9.0, 16.0) == (0.0, 16.0)
    assert math.copysign(1.0, snap_point(-7.0, 9.0, 16.0)[0]) == 1.0


def test_snap_without_grid_only_rounds() -> None:
    # Given no grid
    # When snapping a point
    # Then it is rounded to 0.01 px
    assert snap_point(1.23456, 2.0, 0.0) == (1.23, 2.0)


def test_clamp_point_keeps_inside_the_world() -> None:
    # Given a 100 x 50 world
    # When clamping points outside it
    # Then they land on its border
    assert clamp_point(-5.0, 60.0, 100.0, 50.0) == (0.0, 50.0)
    assert clamp_point(120.004, 10.006, 100.0, 50.0) == (100.0, 10.01)


def test_nearest_on_polyline_open_and_closed() -> None:
    # Given an L-shaped polyline
    pts = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0))
    # When asking for the nearest point to (50, 10) and, closed, to (40, 60)
    open_near = nearest_on_polyline(pts, False, 50.0, 10.0)
    closed_near = nearest_on_polyline(pts, True, 40.0, 60.0)
    # Then it is on segment 0 at t = 0.5, and on the closing segment (100,100)->(0,0)
    assert open_near is not None
    assert (open_near.segment, open_near.t, open_near.point) == (0, 0.5, (50.0, 0.0))
    assert open_near.distance == pytest.approx(10.0)
    assert closed_near is not None and closed_near.segment == 2
    assert closed_near.point == pytest.approx((50.0, 50.0))


def test_nearest_on_polyline_needs_two_nodes() -> None:
    # Given one node
    # When asking for the nearest point
    # Then there is none
    assert nearest_on_polyline(((1.0, 1.0),), False, 0.0, 0.0) is None


def test_place_rock_free_target_is_kept() -> None:
    # Given the three test rocks
    # When rock 2 is asked to go to an empty place
    # Then it goes there
    assert place_rock(ROCKS, 2, 300.0, 550.0, 30.0, WORLD_W, WORLD_H) == (300.0, 550.0)


def test_place_rock_is_pushed_out_of_another() -> None:
    # Given rock 1 (radius 40) at (900, 400)
    # When rock 0 (radius 40) is asked to go to (860, 400), 40 px from it
    placed = place_rock(ROCKS, 0, 860.0, 400.0, 40.0, WORLD_W, WORLD_H)
    # Then it ends just touching it, on the side it came from
    assert placed is not None
    assert placed[1] == pytest.approx(400.0)
    assert 900.0 - placed[0] == pytest.approx(80.0 + ROCK_GAP, abs=0.01)


def test_place_rock_onto_a_centre_uses_where_it_came_from() -> None:
    # Given rock 1 at (900, 400)
    # When rock 0 is asked to go exactly onto its centre, coming from below
    placed = place_rock(ROCKS, 0, 900.0, 400.0, 40.0, WORLD_W, WORLD_H, away_from=(900.0, 300.0))
    # Then it is pushed out downwards
    assert placed is not None
    assert placed[0] == pytest.approx(900.0) and placed[1] < 400.0 - 80.0


def test_place_rock_refuses_when_boxed_in() -> None:
    # Given a rock in a corner, walled in by two big rocks
    rocks = (
        ObstacleData(x=10.0, y=10.0, radius=5.0),
        ObstacleData(x=60.0, y=0.0, radius=48.0),
        ObstacleData(x=0.0, y=60.0, radius=48.0),
    )
    # When the small one is asked to go into the corner
    # Then it is refused: the corner has no room for a radius 20 rock
    assert place_rock(rocks, 0, 5.0, 5.0, 20.0, 1000.0, 1000.0) is None


def test_max_free_radius_is_the_gap_to_the_nearest_rock() -> None:
    # Given rock 0 (700, 400), rock 1 200 px to its right (r 40), rock 2 at (800, 560) (r 30)
    # When asking how far rock 0 can grow
    # Then up to where it touches rock 2, the nearer rim (158.7 px, not 160)
    assert max_free_radius(ROCKS, 0) == pytest.approx(math.hypot(100.0, 160.0) - 30.0)
    assert max_free_radius(ROCKS[:1], 0) == math.inf


rock = st.builds(
    ObstacleData,
    x=st.floats(0, 400),
    y=st.floats(0, 400),
    radius=st.floats(1, 60),
)


@settings(max_examples=150, deadline=None)
@given(
    rocks=st.lists(rock, min_size=2, max_size=8),
    x=st.floats(-50, 450),
    y=st.floats(-50, 450),
)
def test_placed_rock_never_overlaps_and_stays_inside(
    rocks: list[ObstacleData], x: float, y: float
) -> None:
    # Given any rocks
    radius = rocks[0].radius
    # When rock 0 is placed anywhere
    placed = place_rock(rocks, 0, x, y, radius, 400.0, 400.0)
    # Then it is refused, or inside the world and overlapping none of the others
    if placed is not None:
        assert 0.0 <= placed[0] <= 400.0 and 0.0 <= placed[1] <= 400.0
        moved = [ObstacleData(x=placed[0], y=placed[1], radius=radius), *rocks[1:]]
        assert overlapping_rocks(moved, 0) == []
