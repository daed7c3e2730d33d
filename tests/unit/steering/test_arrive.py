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
