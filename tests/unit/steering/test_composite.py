"""Composites: a tree of combinators runs as one compiled loop that gives what calling each
part on its own and combining the forces by the combinators' definitions gives."""

from __future__ import annotations

import copy
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from steering import (
    AgentGroup,
    Arrive,
    AvoidWalls,
    Contain,
    Evade,
    FirstNonZero,
    Flee,
    FlowField,
    FollowFlow,
    Interpose,
    Limited,
    Masked,
    MatchVelocity,
    Pursue,
    Queue,
    Seek,
    TruncatedRunningSum,
    Walls,
    Wander,
    Weighted,
    composite,
    launch,
    shapes,
)
from steering.base import Debug
from steering.debug import PriorityDebug, SeekDebug, read
from steering.vec import FloatArray

N = 7


@dataclass
class Fixed:
    """An outside behaviour (plain Python): fixed forces for the rows it is called on."""

    forces: FloatArray

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        if agents.n == self.forces.shape[0]:
            return self.forces.copy()
        # called on a masked sub-group: each agent keeps its own force, found by position
        rows = [int(np.flatnonzero((p == POS).all(axis=1))[0]) for p in agents.pos]
        return self.forces[rows].copy()


rng0 = np.random.default_rng(5)
POS = rng0.uniform(-100, 100, (N, 2))
VEL = rng0.uniform(-50, 50, (N, 2))


def _agents() -> AgentGroup:
    return AgentGroup.create(
        POS.copy(), VEL.copy(), max_speed=rng0.uniform(20, 80, N), max_force=rng0.uniform(5, 60, N)
    )


def _wandering() -> AgentGroup:
    """:func:`_agents` with their wander angles set (so that no part draws fresh ones)."""
    agents = _agents()
    agents.column("wander.angle")[:] = rng0.uniform(-math.pi, math.pi, N)
    return agents


def _truncate(f: FloatArray, cap: FloatArray) -> FloatArray:
    norm = np.hypot(f[:, 0], f[:, 1])
    scale = np.where(norm > cap, cap / np.where(norm > 0, norm, 1.0), 1.0)
    return f * scale[:, None]


def _running(forces: list[FloatArray], weights: list[float], cap: FloatArray) -> FloatArray:
    """Buckland's running sum, row by row, in Python."""
    out = np.zeros((N, 2))
    for i in range(N):
        tx = ty = 0.0
        for f, w in zip(forces, weights, strict=True):
            fx, fy = f[i, 0] * w, f[i, 1] * w
            remaining = max(cap[i] - math.hypot(tx, ty), 0.0)
            flen = math.hypot(fx, fy)
            if not flen <= remaining:
                if not flen < math.inf:
                    fx = fy = 0.0
                elif flen > 1e-9:
                    fx, fy = fx * remaining / flen, fy * remaining / flen
            tx, ty = tx + fx, ty + fy
        out[i] = tx, ty
    return _truncate(out, cap)


def _first(forces: list[FloatArray], eps: float, cap: FloatArray) -> FloatArray:
    out = np.zeros((N, 2))
    for i in range(N):
        for f in forces:
            if math.hypot(f[i, 0], f[i, 1]) > eps:
                out[i] = f[i]
                break
    return _truncate(out, cap)


def reference(node: Any, agents: AgentGroup, speed: FloatArray, cap: FloatArray) -> FloatArray:
    """``node``'s forces from its parts called on their own, combined in NumPy."""
    if isinstance(node, Masked):
        # the rows the mask skips keep their memory (a wander angle) as the loop leaves it
        kept = {k: v.copy() for k, v in agents.state.items()}
        f = reference(node.behaviour, agents, speed, cap)
        f[~node.mask] = 0.0
        for k, v in kept.items():
            agents.state[k][~node.mask] = v[~node.mask]
        return f
    if isinstance(node, Limited):
        s = speed if node.max_speed is None else np.broadcast_to(node.max_speed, (N,)) * 1.0
        c = cap if node.max_force is None else np.broadcast_to(node.max_force, (N,)) * 1.0
        f = reference(node.behaviour, agents, s, c)
        return f if node.max_force is None else _truncate(f, c)
    if isinstance(node, TruncatedRunningSum):
        items = [p if isinstance(p, Weighted) else Weighted(p, 1.0) for p in node.parts]
        forces = [reference(p.behaviour, agents, speed, cap) for p in items]
        return _running(forces, [p.weight for p in items], cap)
    if isinstance(node, FirstNonZero):
        forces = [reference(p, agents, speed, cap) for p in node.parts]
        return _first(forces, node.epsilon, cap)
    if isinstance(node, Fixed):
        return node.forces.copy()
    # a compiled part, called alone on a group with these limits
    return np.asarray(node(agents.with_limits(speed, cap), 1 / 60))


