"""The behaviours' own loops in :mod:`steering.kernels` (``*_rows``), called from a program's
compiled function with each behaviour's ``kernel_args``, give the behaviour's forces exactly:
a game can fuse several behaviours into one compiled call."""

from __future__ import annotations

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
from steering.kernels import (
    accumulate_rows,
    avoid_obstacles_rows,
    avoid_walls_rows,
    contain_rows,
    follow_rows,
    njit,
    separate_rows,
    wander_rows,
)

DT = 1 / 60


def _crowd(n: int = 40, seed: int = 3) -> AgentGroup:
    rng = np.random.default_rng(seed)
    group = AgentGroup.create(rng.uniform(20, 380, (n, 2)), max_speed=120.0, max_force=300.0)
    group.vel[:] = rng.uniform(-120, 120, (n, 2))
    group.heading[:] = group.vel / np.hypot(*group.vel.T)[:, None]
    return group


@njit
def _urgent(contain, walls, rocks, max_force, out):  # type: ignore[no-untyped-def]
    """A program's own fused loop: containment, walls and rocks in Buckland's running sum."""
    m = out.shape[0]
    force = np.empty((m, 2))
    contain_rows(*contain, force)
    accumulate_rows(out, force, 1.0, max_force, True, False)
    avoid_walls_rows(*walls, force, np.empty((0, 1)))
    accumulate_rows(out, force, 1.0, max_force, False, False)
    avoid_obstacles_rows(*rocks, force, np.empty((0, 1)))
    accumulate_rows(out, force, 1.0, max_force, False, True)


@njit
def _separate(args, out):  # type: ignore[no-untyped-def]
    separate_rows(*args, False, np.zeros(1, dtype=np.int64), np.zeros((1, 2)), out)


@njit
def _follow(args, force, flags):  # type: ignore[no-untyped-def]
    return follow_rows(*args, force, np.empty((0, 8)), flags, False)


def test_a_fused_running_sum_of_containment_walls_and_rocks_equals_the_behaviours() -> None:
    group, twin = _crowd(), _crowd()  # the rocks' avoidance remembers a side per agent
    contain = Contain(0.0, 0.0, 400.0, 400.0)
    walls = AvoidWalls(Walls.create(np.array([[[100.0, 50.0], [100.0, 300.0]]])))
    rocks = AvoidObstacles(Obstacles.create([[200.0, 200.0], [300.0, 120.0]], [30.0, 18.0]))
    expected = TruncatedRunningSum([contain, walls, rocks])(twin, DT)
    out = np.empty((group.n, 2))
    _urgent(
        contain.kernel_args(group, DT),
        walls.kernel_args(group, DT),
        rocks.kernel_args(group, DT),
        group.max_force,
        out,
    )
    np.testing.assert_array_equal(out, expected)
    assert np.abs(out).sum() > 0.0  # something pushed


def test_fused_separation_equals_the_behaviour_and_really_separates() -> None:
    group = _crowd(n=60)
    sep = Separate(distance=40.0)
    expected = sep(group, DT)
    out = np.empty((group.n, 2))
    _separate(sep.kernel_args(group, DT), out)
    np.testing.assert_array_equal(out, expected)
    assert np.count_nonzero(np.hypot(*out.T)) > 10


def test_fused_path_following_equals_the_behaviour_and_keeps_its_memory() -> None:
    path = Path([(20.0, 20.0), (380.0, 20.0), (380.0, 380.0)], radius=10.0)
    group, twin = _crowd(), _crowd()
    follow = FollowPath(path)
    for _ in range(5):
        expected = follow(twin, DT)
        force = np.empty((group.n, 2))
        flags = np.empty(group.n, dtype=np.uint8)
        args = follow.kernel_args(group, DT)
        assert _follow(args, force, flags) == 0
        np.testing.assert_array_equal(force, expected)
    np.testing.assert_array_equal(follow.progress(group), follow.progress(twin))
    assert np.isfinite(follow.progress(group)).all()


@njit
def _wander(args, out):  # type: ignore[no-untyped-def]
    wander_rows(*args, np.empty(out.shape), out)


def test_fused_wander_equals_the_behaviour_draw_for_draw() -> None:
    group, twin = _crowd(), _crowd()
    mine = Wander(np.random.default_rng(9))
    theirs = Wander(np.random.default_rng(9))
    for _ in range(4):
        out = np.empty((group.n, 2))
        _wander(mine.kernel_args(group, DT), out)
        np.testing.assert_array_equal(out, theirs(twin, DT))
    np.testing.assert_array_equal(group.column("wander.angle"), twin.column("wander.angle"))
    assert np.count_nonzero(np.hypot(*out.T)) == group.n
