"""The reference's flow following (seed 003) and the seeds' Euler update in px/s."""

from __future__ import annotations

import pytest
from pymunk import Vec2d

from benchmarks.harness.reference import DT, SeedFlowField, SeedWorld, Vehicle, Weights


def grid() -> SeedFlowField:
    """2 x 2 cells of 10 px: row 0 (bottom) right, up; row 1 left, down."""
    return SeedFlowField(
        [[Vec2d(1, 0), Vec2d(0, 1)], [Vec2d(-1, 0), Vec2d(0, -1)]], 10.0, Vec2d(0.0, 0.0)
    )


@pytest.mark.parametrize(
    ("where", "expected"),
    [((15.0, 5.0), (0, 1)), ((5.0, 15.0), (-1, 0)), ((-50.0, 50.0), (-1, 0)), ((99, -9), (0, 1))],
)
def test_lookup_reads_the_cell_and_clamps_at_the_borders(
    where: tuple[float, float], expected: tuple[float, float]
) -> None:
    assert grid().lookup(Vec2d(*where)) == Vec2d(*expected)


def test_flow_desires_the_cell_direction_at_max_speed() -> None:
    # Given a vehicle at rest in the "up" cell, gain 1
    v = Vehicle(Vec2d(15.0, 5.0), maxforce=1e9, gain=1.0)
    # Then desired = (0, 120), steer = desired - velocity
    assert v.follow_flow(grid()) == Vec2d(0.0, 120.0)


def test_still_water_brakes() -> None:
    # Given a zero field vector and a moving vehicle
    still = SeedFlowField([[Vec2d(0, 0)]], 10.0)
    v = Vehicle(Vec2d(5.0, 5.0), Vec2d(1.0, 0.0))
    # Then steer = -velocity / dt
    assert v.follow_flow(still) == pytest.approx(Vec2d(-60.0, 0.0))


def test_update_integrates_limits_speed_and_resets_acceleration() -> None:
    # Given a vehicle at 100 px/s pushed by 3,000 px/s^2 for one step
    v = Vehicle(Vec2d(0.0, 0.0), Vec2d(100.0, 0.0), maxspeed=120.0)
    v.apply_force(Vec2d(3000.0, 0.0))
    # When
    v.update(DT)
    # Then velocity 100 + 50 is limited to 120 and the vehicle moves 120 / 60 = 2 px
    assert v.velocity == pytest.approx(Vec2d(120.0, 0.0))
    assert v.position == pytest.approx(Vec2d(2.0, 0.0))
    assert v.acceleration == Vec2d(0.0, 0.0)


def test_a_stopped_vehicle_keeps_its_heading() -> None:
    v = Vehicle(Vec2d(0.0, 0.0), heading=Vec2d(0.0, 1.0))
    v.update(DT)
    assert v.heading == Vec2d(0.0, 1.0)


def test_the_world_blends_by_weights_and_limits_the_sum() -> None:
    # Given a vehicle at rest in an "up" current, alone, with no rocks
    v = Vehicle(Vec2d(15.0, 5.0), maxforce=300.0)
    world = SeedWorld([v], grid(), [], Weights(path=1.0, flow=0.5, avoid=1.0, separate=1.0))
    # When: flow alone gives 300 (limited), weighted 0.5
    (force,) = world.forces()
    # Then
    assert force == pytest.approx(Vec2d(0.0, 150.0))
    world.integrate([force])
    assert v.velocity == pytest.approx(Vec2d(0.0, 2.5))
