"""Alignment and cohesion: hand-computed forces, the shared neighbour query, group motion."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering.agents import AgentGroup, integrate
from steering.base import Debug
from steering.group import Align, Cohere, Separate
from steering.vec import FloatArray

DT = 1.0 / 60.0
UNLIMITED = 1e6
INV_SQRT2 = 1.0 / np.sqrt(2.0)
INV_SQRT5 = 1.0 / np.sqrt(5.0)


def _flock() -> AgentGroup:
    """Agent 0 at the origin with two neighbours and one far agent."""
    return AgentGroup.create(
        [(0, 0), (10, 0), (0, 10), (200, 0)],
        [(-30, 0), (100, 0), (0, 100), (0, -100)],
        max_speed=120.0,
        max_force=UNLIMITED,
    )


# -- alignment -----------------------------------------------------------------------------------


def test_align_steers_towards_the_neighbours_mean_velocity_at_max_speed() -> None:
    # Given neighbours moving (100, 0) and (0, 100) within 50 px of agent 0
    agents = _flock()
    debug: Debug = {}
    # When
    force = Align(distance=50.0, gain=8.0)(agents, DT, debug)
    # Then mean = (50, 50), desired = 120 * (1, 1)/sqrt(2) = (84.8528, 84.8528),
    # steer = (desired - (-30, 0)) * 8 = (918.8225, 678.8225)
    np.testing.assert_allclose(debug["align.velocity"][0], [50.0, 50.0])
    np.testing.assert_allclose(force[0], [(120 * INV_SQRT2 + 30) * 8, 120 * INV_SQRT2 * 8])
    np.testing.assert_allclose(force[0], [918.8225, 678.8225], atol=1e-3)
    # And the far agent has no neighbour: zero force
    np.testing.assert_array_equal(debug["align.count"], [2, 2, 2, 0])
    np.testing.assert_array_equal(force[3], [0.0, 0.0])


def test_align_with_match_speed_desires_the_mean_velocity_itself() -> None:
    # Given the same flock
    agents = _flock()
    # When
    force = Align(distance=50.0, gain=8.0, match_speed=True)(agents, DT)
    # Then desired = (50, 50): steer = ((50, 50) - (-30, 0)) * 8
    np.testing.assert_allclose(force[0], [640.0, 400.0])


def test_align_with_stopped_neighbours_brakes() -> None:
    # Given neighbours standing still: their mean velocity is zero
    agents = AgentGroup.create([(0, 0), (5, 0)], [(40, 0), (0, 0)], max_force=UNLIMITED)
    # When
    force = Align(20.0, gain=8.0)(agents, DT)
    # Then agent 0 desires zero velocity; agent 1's neighbour moves along +x at 40 -> 120
    np.testing.assert_allclose(force, [[-320.0, 0.0], [960.0, 0.0]])


def test_align_turns_a_group_to_a_common_heading() -> None:
    # Given 20 agents in a 40 px cluster heading in random directions
    rng = np.random.default_rng(7)
    angle = rng.uniform(0.0, 2.0 * np.pi, 20)
    agents = AgentGroup.create(
        rng.uniform(0.0, 40.0, (20, 2)),
        120.0 * np.column_stack((np.cos(angle), np.sin(angle))),
        max_speed=120.0,
        max_force=360.0,
    )
    assert np.hypot(*agents.heading.mean(axis=0)) < 0.5
    # When they align for 2 s
    align = Align(200.0)
    for _ in range(120):
        integrate(agents, align(agents, DT), DT)
    # Then every heading is within a few degrees of the mean
    mean = agents.heading.mean(axis=0)
    assert np.hypot(*mean) > 0.999
    cos = agents.heading @ (mean / np.hypot(*mean))
    assert cos.min() > np.cos(np.radians(3.0))


# -- cohesion ------------------------------------------------------------------------------------


def test_cohere_seeks_the_neighbours_centre_of_mass() -> None:
    # Given the agent at the origin with neighbours at (10, 0) and (0, 20), one far agent
    agents = AgentGroup.create(
        [(0, 0), (10, 0), (0, 20), (300, 300)], max_speed=120.0, max_force=UNLIMITED
    )
    debug: Debug = {}
    # When
    force = Cohere(distance=50.0, gain=8.0)(agents, DT, debug)
    # Then centre = (5, 10), desired = 120 * (1, 2)/sqrt(5) = (53.6656, 107.3313), steer * 8
    np.testing.assert_allclose(debug["cohere.center"][0], [5.0, 10.0])
    np.testing.assert_allclose(force[0], [120 * INV_SQRT5 * 8, 240 * INV_SQRT5 * 8])
    np.testing.assert_allclose(force[0], [429.3251, 858.6501], atol=1e-3)
    # And the far agent has no neighbour: zero force, its own position as centre
    np.testing.assert_array_equal(debug["cohere.count"], [2, 2, 2, 0])
    np.testing.assert_array_equal(force[3], [0.0, 0.0])
    np.testing.assert_array_equal(debug["cohere.center"][3], [300.0, 300.0])


def test_cohere_per_agent_radius() -> None:
    # Given agents 30 px apart, radii 40 and 20
    agents = AgentGroup.create([(0, 0), (0, 30)], max_speed=100.0, max_force=UNLIMITED)
    agents.state["cohesion"] = np.array([40.0, 20.0])
    debug: Debug = {}
    # When
    force = Cohere(per_agent=True, gain=8.0)(agents, DT, debug)
    # Then only agent 0 sees the other and heads up at max speed
    np.testing.assert_allclose(force, [[0.0, 800.0], [0.0, 0.0]])
    np.testing.assert_array_equal(debug["cohere.count"], [1, 0])


def _rms_radius(pos: FloatArray) -> float:
    return float(np.sqrt(((pos - pos.mean(axis=0)) ** 2).sum(axis=1).mean()))


def test_cohere_pulls_a_spread_group_together() -> None:
    # Given 20 agents at rest spread over a 200 px square
    rng = np.random.default_rng(3)
    agents = AgentGroup.create(rng.uniform(0.0, 200.0, (20, 2)), max_speed=120.0, max_force=360.0)
    start = _rms_radius(agents.pos)
    centre = agents.pos.mean(axis=0)
    # When they cohere for 3 s
    cohere = Cohere(400.0)
    for _ in range(180):
        integrate(agents, cohere(agents, DT), DT)
    # Then the group is much tighter and has not wandered off
    assert _rms_radius(agents.pos) < 0.2 * start
    assert np.hypot(*(agents.pos.mean(axis=0) - centre)) < 10.0


# -- the shared neighbour query -----------------------------------------------------------------


def test_separate_align_cohere_share_one_neighbour_grid() -> None:
    # Given a group (large enough to use a grid) and the three behaviours at one distance
    rng = np.random.default_rng(1)
    agents = AgentGroup.create(rng.uniform(0.0, 400.0, (400, 2)), rng.normal(0.0, 30.0, (400, 2)))
    # When all three run in one step
    grid = agents.neighbour_grid(30.0)
    for behaviour in (Separate(30.0), Align(30.0), Cohere(30.0)):
        behaviour(agents, DT)
    # Then they used one grid, built once and not rebuilt
    assert agents.neighbour_grid(30.0) is grid
    assert agents._grids.builds == 1
    # And after a step it is rebuilt for the new positions
    integrate(agents, Separate(30.0)(agents, DT), DT)
    assert agents.neighbour_grid(30.0) is not grid


# -- properties ----------------------------------------------------------------------------------


@st.composite
def crowds(draw: st.DrawFn) -> AgentGroup:
    """Random groups: duplicate points, zero velocities, tiny and huge coordinates."""
    n = draw(st.integers(1, 24))
    scale = draw(st.sampled_from([1e-300, 1e-9, 1.0, 30.0, 1e6, 1e12]))
    offset = draw(st.sampled_from([0.0, 1e12, -1e9]))
    pool = draw(st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=1, max_size=n))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    pos = np.array([pool[k] for k in picks]) * scale + offset
    speeds = st.floats(-500, 500)
    vel = (
        np.zeros((n, 2))
        if draw(st.booleans())
        else np.array(draw(st.lists(st.tuples(speeds, speeds), min_size=n, max_size=n)))
    )
    max_speed = draw(st.lists(st.floats(0, 1000), min_size=n, max_size=n))
    max_force = draw(st.lists(st.floats(0, 5000), min_size=n, max_size=n))
    return AgentGroup.create(pos, vel, max_speed=max_speed, max_force=max_force)


@settings(max_examples=100, deadline=None)
@given(
    agents=crowds(),
    distance=st.sampled_from([0.0, 1e-7, 1.0, 50.0, 1e4]),
    match_speed=st.booleans(),
)
def test_align_and_cohere_forces_are_finite_and_within_max_force(
    agents: AgentGroup, distance: float, match_speed: bool
) -> None:
    limit = agents.max_force * (1 + 1e-12) + 1e-9
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        forces = [
            Align(distance, match_speed=match_speed)(agents, DT),
            Cohere(distance)(agents, DT),
        ]
    for force in forces:
        assert force.shape == (agents.n, 2)
        assert np.isfinite(force).all()
        assert (np.hypot(force[:, 0], force[:, 1]) <= limit).all()


# -- field of view -------------------------------------------------------------------------------


def test_align_and_cohere_ignore_a_neighbour_directly_behind_with_fov_180() -> None:
    # Given agent 0 heading +x with one neighbour 10 px straight behind it, moving up and
    # back along (-0.6, 0.8) so that agent 0 is behind it too (127 degrees off its heading)
    agents = AgentGroup.create(
        [(0, 0), (-10, 0)], [(60, 0), (-30, 40)], max_speed=120.0, max_force=UNLIMITED
    )
    # When / Then with 180 degrees neither has a neighbour
    for behaviour in (Align(50.0, fov=180.0), Cohere(50.0, fov=180.0)):
        debug: Debug = {}
        np.testing.assert_array_equal(behaviour(agents, DT, debug), np.zeros((2, 2)))
        assert sum(int(v[0]) for k, v in debug.items() if k.endswith(".count")) == 0
    # And all round agent 0 aligns with it, desired (-72, 96): ((-72, 96) - (60, 0)) * 8
    np.testing.assert_allclose(Align(50.0, fov=360.0)(agents, DT)[0], [-1056.0, 768.0])
    # and coheres toward it, desired (-120, 0): ((-120, 0) - (60, 0)) * 8
    np.testing.assert_allclose(Cohere(50.0, fov=360.0)(agents, DT)[0], [-1440.0, 0.0])


def test_align_and_cohere_count_a_neighbour_ahead_with_fov_180() -> None:
    # Given agent 1 heading +x with agent 0 10 px ahead of it
    agents = AgentGroup.create([(0, 0), (-10, 0)], [(0, 60), (60, 0)], max_force=UNLIMITED)
    debug: Debug = {}
    # When / Then agent 1 sees agent 0; agent 0 (heading +y) does not see agent 1 abeam-behind
    Align(50.0, fov=180.0)(agents, DT, debug)
    Cohere(50.0, fov=180.0)(agents, DT, debug)
    np.testing.assert_array_equal(debug["align.count"], [1, 1])  # exactly abeam counts
    np.testing.assert_array_equal(debug["cohere.count"], [1, 1])
    Align(50.0, fov=120.0)(agents, DT, debug)
    np.testing.assert_array_equal(debug["align.count"], [0, 1])


def test_align_and_cohere_reject_an_invalid_fov() -> None:
    for fov in (0.0, 400.0, float("nan")):
        with pytest.raises(ValueError, match="fov"):
            Align(fov=fov)
        with pytest.raises(ValueError, match="fov"):
            Cohere(fov=fov)


@settings(max_examples=60, deadline=None)
@given(agents=crowds(), distance=st.sampled_from([1.0, 50.0, 1e4]), match_speed=st.booleans())
def test_align_and_cohere_with_fov_360_are_bit_identical_to_the_default(
    agents: AgentGroup, distance: float, match_speed: bool
) -> None:
    np.testing.assert_array_equal(
        Align(distance, match_speed=match_speed, fov=360.0)(agents, DT),
        Align(distance, match_speed=match_speed)(agents, DT),
    )
    np.testing.assert_array_equal(
        Cohere(distance, fov=360.0)(agents, DT), Cohere(distance)(agents, DT)
    )


@settings(max_examples=100, deadline=None)
@given(
    agents=crowds(),
    distance=st.sampled_from([0.0, 1e-7, 1.0, 50.0, 1e4]),
    match_speed=st.booleans(),
    fov=st.sampled_from([1.0, 90.0, 180.0, 270.0, 359.9]),
)
def test_align_and_cohere_with_a_fov_are_finite_and_within_max_force(
    agents: AgentGroup, distance: float, match_speed: bool, fov: float
) -> None:
    limit = agents.max_force * (1 + 1e-12) + 1e-9
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        forces = [
            Align(distance, match_speed=match_speed, fov=fov)(agents, DT),
            Cohere(distance, fov=fov)(agents, DT),
        ]
    for force in forces:
        assert np.isfinite(force).all()
        assert (np.hypot(force[:, 0], force[:, 1]) <= limit).all()