masks = st.lists(st.booleans(), min_size=N, max_size=N).map(lambda b: np.array(b, dtype=bool))
points = st.one_of(
    st.tuples(st.floats(-150, 150), st.floats(-150, 150)),
    st.integers(0, 2**31).map(lambda s: np.random.default_rng(s).uniform(-150, 150, (N, 2))),
)
limits = st.one_of(
    st.none(),
    st.floats(0, 100),
    st.integers(0, 2**31).map(lambda s: np.random.default_rng(s).uniform(0, 100, N)),
)

#: A rectangle's low and high edge on one axis, around the agents' box of +-100 px.
edges = st.tuples(st.floats(-150, 0), st.floats(1, 150))


def _walls(seed: int) -> Walls:
    """Eight walls of 20-120 px across the agents' box."""
    r = np.random.default_rng(seed)
    start = r.uniform(-120, 120, (8, 2))
    turn = r.uniform(0, 2 * math.pi, 8)
    end = start + r.uniform(20, 120, (8, 1)) * np.stack([np.cos(turn), np.sin(turn)], axis=1)
    return Walls(start, end)


class _Mirrored:
    """A flow source that is not a grid: a vortex's vectors, mirrored in x."""

    def __init__(self, field: FlowField) -> None:
        self.field = field

    def lookup(self, points: FloatArray, bilinear: bool = True) -> FloatArray:
        return self.field.lookup(points, bilinear) * np.array([-1.0, 1.0])

    def contains(self, points: FloatArray) -> NDArray[np.bool_]:
        return self.field.contains(points)


def _flow(a: tuple[bool, float, bool, bool, bool]) -> FollowFlow:
    """FollowFlow over a vortex of 30 px cells around part of the agents' box: its grid, or a
    source that is not one."""
    field = FlowField.vortex(6, 8, 30.0, origin=(-120.0, -90.0), pull=0.3)
    source, predict, bilinear, scales, zero = a
    return FollowFlow(
        _Mirrored(field) if source else field,
        predict_time=predict,
        bilinear=bilinear,
        strength_scales_speed=scales,
        outside="zero" if zero else "clamp",
    )


#: Another group for the parts that may search one (``others``): more agents than the
#: group's, a few coincident with it.
OTHERS = AgentGroup.create(
    np.concatenate([POS[:3], rng0.uniform(-100, 100, (3 * N, 2))]),
    rng0.uniform(-50, 50, (3 * N + 3, 2)),
)
others = st.sampled_from([None, None, OTHERS])


