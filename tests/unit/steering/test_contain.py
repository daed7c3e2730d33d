"""Containment: agents turn before leaving a rectangle."""

from __future__ import annotations

import numpy as np

from steering.agents import AgentGroup, integrate
from steering.basic import Contain, Wander
from steering.combine import PrioritizedSum


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
    steer = PrioritizedSum([Contain(0, 0, 400, 400), Wander(np.random.default_rng(1))])
    for _ in range(60 * 20):
        integrate(agents, steer(agents, 1 / 60), 1 / 60)
        assert (agents.pos > -1).all() and (agents.pos < 401).all()
