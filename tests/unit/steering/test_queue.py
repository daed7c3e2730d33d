"""Queueing (Reynolds): brake behind a slower neighbour close ahead; a line through a door."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import pdist

from steering import (
    AvoidWalls,
    FirstNonZero,
    Queue,
    Seek,
    Separate,
    TruncatedRunningSum,
    Walls,
)
from steering.agents import AgentGroup, integrate
from steering.base import Behaviour, Debug
from steering.vec import length

DT = 1 / 60


# -- who brakes, worked by hand --------------------------------------------------------------


def test_a_slower_neighbour_close_ahead_makes_the_agent_brake() -> None:
    # Given agent 0 at 100 px/s with agent 1 30 px ahead at 50 px/s
    agents = AgentGroup.create([(0, 0), (30, 0)], [(100, 0), (50, 0)], max_force=1e4)
    debug: Debug = {}
    # When
    force = Queue(distance=40.0, brake=0.8, gain=8.0)(agents, DT, debug)
    # Then agent 0 brakes with -velocity * brake * gain = -(100, 0) * 6.4; agent 1, with
    # nobody ahead of it, gets nothing
    np.testing.assert_allclose(force, [[-640.0, 0.0], [0.0, 0.0]])
    np.testing.assert_array_equal(debug["queue.braking"], [True, False])
    np.testing.assert_array_equal(debug["queue.ahead"], [1, -1])


def test_braking_is_limited_to_max_force() -> None:
    agents = AgentGroup.create([(0, 0), (30, 0)], [(100, 0), (50, 0)], max_force=360.0)
    np.testing.assert_allclose(Queue()(agents, DT)[0], [-360.0, 0.0])


@pytest.mark.parametrize(
    ("other_pos", "other_vel"),
    [
        ((30, 0), (100, 0)),  # as fast: no brake
        ((30, 0), (150, 0)),  # faster
        ((45, 0), (0, 0)),  # beyond the distance
        ((20, 25), (0, 0)),  # 51 degrees off the heading: outside the 90 degree cone
        ((-30, 0), (0, 0)),  # behind
    ],
)
def test_no_brake_when_nothing_slower_is_close_ahead(
    other_pos: tuple[float, float], other_vel: tuple[float, float]
) -> None:
    agents = AgentGroup.create([(0, 0), other_pos], [(100, 0), other_vel])
    debug: Debug = {}
    force = Queue(distance=40.0, fov=90.0)(agents, DT, debug)
    np.testing.assert_array_equal(force[0], [0.0, 0.0])
    assert not debug["queue.braking"][0]


def test_slower_is_measured_along_the_agents_own_direction() -> None:
    # Given a neighbour ahead moving fast but across the agent's path: its speed along the
    # agent's direction is 0, slower than the agent's 100
    agents = AgentGroup.create([(0, 0), (30, 5)], [(100, 0), (0, 300)], max_force=1e4)
    force = Queue()(agents, DT)
    np.testing.assert_allclose(force[0], [-640.0, 0.0])


def test_a_wider_cone_sees_neighbours_further_to_the_side() -> None:
    agents = AgentGroup.create([(0, 0), (20, 25)], [(100, 0), (0, 0)], max_force=1e4)
    assert Queue(fov=90.0)(agents, DT)[0, 0] == 0.0
    assert Queue(fov=120.0)(agents, DT)[0, 0] == pytest.approx(-640.0)


def test_the_nearest_blocker_is_reported() -> None:
    agents = AgentGroup.create([(0, 0), (35, 0), (20, 2)], [(100, 0), (0, 0), (10, 0)])
    debug: Debug = {}
    Queue()(agents, DT, debug)
    assert debug["queue.ahead"][0] == 2


def test_standing_still_there_is_nothing_to_brake() -> None:
    # Given a stopped agent (heading +x) behind a stopped neighbour, and coincident agents
    agents = AgentGroup.create([(0, 0), (20, 0), (50, 50), (50, 50)])
    debug: Debug = {}
    force = Queue()(agents, DT, debug)
    # Then no force and no NaN: a stopped agent is not faster than anyone
    np.testing.assert_array_equal(force, np.zeros((4, 2)))
    assert not debug["queue.braking"].any()


def test_invalid_parameters_are_rejected() -> None:
    for kwargs in ({"distance": -1.0}, {"brake": math.inf}, {"fov": 400.0}, {"gain": -1.0}):
        with pytest.raises(ValueError):
            Queue(**kwargs)  # type: ignore[arg-type]


# -- a line through a door -------------------------------------------------------------------


def through_the_door(steer: Behaviour, seconds: float = 11.0) -> tuple[list[int], float]:
    """Eight agents (radius 8) in a line 24 px apart, led by a slow one (40 px/s; the rest
    120), seeking a point far beyond a 32 px door at x = 200. Returns the order in which
    they passed the door and the smallest gap between two bodies (px)."""
    walls = Walls.create([[(200, -300), (200, -16)], [(200, 16), (200, 300)]])
    n = 8
    wobble = [1.0, -1.5, 0.5, -1.0, 2.0, -0.5, 1.5, -2.0]  # not quite a straight line
    start = np.stack((-np.arange(n) * 24.0, wobble), 1)
    agents = AgentGroup.create(
        start,
        np.tile([40.0, 0.0], (n, 1)),
        max_speed=[40.0] + [120.0] * (n - 1),
        max_force=360.0,
        radius=8.0,
    )
    full = TruncatedRunningSum([AvoidWalls(walls), steer])
    order: list[int] = []
    gap = np.inf
    for _ in range(round(seconds / DT)):
        before = agents.pos[:, 0].copy()
        integrate(agents, full(agents, DT), DT)
        order += np.flatnonzero((before < 200.0) & (agents.pos[:, 0] >= 200.0)).tolist()
        gap = min(gap, float((pdist(agents.pos) - 16.0).min()))
    return order, gap


GOAL = (3000.0, 0.0)


def test_a_line_queues_through_a_door_in_order_without_touching() -> None:
    # Given the line, queueing in front of its goal and keeping 20 px apart
    steer = TruncatedRunningSum([Separate(20.0), Queue(), Seek(GOAL)])
    # When they go through the door
    order, gap = through_the_door(steer)
    # Then all pass, in the order of the line, and no two bodies ever touch
    assert order == list(range(8))
    assert gap > 0.0


def test_queueing_by_priority_also_keeps_the_order() -> None:
    # FirstNonZero: a blocked agent brakes outright instead of creeping on
    order, gap = through_the_door(
        TruncatedRunningSum([Separate(20.0), FirstNonZero([Queue(), Seek(GOAL)])])
    )
    assert order == list(range(8))
    assert gap > 0.0


def test_without_queueing_the_line_pushes_past_its_slow_leader() -> None:
    # The same line with separation and the goal only: the fast ones jostle round the slow
    # leader, pass the door out of order and press into each other
    order, gap = through_the_door(TruncatedRunningSum([Separate(20.0), Seek(GOAL)]))
    assert order[:2] != [0, 1]
    assert gap < 0.0


# -- properties ------------------------------------------------------------------------------


coord = st.floats(-60.0, 60.0, allow_nan=False)
speed = st.sampled_from([0.0, 1e-12, 30.0, -120.0, 400.0])


@settings(max_examples=100, deadline=None)
@given(
    pos=st.lists(st.tuples(coord, coord), min_size=1, max_size=12),
    data=st.data(),
)
@pytest.mark.slow
def test_forces_are_finite_and_within_max_force(
    pos: list[tuple[float, float]], data: st.DataObject
) -> None:
    n = len(pos)
    if n > 1 and data.draw(st.booleans()):
        pos[1] = pos[0]  # coincident
    vel = data.draw(st.lists(st.tuples(speed, speed), min_size=n, max_size=n))
    agents = AgentGroup.create(
        pos,
        vel,
        max_speed=data.draw(st.sampled_from([0.0, 120.0])),
        max_force=data.draw(
            st.lists(st.sampled_from([0.0, 1.0, 360.0, 1e6]), min_size=n, max_size=n)
        ),
    )
    queue = Queue(
        distance=data.draw(st.sampled_from([0.0, 1e-9, 40.0, 500.0])),
        brake=data.draw(st.sampled_from([0.0, 0.8, 5.0])),
        fov=data.draw(st.sampled_from([0.0, 90.0, 360.0])),
    )
    debug: Debug = {}
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        force = queue(agents, DT, debug)
    assert force.shape == (n, 2)
    assert np.isfinite(force).all()
    assert (length(force) <= agents.max_force * (1 + 1e-12) + 1e-9).all()
    braking = np.asarray(debug["queue.braking"])
    assert not np.any(length(force)[~braking])
    ahead = np.asarray(debug["queue.ahead"])
    assert ((ahead >= 0) == braking).all()
