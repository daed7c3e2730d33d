"""The reference's separation (seed 004): every other vehicle, 1/d-weighted, averaged, limited."""

from __future__ import annotations

import math

import pytest
from pymunk import Vec2d

from benchmarks.harness.reference import Vehicle

UNLIMITED = 1e9


def trio(**params: float) -> list[Vehicle]:
    """The agent at the origin with neighbours at (10, 0) and (0, 20)."""
    corners = ((0.0, 0.0), (10.0, 0.0), (0.0, 20.0))
    return [Vehicle(Vec2d(*p), **params) for p in corners]  # type: ignore[arg-type]


def test_two_vehicles_push_each_other_straight_apart_at_max_force() -> None:
    # Given two vehicles 10 px apart, at rest, desired separation 24
    a, b = Vehicle(Vec2d(0.0, 0.0)), Vehicle(Vec2d(10.0, 0.0))
    # When
    fa, fb = a.separate([a, b]), b.separate([a, b])
    # Then desired = (-1, 0) * 120, steer = desired / dt = 7,200 px/s^2, limited to 300
    assert fa == pytest.approx(Vec2d(-300.0, 0.0))
    assert fb == pytest.approx(Vec2d(300.0, 0.0))


def test_the_seed_sum_is_averaged_and_set_to_max_speed() -> None:
    # Given the trio, desired separation 25, gain 1 (the steer is desired - velocity)
    a, b, c = trio(desiredseparation=25.0, maxforce=UNLIMITED, gain=1.0)
    # When
    force = a.separate([a, b, c])
    # Then ((-1, 0)/10 + (0, -1)/20) / 2 set to 120: 120 * (-2, -1) / sqrt(5)
    assert force == pytest.approx(Vec2d(-107.3313, -53.6656), abs=1e-4)


def test_the_steer_subtracts_the_velocity_and_is_limited_to_max_force() -> None:
    # Given the trio with the agent moving at (30, 0), gain 8, max force 360 (the core's test)
    a, b, c = trio(desiredseparation=25.0, maxforce=360.0, gain=8.0)
    a.velocity = Vec2d(30.0, 0.0)
    # When
    force = a.separate([a, b, c])
    # Then ((-107.3313, -53.6656) - (30, 0)) * 8, length 1,179.6, limited to 360
    assert force == pytest.approx(Vec2d(-335.3076, -131.0298), abs=1e-3)
    assert math.isclose(force.length, 360.0)


def test_itself_and_vehicles_beyond_the_separation_do_not_count() -> None:
    # Given one vehicle alone, and one with a neighbour exactly at the separation distance
    lone = Vehicle(Vec2d(0.0, 0.0))
    far = Vehicle(Vec2d(24.0, 0.0))
    # Then neither separates
    assert lone.separate([lone]) == Vec2d(0.0, 0.0)
    assert lone.separate([lone, far]) == Vec2d(0.0, 0.0)