def leaves() -> st.SearchStrategy[Any]:
    return st.one_of(
        points.map(Seek),
        st.tuples(points, st.floats(0, 300)).map(lambda a: Flee(a[0], panic_distance=a[1])),
        st.tuples(points, st.floats(1, 200)).map(lambda a: Arrive(a[0], slowing_radius=a[1])),
        st.tuples(points, points).map(lambda a: Pursue(a[0], a[1])),
        st.tuples(points, points, st.floats(0, 300)).map(
            lambda a: Evade(a[0], a[1], panic_distance=a[2])
        ),
        st.tuples(edges, edges, st.floats(0, 30), st.floats(0, 1)).map(
            lambda a: Contain(a[0][0], a[1][0], a[0][1], a[1][1], margin=a[2], lookahead=a[3])
        ),
        st.tuples(st.integers(0, 2**31), st.floats(0, 60), st.floats(0, 40)).map(
            lambda a: Wander(np.random.default_rng(a[0]), circle_distance=a[1], circle_radius=a[2])
        ),
        st.tuples(st.integers(0, 2**31), st.floats(0, 120), st.floats(0, 90)).map(
            lambda a: AvoidWalls(_walls(a[0]), feeler_length=a[1], feeler_angle=a[2])
        ),
        st.tuples(st.booleans(), st.floats(0, 2), st.booleans(), st.booleans(), st.booleans()).map(
            _flow
        ),
        points.map(MatchVelocity),
        st.tuples(points, points, points, points, st.floats(-0.5, 1.5)).map(
            lambda a: Interpose(a[0], a[1], a[2], a[3], ratio=a[4])
        ),
        st.tuples(st.floats(0, 120), st.floats(0, 360), st.floats(0, 2), others).map(
            lambda a: Queue(distance=a[0], fov=a[1], brake=a[2], others=a[3])
        ),
        st.integers(0, 2**31).map(lambda s: Fixed(np.random.default_rng(s).normal(0, 40, (N, 2)))),
    )


def trees(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    weighted = st.tuples(children, st.floats(-2, 2)).map(lambda a: Weighted(a[0], a[1]))
    return st.one_of(
        st.tuples(children, masks).map(lambda a: Masked(a[0], a[1])),
        st.tuples(children, limits, limits).map(lambda a: Limited(a[0], a[1], a[2])),
        st.lists(st.one_of(children, weighted), min_size=1, max_size=3).map(TruncatedRunningSum),
        st.tuples(st.lists(children, min_size=1, max_size=3), st.floats(0, 5)).map(
            lambda a: FirstNonZero(a[0], a[1])
        ),
    )


# Derandomized: each new shape of tree compiles once (about a second) and is cached, so the
# same examples each run keep the suite fast after the first.
@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.recursive(leaves(), trees, max_leaves=5))
def test_a_compiled_tree_equals_its_parts_called_alone(tree: Any) -> None:
    # Given agents with their own limits and a random tree of combinators, and twins of both
    # (parts with memory or random draws, such as wander, run on each once)
    agents = _wandering()
    twin, mirror = copy.deepcopy(agents), copy.deepcopy(tree)
    # When the tree runs as one compiled loop, and its twin by the reference
    got = tree(agents, 1 / 60)
    want = reference(mirror, twin, twin.max_speed, twin.max_force)
    # Then both agree to 1e-9 px/s^2, every force is finite, and so does the memory
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    for key, column in agents.state.items():
        np.testing.assert_allclose(column, twin.state[key], rtol=0, atol=1e-12)


def test_a_mask_is_a_test_per_row_and_per_agent_targets_keep_their_rows() -> None:
    # Given a per-agent target and a mask of every other agent
    agents = _agents()
    targets = np.arange(2 * N, dtype=float).reshape(N, 2) * 10
    mask = np.arange(N) % 2 == 0
    debug: Debug = {}
    # When the masked seek runs
    got = Masked(Seek(targets), mask)(agents, 1 / 60, debug)
    # Then the selected rows are seek's own forces for their own targets, the others zero
    alone = Seek(targets)(agents, 1 / 60)
    np.testing.assert_array_equal(got[mask], alone[mask])
    assert (got[~mask] == 0.0).all()
    # And the debug targets are the selected agents', NaN for the others
    record = read(SeekDebug, debug)
    assert record is not None
    np.testing.assert_array_equal(record.target[mask], targets[mask])
    assert np.isnan(record.target[~mask]).all()


def test_first_non_zero_reports_the_part_each_agent_took() -> None:
    agents = _agents()
    near = (float(POS[0, 0]), float(POS[0, 1]))
    debug: Debug = {}
    FirstNonZero([Flee(near, panic_distance=1.0), Seek((500.0, 0.0))])(agents, 1 / 60, debug)
    record = read(PriorityDebug, debug)
    assert record is not None
    # agent 0 stands on the flee point (within 1 px): it flees; every other agent seeks
    assert record.chosen.tolist() == [0] + [1] * (N - 1)


