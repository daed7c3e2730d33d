"""The reference's obstacle avoidance (seed 002, Buckland's C# port): the box, the forces."""

from __future__ import annotations

import pytest
from pymunk import Vec2d

from benchmarks.harness.reference import AVOID_FORCE_SCALE, SeedObstacle, Vehicle

# Box at half speed: 50 + 0.5 * 50 = 75 px; multiplier for a rock centre 40 px ahead:
# 1.5 + (75 - 40) / 75; braking (10 - 40) * 0.6.
MULTIPLIER = 1.5 + (75.0 - 40.0) / 75.0
BRAKING = (10.0 - 40.0) * 0.6


def half_speed(heading: tuple[float, float] = (1.0, 0.0)) -> Vehicle:
    """A vehicle of radius 8 at the origin at half its max speed of 120 px/s."""
    h = Vec2d(*heading)
    return Vehicle(Vec2d(0.0, 0.0), h * 60.0, heading=h, maxspeed=120.0, r=8.0)


def force_from(rock: tuple[float, float], vehicle: Vehicle | None = None) -> Vec2d:
    v = half_speed() if vehicle is None else vehicle
    return v.avoid_obstacles([SeedObstacle(Vec2d(*rock), 10.0)]) / AVOID_FORCE_SCALE


def test_a_rock_dead_ahead_brakes_and_turns_left() -> None:
    # Given a rock of radius 10 dead ahead, When the vehicle avoids it
    f = force_from((40.0, 0.0))
    # Then local y = 0 is not > 0, so the lateral force is (R - 0) * multiplier, to the left
    assert f == pytest.approx(Vec2d(BRAKING, 10.0 * MULTIPLIER))


def test_a_rock_off_to_the_left_pushes_right_harder() -> None:
    # Given the rock 5 px to the left of the heading
    f = force_from((40.0, 5.0))
    # Then (-R - y) * multiplier: 15 x 1.967 to the right
    assert f == pytest.approx(Vec2d(BRAKING, -15.0 * MULTIPLIER))
    assert f.y == pytest.approx(-29.5)


def test_a_rock_off_to_the_right_pushes_left() -> None:
    assert force_from((40.0, -5.0)) == pytest.approx(Vec2d(BRAKING, 15.0 * MULTIPLIER))


@pytest.mark.parametrize(
    "rock",
    [(40.0, 20.0), (-30.0, 0.0), (100.0, 0.0)],
    ids=["wide of the box", "behind", "beyond the box"],
)
def test_rocks_outside_the_box_are_ignored(rock: tuple[float, float]) -> None:
    assert force_from(rock) == Vec2d(0.0, 0.0)


def test_the_force_turns_with_the_heading() -> None:
    # Given the vehicle heading +y with the rock 40 px ahead and 5 px to its left, at (-5, 40)
    f = force_from((-5.0, 40.0), half_speed((0.0, 1.0)))
    # Then local (braking, lateral) = (-18, -29.5) is heading * -18 + left (-1, 0) * -29.5
    assert f == pytest.approx(Vec2d(15.0 * MULTIPLIER, BRAKING))


def test_the_closest_intersection_wins() -> None:
    # Given a far rock dead ahead and a nearer one to the left
    v = half_speed()
    rocks = [SeedObstacle(Vec2d(60.0, 0.0), 10.0), SeedObstacle(Vec2d(40.0, 5.0), 10.0)]
    # Then the vehicle reacts to the nearer one
    assert v.avoid_obstacles(rocks) / AVOID_FORCE_SCALE == pytest.approx(
        Vec2d(BRAKING, -15.0 * MULTIPLIER)
    )
