"""The path registry and one FollowPath over many paths: equal to one call per path, edits and
drift included; Limited replaces limits without touching the agents."""

from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from steering import (
    AgentGroup,
    DriftingPath,
    FollowPath,
    Limited,
    Path,
    PathSet,
    Seek,
)

pytestmark = pytest.mark.filterwarnings("error")

DT = 1 / 60


def _paths() -> list[tuple[str, Path]]:
    return [
        ("open", Path([(0, 0), (300, 0), (300, 200), (500, 260)], radius=15.0)),
        ("loop", Path([(600, 100), (800, 100), (800, 300), (600, 300)], closed=True, radius=25.0)),
        # a duplicate node (a zero-length segment) and a sharp corner
        ("bent", Path([(100, 400), (250, 420), (250, 420), (120, 520)], radius=10.0)),
        ("point", Path([(900, 500), (900, 500)], radius=5.0)),
    ]


def _agents(rng: np.random.Generator, n: int) -> AgentGroup:
    pos = rng.uniform((-50, -50), (950, 600), (n, 2))
    vel = rng.uniform(-150, 150, (n, 2))
    return AgentGroup.create(
        pos, vel, max_speed=rng.uniform(60, 180, n), max_force=rng.uniform(100, 500, n)
    )


def _per_path(
    paths: list[tuple[str, Path]],
    agents: AgentGroup,
    index: np.ndarray,
    reverse: np.ndarray,
    followers: dict[tuple[int, bool], FollowPath],
) -> np.ndarray:
    """The same step as one call per path and direction on sub-groups (the old way)."""
    out = np.zeros((agents.n, 2))
    for (slot, rev), follow in followers.items():
        rows = np.flatnonzero((index == slot) & (reverse == rev))
        if rows.size == 0:
            continue
        sub = agents.take(rows)
        out[rows] = follow(sub, DT)
        agents.put_state(rows, sub)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40))
def test_one_call_over_many_paths_equals_one_call_per_path(seed: int, n: int) -> None:
    # Given agents on four paths (one of them a point), some walking backwards, some on none
    rng = np.random.default_rng(seed)
    paths = _paths()
    registry = PathSet(paths)
    many = _agents(rng, n)
    index = rng.integers(-1, len(paths), n)
    reverse = rng.random(n) < 0.4
    together = FollowPath(registry)
    param = together.param(many)
    param.path_index[:] = index
    param.direction[:] = np.where(reverse, -1.0, 1.0)
    one = AgentGroup.create(many.pos, many.vel, max_speed=many.max_speed, max_force=many.max_force)
    followers = {
        (k, rev): FollowPath(path, reverse=rev)
        for k, (_, path) in enumerate(paths)
        for rev in (False, True)
    }
    for step in range(6):
        # When both step (with an edit of two paths half way)
        if step == 3:
            paths[0][1].move_node(1, (320.0, 30.0))
            paths[1][1].insert_node(2, (850.0, 200.0))
        a = together(many, DT)
        b = _per_path(paths, one, index, reverse, followers)
        # Then forces and every agent's memory are equal to 1e-9; agents on no path get none
        np.testing.assert_allclose(a, b, atol=1e-9, rtol=0)
        on = index >= 0
        assert (a[~on] == 0).all()
        if not on.any():
            continue
        for col in ("path.nearest", "path.progress"):
            np.testing.assert_allclose(
                many.state[col][on], one.state[col][on], atol=1e-9, rtol=0, equal_nan=True
            )
        assert np.isfinite(many.state["path.nearest"][on]).all()
        many.pos += many.vel * DT
        one.pos += one.vel * DT


def test_whole_path_search_finds_the_same_point_as_path_project() -> None:
    # Given random points and every path of the registry
    rng = np.random.default_rng(4)
    paths = _paths()
    registry = PathSet(paths)
    pts = rng.uniform(-100, 1000, (200, 2))
    for k, (_, path) in enumerate(paths):
        # When projected through the registry and through the path itself
        s, pt = registry.project(np.full(200, k), pts)
        own = path.project(pts)
        # Then the nearest points agree (arc lengths too, off the point path)
        np.testing.assert_allclose(pt, own.point, atol=1e-9)
        np.testing.assert_allclose(s, own.s, atol=1e-9)


