"""Separation (seed 004, Nature of Code 6.11): the 1/d-weighted away sum, limits, crowds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from steering.agents import AgentGroup, integrate
from steering.base import Debug, desired_toward, steer_to_velocity
from steering.group import Separate
from steering.vec import FloatArray, truncate

DT = 1.0 / 60.0
UNLIMITED = 1e6


def _nearest_distances(pos: FloatArray) -> FloatArray:
    d, _ = cKDTree(pos).query(pos, k=2)
    return np.asarray(d[:, 1])


# -- the seed's worked geometry -------------------------------------------------------------------


def test_seed_sum_is_normalised_away_vectors_weighted_by_one_over_d_and_averaged() -> None:
    # Given the agent at the origin with neighbours at (10, 0) and (0, 20), separation 25
    agents = AgentGroup.create([(0, 0), (10, 0), (0, 20)], max_speed=120.0, max_force=UNLIMITED)
    debug: Debug = {}
    # When
    force = Separate(distance=25.0, gain=8.0)(agents, DT, debug)
    # Then the averaged sum is ((-1, 0)/10 + (0, -1)/20) / 2
    np.testing.assert_allclose(debug["separate.average"][0], [-0.05, -0.025])
    # and for the agent at (10, 0): ((1, 0)/10 + (10, -20)/sqrt(500)/sqrt(500)) / 2
    np.testing.assert_allclose(debug["separate.average"][1], [0.06, -0.02])
    # Desired = the sum set to max speed: 120 * (-2, -1)/sqrt(5) = (-107.3313, -53.6656);
    # steer = (desired - 0) * gain 8 = (-858.6501, -429.3250), not limited here.
    np.testing.assert_allclose(force[0], [-858.6501, -429.3250], atol=1e-3)
    np.testing.assert_array_equal(debug["separate.count"], [2, 2, 2])


def test_steer_subtracts_velocity_and_is_limited_to_max_force() -> None:
    # Given the same geometry, the agent moving at (30, 0) and max force 360
    agents = AgentGroup.create(
        [(0, 0), (10, 0), (0, 20)], [(30, 0), (0, 0), (0, 0)], max_speed=120.0, max_force=360.0
    )
    # When
    force = Separate(distance=25.0, gain=8.0)(agents, DT)
    # Then steer = ((-107.3313, -53.6656) - (30, 0)) * 8 = (-1098.6501, -429.3250),
    # length 1179.5559, limited to 360: (-335.3076, -131.0298)
    np.testing.assert_allclose(force[0], [-335.3076, -131.0298], atol=1e-3)
    assert math.isclose(float(np.hypot(*force[0])), 360.0)


def test_an_agent_does_not_separate_from_itself() -> None:
    # Given a single agent, and two agents far apart
    one = AgentGroup.create([(3, 4)], [(10, 0)])
    two = AgentGroup.create([(0, 0), (100, 0)], [(10, 0), (0, 10)])
    debug: Debug = {}
    # When / Then: no neighbour, zero force (not braking)
    np.testing.assert_array_equal(Separate(24.0)(one, DT, debug), [[0.0, 0.0]])
    np.testing.assert_array_equal(debug["separate.count"], [0])
    np.testing.assert_array_equal(Separate(24.0)(two, DT), np.zeros((2, 2)))


def test_neighbours_at_or_beyond_the_separation_are_ignored() -> None:
    # Given neighbours at exactly 25 px and beyond it (the seed tests d < desiredseparation)
    agents = AgentGroup.create([(0, 0), (25, 0), (0, -30), (-20, 20)], max_force=UNLIMITED)
    debug: Debug = {}
    # When
    force = Separate(distance=25.0)(agents, DT, debug)
    # Then the agent at the origin is not pushed by any of them
    np.testing.assert_array_equal(force[0], [0.0, 0.0])
    assert debug["separate.count"][0] == 0
    # And adding far agents to the worked example leaves its force unchanged
    near = AgentGroup.create([(0, 0), (10, 0), (0, 20)], max_force=UNLIMITED)
    far = AgentGroup.create([(0, 0), (10, 0), (0, 20), (40, 0), (0, -26)], max_force=UNLIMITED)
    np.testing.assert_allclose(Separate(25.0)(far, DT)[0], Separate(25.0)(near, DT)[0])


def test_debug_pairs_are_the_pairs_that_pushed() -> None:
    # Given the worked example plus an agent out of everyone's reach
    agents = AgentGroup.create([(0, 0), (10, 0), (0, 20), (100, 100)])
    debug: Debug = {}
    # When
    Separate(25.0)(agents, DT, debug)
    # Then
    pairs = {tuple(int(k) for k in row) for row in debug["separate.pairs"]}
    assert pairs == {(0, 1), (0, 2), (1, 2)}
    np.testing.assert_array_equal(debug["separate.count"], [2, 2, 2, 0])
    np.testing.assert_array_equal(debug["separate.distance"], [25.0] * 4)


def test_boxed_in_symmetrically_the_agent_brakes_as_in_the_seed() -> None:
    # Given neighbours at (-10, 0) and (10, 0): the away vectors cancel, desired = 0
    agents = AgentGroup.create([(0, 0), (-10, 0), (10, 0)], [(20, 0), (0, 0), (0, 0)])
    # When
    force = Separate(24.0, gain=8.0)(agents, DT)
    # Then steer = (0 - (20, 0)) * 8
    np.testing.assert_allclose(force[0], [-160.0, 0.0])


# -- coincident agents -----------------------------------------------------------------------------


def test_two_coincident_agents_get_finite_opposite_pushes() -> None:
    # Given two agents at the same point, standing still
    agents = AgentGroup.create([(5, 5), (5, 5)], max_speed=120.0, max_force=360.0)
    # When
    force = Separate(24.0)(agents, DT)
    # Then the forces are finite, full strength and opposite
    assert np.isfinite(force).all()
    np.testing.assert_allclose(np.hypot(force[:, 0], force[:, 1]), [360.0, 360.0])
    np.testing.assert_allclose(force[0], -force[1])
    # And one second later they are further apart than the separation
    for _ in range(60):
        integrate(agents, Separate(24.0)(agents, DT), DT)
    assert np.hypot(*(agents.pos[0] - agents.pos[1])) >= 24.0


def test_a_stack_of_coincident_agents_comes_apart_deterministically() -> None:
    # Given ten agents on one point
    def stack() -> AgentGroup:
        return AgentGroup.create(np.zeros((10, 2)), max_speed=120.0, max_force=360.0)

    agents = stack()
    # When
    first = Separate(24.0)(agents, DT)
    # Then every force is finite and non-zero, no two alike, and the same on every run
    assert np.isfinite(first).all()
    assert (np.hypot(first[:, 0], first[:, 1]) > 1.0).all()
    assert len({(round(x, 6), round(y, 6)) for x, y in first}) == 10
    np.testing.assert_array_equal(first, Separate(24.0)(stack(), DT))
    # And with some braking they settle at the separation
    for _ in range(240):
        integrate(agents, truncate(Separate(24.0)(agents, DT) - 4.0 * agents.vel, 360.0), DT)
    assert _nearest_distances(agents.pos).min() >= 0.9 * 24.0


# -- per-agent separation ----------------------------------------------------------------------


def test_per_agent_distance_counts_a_pair_for_i_when_closer_than_its_own_separation() -> None:
    # Given an enemy (40 px) and an NPC (24 px) 30 px apart
    agents = AgentGroup.create([(0, 0), (30, 0)], max_force=UNLIMITED)
    agents.state["separation"] = np.array([40.0, 24.0])
    debug: Debug = {}
    # When
    force = Separate(24.0, per_agent=True)(agents, DT, debug)
    # Then only the enemy keeps away: desired (-120, 0), steer * 8
    np.testing.assert_allclose(force, [[-960.0, 0.0], [0.0, 0.0]])
    np.testing.assert_array_equal(debug["separate.count"], [1, 0])
    np.testing.assert_array_equal(debug["separate.pairs"], [[0, 1]])
    np.testing.assert_array_equal(debug["separate.distance"], [40.0, 24.0])


def test_per_agent_column_is_created_with_the_shared_distance() -> None:
    # Given a group without a separation column
    agents = AgentGroup.create([(0, 0), (10, 0), (50, 0)])
    # When
    Separate(30.0, per_agent=True, column="spacing")(agents, DT)
    # Then
    np.testing.assert_array_equal(agents.state["spacing"], [30.0, 30.0, 30.0])


def test_bad_per_agent_values_mean_no_neighbours() -> None:
    # Given NaN, negative and zero separations
    agents = AgentGroup.create([(0, 0), (1, 0), (2, 0)])
    agents.state["separation"] = np.array([np.nan, -5.0, 0.0])
    # When / Then
    np.testing.assert_array_equal(Separate(per_agent=True)(agents, DT), np.zeros((3, 2)))


def test_invalid_distance_is_rejected() -> None:
    with pytest.raises(ValueError):
        Separate(distance=-1.0)
    with pytest.raises(ValueError):
        Separate(distance=math.inf)


# -- behaviour over time ------------------------------------------------------------------------


def _packed_crowd(seed: int) -> AgentGroup:
    rng = np.random.default_rng(seed)
    return AgentGroup.create(rng.uniform(0, 20, (50, 2)), max_speed=120.0, max_force=360.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_packed_crowd_spreads_to_the_desired_separation(seed: int) -> None:
    # Given 50 agents in a 20 px square, separation 24
    agents = _packed_crowd(seed)
    separate = Separate(24.0)
    assert np.mean(_nearest_distances(agents.pos) >= 0.9 * 24.0) < 0.05
    # When the seed's pure separation runs for 3 s
    for _ in range(180):
        integrate(agents, separate(agents, DT), DT)
    # Then nearly every nearest-neighbour distance reaches the separation
    assert np.mean(_nearest_distances(agents.pos) >= 0.9 * 24.0) >= 0.95


def test_with_braking_the_crowd_settles_at_the_separation_not_beyond() -> None:
    # Given the packed crowd and separation plus a drag that brings agents to rest
    agents = _packed_crowd(3)
    separate = Separate(24.0)
    # When
    for _ in range(240):
        integrate(agents, truncate(separate(agents, DT) - 4.0 * agents.vel, 360.0), DT)
    # Then everyone keeps the separation, packed close to it, and the crowd is at rest
    nearest = _nearest_distances(agents.pos)
    assert nearest.min() >= 0.9 * 24.0
    assert np.median(nearest) <= 1.25 * 24.0
    assert np.hypot(agents.vel[:, 0], agents.vel[:, 1]).max() < 20.0


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
    if draw(st.booleans()):
        vel = np.zeros((n, 2))
    else:
        vel = np.array(
            draw(
                st.lists(
                    st.tuples(st.floats(-500, 500), st.floats(-500, 500)), min_size=n, max_size=n
                )
            )
        )
    max_speed = draw(st.lists(st.floats(0, 1000), min_size=n, max_size=n))
    max_force = draw(st.lists(st.floats(0, 5000), min_size=n, max_size=n))
    agents = AgentGroup.create(pos, vel, max_speed=max_speed, max_force=max_force)
    agents.state["separation"] = np.array(
        draw(st.lists(st.sampled_from([0.0, 1e-7, 1.0, 24.0, 40.0, 1e4]), min_size=n, max_size=n))
    )
    return agents


@settings(max_examples=150, deadline=None)
@given(
    agents=crowds(),
    distance=st.sampled_from([0.0, 1e-7, 1.0, 24.0, 1e4]),
    per_agent=st.booleans(),
)
@pytest.mark.slow
def test_forces_are_finite_and_within_max_force(
    agents: AgentGroup, distance: float, per_agent: bool
) -> None:
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        force = Separate(distance, per_agent=per_agent)(agents, DT)
    assert force.shape == (agents.n, 2)
    assert np.isfinite(force).all()
    assert (np.hypot(force[:, 0], force[:, 1]) <= agents.max_force * (1 + 1e-12) + 1e-9).all()


@settings(max_examples=60, deadline=None)
@given(agents=crowds())
def test_force_equals_the_seed_steer_of_the_debug_sum(agents: AgentGroup) -> None:
    # The vectorised tail agrees with base.steer_to_velocity on the averaged sum.
    debug: Debug = {}
    force = Separate(24.0)(agents, DT, debug)
    average = np.asarray(debug["separate.average"], dtype=np.float64)
    count = np.asarray(debug["separate.count"], dtype=np.intp)
    expected = steer_to_velocity(agents, desired_toward(agents, average))
    expected = np.where(count[:, None] > 0, expected, 0.0)
    # Sums that (almost) cancel sit on the zero threshold, which the module applies to its
    # internally scaled sum: compare the other rows.
    clear = (count == 0) | (np.hypot(average[:, 0], average[:, 1]) > 1e-6)
    np.testing.assert_allclose(force[clear], expected[clear], rtol=1e-9, atol=1e-6)


# -- field of view -------------------------------------------------------------------------------


def _ahead_and_behind() -> AgentGroup:
    """Agent 0 at the origin heading +x, a neighbour 10 px behind it; both move along +x."""
    return AgentGroup.create([(0, 0), (-10, 0)], [(30, 0), (30, 0)], max_force=UNLIMITED)


def test_a_neighbour_directly_behind_is_ignored_with_fov_180_and_counted_with_360() -> None:
    # Given agent 0 heading +x with a neighbour 10 px straight behind it
    agents = _ahead_and_behind()
    seen: Debug = {}
    all_round: Debug = {}
    # When
    force_180 = Separate(24.0, fov=180.0)(agents, DT, seen)
    force_360 = Separate(24.0, fov=360.0)(agents, DT, all_round)
    # Then with 180 degrees agent 0 does not see it: zero force; agent 1 sees agent 0 ahead
    # and brakes away from it: desired (-120, 0), steer ((-120, 0) - (30, 0)) * 8
    np.testing.assert_array_equal(seen["separate.count"], [0, 1])
    np.testing.assert_array_equal(force_180, [[0.0, 0.0], [-1200.0, 0.0]])
    # And all round both count, agent 0 is pushed ahead: ((120, 0) - (30, 0)) * 8
    np.testing.assert_array_equal(all_round["separate.count"], [1, 1])
    np.testing.assert_allclose(force_360, [[720.0, 0.0], [-1200.0, 0.0]])


def test_fov_counts_a_neighbour_at_exactly_half_the_angle() -> None:
    # Given agent 0 heading +y, neighbours exactly abeam (90 deg) and 135 deg off
    agents = AgentGroup.create([(0, 0), (10, 0), (-7, -7)], [(0, 5), (0, 0), (0, 0)])
    debug: Debug = {}
    # When / Then 180 sees the one abeam, not the one behind; 280 sees both
    Separate(24.0, fov=180.0)(agents, DT, debug)
    assert debug["separate.count"][0] == 1
    Separate(24.0, fov=280.0)(agents, DT, debug)
    assert debug["separate.count"][0] == 2
    Separate(24.0, fov=90.0)(agents, DT, debug)
    assert debug["separate.count"][0] == 0


def test_fov_applies_to_the_few_with_a_larger_per_agent_separation() -> None:
    # Given an enemy (40 px) heading +x among 20 NPCs (24 px), one NPC 30 px behind it
    pos = [(0.0, 0.0), (-30.0, 0.0)] + [(1000.0 + 100.0 * k, 0.0) for k in range(19)]
    agents = AgentGroup.create(pos, [(10.0, 0.0)] * 21)
    agents.state["separation"] = np.array([40.0] + [24.0] * 20)
    debug: Debug = {}
    # When / Then the enemy ignores the NPC behind it with fov 180 and keeps away all round
    Separate(24.0, per_agent=True, fov=180.0)(agents, DT, debug)
    assert debug["separate.count"][0] == 0
    Separate(24.0, per_agent=True)(agents, DT, debug)
    assert debug["separate.count"][0] == 1


def test_coincident_agents_see_each_other_whatever_the_fov() -> None:
    agents = AgentGroup.create([(5, 5), (5, 5)], [(1, 0), (1, 0)])
    debug: Debug = {}
    Separate(24.0, fov=10.0)(agents, DT, debug)
    np.testing.assert_array_equal(debug["separate.count"], [1, 1])


@pytest.mark.parametrize("fov", [0.0, -90.0, 360.5, math.nan, math.inf])
def test_invalid_fov_is_rejected(fov: float) -> None:
    with pytest.raises(ValueError, match=r"fov must be in \(0, 360\]"):
        Separate(fov=fov)


@settings(max_examples=60, deadline=None)
@given(agents=crowds(), per_agent=st.booleans())
def test_fov_360_gives_bit_identical_forces_to_the_default(
    agents: AgentGroup, per_agent: bool
) -> None:
    default: Debug = {}
    all_round: Debug = {}
    force = Separate(24.0, per_agent=per_agent)(agents, DT, default)
    np.testing.assert_array_equal(
        Separate(24.0, per_agent=per_agent, fov=360.0)(agents, DT, all_round), force
    )
    for key, value in default.items():
        np.testing.assert_array_equal(all_round[key], value)


@settings(max_examples=60, deadline=None)
@given(
    agents=crowds(),
    distance=st.sampled_from([1e-7, 24.0, 1e4]),
    per_agent=st.booleans(),
    fov=st.sampled_from([1.0, 90.0, 180.0, 270.0, 359.9]),
)
def test_forces_with_a_fov_are_finite_and_within_max_force(
    agents: AgentGroup, distance: float, per_agent: bool, fov: float
) -> None:
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        force = Separate(distance, per_agent=per_agent, fov=fov)(agents, DT)
    assert np.isfinite(force).all()
    assert (np.hypot(force[:, 0], force[:, 1]) <= agents.max_force * (1 + 1e-12) + 1e-9).all()
