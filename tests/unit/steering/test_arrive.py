"""Arrive: slows inside the slowing radius and stops on the target without overshoot."""

from __future__ import annotations

import numpy as np
import pytest

from steering.agents import AgentGroup, integrate
from steering.basic import Arrive


def test_arrive_outside_slowing_radius_is_seek() -> None:
    agents = AgentGroup.create([[0.0, 0.0]], max_speed=100, max_force=1e9)
    force = Arrive((1000.0, 0.0), slowing_radius=100, gain=8.0)(agents, 1 / 60)
    np.testing.assert_allclose(force, [[800.0, 0.0]])


def test_arrive_inside_slowing_radius_asks_for_proportional_speed() -> None:
    # Given an agent 50 px from the target, slowing radius 100, max speed 100, huge force
    agents = AgentGroup.create([[0.0, 0.0]], max_speed=100, max_force=1e9)
    arrive = Arrive((50.0, 0.0), slowing_radius=100.0, gain=8.0)
    force = arrive(agents, 1 / 60)
    # Then desired speed = 100 * 50 / 100 = 50; gain raised to 4 * 100 / 100 = 4 < 8 keeps 8
    np.testing.assert_allclose(force, [[50.0 * 8.0, 0.0]])


@pytest.mark.parametrize(
    ("max_speed", "max_force", "slowing"),
    [(220.0, 400.0, 100.0), (300.0, 150.0, 40.0), (120.0, 2000.0, 10.0), (180.0, 400.0, 200.0)],
)
def test_arrive_stops_without_overshoot_or_oscillation(
    max_speed: float, max_force: float, slowing: float
) -> None:
    # Given an agent already moving at full speed toward a target 600 px away
    agents = AgentGroup.create(
        [[0.0, 0.0]], [[max_speed, 0.0]], max_speed=max_speed, max_force=max_force
    )
    arrive = Arrive((600.0, 0.0), slowing_radius=slowing)
    xs = []
    for _ in range(60 * 12):
        integrate(agents, arrive(agents, 1 / 60), 1 / 60)
        xs.append(agents.pos[0, 0])
    xs_arr = np.array(xs)
    # Then it never passes the target, never turns back, and ends at rest on it
    assert xs_arr.max() <= 600.0 + 0.5
    assert (np.diff(xs_arr) >= -1e-6).all()
    assert xs_arr[-1] == pytest.approx(600.0, abs=0.5)
    assert np.linalg.norm(agents.vel[0]) < 1.0


@pytest.mark.parametrize("radius", [-1.0, float("nan"), "far"])
def test_arrive_refuses_a_bad_slowing_radius(radius: object) -> None:
    # Given / When / Then a negative, NaN or non-number slowing radius is refused by name
    with pytest.raises((ValueError, TypeError), match=r"Arrive\.slowing_radius"):
        Arrive((0.0, 0.0), slowing_radius=radius)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("target", "error"), [("exit", TypeError), ((float("nan"), 1.0), ValueError)]
)
def test_arrive_refuses_a_string_or_nan_target(target: object, error: type[Exception]) -> None:
    # Given an agent moving; a NaN target used to brake it silently
    agents = AgentGroup.create([[0.0, 0.0]], [[10.0, 0.0]])
    # When / Then the call names the target
    with pytest.raises(error, match=r"Arrive\.target"):
        Arrive(target)(agents, 1 / 60)  # type: ignore[arg-type]


def test_arrive_with_one_target_per_agent_matches_each_alone() -> None:
    # Given three agents with a target each
    agents = AgentGroup.create(
        [[0.0, 0.0], [10.0, 0.0], [0.0, 30.0]], [[5.0, 0.0], [0.0, 0.0], [0.0, -50.0]]
    )
    targets = np.array([[100.0, 0.0], [10.0, 5.0], [0.0, 30.0]])
    # When
    together = Arrive(targets, slowing_radius=50.0)(agents, 1 / 60)
    # Then each row is what that agent alone gets, bit for bit
    for i in range(3):
        alone = Arrive(tuple(targets[i]), slowing_radius=50.0)(agents.take(np.array([i])), 1 / 60)
        np.testing.assert_array_equal(together[i], alone[0])
