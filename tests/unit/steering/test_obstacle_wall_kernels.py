"""The compiled obstacle and wall kernels: arguments named in errors, the grid index against brute
force (moving rocks, long walls, far agents), serial and parallel loops bit-identical."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from steering import AgentGroup, AvoidObstacles, AvoidWalls, Obstacles, Walls, launch
from steering.base import Debug
from steering.debug import AvoidDebug, WallsDebug, read
from steering.obstacle_set import candidate_pairs

DT = 1 / 60


# -- arguments -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("centers", "radii", "error", "name"),
    [
        ("rocks", 5.0, TypeError, "centers"),
        ([[0.0, 0.0]], "big", TypeError, "radii"),
        ([[0.0, 0.0]], None, TypeError, "radii"),
        ([[0.0, np.inf]], 5.0, ValueError, "centers"),
        ([[0.0, 0.0, 0.0]], 5.0, ValueError, "centers"),
        ([[0.0, 0.0]], np.nan, ValueError, "radii"),
        ([[0.0, 0.0]], -1.0, ValueError, "radii"),
        ([[0.0, 0.0]], [1.0, 2.0], ValueError, "radii"),
    ],
)
def test_obstacles_name_the_bad_argument(
    centers: object, radii: object, error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=name):
        Obstacles.create(centers, radii)  # type: ignore[arg-type]


def test_moving_rocks_checks_its_points() -> None:
    obs = Obstacles.create([[0.0, 0.0], [10.0, 0.0]], 2.0)
    with pytest.raises(ValueError, match="centers"):
        obs.move([0, 1], [[1.0, 1.0]])
    with pytest.raises(ValueError, match="centers"):
        obs.move([0, 1], [[1.0, 1.0], [np.nan, 0.0]])
    with pytest.raises(TypeError, match="centers"):
        obs.move(0, "here")
    with pytest.raises(ValueError, match="centers"):
        obs.set_centers([[0.0, 0.0]])
    obs.move(np.array([1, 0]), [[5.0, 5.0], [6.0, 6.0]])
    np.testing.assert_array_equal(obs.centers, [[6.0, 6.0], [5.0, 5.0]])
    # Arrays as the physics passes them every step take the compiled path: the same checks,
    # and nothing written when one row is bad
    rows = np.array([0, 1], dtype=np.intp)
    with pytest.raises(ValueError, match="centers"):
        obs.move(rows, np.array([[1.0, 1.0], [np.inf, 0.0]]))
    with pytest.raises(IndexError):
        obs.move(np.array([0, 2], dtype=np.intp), np.array([[1.0, 1.0], [2.0, 2.0]]))
    np.testing.assert_array_equal(obs.centers, [[6.0, 6.0], [5.0, 5.0]])
    obs.move(np.array([-1], dtype=np.intp), np.array([[7.0, 8.0]]))
    np.testing.assert_array_equal(obs.centers, [[6.0, 6.0], [7.0, 8.0]])
    # other integer types as NumPy indexes with them
    obs.move(np.array([0], dtype=np.uint64), np.array([[1.0, 2.0]]))
    obs.move(np.array([1], dtype=np.int32), np.array([[3.0, 4.0]]))
    np.testing.assert_array_equal(obs.centers, [[1.0, 2.0], [3.0, 4.0]])


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"min_box_length": -1.0}, ValueError, "min_box_length"),
        ({"min_box_length": "long"}, TypeError, "min_box_length"),
        ({"braking_weight": np.nan}, ValueError, "braking_weight"),
        ({"force_scale": -2.0}, ValueError, "force_scale"),
        ({"side_memory": np.inf}, ValueError, "side_memory"),
        ({"margin": -0.5}, ValueError, "margin"),
        ({"tie_break": 3}, ValueError, "tie_break"),
    ],
)
def test_avoid_obstacles_names_the_bad_argument(
    kwargs: dict[str, object], error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=name):
        AvoidObstacles(Obstacles.empty(), **kwargs)  # type: ignore[arg-type]


def test_avoidance_needs_obstacles_and_walls() -> None:
    with pytest.raises(TypeError, match="obstacles"):
        AvoidObstacles([[0.0, 0.0]])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="walls"):
        AvoidWalls(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("segments", "error"),
    [
        ("walls", TypeError),
        ([[(0, 0), (1, None)]], ValueError),  # None reads as NaN
        ([[(0, 0), (1, 1), (2, 2)]], ValueError),
        ([[(0, 0), (np.nan, 1)]], ValueError),
    ],
)
def test_walls_name_the_bad_argument(segments: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="segments"):
        Walls.create(segments)  # type: ignore[arg-type]


def test_walls_from_mismatched_ends_are_refused() -> None:
    with pytest.raises(ValueError, match="segments"):
        Walls(np.zeros((2, 2)), np.ones((3, 2)))
    with pytest.raises(TypeError, match=r"polylines\[0\]"):
        Walls.from_polylines(["abc"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"feeler_length": -1.0}, ValueError, "feeler_length"),
        ({"feeler_angle": np.nan}, ValueError, "feeler_angle"),
        ({"feeler_angle": -5.0}, ValueError, "feeler_angle"),
        ({"gain": "fast"}, TypeError, "gain"),
        ({"margin": np.inf}, ValueError, "margin"),
    ],
)
def test_avoid_walls_names_the_bad_argument(
    kwargs: dict[str, object], error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=name):
        AvoidWalls(Walls.empty(), **kwargs)  # type: ignore[arg-type]


def test_distances_check_their_arguments() -> None:
    walls = Walls.create([[(0, 0), (10, 0)]])
    np.testing.assert_allclose(walls.distances([[5.0, 3.0], [13.0, 4.0]], [0, 0]), [3.0, 5.0])
    with pytest.raises(ValueError, match="points"):
        walls.distances([[5.0, 3.0]], [0, 0])
    with pytest.raises(IndexError, match="walls"):
        walls.distances([[5.0, 3.0]], [1])


# -- the grid against brute force ------------------------------------------------------------


def brute_closest(agents: AgentGroup, avoid: AvoidObstacles) -> list[int]:
    """The rock each agent reacts to, from every rock (the box test, no index)."""
    obs = avoid.obstacles
    out = []
    for i in range(agents.n):
        hx, hy = agents.heading[i]
        speed = math.hypot(*agents.vel[i])
        box = avoid.min_box_length * (1.0 + min(speed / agents.max_speed[i], 1.0))
        # every rock at once, with the same float operations in the same order as a loop
        dx, dy = (obs.centers - agents.pos[i]).T
        cx, cy = dx * hx + dy * hy, dy * hx - dx * hy
        r = obs.radii + agents.radius[i] + avoid.margin
        hit = (cx >= 0) & (np.abs(cy) < r)
        root = np.sqrt(np.where(hit, r * r - cy * cy, 0.0))
        hit &= cx - root <= box
        ip = np.where(cx - root > 0, cx - root, cx + root)
        # the nearest intersection; the first rock of equal ones, as a strict `<` keeps it
        found = np.flatnonzero(hit)[np.argmin(ip[hit])] if hit.any() else -1
        out.append(int(found))
    return out


def crowd(n: int, side: float, seed: int) -> AgentGroup:
    rng = np.random.default_rng(seed)
    return AgentGroup.create(
        rng.uniform(-0.2 * side, 1.2 * side, (n, 2)),
        rng.uniform(-200.0, 200.0, (n, 2)),
        max_speed=200.0,
        radius=rng.uniform(0.0, 15.0, n),
    )


def test_the_grid_finds_what_every_rock_finds_while_rocks_move() -> None:
    # Given 400 rocks (a fine grid) and agents in and around them
    rng = np.random.default_rng(2)
    obs = Obstacles.create(rng.uniform(0, 1500, (400, 2)), rng.uniform(5, 60, 400))
    agents = crowd(500, 1500.0, 3)
    avoid = AvoidObstacles(obs, side_memory=0.0)
    for step in range(6):
        debug: Debug = {}
        avoid(agents, DT, debug)
        # Then each agent reacts to the rock a loop over every rock picks
        assert debug["avoid.obstacle"].tolist() == brute_closest(agents, avoid), step
        # When rocks move a little (within the grid's slack), a lot, or by direct writes
        moved = rng.choice(400, 40, replace=False)
        jump = [0.5, 3.0, 40.0, 400.0, 0.0, 5000.0][step]
        if step % 2:
            obs.move(moved, obs.centers[moved] + rng.uniform(-jump, jump, (40, 2)))
        else:
            obs.centers[moved] += rng.uniform(-jump, jump, (40, 2))


def test_candidate_pairs_are_sorted_and_complete_for_far_agents() -> None:
    rng = np.random.default_rng(4)
    obs = Obstacles.create(rng.uniform(0, 300, (50, 2)), 5.0)
    agents = AgentGroup.create(np.concatenate((rng.uniform(-100, 400, (60, 2)), [[1e7, 1e7]])))
    ai, oj = candidate_pairs(agents, obs, 80.0)
    dist = np.linalg.norm(agents.pos[:, None, :] - obs.centers[None, :, :], axis=2)
    ea, eo = np.nonzero(dist <= 80.0)
    np.testing.assert_array_equal(ai, ea)
    np.testing.assert_array_equal(oj, eo)


def test_long_walls_across_many_cells_are_listed_once() -> None:
    # Given many short walls and long diagonal ones (each cut in many pieces)
    rng = np.random.default_rng(5)
    starts = rng.uniform(0, 1000, (200, 2))
    short = np.stack((starts, starts + rng.uniform(-30, 30, (200, 2))), axis=1)
    long_ = np.array([[(0, 0), (1000, 1000)], [(1000, 0), (0, 1000)], [(-50, 500), (1050, 480)]])
    walls = Walls.create(np.concatenate((short, long_)))
    agents = AgentGroup.create(rng.uniform(-100, 1100, (300, 2)))
    reach = rng.uniform(0, 120, 300)
    ai, wj = walls.candidates(agents, reach)
    m = len(walls)
    all_a, all_w = np.divmod(np.arange(300 * m), m)
    near = walls.distances(agents.pos[all_a], all_w) <= reach[all_a]
    np.testing.assert_array_equal(ai, all_a[near])
    np.testing.assert_array_equal(wj, all_w[near])


def test_agents_far_away_or_huge_give_zero_and_finite() -> None:
    obs = Obstacles.create([[0.0, 0.0], [50.0, 0.0]], 10.0)
    walls = Walls.create([[(0, -50), (0, 50)]])
    agents = AgentGroup.create([[1e300, -1e300], [-1e9, 3.0], [1e15, 1e15]], [[100.0, 0.0]] * 3)
    for avoid in (AvoidObstacles(obs), AvoidWalls(walls)):
        force = avoid(agents, DT, {})
        np.testing.assert_array_equal(force, np.zeros((3, 2)))


# -- serial and parallel ---------------------------------------------------------------------


def test_obstacle_loop_is_the_same_serial_and_parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given many rocks and twin crowds, some agents remembering a side
    rng = np.random.default_rng(6)
    obs = Obstacles.create(rng.uniform(0, 800, (120, 2)), rng.uniform(5, 40, 120))
    remembered = np.where(rng.random(700) < 0.3, 1.0, 0.0)
    results = []
    for parallel_from in (10**9, 1):
        # When the avoidance runs serially, then across cores
        monkeypatch.setattr(launch, "PARALLEL_MIN", parallel_from)
        agents = crowd(700, 800.0, 7)
        agents.column("avoid.side")[:] = remembered
        agents.column("avoid.timer")[:] = 0.2
        debug: Debug = {}
        force = AvoidObstacles(obs)(agents, DT, debug)
        memory = (agents.column("avoid.side"), agents.column("avoid.timer"))
        results.append((force, *_read(AvoidDebug, debug), *memory))
    # Then the forces, debug rows and memory are the same to the bit, and many agents react
    for a, b in zip(*results, strict=True):
        np.testing.assert_array_equal(a, b)
    assert (results[0][2] >= 0).sum() > 50  # AvoidDebug.obstacle


def test_wall_loop_is_the_same_serial_and_parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given many walls and twin crowds
    rng = np.random.default_rng(9)
    starts = rng.uniform(0, 800, (150, 2))
    walls = Walls.create(np.stack((starts, starts + rng.uniform(-80, 80, (150, 2))), axis=1))
    results = []
    for parallel_from in (10**9, 1):
        # When the avoidance runs serially, then across cores
        monkeypatch.setattr(launch, "PARALLEL_MIN", parallel_from)
        agents = crowd(700, 800.0, 10)
        debug: Debug = {}
        force = AvoidWalls(walls)(agents, DT, debug)
        results.append((force, *_read(WallsDebug, debug)))
    # Then the forces and debug rows are the same to the bit, and many agents react
    for a, b in zip(*results, strict=True):
        np.testing.assert_array_equal(a, b)
    assert (results[0][3] >= 0).sum() > 50  # WallsDebug.wall


def _read(kind: Any, debug: Debug) -> tuple[Any, ...]:
    """The ``kind`` debug record's fields in ``debug``."""
    record = read(kind, debug)
    assert record is not None
    return tuple(record)


def test_replacing_the_radii_with_the_wrong_count_is_refused_at_the_call() -> None:
    obs = Obstacles.create([[0.0, 0.0], [50.0, 0.0]], 10.0)
    obs.radii = np.array([10.0])
    with pytest.raises(ValueError, match="radii"):
        AvoidObstacles(obs)(AgentGroup.create([[0.0, 0.0]]), DT)
