"""Containment: agents turn before leaving a rectangle."""

from __future__ import annotations

import math

import numpy as np
import pytest

from steering.agents import AgentGroup, integrate
from steering.basic import Contain, Wander
from steering.combine import TruncatedRunningSum


def test_contain_is_zero_well_inside() -> None:
    agents = AgentGroup.create([[50.0, 50.0]], [[10.0, 0.0]], max_speed=100, max_force=400)
    force = Contain(0, 0, 100, 100, margin=5, lookahead=0.5)(agents, 1 / 60)
    np.testing.assert_allclose(force, [[0.0, 0.0]])


def test_contain_pushes_back_near_the_right_edge() -> None:
    agents = AgentGroup.create([[90.0, 50.0]], [[100.0, 0.0]], max_speed=100, max_force=400)
    force = Contain(0, 0, 100, 100)(agents, 1 / 60)
    assert force[0, 0] < 0


def test_wandering_agents_stay_inside_a_box() -> None:
    agents = AgentGroup.create(
        np.random.default_rng(0).uniform(100, 300, (50, 2)), max_speed=150, max_force=500, radius=8
    )
    steer = TruncatedRunningSum([Contain(0, 0, 400, 400), Wander(np.random.default_rng(1))])
    for _ in range(60 * 20):
        integrate(agents, steer(agents, 1 / 60), 1 / 60)
        assert (agents.pos > -1).all() and (agents.pos < 401).all()


def test_contain_refuses_a_nan_edge() -> None:
    with pytest.raises(ValueError, match=r"Contain\.right"):
        Contain(0, 0, math.nan, 100)


def test_contain_keeps_the_velocity_along_the_wall() -> None:
    # Given an agent sliding along the bottom edge, heading out
    agents = AgentGroup.create([[50.0, 5.0]], [[30.0, -40.0]], max_speed=100, max_force=1e9)
    # When contained
    force = Contain(0, 0, 100, 100, margin=5, lookahead=0.5)(agents, 1 / 60)
    # Then the desired velocity is (30, 100) rescaled to max speed: only y is pushed
    desired = np.array([30.0, 100.0]) / np.hypot(30.0, 100.0) * 100.0
    np.testing.assert_allclose(force, [(desired - [30.0, -40.0]) * 8.0])


@pytest.mark.parametrize("edges", [(100, 0, 0, 100), (0, 50, 100, 50)])
def test_contain_refuses_edges_that_make_no_rectangle(edges: tuple[int, ...]) -> None:
    # Given left >= right or bottom >= top, every agent would be pushed every way
    with pytest.raises(ValueError, match="left < right and bottom < top"):
        Contain(*edges)