def test_drift_moves_every_drifting_path_in_one_pass_and_followers_keep_their_place() -> None:
    # Given two drifting paths and a follower on each
    paths = _paths()[:2]
    registry = PathSet(paths)
    for k, (name, path) in enumerate(paths):
        registry.set_drift(name, DriftingPath(path.nodes.copy(), (10.0, 10.0), 1.0, seed=k))
    agents = AgentGroup.create([(150.0, 5.0), (700.0, 95.0)], [(100.0, 0.0), (100.0, 0.0)])
    follow = FollowPath(registry)
    follow.param(agents).path_index[:] = [0, 1]
    follow(agents, DT)
    before = follow.nearest(agents).copy()
    versions = [p.version for _, p in paths]
    # When time passes
    registry.drift(0.5)
    # Then each path is where its own DriftingPath puts it, with no edit recorded
    for name, path in paths:
        drift = registry.drift_of(name)
        assert drift is not None
        np.testing.assert_array_equal(path.nodes, drift.nodes_at(0.5))
    assert [p.version for _, p in paths] == versions
    # And the followers carry on from (about) the same place
    follow(agents, DT)
    assert np.abs(follow.nearest(agents) - before).max() < 25.0


def test_drifted_geometry_is_the_geometry_packed_afresh() -> None:
    # Given three drifting paths, one with a zero-length segment, drifted to some time
    paths = _paths()
    registry = PathSet(paths)
    for k, (name, path) in enumerate(paths):
        registry.set_drift(name, DriftingPath(path.nodes.copy(), (8.0, 5.0), 0.7, seed=k))
    registry.drift(1.25)
    drifted = registry.geometry()
    # Then every packed array equals a registry of the same nodes built from scratch
    fresh = PathSet(
        [(name, Path(p.nodes.copy(), closed=p.closed, radius=p.radii.copy())) for name, p in paths]
    ).geometry()
    np.testing.assert_array_equal(drifted.sf, fresh.sf)
    np.testing.assert_array_equal(drifted.real, fresh.real)
    np.testing.assert_array_equal(drifted.unit, fresh.unit)
    # and every real segment's unit direction has length 1
    seg = drifted.seg_len > 0
    assert seg.any()
    norm = np.hypot(drifted.unit[seg, 0], drifted.unit[seg, 1])
    np.testing.assert_allclose(norm, 1.0, rtol=1e-12)
    # Undrifted, a zero-length segment takes the direction of the real one before it, and a
    # path of one point has none
    still = PathSet(_paths()[2:]).geometry()
    bent = still.unit[:3]
    np.testing.assert_array_equal(bent[1], bent[0])
    np.testing.assert_allclose(bent[0], np.array([150.0, 20.0]) / np.hypot(150.0, 20.0))
    np.testing.assert_array_equal(still.unit[3:], 0.0)


def _assert_packed_afresh(registry: PathSet) -> None:
    """Every packed array of ``registry`` equals a registry of copies of its paths, built
    from scratch."""
    got = registry.geometry()
    fresh = PathSet(
        [
            (name, Path(p.nodes.copy(), closed=p.closed, radius=p.radii.copy()))
            for name, p in registry.items()
        ]
    ).geometry()
    for mine, theirs in zip(got.packed[1:], fresh.packed[1:], strict=True):  # pi, sf, real, first
        np.testing.assert_array_equal(mine, theirs)
    # pf, but for the paths' uids and versions (the copies are other paths)
    np.testing.assert_array_equal(got.pf[:, :4], fresh.pf[:, :4])


