"""Orientation apart from velocity: the turn-rate limit, Face and LookWhereYouAreGoing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering import (
    Behaviour,
    Face,
    Flock,
    LookWhereYouAreGoing,
    Masked,
    Seek,
    Weighted,
    WeightedSum,
    step,
)
from steering.agents import AgentGroup, integrate
from steering.base import Debug
from steering.vec import FloatArray, safe_normalize

DT = 1.0 / 60.0


def _angles(heading: FloatArray) -> FloatArray:
    return np.degrees(np.arctan2(heading[:, 1], heading[:, 0]))


def _turned(a: FloatArray, b: FloatArray) -> FloatArray:
    """(N,) unsigned angle in radians between the unit rows of ``a`` and ``b``."""
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    dot = a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1]
    return np.abs(np.arctan2(cross, dot))


def _unit_angle(deg: float) -> tuple[float, float]:
    return (math.cos(math.radians(deg)), math.sin(math.radians(deg)))


# -- the group's turn step ---------------------------------------------------------------------


def test_default_turn_rate_is_unlimited_and_create_sets_it() -> None:
    # Given / When
    default = AgentGroup.create([(0, 0), (1, 1)])
    limited = AgentGroup.create([(0, 0), (1, 1)], max_turn_rate=[2.0, math.inf])
    # Then
    np.testing.assert_array_equal(default.max_turn_rate, [math.inf, math.inf])
    np.testing.assert_array_equal(limited.max_turn_rate, [2.0, math.inf])


@pytest.mark.parametrize("bad", [-1.0, math.nan, [1.0, 2.0, 3.0]])
def test_bad_turn_rates_are_rejected(bad: object) -> None:
    with pytest.raises(ValueError, match="max_turn_rate"):
        AgentGroup.create([(0, 0), (1, 1)], max_turn_rate=bad)  # type: ignore[arg-type]


def test_take_and_with_limits_carry_the_turn_rate() -> None:
    # Given three agents with their own rates
    agents = AgentGroup.create(np.zeros((3, 2)), max_turn_rate=[1.0, 2.0, 3.0])
    # When / Then a sub-group copies its rows'
    np.testing.assert_array_equal(agents.take(np.array([2, 0])).max_turn_rate, [3.0, 1.0])
    np.testing.assert_array_equal(
        agents.take(np.array([False, True, True])).max_turn_rate, [2.0, 3.0]
    )
    # And a limits view shares them, or replaces them when asked
    assert agents.with_limits(max_speed=10.0).max_turn_rate is agents.max_turn_rate
    np.testing.assert_array_equal(agents.with_limits(max_turn_rate=0.5).max_turn_rate, [0.5] * 3)


def test_turn_toward_turns_at_most_rate_times_dt_the_short_way() -> None:
    # Given agents facing +x, allowed 1 rad/s
    agents = AgentGroup.create(np.zeros((3, 2)), max_turn_rate=1.0)
    desired = np.array([(0.0, 1.0), (0.0, -1.0), _unit_angle(10.0)])
    # When half a second passes
    agents.turn_toward(desired, 0.5)
    # Then the first turns 0.5 rad counter-clockwise, the second 0.5 rad clockwise, and the
    # third, 10 degrees away (0.1745 rad, within reach), lands on its desired heading exactly
    np.testing.assert_allclose(agents.heading[0], [math.cos(0.5), math.sin(0.5)])
    np.testing.assert_allclose(agents.heading[1], [math.cos(0.5), -math.sin(0.5)])
    np.testing.assert_array_equal(agents.heading[2], desired[2])


def test_turn_toward_with_an_infinite_rate_snaps_exactly() -> None:
    # Given random headings and desired directions of any length
    rng = np.random.default_rng(4)
    agents = AgentGroup.create(np.zeros((50, 2)), rng.normal(0, 50, (50, 2)))
    desired = rng.normal(0, 3, (50, 2))
    # When
    agents.turn_toward(desired, DT)
    # Then the heading is the desired direction itself
    np.testing.assert_array_equal(agents.heading, safe_normalize(desired))


def test_zero_or_non_finite_desired_heading_keeps_the_heading() -> None:
    # Given agents with headings of their own, one not even unit length
    agents = AgentGroup.create(np.zeros((4, 2)), max_turn_rate=[1.0, math.inf, 1.0, math.inf])
    agents.heading[:] = [(0.0, 1.0), (-1.0, 0.0), (0.6, 0.8), (3.0, 4.0)]
    before = agents.heading.copy()
    # When the desired headings have no direction
    agents.turn_toward(np.array([(0.0, 0.0), (0.0, 0.0), (math.nan, 1.0), (math.inf, 0.0)]), DT)
    # Then nothing turns, bit for bit
    np.testing.assert_array_equal(agents.heading, before)


def test_turn_toward_is_in_place_so_views_of_the_rows_see_it() -> None:
    # Given a group and a view of its last rows (as the world's crowd is)
    agents = AgentGroup.create(np.zeros((3, 2)))
    view = AgentGroup(
        pos=agents.pos[1:],
        vel=agents.vel[1:],
        max_speed=agents.max_speed[1:],
        max_force=agents.max_force[1:],
        radius=agents.radius[1:],
        mass=agents.mass[1:],
        heading=agents.heading[1:],
        max_turn_rate=agents.max_turn_rate[1:],
    )
    # When the view turns
    view.turn_toward(np.array([(0.0, 1.0), (-1.0, 0.0)]), DT)
    # Then the group's rows turned
    np.testing.assert_array_equal(agents.heading, [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)])


@pytest.mark.parametrize("dt", [-0.1, math.nan, math.inf])
def test_turn_toward_rejects_a_bad_dt(dt: float) -> None:
    agents = AgentGroup.create(np.zeros((1, 2)))
    with pytest.raises(ValueError, match="dt"):
        agents.turn_toward(np.array([(0.0, 1.0)]), dt)


def test_turn_toward_with_dt_zero_snaps_only_unlimited_agents() -> None:
    agents = AgentGroup.create(np.zeros((2, 2)), max_turn_rate=[1.0, math.inf])
    agents.turn_toward(np.array([(0.0, 1.0), (0.0, 1.0)]), 0.0)
    np.testing.assert_array_equal(agents.heading, [(1.0, 0.0), (0.0, 1.0)])


@st.composite
def turning_groups(draw: st.DrawFn) -> tuple[AgentGroup, list[FloatArray], float]:
    """A group with random rates (some 0, some inf) and a sequence of desired headings."""
    n = draw(st.integers(1, 12))
    rates = draw(
        st.lists(
            st.one_of(st.floats(0.0, 50.0), st.sampled_from([0.0, math.inf])),
            min_size=n,
            max_size=n,
        )
    )
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    agents = AgentGroup.create(np.zeros((n, 2)), rng.normal(0, 1, (n, 2)), max_turn_rate=rates)
    steps = draw(st.integers(1, 40))
    scale = draw(st.sampled_from([1e-300, 1e-6, 1.0, 1e6, 1e300]))
    seq = []
    for _ in range(steps):
        d = rng.normal(0, 1, (n, 2)) * scale
        d[rng.random(n) < 0.2] = 0.0  # some agents keep their heading this step
        seq.append(d)
    dt = draw(st.sampled_from([0.0, 1e-3, DT, 0.1, 1.0]))
    return agents, seq, dt


@settings(max_examples=150, deadline=None)
@given(case=turning_groups())
def test_the_heading_never_turns_faster_than_max_turn_rate(
    case: tuple[AgentGroup, list[FloatArray], float],
) -> None:
    agents, seq, dt = case
    for desired in seq:
        before = agents.heading.copy()
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            agents.turn_toward(desired, dt)
        # Then each heading stays a finite unit vector and turned at most rate * dt
        assert np.isfinite(agents.heading).all()
        np.testing.assert_allclose(np.hypot(*agents.heading.T), 1.0, rtol=1e-12)
        limit = np.minimum(agents.max_turn_rate * dt if dt else 0.0, math.pi)
        limit = np.where(np.isinf(agents.max_turn_rate), math.pi, limit)
        assert (_turned(before, agents.heading) <= limit + 1e-9).all()


# -- update_heading and integrate ------------------------------------------------------------


def test_update_heading_with_infinite_rates_is_unchanged() -> None:
    # Given moving and stopped agents with arbitrary headings
    rng = np.random.default_rng(9)
    vel = rng.normal(0, 40, (30, 2))
    vel[::4] = 0.0
    agents = AgentGroup.create(np.zeros((30, 2)), vel)
    agents.heading[:] = safe_normalize(rng.normal(0, 1, (30, 2)))
    old = agents.heading.copy()
    # When
    agents.update_heading()
    # Then moving agents face their velocity exactly and stopped ones keep their heading
    moving = np.hypot(*vel.T) > 1e-6
    np.testing.assert_array_equal(agents.heading[moving], safe_normalize(vel)[moving])
    np.testing.assert_array_equal(agents.heading[~moving], old[~moving])


def test_update_heading_with_finite_rates_turns_toward_the_velocity_by_the_rate() -> None:
    # Given an agent facing +x moving along +y, allowed 90 deg/s
    agents = AgentGroup.create([(0, 0)], [(0, 50)], max_turn_rate=math.pi / 2)
    agents.heading[:] = [(1.0, 0.0)]
    # When a third of a second passes
    agents.update_heading(1.0 / 3.0)
    # Then it has turned 30 degrees
    np.testing.assert_allclose(_angles(agents.heading), [30.0])
    # And without a dt a finite rate cannot be honoured
    with pytest.raises(ValueError, match="dt"):
        agents.update_heading()


def test_integrate_limits_the_turn_and_can_leave_the_heading_alone() -> None:
    # Given agents facing +x that are pushed along +y, allowed 1 rad/s
    def make() -> AgentGroup:
        group = AgentGroup.create([(0, 0)], max_turn_rate=1.0)
        group.heading[:] = [(1.0, 0.0)]
        return group

    turning, fixed = make(), make()
    push = np.array([(0.0, 300.0)])
    # When they integrate for 0.5 s, one with its heading left to orientation behaviours
    for _ in range(30):
        integrate(turning, push, DT)
        integrate(fixed, push, DT, face_velocity=False)
    # Then the first turned 0.5 rad toward its velocity and the second did not turn
    np.testing.assert_allclose(_angles(turning.heading), [math.degrees(0.5)], atol=1e-9)
    np.testing.assert_array_equal(fixed.heading, [(1.0, 0.0)])


# -- LookWhereYouAreGoing ----------------------------------------------------------------------


def test_look_where_you_are_going_matches_the_velocity_with_an_infinite_rate() -> None:
    # Given agents moving every way, some stopped, with random headings
    rng = np.random.default_rng(2)
    vel = rng.normal(0, 60, (40, 2))
    vel[::5] = 0.0
    agents = AgentGroup.create(rng.uniform(0, 100, (40, 2)), vel)
    agents.heading[:] = safe_normalize(rng.normal(0, 1, (40, 2)))
    old = agents.heading.copy()
    debug: Debug = {}
    # When it asks for the turn and the heading is updated
    force = LookWhereYouAreGoing()(agents, DT, debug)
    agents.update_heading(DT)
    # Then moving agents face along their velocity, stopped ones keep their heading
    moving = np.hypot(*vel.T) > 0
    np.testing.assert_array_equal(agents.heading[moving], safe_normalize(vel)[moving])
    np.testing.assert_array_equal(agents.heading[~moving], old[~moving])
    # And it steers the heading only: zero force, velocity unchanged
    np.testing.assert_array_equal(force, np.zeros((40, 2)))
    np.testing.assert_array_equal(agents.vel, vel)
    np.testing.assert_array_equal(debug["orientation.desired"][~moving], 0.0)


def test_look_where_you_are_going_turns_at_the_rate() -> None:
    # Given an agent facing +x moving along -x, allowed 180 deg/s
    agents = AgentGroup.create([(0, 0)], [(-10, 0)], max_turn_rate=math.pi)
    agents.heading[:] = [(1.0, 0.0)]
    look = LookWhereYouAreGoing()
    # When half a second passes, it has turned 90 degrees; after one second, 180
    for _ in range(30):
        look(agents, DT)
        agents.update_heading(DT)
    assert abs(abs(_angles(agents.heading)[0]) - 90.0) < 1e-6
    for _ in range(30):
        look(agents, DT)
        agents.update_heading(DT)
    np.testing.assert_allclose(agents.heading, [(-1.0, 0.0)], atol=1e-9)


# -- Face --------------------------------------------------------------------------------------


def test_face_reports_the_direction_to_one_target_or_one_per_agent() -> None:
    agents = AgentGroup.create([(0, 0), (10, 0), (5, 5)])
    np.testing.assert_allclose(
        Face((10, 10)).heading(agents), [(2**-0.5, 2**-0.5), (0.0, 1.0), (2**-0.5, 2**-0.5)]
    )
    targets = np.array([(0, -3), (10, 0), (0, 5)])
    # the agent on its target has no direction to face: a zero row keeps its heading
    np.testing.assert_allclose(Face(targets).heading(agents), [(0, -1), (0, 0), (-1, 0)])


def test_face_converges_on_the_target_at_the_turn_rate() -> None:
    # Given agents around a target all facing +x, allowed 90 deg/s
    rng = np.random.default_rng(5)
    pos = rng.uniform(-200, 200, (25, 2))
    agents = AgentGroup.create(pos, max_turn_rate=math.pi / 2)
    face = Face((0.0, 0.0))
    start = _turned(agents.heading, Face((0.0, 0.0)).heading(agents))
    # When they face it for 1 s
    for _ in range(60):
        assert isinstance(face, Behaviour)
        np.testing.assert_array_equal(face(agents, DT), np.zeros((25, 2)))
        agents.update_heading(DT)
    # Then those at most 90 degrees off face it; the others have turned a full 90 degrees
    left = _turned(agents.heading, face.heading(agents))
    near = start <= math.pi / 2 - 1e-9
    np.testing.assert_allclose(left[near], 0.0, atol=1e-9)
    np.testing.assert_allclose(left[~near], start[~near] - math.pi / 2, atol=1e-9)
    # And after 2 s every one faces it
    for _ in range(60):
        face(agents, DT)
        agents.update_heading(DT)
    np.testing.assert_allclose(_turned(agents.heading, face.heading(agents)), 0.0, atol=1e-9)


def test_face_holds_its_aim_while_moving_under_a_plain_integrate() -> None:
    # Given an agent drifting along +x that faces a point above its start
    agents = AgentGroup.create([(0, 0)], [(50, 0)], max_turn_rate=2.0)
    face = Face((0.0, 100.0))
    # When it moves for 2 s, each step Face then the default integrate (which faces the
    # velocity where no orientation behaviour asked for a turn)
    for _ in range(120):
        face(agents, DT)
        aim = face.heading(agents)
        integrate(agents, np.zeros((1, 2)), DT)
    # Then it faces the point (up and back to the left) as seen at the step's start, not its
    # velocity
    np.testing.assert_allclose(agents.heading, aim, rtol=1e-12)
    assert agents.heading[0, 0] < -0.5 < 0.5 < agents.heading[0, 1]


def test_orientation_inside_masked_turns_the_masked_rows() -> None:
    # Given two agents facing +x, only the first masked in for Face
    agents = AgentGroup.create([(0, 0), (5, 0)])
    # When Face runs on the masked copy and the heading is updated
    Masked(Face((0.0, 50.0)), np.array([True, False]))(agents, DT)
    agents.update_heading(DT)
    # Then the request came back with the masked rows' state: the first faces the target
    np.testing.assert_allclose(agents.heading, [(0.0, 1.0), (1.0, 0.0)])


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(0, 16),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([1e-300, 1.0, 1e6, 1e12]),
    rate=st.sampled_from([0.0, 1.0, 10.0, math.inf]),
    dt=st.sampled_from([0.0, DT, 1.0]),
    per_agent=st.booleans(),
)
def test_orientation_outputs_are_finite_zero_forces_and_unit_headings(
    n: int, seed: int, scale: float, rate: float, dt: float, per_agent: bool
) -> None:
    rng = np.random.default_rng(seed)
    pos = np.round(rng.normal(0, 1, (n, 2)), 1) * scale  # rounding makes some coincide
    vel = rng.normal(0, 1, (n, 2)) * scale * (rng.random((n, 1)) < 0.7)
    agents = AgentGroup.create(pos, vel, max_turn_rate=rate)
    target = pos[::-1].copy() if per_agent else pos[0] if n else (0.0, 0.0)
    for behaviour in (Face(target), LookWhereYouAreGoing()):
        debug: Debug = {}
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            force = behaviour(agents, dt, debug)
        assert force.shape == (n, 2)
        np.testing.assert_array_equal(force, 0.0)
        desired = debug["orientation.desired"]
        assert desired.shape == (n, 2) and np.isfinite(desired).all()
        assert np.isfinite(agents.heading).all()
        np.testing.assert_allclose(np.hypot(*agents.heading.T), 1.0, rtol=1e-12)


# -- the turn is applied once per step ---------------------------------------------------------


@pytest.mark.parametrize("kind", ["look", "face"])
def test_a_documented_step_turns_the_heading_exactly_once(kind: str) -> None:
    # Given an agent facing +x, moving toward 135 degrees, allowed 1 rad/s; Face looks the
    # same way (its target lies along the velocity)
    agents = AgentGroup.create([(0, 0)], [_unit_angle(135.0)], max_turn_rate=1.0)
    agents.heading[:] = [(1.0, 0.0)]
    behaviour: Behaviour = (
        LookWhereYouAreGoing() if kind == "look" else Face(np.array(_unit_angle(135.0)) * 500)
    )
    for _ in range(10):
        before = agents.heading.copy()
        # When it steps as documented: the behaviour's force, then integrate leaving the heading
        integrate(agents, behaviour(agents, DT), DT, face_velocity=False)
        # Then the heading turned by rate * dt in that step: once
        np.testing.assert_allclose(_turned(before, agents.heading), [DT], rtol=1e-9)
    np.testing.assert_allclose(_angles(agents.heading), [math.degrees(10 * DT)], rtol=1e-9)


@pytest.mark.parametrize("how", ["integrate", "step", "weighted sum", "flock", "update"])
@pytest.mark.parametrize("kind", ["look", "face"])
def test_the_turn_is_applied_once_however_the_step_is_written(kind: str, how: str) -> None:
    # Given an agent facing +x, moving toward 135 degrees, allowed 1 rad/s; Face looks the
    # same way (its target lies along the velocity)
    agents = AgentGroup.create([(0, 0)], [_unit_angle(135.0)], max_turn_rate=1.0)
    agents.heading[:] = [(1.0, 0.0)]
    behaviour: Behaviour = (
        LookWhereYouAreGoing() if kind == "look" else Face(np.array(_unit_angle(135.0)) * 500)
    )
    zero = np.zeros((1, 2))
    for _ in range(10):
        before = agents.heading.copy()
        # When it steps with every default left as it is (integrate faces the velocity)
        if how == "integrate":
            integrate(agents, behaviour(agents, DT), DT)
        elif how == "step":
            step(agents, behaviour, DT)
        elif how == "weighted sum":
            step(agents, WeightedSum([Weighted(Seek((-1e6, 1e6)), 0.0), behaviour]), DT)
        elif how == "flock":
            behaviour(agents, DT)
            step(agents, Flock(target=None), DT)
        else:  # a program that moves its agents itself, then updates the heading
            behaviour(agents, DT)
            agents.pos += agents.vel * DT
            agents.update_heading(DT)
        # Then the heading turned by rate * dt in that step: once
        np.testing.assert_allclose(_turned(before, agents.heading), [DT], rtol=1e-9)
    # And the request was used up: with no behaviour the next integrate faces the velocity
    assert not agents.turns().any()
    agents.vel[:] = [(0.0, -1.0)]
    before = agents.heading.copy()
    integrate(agents, zero, DT)
    np.testing.assert_allclose(_turned(before, agents.heading), [DT], rtol=1e-9)


def test_a_face_request_wins_over_facing_the_velocity() -> None:
    # Given an agent moving along +x that faces a point straight above it, allowed any rate
    agents = AgentGroup.create([(0, 0)], [(50, 0)])
    # When Face asks and the default integrate runs
    integrate(agents, Face((0.0, 100.0))(agents, DT), DT)
    # Then the heading is Face's, not the velocity's
    np.testing.assert_allclose(agents.heading, [(0.0, 1.0)])


@pytest.mark.parametrize(
    ("target", "error", "message"),
    [
        ("player", TypeError, "Face.target"),
        ((math.nan, 0.0), ValueError, "Face.target"),
        ([(0.0, 1.0)] * 3, ValueError, "Face.target"),
    ],
)
def test_face_names_a_bad_target(target: object, error: type[Exception], message: str) -> None:
    # Given two agents
    agents = AgentGroup.create([(0, 0), (5, 0)])
    # When / Then a string, a NaN or the wrong number of targets is refused by name
    with pytest.raises(error, match=message):
        Face(target)(agents, DT)  # type: ignore[arg-type]
    # And nothing turned
    np.testing.assert_array_equal(agents.heading, [(1.0, 0.0), (1.0, 0.0)])


@pytest.mark.parametrize("dt", [-0.1, math.nan])
def test_orientation_rejects_a_bad_dt(dt: float) -> None:
    agents = AgentGroup.create([(0, 0)])
    for behaviour in (Face((0.0, 1.0)), LookWhereYouAreGoing()):
        with pytest.raises(ValueError, match="dt"):
            behaviour(agents, dt)


@pytest.mark.parametrize("kind", ["look", "face"])
def test_an_agent_with_nothing_to_face_keeps_its_heading_under_a_plain_integrate(
    kind: str,
) -> None:
    # Given an agent facing +y: stopped (Look has no direction) or on Face's target
    agents = AgentGroup.create([(0, 0)], [(0, 0)], max_turn_rate=math.inf)
    agents.heading[:] = [(0.0, 1.0)]
    behaviour: Behaviour = LookWhereYouAreGoing() if kind == "look" else Face((0.0, 0.0))
    # When it steps with a push along +x and the default integrate (which faces the velocity)
    integrate(agents, behaviour(agents, DT) + np.array([(300.0, 0.0)]), DT)
    # Then the behaviour's "keep" held the heading for the step
    np.testing.assert_array_equal(agents.heading, [(0.0, 1.0)])
    assert agents.vel[0, 0] > 0.0


def test_request_turn_checks_its_argument_and_ignores_rows_that_are_not_finite() -> None:
    agents = AgentGroup.create([(0, 0), (5, 0)], [(10, 0), (10, 0)])
    agents.heading[:] = [(0.0, 1.0), (0.0, 1.0)]
    with pytest.raises(ValueError, match=r"^request_turn: desired_heading must have shape"):
        agents.request_turn(np.zeros((3, 2)))
    with pytest.raises(TypeError, match=r"^request_turn: desired_heading"):
        agents.request_turn("left")
    # A NaN row asks nothing: that agent faces its velocity; the other turns as asked
    agents.request_turn(np.array([(np.nan, 1.0), (-1.0, 0.0)]))
    integrate(agents, np.zeros((2, 2)), DT)
    np.testing.assert_allclose(agents.heading, [(1.0, 0.0), (-1.0, 0.0)])
