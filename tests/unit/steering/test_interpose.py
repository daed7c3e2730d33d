"""Interpose: arrive at the predicted point between two movers, keeping up with it."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering import Debug, Interpose
from steering.agents import AgentGroup, integrate
from steering.vec import length

DT = 1 / 60


def test_between_two_still_agents_is_arrive_at_the_midpoint() -> None:
    # Given a = (0, 0), b = (200, 0) at rest and an agent at (100, 100), max speed 100
    agents = AgentGroup.create([[100.0, 100.0]], max_speed=100, max_force=1e9)
    debug: Debug = {}
    force = Interpose((0.0, 0.0), (200.0, 0.0), gain=8.0)(agents, DT, debug)
    # Then the point is the midpoint (100, 0), 100 px away: beyond the 50 px slowing radius
    # the desired velocity is (0, -100), the gain max(8, 4 * 100 / 50) = 8
    np.testing.assert_allclose(debug["interpose.point"], [[100.0, 0.0]])
    np.testing.assert_allclose(force, [[0.0, -800.0]])


def test_predicts_both_movers_at_the_time_to_the_midpoint() -> None:
    # Given a and b moving +y at 50 px/s and the agent 100 px below their midpoint (100, 0)
    agents = AgentGroup.create([[100.0, -100.0]], max_speed=100, max_force=1e9)
    debug: Debug = {}
    force = Interpose((0.0, 0.0), (200.0, 0.0), (0.0, 50.0), (0.0, 50.0))(agents, DT, debug)
    # Then t = 100 / 100 = 1 s: a at (0, 50), b at (200, 50), the point (100, 50)
    np.testing.assert_allclose(debug["interpose.point"], [[100.0, 50.0]])
    # And it arrives in the point's frame: velocity relative to it (0, -50), desired relative
    # (0, 100) (150 px away), so the force is ((0, 100) - (0, -50)) * 8
    np.testing.assert_allclose(force, [[0.0, 1200.0]])


def test_ratio_and_the_velocity_of_the_point() -> None:
    # Given ratio 0.25 between a = (0, 0) and b = (400, 0), moving +y at 40 and 80 px/s, and
    # an agent at rest on the point (100, 0)
    agents = AgentGroup.create([[100.0, 0.0]], max_speed=100, max_force=1e9)
    debug: Debug = {}
    interpose = Interpose((0.0, 0.0), (400.0, 0.0), (0.0, 40.0), (0.0, 80.0), ratio=0.25)
    force = interpose(agents, DT, debug)
    # Then t = 0 and the point is (100, 0); it moves at 40 + 0.25 * (80 - 40) = 50 px/s, so
    # the agent speeds up to go with it: (0, 50) * 8
    np.testing.assert_allclose(debug["interpose.point"], [[100.0, 0.0]])
    np.testing.assert_allclose(force, [[0.0, 400.0]])


def test_one_pair_per_agent() -> None:
    agents = AgentGroup.create([[0.0, 0.0], [0.0, 0.0]], max_speed=100)
    debug: Debug = {}
    Interpose([[0.0, 0.0], [-50.0, 0.0]], [[0.0, 100.0], [50.0, 0.0]])(agents, DT, debug)
    # The first has a moved 0 and b 0 (no velocities): points (0, 50) and (0, 0)
    np.testing.assert_allclose(debug["interpose.point"], [[0.0, 50.0], [0.0, 0.0]])


def test_agent_without_max_speed_predicts_nothing() -> None:
    agents = AgentGroup.create([[0.0, 100.0]], max_speed=0.0)
    debug: Debug = {}
    force = Interpose((0.0, 0.0), (200.0, 0.0), (0.0, 50.0), (0.0, 50.0))(agents, DT, debug)
    np.testing.assert_allclose(debug["interpose.point"], [[100.0, 0.0]])
    assert np.isfinite(force).all()


def test_interposer_stays_between_two_agents_moving_in_parallel() -> None:
    # Given a and b 200 px apart, both moving at (40, 30) px/s, and an interposer off to the side
    a, b = np.array([0.0, 0.0]), np.array([0.0, 200.0])
    v = np.array([40.0, 30.0])
    agents = AgentGroup.create([[-150.0, -50.0]], max_speed=150, max_force=400)
    gaps = []
    # When it interposes for eight seconds
    for _ in range(60 * 8):
        integrate(agents, Interpose(a, b, v, v)(agents, DT), DT)
        a, b = a + v * DT, b + v * DT
        gaps.append(float(np.linalg.norm(agents.pos[0] - (a + b) / 2)))
    # Then it reaches their midpoint (213 px away) in three seconds and keeps within 3 px of it
    assert max(gaps[180:]) < 3.0
    assert gaps[-1] < 0.1


@settings(max_examples=60, deadline=None)
@given(
    pos=st.lists(st.tuples(st.floats(-500, 500), st.floats(-500, 500)), min_size=1, max_size=6),
    data=st.data(),
)
def test_forces_are_finite_and_within_max_force(
    pos: list[tuple[float, float]], data: st.DataObject
) -> None:
    # Given any agents (coincident, on a or b, a on b) and movers at rest or moving
    n = len(pos)
    if n > 1 and data.draw(st.booleans()):
        pos[1] = pos[0]
    point = st.sampled_from([pos[0], (0.0, 0.0), (300.0, -40.0), (1e6, 1e6)])
    velocity = st.sampled_from([(0.0, 0.0), (1e-12, 0.0), (90.0, -200.0)])
    agents = AgentGroup.create(
        pos,
        np.full((n, 2), data.draw(st.sampled_from([0.0, 80.0]))),
        max_speed=data.draw(st.sampled_from([0.0, 1.0, 150.0])),
        max_force=data.draw(st.sampled_from([0.0, 1.0, 400.0, 1e6])),
    )
    interpose = Interpose(
        data.draw(point),
        data.draw(point),
        data.draw(velocity),
        data.draw(velocity),
        ratio=data.draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0])),
        slowing_radius=data.draw(st.sampled_from([0.0, 50.0])),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            debug: Debug = {}
            force = interpose(agents, DT, debug)
            # Then every force is finite and within max force
            assert force.shape == (n, 2)
            assert np.isfinite(force).all()
            assert (length(force) <= agents.max_force + 1e-9).all()
            assert np.isfinite(debug["interpose.point"]).all()
            integrate(agents, force, DT)


def test_bad_movers_and_parameters_are_named() -> None:
    agents = AgentGroup.create([[0.0, 0.0]])
    # Given / When / Then a string mover, a NaN velocity or ratio, a negative slowing radius
    with pytest.raises(TypeError, match=r"Interpose\.a"):
        Interpose("player", (1.0, 0.0))(agents, DT)
    with pytest.raises(ValueError, match=r"Interpose\.b_velocity"):
        Interpose((0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (math.nan, 0.0))(agents, DT)
    with pytest.raises(ValueError, match=r"Interpose\.ratio"):
        Interpose((0.0, 0.0), (1.0, 0.0), ratio=math.nan)
    with pytest.raises(ValueError, match=r"Interpose\.slowing_radius"):
        Interpose((0.0, 0.0), (1.0, 0.0), slowing_radius=-5.0)