def test_drifts_between_queries_repack_in_place_as_afresh_and_edits_still_count() -> None:
    # Given four paths, three drifting (one through a zero-length segment and one a single
    # point, which collapses and opens again), their arrays already made
    paths = _paths()
    registry = PathSet(paths)
    for k, (name, path) in enumerate(paths[1:]):
        registry.set_drift(name, DriftingPath(path.nodes.copy(), (9.0, 6.0), 1.3, seed=k))
    geo = registry.geometry()
    for step in range(40):
        # When time passes a step at a time
        registry.drift(step / 7)
        # Then the arrays are packed again in place, equal to arrays packed from scratch
        assert registry.geometry() is geo
        _assert_packed_afresh(registry)
    # When a path that does not drift is edited, the next query builds new arrays
    paths[0][1].move_node(1, (310.0, 15.0))
    edited = registry.geometry()
    assert edited is not geo
    _assert_packed_afresh(registry)
    np.testing.assert_array_equal(edited.ax[:2], [0.0, 310.0])
    # and drifting goes on in them
    registry.drift(9.5)
    assert registry.geometry() is edited
    _assert_packed_afresh(registry)
    # When a path is replaced or removed, and when a path of another registry changes, the
    # arrays follow (drifts straight after a replacement repack again)
    registry["open"] = Path([(0, 0), (40, 0), (40, 40)], radius=7.0)
    registry.drift(9.75)
    _assert_packed_afresh(registry)
    geo = registry.geometry()
    registry.drift(9.8)
    assert registry.geometry() is geo
    _assert_packed_afresh(registry)
    other = PathSet([("x", Path([(0, 0), (10, 0)]))])
    other.set_drift("x", DriftingPath(np.array([(0.0, 0.0), (10.0, 0.0)]), (1.0, 1.0), 1.0))
    other.geometry()
    other.drift(1.0)
    registry.drift(10.0)
    _assert_packed_afresh(registry)
    del registry["loop"]
    registry.drift(10.25)
    assert registry.geometry().live.tolist() == [True, False, True, True]
    # And a drifting path edited to another node count is refused by name on the next drift,
    # though nothing else changed in between
    registry.geometry()
    paths[2][1].insert_node(1, (180.0, 410.0))
    with pytest.raises(ValueError, match="path 'bent': nodes: drift_nodes keeps the node count"):
        registry.drift(10.5)


def test_a_drifting_path_held_in_two_slots_moves_in_both() -> None:
    # Given one path under two names, drifting under one of them, its arrays made
    path = Path([(0, 0), (100, 0), (100, 100)], radius=5.0)
    registry = PathSet([("a", path), ("b", path)])
    registry.set_drift("a", DriftingPath(path.nodes.copy(), (0.0, 30.0), 1.0))
    registry.geometry()
    for t in (1.0, 1.5):
        # When it drifts
        registry.drift(t)
        # Then both slots hold where it is now
        both = registry.point_at(np.array([0, 1]), np.zeros(2))
        np.testing.assert_array_equal(both, [path.point_at(0.0), path.point_at(0.0)])
        _assert_packed_afresh(registry)
    # and so after it is added under a third name later
    registry["c"] = path
    registry.geometry()
    registry.drift(2.0)
    _assert_packed_afresh(registry)
    np.testing.assert_array_equal(registry.geometry().first[2], path.nodes[0])


def test_a_drift_to_a_time_that_is_not_finite_is_refused_and_moves_nothing() -> None:
    paths = _paths()[:2]
    registry = PathSet(paths)
    for k, (name, path) in enumerate(paths):
        registry.set_drift(name, DriftingPath(path.nodes.copy(), (10.0, 10.0), 1.0, seed=k))
    registry.drift(0.5)
    before = [p.nodes.copy() for _, p in paths]
    with pytest.raises(ValueError, match=r"path 'open': nodes: .* not finite"):
        registry.drift(float("inf"))
    for (_, path), nodes in zip(paths, before, strict=True):
        np.testing.assert_array_equal(path.nodes, nodes)
    # A path edited to another node count under its drift is refused by name, and the other
    # drifting path does not move either
    paths[1][1].insert_node(1, (700.0, 100.0))
    before = [p.nodes.copy() for _, p in paths]
    with pytest.raises(ValueError, match="path 'loop': nodes: drift_nodes keeps the node count"):
        registry.drift(0.75)
    for (_, path), nodes in zip(paths, before, strict=True):
        np.testing.assert_array_equal(path.nodes, nodes)


