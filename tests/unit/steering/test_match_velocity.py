"""MatchVelocity: steer toward a target velocity, truncated to max speed, within max force."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering import Debug, MatchVelocity
from steering.agents import AgentGroup, integrate
from steering.vec import length

DT = 1 / 60


def test_force_is_the_velocity_gap_times_the_gain() -> None:
    # Given an agent at rest and a target velocity (50, 0)
    agents = AgentGroup.create([[0.0, 0.0]], max_speed=100, max_force=1e9)
    force = MatchVelocity((50.0, 0.0), gain=8.0)(agents, DT)
    # Then the force is ((50, 0) - (0, 0)) * 8
    np.testing.assert_allclose(force, [[400.0, 0.0]])


def test_target_is_truncated_to_max_speed_first() -> None:
    # Given a target of 500 px/s along (3, 4), max speed 100, the agent moving (60, 0)
    agents = AgentGroup.create([[0.0, 0.0]], [[60.0, 0.0]], max_speed=100, max_force=1e9)
    debug: Debug = {}
    force = MatchVelocity((300.0, 400.0))(agents, DT, debug)
    # Then it wants (60, 80), and the force is ((60, 80) - (60, 0)) * 8
    np.testing.assert_allclose(debug["match.velocity"], [[60.0, 80.0]])
    np.testing.assert_allclose(force, [[0.0, 640.0]])


def test_force_is_limited_to_max_force() -> None:
    # Given a gap of (-100, 0) * 8 = 800 px/s^2 and max force 100
    agents = AgentGroup.create([[0.0, 0.0]], [[100.0, 0.0]], max_speed=100, max_force=100)
    force = MatchVelocity((0.0, 0.0))(agents, DT)
    np.testing.assert_allclose(force, [[-100.0, 0.0]])


def test_one_target_per_agent() -> None:
    agents = AgentGroup.create([[0.0, 0.0], [5.0, 5.0]], max_speed=100, max_force=1e9)
    force = MatchVelocity([[10.0, 0.0], [0.0, -20.0]], gain=2.0)(agents, DT)
    np.testing.assert_allclose(force, [[20.0, 0.0], [0.0, -40.0]])


def test_reaches_the_target_velocity() -> None:
    # Given agents moving every which way and one target velocity
    agents = AgentGroup.create(
        [[0.0, 0.0]] * 3, [[-100.0, 0.0], [0.0, 120.0], [0.0, 0.0]], max_speed=150, max_force=400
    )
    match = MatchVelocity((40.0, -30.0))
    # When they match it for two seconds
    for _ in range(120):
        integrate(agents, match(agents, DT), DT)
    # Then they all move at (40, -30)
    np.testing.assert_allclose(agents.vel, [[40.0, -30.0]] * 3, atol=0.01)


@settings(max_examples=60, deadline=None)
@given(
    vel=st.lists(st.tuples(st.floats(-500, 500), st.floats(-500, 500)), min_size=1, max_size=6),
    target=st.tuples(st.floats(-1e12, 1e12), st.floats(-1e12, 1e12)),
    max_speed=st.sampled_from([0.0, 1.0, 150.0]),
    max_force=st.sampled_from([0.0, 1.0, 400.0, 1e6]),
)
def test_forces_are_finite_and_within_max_force(
    vel: list[tuple[float, float]],
    target: tuple[float, float],
    max_speed: float,
    max_force: float,
) -> None:
    n = len(vel)
    agents = AgentGroup.create(np.zeros((n, 2)), vel, max_speed=max_speed, max_force=max_force)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        force = MatchVelocity(target)(agents, DT)
    assert force.shape == (n, 2)
    assert np.isfinite(force).all()
    assert (length(force) <= agents.max_force + 1e-9).all()


def test_bad_target_velocity_is_named() -> None:
    agents = AgentGroup.create([[0.0, 0.0]])
    # Given / When / Then a string or NaN velocity is refused by name, not a silent zero force
    with pytest.raises(TypeError, match=r"MatchVelocity\.target_velocity"):
        MatchVelocity("fast")(agents, DT)
    with pytest.raises(ValueError, match=r"MatchVelocity\.target_velocity"):
        MatchVelocity((math.nan, 1.0))(agents, DT)
    with pytest.raises(ValueError, match=r"MatchVelocity\.gain"):
        MatchVelocity((1.0, 1.0), gain=math.inf)
