"""Wander: seeded, dt-scaled random steering."""

from __future__ import annotations

import numpy as np

from steering.agents import AgentGroup, integrate
from steering.basic import Wander


def _run(seed: int, dt: float, seconds: float) -> AgentGroup:
    agents = AgentGroup.create(np.zeros((20, 2)), max_speed=100, max_force=300)
    wander = Wander(np.random.default_rng(seed))
    for _ in range(round(seconds / dt)):
        integrate(agents, wander(agents, dt), dt)
    return agents


def test_wander_is_reproducible_with_a_seed() -> None:
    a, b, c = _run(1, 1 / 60, 3), _run(1, 1 / 60, 3), _run(2, 1 / 60, 3)
    np.testing.assert_array_equal(a.pos, b.pos)
    assert not np.allclose(a.pos, c.pos)


def test_wander_moves_agents_apart_and_within_limits() -> None:
    agents = _run(3, 1 / 60, 5)
    assert np.isfinite(agents.pos).all()
    assert (np.linalg.norm(agents.vel, axis=1) <= 100 + 1e-9).all()
    assert np.ptp(agents.pos[:, 0]) > 50


def test_wander_angle_spread_does_not_depend_on_dt() -> None:
    # The angle random walk is scaled by sqrt(dt): after 1 s its spread is the same at 30 or 120 Hz.
    def spread(dt: float) -> float:
        agents = AgentGroup.create(np.zeros((4000, 2)), max_speed=100, max_force=300)
        wander = Wander(np.random.default_rng(0))
        wander(agents, 0.0)
        start = agents.state["wander.angle"].copy()
        for _ in range(round(1.0 / dt)):
            wander(agents, dt)
        return float(np.std(agents.state["wander.angle"] - start))

    assert abs(spread(1 / 30) - spread(1 / 120)) < 0.15 * spread(1 / 30)
    assert abs(spread(1 / 30) - 3.0) < 0.3