def test_removed_path_leaves_its_slot_and_its_agents_get_no_force() -> None:
    paths = _paths()
    registry = PathSet(paths)
    agents = AgentGroup.create([(100.0, 10.0), (700.0, 90.0)], [(0.0, 0.0), (0.0, 0.0)])
    follow = FollowPath(registry)
    follow.param(agents).path_index[:] = [0, 1]
    assert (np.abs(follow(agents, DT)) > 0).any(axis=1).all()
    del registry["open"]
    force = follow(agents, DT)
    assert registry.slot("loop") == 1 and registry.at(0) is None
    assert (force[0] == 0).all() and (force[1] != 0).any()
    assert np.isfinite(force).all()


def test_limited_replaces_limits_without_touching_the_agents() -> None:
    # Given agents with max speed 100 and max force 400, seeking a point far away
    agents = AgentGroup.create([(0.0, 0.0), (0.0, 10.0)], max_speed=100.0, max_force=400.0)
    seek = Seek((1000.0, 0.0))
    # When seek runs under a limiter of 60 px/s (one agent) and 150 px/s^2
    slow = Limited(seek, max_speed=np.array([60.0, 100.0]), max_force=150.0)
    force = slow(agents, DT)
    # Then the desired speed is the limiter's, the force within its max force
    # (gain 8/s: desired 60 px/s from rest -> 480 px/s^2, cut to 150)
    assert np.hypot(*force.T) == pytest.approx([150.0, 150.0])
    # And the agents keep their own limits
    assert agents.max_speed.tolist() == [100.0, 100.0]
    assert agents.max_force.tolist() == [400.0, 400.0]
    # And without a force limit only the speed changes: 8/s x 30 px/s = 240 px/s^2
    fast_force = Limited(seek, max_speed=30.0)(agents, DT)
    assert np.hypot(*fast_force.T) == pytest.approx([240.0, 240.0], rel=1e-3)


def _mixed_paths() -> list[tuple[str, Path]]:
    """Paths with a radius per segment beside paths with one radius (a zero-length segment
    and a point included)."""
    return [
        ("open", Path([(0, 0), (300, 0), (300, 200), (500, 260)], radius=[40.0, 6.0, 20.0])),
        ("loop", Path([(600, 100), (800, 100), (800, 300), (600, 300)], closed=True, radius=25.0)),
        (
            "bent",
            Path([(100, 400), (250, 420), (250, 420), (120, 520)], radius=[30.0, 1.0, 4.0]),
        ),
        (
            "ring",
            Path([(650, 400), (850, 400), (750, 560)], closed=True, radius=[5.0, 50.0, 15.0]),
        ),
        ("point", Path([(900, 500), (900, 500)], radius=5.0)),
    ]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40))
def test_per_segment_radii_over_many_paths_equal_one_call_per_path(seed: int, n: int) -> None:
    # Given agents on paths with per-segment radii and with one radius, some in reverse
    rng = np.random.default_rng(seed)
    paths = _mixed_paths()
    registry = PathSet(paths)
    many = _agents(rng, n)
    index = rng.integers(-1, len(paths), n)
    reverse = rng.random(n) < 0.4
    together = FollowPath(registry)
    param = together.param(many)
    param.path_index[:] = index
    param.direction[:] = np.where(reverse, -1.0, 1.0)
    one = AgentGroup.create(many.pos, many.vel, max_speed=many.max_speed, max_force=many.max_force)
    followers = {
        (k, rev): FollowPath(path, reverse=rev)
        for k, (_, path) in enumerate(paths)
        for rev in (False, True)
    }
    for step in range(6):
        # When both step, with live radius and node edits half way
        if step == 3:
            paths[0][1].set_radius([8.0, 60.0, 20.0])
            paths[3][1].insert_node(1, (750.0, 380.0))
            paths[1][1].radius = 9.0
        debug_a: dict[str, np.ndarray] = {}
        a = together(many, DT, debug_a)
        b = _per_path(paths, one, index, reverse, followers)
        # Then forces, memory and the radius each agent was held to are equal
        np.testing.assert_allclose(a, b, atol=1e-9, rtol=0)
        on = index >= 0
        if on.any():
            for col in ("path.nearest", "path.progress"):
                np.testing.assert_allclose(
                    many.state[col][on], one.state[col][on], atol=1e-9, rtol=0
                )
            radius = debug_a["path.radius"][on]
            assert all(r in paths[k][1].radii for r, k in zip(radius, index[on], strict=True))
        many.pos += many.vel * DT
        one.pos += one.vel * DT


