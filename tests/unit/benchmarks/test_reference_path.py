"""The reference's path following (seeds 000/001): future 25 px ahead, target 25 px further."""

from __future__ import annotations

import pytest
from pymunk import Vec2d

from benchmarks.harness.reference import SeedPath, Vehicle, get_normal_point

UNLIMITED = 1e9


def straight() -> SeedPath:
    return SeedPath([Vec2d(0.0, 0.0), Vec2d(200.0, 0.0)], radius=20.0)


def test_the_normal_point_is_the_projection_on_the_line() -> None:
    # Given the line through (0, 0) and (100, 100), When the point (100, 0) is projected
    # Then it lands half way
    assert get_normal_point(Vec2d(100, 0), Vec2d(0, 0), Vec2d(100, 100)) == pytest.approx(
        Vec2d(50.0, 50.0)
    )


def test_a_strayed_vehicle_seeks_25_px_past_the_normal_point() -> None:
    # Given a vehicle at (50, 40) moving at 2 px/frame (120 px/s) along a straight path
    v = Vehicle(Vec2d(50.0, 40.0), Vec2d(120.0, 0.0), maxforce=UNLIMITED, gain=1.0)
    # When
    force = v.follow_path(straight())
    # Then future = (75, 40), normal point (75, 0) is 40 > 20 px away, target = (100, 0):
    # desired = 120 * (50, -40) / sqrt(4100) = (93.704, -74.963), steer = desired - (120, 0)
    assert force == pytest.approx(Vec2d(-26.296, -74.963), abs=1e-3)
    assert force == v.seek(Vec2d(100.0, 0.0))


def test_a_vehicle_whose_future_is_within_the_radius_does_not_steer() -> None:
    # Given a vehicle 10 px off the path, moving along it
    v = Vehicle(Vec2d(50.0, 10.0), Vec2d(120.0, 0.0))
    # Then no force
    assert v.follow_path(straight()) == Vec2d(0.0, 0.0)


def test_a_normal_point_past_a_segment_end_takes_the_end_and_the_next_direction() -> None:
    # Given an L-shaped open path and a vehicle whose future (115, -60) lies past the corner
    path = SeedPath([Vec2d(0, 0), Vec2d(100, 0), Vec2d(100, 100)], radius=20.0)
    v = Vehicle(Vec2d(90.0, -60.0), Vec2d(120.0, 0.0))
    # When
    force = v.follow_path(path)
    # Then segment 0's normal (115, 0) is past its end, so the end (100, 0) counts (61.8 px
    # away, nearer than segment 1's replacement (100, 100)); the target is 25 px along
    # segment 1: (100, 25)
    assert force == v.seek(Vec2d(100.0, 25.0))


def test_a_closed_path_loops_back_to_its_first_point() -> None:
    # Given a closed square and a vehicle below its closing segment (0, 100) -> (0, 0)
    square = [Vec2d(0, 0), Vec2d(100, 0), Vec2d(100, 100), Vec2d(0, 100)]
    path = SeedPath(square, radius=5.0, closed=True)
    v = Vehicle(Vec2d(-30.0, 60.0), Vec2d(0.0, -120.0))
    # When: future (-30, 35); the closing segment's normal point (0, 35) is nearest
    force = v.follow_path(path)
    # Then the target is 25 px further along it, toward (0, 0)
    assert path.segment_count == 4
    assert force == v.seek(Vec2d(0.0, 10.0))
