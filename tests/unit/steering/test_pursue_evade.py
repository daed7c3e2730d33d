"""Pursue and evade: seek and flee at a predicted position."""

from __future__ import annotations

import numpy as np
import pytest

from steering.agents import AgentGroup, integrate
from steering.base import DEFAULT_GAIN
from steering.basic import Evade, Pursue, Seek


def test_pursue_leads_a_moving_target() -> None:
    # Given a target 200 px to the right moving +y at 100 px/s, pursuer max speed 100
    agents = AgentGroup.create([[0.0, 0.0]], max_speed=100, max_force=1e9)
    debug: dict[str, np.ndarray] = {}
    Pursue((200.0, 0.0), (0.0, 100.0))(agents, 1 / 60, debug)
    # Then the prediction time is 200 / (100 + 100) = 1 s: aim at (200, 100)
    np.testing.assert_allclose(debug["pursue.predicted"], [[200.0, 100.0]])


def test_pursue_catches_a_crossing_target_sooner_than_seek() -> None:
    def chase(make: type) -> int:
        agents = AgentGroup.create([[0.0, 0.0]], max_speed=150, max_force=600)
        target = np.array([300.0, -200.0])
        tvel = np.array([0.0, 80.0])
        for step in range(60 * 20):
            b = make(target) if make is Seek else make(target, tvel)
            integrate(agents, b(agents, 1 / 60), 1 / 60)
            target = target + tvel / 60
            if np.linalg.norm(agents.pos[0] - target) < 10:
                return step
        return 10**9

    assert chase(Pursue) < chase(Seek)


def test_evade_runs_from_the_predicted_position() -> None:
    agents = AgentGroup.create([[0.0, 0.0]], max_speed=100, max_force=1e9)
    force = Evade((100.0, 0.0), (-100.0, 0.0))(agents, 1 / 60)
    # prediction 100 / 200 = 0.5 s -> threat at (50, 0): flee toward -x
    np.testing.assert_allclose(force, [[-100.0 * DEFAULT_GAIN, 0.0]], atol=1e-9)


def test_evade_ignores_threats_beyond_panic_distance() -> None:
    agents = AgentGroup.create([[0.0, 0.0]], max_speed=100, max_force=1e9)
    force = Evade((1000.0, 0.0), panic_distance=200.0)(agents, 1 / 60)
    np.testing.assert_allclose(force, [[0.0, 0.0]])


@pytest.mark.parametrize("make", [Pursue, Evade])
def test_bad_target_or_velocity_is_named(make: type) -> None:
    # Given an agent
    agents = AgentGroup.create([[0.0, 0.0]])
    # When / Then a string target, a NaN velocity or a negative prediction is refused by name
    with pytest.raises(TypeError, match=f"{make.__name__}.target"):
        make("player")(agents, 1 / 60)
    with pytest.raises(ValueError, match=f"{make.__name__}.target_velocity"):
        make((1.0, 0.0), (float("nan"), 0.0))(agents, 1 / 60)
    with pytest.raises(ValueError, match=f"{make.__name__}.max_prediction"):
        make((1.0, 0.0), max_prediction=-1.0)


def test_evade_reports_the_predicted_position() -> None:
    agents = AgentGroup.create([[0.0, 0.0]], max_speed=100, max_force=1e9)
    debug: dict[str, np.ndarray] = {}
    Evade((100.0, 0.0), (-100.0, 0.0))(agents, 1 / 60, debug)
    np.testing.assert_allclose(debug["evade.predicted"], [[50.0, 0.0]])
