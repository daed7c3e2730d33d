"""A composite keeps its last walk (:class:`steering.launch.Plan`) and replays it while the tree
is the same: every way of changing a tree between calls (a combinator's setting assigned, a list
of parts changed in place, agents added, another step, a mask emptied and filled again) gives
the forces a fresh copy of the tree gives, and a replayed call computes what a walked one does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Arrive,
    Limited,
    Masked,
    Seek,
    Separate,
    Staggered,
    TruncatedRunningSum,
    Wander,
    Weighted,
    WeightedSum,
    composite,
)

DT = 1.0 / 60.0


def _agents(n: int = 8) -> AgentGroup:
    rng = np.random.default_rng(11)
    return AgentGroup.create(
        rng.uniform(0, 300, (n, 2)), vel=rng.uniform(-50, 50, (n, 2)), max_force=5000.0
    )


def _tree(n: int = 8) -> TruncatedRunningSum:
    mask = np.arange(n) % 2 == 0
    return TruncatedRunningSum(
        [
            Weighted(Separate(120.0), 1.5),
            Masked(Limited(Seek(np.array([[250.0, 60.0]])), max_speed=40.0), mask),
            Weighted(Masked(Wander(np.random.default_rng(3)), ~mask), np.linspace(0.2, 1.0, n)),
            Weighted(WeightedSum([Arrive(np.array([[10.0, 290.0]])), Separate(25.0)]), 0.5),
        ]
    )


def _plan_of(tree: Any) -> Any:
    return composite.kept_plan(tree)


Change = Callable[[TruncatedRunningSum], None]


def _weight(tree: TruncatedRunningSum) -> None:
    tree.parts[0].weight = 0.25  # type: ignore[union-attr]


def _mask(tree: TruncatedRunningSum) -> None:
    tree.parts[1].mask = np.ones(8, dtype=bool)  # type: ignore[union-attr]


def _mask_in_place(tree: TruncatedRunningSum) -> None:
    tree.parts[1].mask[:] = ~tree.parts[1].mask  # type: ignore[union-attr]


def _limit(tree: TruncatedRunningSum) -> None:
    tree.parts[1].behaviour.max_speed = 90.0  # type: ignore[union-attr]


def _part_setting(tree: TruncatedRunningSum) -> None:
    tree.parts[1].behaviour.behaviour.target = np.array([[0.0, 0.0]])  # type: ignore[union-attr]


def _append(tree: TruncatedRunningSum) -> None:
    tree.parts.append(Weighted(Seek(np.array([[150.0, 150.0]])), 0.7))  # type: ignore[attr-defined]


def _replace(tree: TruncatedRunningSum) -> None:
    tree.parts[3].behaviour.parts[1] = Separate(60.0)  # type: ignore[union-attr,index]


def _remove(tree: TruncatedRunningSum) -> None:
    del tree.parts[0]  # type: ignore[attr-defined]


CHANGES = [_weight, _mask, _mask_in_place, _limit, _part_setting, _append, _replace, _remove]


@pytest.mark.parametrize("change", CHANGES, ids=[c.__name__[1:] for c in CHANGES])
def test_a_changed_tree_gives_what_a_fresh_copy_of_it_gives(change: Change) -> None:
    # Given a tree called until its plan is kept (and replayed)
    agents = _agents()
    tree = _tree()
    for _ in range(3):
        tree(agents, DT)
    assert _plan_of(tree) is not None
    # When it is changed, Then its next call equals a deep copy's (which walks afresh)
    change(tree)
    fresh = copy.deepcopy(tree)
    twin = copy.deepcopy(agents)
    np.testing.assert_array_equal(tree(agents, DT), fresh(twin, DT))


def test_agents_added_and_another_step_walk_again() -> None:
    agents = _agents()
    tree = TruncatedRunningSum([Separate(40.0), Masked(Seek((250.0, 60.0)), np.ones(8, bool))])
    tree(agents, DT)
    tree(agents, DT)
    first = _plan_of(tree)
    tree(agents, 2 * DT)
    assert _plan_of(tree) is not first  # another step: walked again
    agents.add(np.array([[5.0, 5.0]]))
    tree.parts[1].mask = np.ones(9, dtype=bool)  # type: ignore[union-attr]
    out = tree(agents, DT)
    fresh = TruncatedRunningSum([Separate(40.0), Masked(Seek((250.0, 60.0)), np.ones(9, bool))])
    np.testing.assert_array_equal(out, fresh(copy.deepcopy(agents), DT))


def test_a_part_whose_mask_selects_no_agent_is_not_bound_and_its_memory_stays() -> None:
    # Given wander masked to no agent, after a call where it ran
    agents = _agents()
    mask = np.ones(8, dtype=bool)
    wander = Wander(np.random.default_rng(5))
    tree = TruncatedRunningSum([Separate(30.0), Masked(wander, mask)])
    tree(agents, DT)
    mask[:] = False
    tree(agents, DT)
    angles = agents.state["wander.angle"].copy()
    state = copy.deepcopy(wander.rng.bit_generator.state)
    # When called again (replayed) with the mask still empty
    out = tree(agents, DT)
    # Then wander drew nothing, its agents' angles stayed, and its force is zero everywhere
    assert wander.rng.bit_generator.state == state
    np.testing.assert_array_equal(agents.state["wander.angle"], angles)
    np.testing.assert_array_equal(out, Separate(30.0)(copy.deepcopy(agents), DT))
    # And when the mask selects agents again, they wander as a fresh tree's would
    mask[::3] = True
    fresh = copy.deepcopy(tree)
    twin = copy.deepcopy(agents)
    np.testing.assert_array_equal(tree(agents, DT), fresh(twin, DT))


def test_replayed_calls_compute_what_walked_calls_compute() -> None:
    # Given twin trees and groups, one called with debug output (always walked), one without
    # (replayed after its first call), masks and a stagger turning under them
    played, debugged = _tree(), _tree()
    played.parts.append(Staggered(Seek((100.0, 100.0)), every=3))  # type: ignore[attr-defined]
    debugged.parts.append(Staggered(Seek((100.0, 100.0)), every=3))  # type: ignore[attr-defined]
    a, b = _agents(), _agents()
    rng = np.random.default_rng(2)
    replayed = 0
    for step in range(40):
        flip = rng.random(8) < 0.5
        for tree in (played, debugged):
            tree.parts[1].mask[:] = flip  # type: ignore[union-attr]
        plan = _plan_of(played)
        replayed += plan is not None and plan.holds(played, a, DT)
        fa = played(a, DT)
        fb = debugged(b, DT, {})
        # Then every step's forces are bit-identical, and so the agents' memory
        np.testing.assert_array_equal(fa, fb, err_msg=f"step {step}")
        for g in (a, b):  # in place (assigning a column is a change a plan walks again for)
            g.vel[:] += fa * DT
            g.pos[:] += g.vel * DT
    for key in a.state:
        np.testing.assert_array_equal(a.state[key], b.state[key], err_msg=key)
    assert _plan_of(played) is not None and _plan_of(debugged) is None
    assert replayed == 39  # every call after the first was a replay


def test_a_column_assigned_anew_is_the_one_read() -> None:
    # Given a kept plan, When the velocities are assigned as a new array (not in place)
    agents = _agents()
    tree = _tree()
    for _ in range(3):
        tree(agents, DT)
    version = agents.columns_version
    agents.vel = agents.vel[::-1].copy()
    assert agents.columns_version == version + 1
    # Then the next call reads the new array, as a fresh tree does
    fresh = copy.deepcopy(tree)
    twin = copy.deepcopy(agents)
    np.testing.assert_array_equal(tree(agents, DT), fresh(twin, DT))


def _kept_tree(rocks: Any, path: Any) -> TruncatedRunningSum:
    from steering import AvoidObstacles, Contain, FollowPath

    return TruncatedRunningSum(
        [
            Contain(0.0, 0.0, 300.0, 300.0),
            AvoidObstacles(rocks),
            Separate(80.0),
            Masked(FollowPath(path), np.ones(8, dtype=bool)),
        ]
    )


def _kept_world() -> tuple[TruncatedRunningSum, AgentGroup, Any, Any]:
    from steering import AvoidObstacles, Obstacles, Path

    rocks = Obstacles([(150.0, 150.0), (60.0, 220.0)], [30.0, 20.0])
    path = Path([(20.0, 20.0), (280.0, 20.0), (280.0, 280.0)], radius=15.0)
    tree = _kept_tree(rocks, path)
    # Eight agents heading at the rocks, so that avoidance acts
    ys = np.linspace(120.0, 230.0, 8)
    agents = AgentGroup.create(
        np.column_stack((np.full(8, 40.0) + ys % 7.0, ys)),
        vel=np.tile([60.0, 0.0], (8, 1)),
        max_force=5000.0,
    )
    assert np.abs(AvoidObstacles(copy.deepcopy(rocks))(copy.deepcopy(agents), DT)).max() > 0
    for _ in range(3):
        tree(agents, DT)
    return tree, agents, rocks, path


def _same_as_fresh(tree: Any, agents: AgentGroup) -> None:
    fresh, twin = copy.deepcopy(tree), copy.deepcopy(agents)
    np.testing.assert_array_equal(tree(agents, DT), fresh(twin, DT))
    for key, col in twin.state.items():  # and the memory the parts wrote
        np.testing.assert_array_equal(agents.state[key], col, err_msg=key)


def test_parts_kept_by_a_replay_follow_their_inputs() -> None:
    # Given parts a replay does not bind while their inputs stay (Contain, AvoidObstacles,
    # Separate in a small group, FollowPath)
    tree, agents, rocks, path = _kept_world()
    # When a part's setting is assigned, Then the next call equals a fresh copy's
    tree.parts[2].distance = 20.0  # type: ignore[union-attr]
    _same_as_fresh(tree, agents)
    tree.parts[0].margin = 40.0  # type: ignore[union-attr]
    _same_as_fresh(tree, agents)
    # When the rocks move in place, or are replaced by other arrays
    rocks.centers[0] += (25.0, -10.0)
    _same_as_fresh(tree, agents)
    rocks.centers = rocks.centers + 40.0
    _same_as_fresh(tree, agents)
    # When the path is edited
    path.set_nodes([(20.0, 40.0), (260.0, 40.0), (260.0, 280.0)])
    _same_as_fresh(tree, agents)


def test_a_state_column_replaced_is_the_one_written() -> None:
    # Given a kept plan whose avoidance remembers a side per agent
    tree, agents, _, _ = _kept_world()
    old = agents.state["avoid.side"]
    assert np.abs(old).max() > 0  # a side chosen
    # When the column is replaced by another array (forgetting the sides)
    agents.state["avoid.side"] = np.zeros(agents.n)
    # Then the part reads and writes the new one, as a fresh copy does
    _same_as_fresh(tree, agents)


@pytest.mark.parametrize("in_place", [True, False], ids=["moved_in_place", "replaced"])
def test_rocks_brought_into_the_way_are_avoided_at_the_next_call(in_place: bool) -> None:
    from steering import AvoidObstacles, Obstacles

    # Given agents swimming right, rocks out of their way and a kept plan with no avoidance
    rocks = Obstacles([(280.0, 20.0), (20.0, 290.0)], [15.0, 15.0])
    tree = TruncatedRunningSum([AvoidObstacles(rocks), Seek((400.0, 150.0))])
    agents = AgentGroup.create(
        np.column_stack((np.full(4, 40.0), np.linspace(140.0, 160.0, 4))),
        vel=np.tile([80.0, 0.0], (4, 1)),
        max_force=5000.0,
    )
    for _ in range(3):
        tree(agents, DT)
    assert composite.kept_plan(tree) is not None
    # When a rock is put in their way
    ahead = np.array([[90.0, 150.0], [20.0, 290.0]])
    if in_place:
        rocks.centers[:] = ahead
    else:
        rocks.centers = ahead
    # Then they steer around it as a fresh copy does
    fresh, twin = copy.deepcopy(tree), copy.deepcopy(agents)
    out = tree(agents, DT)
    np.testing.assert_array_equal(out, fresh(twin, DT))
    assert np.abs(out[:, 1]).max() > 1.0  # a sideways push


@pytest.mark.parametrize("registry", [True, False], ids=["pathset_drift", "path_drift_nodes"])
def test_a_drifting_path_is_followed_where_it_is_at_every_replayed_call(registry: bool) -> None:
    from steering import DriftingPath, FollowPath, Path, PathSet

    # Given agents following a path that drifts a little every step, in a kept plan
    path = Path([(20.0, 60.0), (150.0, 90.0), (280.0, 60.0)], radius=10.0)
    paths = PathSet([("p", path)])
    drift = DriftingPath(path.nodes.copy(), (12.0, 18.0), 1.5, seed=4)
    if registry:
        paths.set_drift("p", drift)
    follow = FollowPath(paths)
    tree = TruncatedRunningSum([Masked(follow, np.ones(8, dtype=bool)), Separate(30.0)])
    agents = _agents()
    follow.param(agents).path_index[:] = 0
    for step in range(12):
        # When the path moves (in the registry's arrays, or node by node)
        t = step * DT
        if registry:
            paths.drift(t)
        else:
            path.drift_nodes(drift.nodes_at(t))
        # Then every call steers as a fresh copy of the tree does, on the path where it is,
        # from a replay of the kept plan
        plan = composite.kept_plan(tree)
        _same_as_fresh(tree, agents)
        assert step < 2 or composite.kept_plan(tree) is plan
        agents.pos[:] += tree(agents, DT) * DT * DT  # in place: the plan is kept
    assert composite.kept_plan(tree) is not None


def test_a_subclass_that_binds_anew_is_bound_at_every_replayed_call() -> None:
    from steering import Contain

    # Given a Contain subclass whose bind counts its calls (work its parent's kept knows not of)
    class Counted(Contain):
        binds = 0

        def bind(self, agents: AgentGroup, dt: float, debug: bool) -> Any:
            type(self).binds += 1
            return super().bind(agents, dt, debug)

    tree = TruncatedRunningSum([Counted(0.0, 0.0, 300.0, 300.0), Seek((150.0, 150.0))])
    agents = _agents()
    tree(agents, DT)
    plan = composite.kept_plan(tree)
    # When the kept plan is replayed five times
    before = Counted.binds
    for _ in range(5):
        tree(agents, DT)
    # Then the subclass's bind ran at each call, from the same plan
    assert composite.kept_plan(tree) is plan
    assert Counted.binds == before + 5


def test_making_a_group_rule_leaves_other_trees_plans_kept() -> None:
    # Given a tree with a kept plan
    tree, agents = _tree(), _agents()
    tree(agents, DT)
    tree(agents, DT)
    plan = composite.kept_plan(tree)
    # When a program makes new group rules (as one might each frame) and sets one of them
    rule = Separate(30.0)
    rule.distance = 40.0
    tree(agents, DT)
    # Then the tree's plan is replayed, not walked again
    assert composite.kept_plan(tree) is plan