def test_registry_radius_at_is_each_paths_own() -> None:
    paths = _mixed_paths()
    registry = PathSet(paths)
    for k, (_, path) in enumerate(paths):
        s = np.linspace(-10.0, path.length + 10.0, 37)
        np.testing.assert_array_equal(registry.radius_at(np.full(37, k), s), path.radius_at(s))
    # a NaN arc length reads as the start
    assert registry.radius_at(np.array([0]), np.array([np.nan])).tolist() == [40.0]
    # geometry keeps each path's largest radius (the search window grows with it)
    np.testing.assert_array_equal(registry.geometry().radius, [40.0, 25.0, 30.0, 50.0, 5.0])


def test_path_param_is_the_agents_place_as_arrays_and_the_guide_example_runs() -> None:
    # The guide's example runs as written
    guide = pathlib.Path(__file__).resolve().parents[3] / "docs" / "steering.md"
    (block,) = [
        b
        for b in re.findall(r"```py\n(.*?)```", guide.read_text(encoding="utf-8"), re.S)
        if "param(agents)" in b
    ]
    exec(block, {})
    # Given two agents on a line, one told to walk it backwards
    line = Path(np.array([(0.0, 0.0), (400.0, 0.0)]))
    registry = PathSet([("line", line)])
    agents = AgentGroup.create([(200.0, 30.0), (200.0, 30.0)], [(0.0, 0.0), (0.0, 0.0)])
    follow = FollowPath(registry, arrive_at_end=False)
    param = follow.param(agents)
    assert param.path_index.tolist() == [-1.0, -1.0]  # made with no path
    assert param.direction.tolist() == [0.0, 0.0]
    param.path_index[:] = registry.slot("line")
    param.direction[:] = [1.0, -1.0]
    force = follow(agents, DT)
    # Then each steers along the line its own way, and its place is in the same arrays
    assert force[0, 0] > 0.0 > force[1, 0]
    assert follow.param(agents).progress is param.progress
    np.testing.assert_allclose(param.progress, [200.0, 200.0])
    # direction 0 is the behaviour's own: reverse walks backwards
    param.direction[:] = 0.0
    assert (FollowPath(registry, reverse=True, arrive_at_end=False)(agents, DT)[:, 0] < 0).all()
    # and the arrays follow the agents: a new agent has no path
    agents.add([(10.0, 0.0)])
    again = follow.param(agents)
    assert again.path_index.tolist() == [0.0, 0.0, -1.0]
    assert again.direction.tolist() == [0.0, 0.0, 0.0]


def test_path_param_of_a_single_path_leaves_every_agent_on_it() -> None:
    # (the index column param() makes read as "no path" for every agent of a single Path)
    line = Path(np.array([(0.0, 0.0), (400.0, 0.0)]))
    agents = AgentGroup.create([(100.0, 30.0), (300.0, 30.0)], [(0.0, 0.0), (0.0, 0.0)])
    follow = FollowPath(line, arrive_at_end=False)
    before = follow(agents, DT).copy()
    param = follow.param(agents)
    assert (np.abs(follow(agents, DT)) > 0).any(axis=1).all()
    param.direction[:] = [1.0, -1.0]
    force = follow(agents, DT)
    assert force[0, 0] > 0.0 > force[1, 0]
    assert before[1, 0] > 0.0  # forwards before the direction was set


def test_the_old_reverse_column_is_refused_with_what_replaced_it() -> None:
    registry = PathSet(_paths())
    agents = AgentGroup.create([(100.0, 10.0)], [(0.0, 0.0)])
    follow = FollowPath(registry)
    follow.param(agents).path_index[:] = 0
    del agents.state["path.direction"]
    agents.column("path.reverse")[:] = 1.0
    with pytest.raises(ValueError, match=r"path\.reverse.*param\(agents\)\.direction"):
        follow(agents, DT)


def test_a_pathset_refuses_two_paths_of_one_name() -> None:
    from steering import Path as SteerPath
    from steering import PathSet

    line = SteerPath([(0.0, 0.0), (100.0, 0.0)])
    with pytest.raises(ValueError, match="'loop' is given twice"):
        PathSet([("loop", line), ("loop", line)])
