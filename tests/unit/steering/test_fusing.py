"""Fusing behaviours into one compiled call, the two supported ways: a composite of several
gives exactly the forces of each called alone (memory and random draws included), and a
program's own compiled loop over the per-agent functions of :mod:`steering.kernels` gives the
behaviour's forces exactly."""

from __future__ import annotations

from typing import Any

import numpy as np

from steering import (
    AgentGroup,
    AvoidObstacles,
    AvoidWalls,
    Contain,
    FollowPath,
    Obstacles,
    Path,
    Separate,
    TruncatedRunningSum,
    Walls,
    Wander,
)
from steering.composite import agent_cols
from steering.kernels import (
    AgentCols,
    ContainRecord,
    WanderRecord,
    contain_agent,
    njit,
    wander_agent,
)
from steering.vec import FloatArray

DT = 1 / 60


def _crowd(n: int = 40, seed: int = 3) -> AgentGroup:
    rng = np.random.default_rng(seed)
    group = AgentGroup.create(rng.uniform(20, 380, (n, 2)), max_speed=120.0, max_force=300.0)
    group.vel[:] = rng.uniform(-120, 120, (n, 2))
    group.heading[:] = group.vel / np.hypot(*group.vel.T)[:, None]
    return group


def _one_by_one(parts: list[Any], group: AgentGroup) -> FloatArray:
    """Buckland's running sum of ``parts``' forces, each part called alone on ``group``."""
    total = np.zeros((group.n, 2))
    for part in parts:
        TruncatedRunningSum.accumulate(total, part(group, DT), 1.0, group.max_force)
    return total


def test_a_running_sum_of_containment_walls_and_rocks_equals_the_behaviours_one_by_one() -> None:
    # Given twin crowds (the rocks' avoidance remembers a side per agent) and three urgent parts
    group, twin = _crowd(), _crowd()
    contain = Contain(0.0, 0.0, 400.0, 400.0)
    walls = AvoidWalls(Walls.create(np.array([[[100.0, 50.0], [100.0, 300.0]]])))
    rocks = AvoidObstacles(Obstacles.create([[200.0, 200.0], [300.0, 120.0]], [30.0, 18.0]))
    for _ in range(3):
        # When their running sum runs as one compiled loop, and each part alone on the twin
        fused = TruncatedRunningSum([contain, walls, rocks])(group, DT)
        expected = _one_by_one([contain, walls, rocks], twin)
        # Then the forces and the avoidance's memory are the same to the bit, and something pushed
        np.testing.assert_array_equal(fused, expected)
        np.testing.assert_array_equal(group.column("avoid.side"), twin.column("avoid.side"))
        np.testing.assert_array_equal(group.column("avoid.timer"), twin.column("avoid.timer"))
    assert np.abs(fused).sum() > 0.0


def test_separation_in_a_running_sum_equals_the_behaviour_and_really_separates() -> None:
    # Given a crowd and a separation
    group = _crowd(n=60)
    sep = Separate(distance=40.0)
    # When it runs in a running sum of one part, and alone
    fused = TruncatedRunningSum([sep])(group, DT)
    expected = _one_by_one([sep], group)
    # Then the forces are the same to the bit, and many agents are pushed
    np.testing.assert_array_equal(fused, expected)
    assert np.count_nonzero(np.hypot(*fused.T)) > 10


def test_path_following_fused_with_wander_keeps_its_memory_and_the_draws() -> None:
    # Given twin crowds, a path and wanders drawing from the same seed
    path = Path([(20.0, 20.0), (380.0, 20.0), (380.0, 380.0)], radius=10.0)
    group, twin = _crowd(), _crowd()
    follow, wander = FollowPath(path), Wander(np.random.default_rng(9))
    alone = [FollowPath(path), Wander(np.random.default_rng(9))]
    fused = TruncatedRunningSum([follow, wander])
    for _ in range(5):
        # When the two run as one compiled loop, and each alone on the twin, for five steps
        got = fused(group, DT)
        # Then each step's forces are the same to the bit
        np.testing.assert_array_equal(got, _one_by_one(alone, twin))
    # And so are the path progress and the wander angles
    np.testing.assert_array_equal(follow.progress(group), alone[0].progress(twin))
    assert np.isfinite(follow.progress(group)).all()
    np.testing.assert_array_equal(group.column("wander.angle"), twin.column("wander.angle"))


@njit
def _contain_loop(a: AgentCols, p: ContainRecord, out: FloatArray) -> None:
    """A program's own loop: containment per agent."""
    for i in range(out.shape[0]):
        out[i, 0], out[i, 1] = contain_agent(i, a, p)


@njit
def _wander_loop(a: AgentCols, p: WanderRecord, out: FloatArray) -> None:
    """A program's own loop: wander per agent (its angle advanced in the record)."""
    for i in range(out.shape[0]):
        fx, fy, _, _ = wander_agent(i, a, p)
        out[i, 0] = fx
        out[i, 1] = fy


def test_an_own_loop_over_contain_agent_equals_the_behaviour() -> None:
    # Given a crowd that reaches past a box's edges
    group = _crowd()
    contain = Contain(50.0, 50.0, 350.0, 350.0, margin=20.0)
    # When a program's own compiled loop calls the per-agent function with the behaviour's record
    out = np.empty((group.n, 2))
    _contain_loop(AgentCols(*agent_cols(group)), contain.bind(group, DT, False), out)
    # Then it gives the behaviour's forces to the bit, and some agents are pushed back
    np.testing.assert_array_equal(out, contain(group, DT))
    assert np.count_nonzero(np.hypot(*out.T)) > 0


def test_an_own_loop_over_wander_agent_equals_the_behaviour_draw_for_draw() -> None:
    # Given twin crowds and two wanders drawing from the same seed
    group, twin = _crowd(), _crowd()
    mine = Wander(np.random.default_rng(9))
    theirs = Wander(np.random.default_rng(9))
    for _ in range(4):
        # When a program's own loop calls the per-agent function with the record bound for the
        # step (which draws its random numbers), and the behaviour runs on the twin
        out = np.empty((group.n, 2))
        _wander_loop(AgentCols(*agent_cols(group)), mine.bind(group, DT, False), out)
        # Then every step's forces are the same to the bit
        np.testing.assert_array_equal(out, theirs(twin, DT))
    # And the angles advanced alike, and every agent is pushed
    np.testing.assert_array_equal(group.column("wander.angle"), twin.column("wander.angle"))
    assert np.count_nonzero(np.hypot(*out.T)) == group.n