def test_a_shape_is_generated_once_and_written_to_the_cache(tmp_path: Path) -> None:
    # Given a tree of a shape this process has not run
    tree = TruncatedRunningSum(
        [Masked(Flee((0.0, 0.0)), np.ones(N, bool)), Limited(Arrive((9.0, 9.0)), 10.0, None)]
    )
    # When it runs twice
    tree(_agents(), 1 / 60)
    seen = composite.compiled_shapes()
    tree(_agents(), 1 / 60)
    # Then its shape was compiled once, and its source names the parts' per-agent functions
    assert composite.compiled_shapes() == seen
    # (other tests of this process may have compiled shapes of the same kinds, other parts)
    parts = [("running", None), ("mask", None), ("row", Flee), ("limit", None), ("row", Arrive)]
    shape = next(s for s in seen if [(k, p) for k, _, p in s] == parts)
    source = shapes.source_of(shape)
    assert "flee_row" in source and "arrive_row" in source and ".mask[i]" in source
    folder = shapes.cache_folder()
    assert folder is not None
    assert any(p.read_text(encoding="utf-8") == source for p in folder.glob("*.py"))


def test_with_no_writable_folder_a_composite_compiles_uncached(tmp_path: Path) -> None:
    # Given an interpreter whose engine folder, numba cache and home cannot be written
    code = (
        "import numpy as np, steering as st\n"
        "from steering import shapes\n"
        "shapes.cache_folder = lambda: None\n"
        "a = st.AgentGroup.create([[0.0, 0.0], [10.0, 0.0]])\n"
        "f = st.Masked(st.Seek((5.0, 5.0)), np.array([True, False]))(a, 1 / 60)\n"
        "assert f[1].tolist() == [0.0, 0.0] and np.isfinite(f).all()\n"
        "print('ok')\n"
    )
    # When a composite runs, it compiles in memory and works
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_the_parallel_loop_writes_what_the_serial_one_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a tree whose parts keep memory and write debug rows (path progress, an avoidance
    # side, neighbour counts), on twin crowds
    from steering import AvoidObstacles, FollowPath, Obstacles, Path, Separate

    rng = np.random.default_rng(9)
    n = 600
    path = Path([(0.0, 0.0), (400.0, 0.0), (400.0, 400.0)], radius=15.0)
    rocks = Obstacles.create(rng.uniform(0, 400, (40, 2)), rng.uniform(5, 20, 40))
    results = []
    for parallel_from in (10**9, 1):
        monkeypatch.setattr(launch, "PARALLEL_MIN", parallel_from)
        crowd = AgentGroup.create(
            np.random.default_rng(1).uniform(0, 400, (n, 2)),
            np.random.default_rng(2).normal(0, 40, (n, 2)),
        )
        tree = TruncatedRunningSum(
            [AvoidObstacles(rocks), Separate(20.0), Masked(FollowPath(path), np.arange(n) % 3 > 0)]
        )
        debug: Debug = {}
        force = np.concatenate([tree(crowd, 1 / 60, debug) for _ in range(3)])
        memory = {k: v.copy() for k, v in crowd.state.items()}
        results.append((force, memory, {k: np.asarray(v).copy() for k, v in debug.items()}))
    # When the same steps run serially and across cores, then every force, memory column and
    # debug array is the same
    (f1, m1, d1), (f2, m2, d2) = results
    np.testing.assert_array_equal(f1, f2)
    assert m1.keys() == m2.keys() and d1.keys() == d2.keys()
    for key in m1:
        np.testing.assert_array_equal(m1[key], m2[key])
    for key in d1:
        np.testing.assert_array_equal(d1[key], d2[key])
    assert np.isfinite(m1["path.progress"][np.arange(n) % 3 > 0]).all()


def _edited_path_case() -> tuple[Any, AgentGroup]:
    from steering import Path

    path = Path(np.array([[0, 0], [200, 0], [400, 0], [600, 0]], float), radius=10.0)
    agents = AgentGroup.create(
        np.array([[50, 5], [150, 5], [250, 5], [350, -5.0]]),
        np.array([[30.0, 0]] * 4),
        max_speed=60.0,
        max_force=100.0,
    )
    return path, agents


def test_agents_masked_out_after_a_path_edit_are_carried_across_it_once() -> None:
    # Given four agents with a place on a path, two of them masked out
    from steering import FollowPath

    path, agents = _edited_path_case()
    follow = FollowPath(path)
    masked = Masked(follow, np.ones(4, dtype=bool))
    masked(agents, 0.1)
    masked.mask[:] = [True, False, True, False]
    before = follow.nearest(agents).copy()
    # When a node is put before the start (every arc length +100) and three steps run
    path.insert_node(0, (-100.0, 0.0))
    for _ in range(3):
        masked(agents, 0.1)
    # Then the masked agents' places moved by the edit once, not once a step
    np.testing.assert_allclose(follow.nearest(agents)[[1, 3]], before[[1, 3]] + 100.0)


def test_one_path_following_twice_in_a_tree_carries_an_edit_once() -> None:
    # Given the same FollowPath in two branches that never overlap
    from steering import FollowPath

    path, agents = _edited_path_case()
    follow = FollowPath(path)
    rows = np.array([True, False, True, False])
    tree = FirstNonZero([Masked(follow, rows), Masked(Limited(follow, max_speed=30.0), ~rows)])
    tree(agents, 0.1)
    before = follow.nearest(agents).copy()
    # When a node is put before the start (every arc length +100) and the tree steps
    path.insert_node(0, (-100.0, 0.0))
    tree(agents, 0.1)
    # Then each agent's place moved by the edit once (the agents are still on it)
    np.testing.assert_allclose(follow.nearest(agents) - before, 100.0, atol=1e-9)


def test_nested_first_non_zero_keeps_the_outer_choice_in_debug() -> None:
    agents = AgentGroup.create(np.array([[0.0, 0], [10, 0], [20, 0], [30, 0]]))
    inner = FirstNonZero([Flee((100.0, 0.0)), Seek((0.0, 5.0))])
    tree = FirstNonZero([Masked(Seek((0.0, 0.0)), np.array([0, 1, 0, 1], bool)), inner])
    debug: Debug = {}
    tree(agents, 0.1, debug)
    record = read(PriorityDebug, debug)
    assert record is not None
    assert record.chosen.tolist() == [1, 0, 1, 0]


def _ported() -> list[Any]:
    """One of each part the property test draws rarely, set to push these agents."""
    return [
        Contain(-60.0, -60.0, 60.0, 60.0),
        Wander(np.random.default_rng(4), circle_distance=30.0, circle_radius=25.0),
        AvoidWalls(_walls(3), feeler_length=90.0),
        _flow((False, 0.5, True, True, True)),
        _flow((True, 0.5, True, False, False)),
        MatchVelocity(np.random.default_rng(5).uniform(-60, 60, (N, 2))),
        Interpose((-50.0, 20.0), (80.0, -40.0), (10.0, 5.0), (-5.0, 0.0), ratio=0.3),
        Queue(distance=200.0, fov=360.0),
    ]


@pytest.mark.parametrize("index", range(len(_ported())))
def test_each_part_masked_and_limited_in_a_running_sum_equals_it_alone(index: int) -> None:
    # Given one part, pushing these agents, under a mask and a limit, before a weighted seek
    part = _ported()[index]
    mask = np.arange(N) % 3 != 1
    tree = TruncatedRunningSum(
        [Masked(Limited(part, 60.0, 40.0), mask), Weighted(Seek((0.0, 0.0)), 0.5)]
    )
    agents = _wandering()
    twin, mirror = copy.deepcopy(agents), copy.deepcopy(tree)
    assert np.abs(copy.deepcopy(part)(copy.deepcopy(agents), 1 / 60)).max() > 0.0
    # When the tree runs as one compiled loop, and its twin by the reference
    got = tree(agents, 1 / 60)
    want = reference(mirror, twin, twin.max_speed, twin.max_force)
    # Then both agree to 1e-9 px/s^2, and so does the memory
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    for key, column in agents.state.items():
        np.testing.assert_allclose(column, twin.state[key], rtol=0, atol=1e-12)
