"""Wander: seeded, dt-scaled random steering."""

from __future__ import annotations

import numpy as np
import pytest

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


@pytest.mark.parametrize("rng", [0, None, np.random.RandomState(0)])
def test_wander_needs_a_generator_and_says_how_to_make_one(rng: object) -> None:
    # Given / When / Then a seed (or the legacy RandomState) is refused, naming rng and the fix
    with pytest.raises(TypeError, match=r"Wander\.rng.*default_rng\(seed\)"):
        Wander(rng)  # type: ignore[arg-type]


def test_wander_refuses_bad_parameters_and_dt() -> None:
    with pytest.raises(ValueError, match=r"Wander\.jitter"):
        Wander(np.random.default_rng(0), jitter=-1.0)
    with pytest.raises(ValueError, match=r"Wander\.circle_radius"):
        Wander(np.random.default_rng(0), circle_radius=float("nan"))
    agents = AgentGroup.create(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="dt"):
        Wander(np.random.default_rng(0))(agents, float("nan"))
    # And the refused step left the angles unset
    assert "wander.angle" not in agents.state or not np.isfinite(agents.state["wander.angle"]).any()


def test_wander_draws_the_same_numbers_as_before() -> None:
    # Given a seeded wander on 5 agents
    agents = AgentGroup.create(np.zeros((5, 2)))
    wander = Wander(np.random.default_rng(7))
    # When it runs two steps
    wander(agents, 0.1)
    wander(agents, 0.1)
    # Then the angles are the uniform start plus two normal steps of the same generator
    rng = np.random.default_rng(7)
    start = rng.uniform(-np.pi, np.pi, 5)
    start += rng.normal(0.0, 3.0 * np.sqrt(0.1), 5)
    start += rng.normal(0.0, 3.0 * np.sqrt(0.1), 5)
    np.testing.assert_array_equal(agents.state["wander.angle"], start)
