"""Review of the kept plan (launch.Plan): cases where a replayed call differs from a fresh walk
(a deep copy of the tree and the agents called afresh)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Limited,
    Masked,
    Seek,
    Separate,
    Staggered,
    TruncatedRunningSum,
    Wander,
    Weighted,
    WeightedSum,
)

DT = 1.0 / 60.0


def _agents(n: int = 8, seed: int = 11) -> AgentGroup:
    rng = np.random.default_rng(seed)
    return AgentGroup.create(
        rng.uniform(0, 300, (n, 2)), vel=rng.uniform(-50, 50, (n, 2)), max_force=5000.0
    )


def _fresh(tree, agents):  # type: ignore[no-untyped-def]
    return copy.deepcopy(tree)(copy.deepcopy(agents), DT)


def test_a_staggered_node_shared_by_two_trees_of_other_sizes_replays() -> None:
    # Given one staggered node in two trees, each stepping its own group (5 and 8 agents)
    stagger = Staggered(Seek((100.0, 100.0)), every=2)
    small, big = _agents(5), _agents(8, seed=12)
    a = Masked(stagger, np.ones(5, dtype=bool))
    b = Masked(stagger, np.ones(8, dtype=bool))
    a(small, DT)
    b(big, DT)
    # When the first tree is called again (replayed: its plan holds)
    expected = _fresh(a, small)
    # Then it gives what a fresh copy gives (the replay's tick selected into the node's
    # current 8-row array: ValueError from np.equal)
    np.testing.assert_array_equal(a(small, DT), expected)


def _seeks() -> TruncatedRunningSum:
    # 4 seeks: 1 + 4 * 4 fields, more than launch._FEW, so the replay takes the bound record
    return TruncatedRunningSum(
        [
            Seek(np.array([[250.0, 60.0]])),
            Seek(np.array([[10.0, 290.0]])),
            Seek(np.array([[150.0, 150.0]])),
            Seek(np.array([[20.0, 20.0]])),
        ]
    )


def test_a_replay_that_raised_leaves_no_stale_bound_record() -> None:
    # Given a tree replayed from its bound record
    agents = _agents()
    tree = _seeks()
    for _ in range(3):
        tree(agents, DT)
    first, second = tree.parts[0], tree.parts[1]
    # When one call changes a part's target and fails on a later part's bad target
    first.target = np.array([[0.0, 300.0]])  # type: ignore[union-attr]
    good = second.target  # type: ignore[union-attr]
    second.target = np.array([[np.nan, 0.0]])  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        tree(agents, DT)
    second.target = good  # type: ignore[union-attr]
    # Then the next call reads the new target, as a fresh copy does
    expected = _fresh(tree, agents)
    np.testing.assert_array_equal(tree(agents, DT), expected)


def test_a_replayed_part_error_names_its_place_as_a_walk_does() -> None:
    agents = _agents()
    tree = _seeks()
    for _ in range(3):
        tree(agents, DT)
    tree.parts[1].target = np.array([[np.nan, 0.0]])  # type: ignore[union-attr]
    with pytest.raises(ValueError) as walked:
        _fresh(tree, agents)
    with pytest.raises(ValueError) as replayed:
        tree(agents, DT)
    assert str(replayed.value) == str(walked.value)


def test_per_agent_weights_made_nan_in_place_are_refused_as_by_a_walk() -> None:
    agents = _agents()
    weights = np.linspace(0.2, 1.0, 8)
    tree = WeightedSum([Weighted(Seek((100.0, 100.0)), weights), Separate(30.0)])
    for _ in range(3):
        tree(agents, DT)
    weights[2] = np.nan
    with pytest.raises(ValueError):
        _fresh(tree, agents)
    with pytest.raises(ValueError):
        tree(agents, DT)


def test_per_agent_limits_made_negative_in_place_are_refused_as_by_a_walk() -> None:
    agents = _agents()
    speeds = np.full(8, 40.0)
    tree = TruncatedRunningSum([Limited(Seek((100.0, 100.0)), max_speed=speeds), Separate(30.0)])
    for _ in range(3):
        tree(agents, DT)
    speeds[2] = -1.0
    with pytest.raises(ValueError):
        _fresh(tree, agents)
    with pytest.raises(ValueError):
        tree(agents, DT)


def test_a_part_shared_with_a_group_of_another_size_advances_as_in_a_walk() -> None:
    # Given a wander masked to no agent in tree a (8 agents), also stepped in tree b (5 agents)
    wander = Wander(np.random.default_rng(3))
    mask = np.ones(8, dtype=bool)
    a = TruncatedRunningSum([Separate(30.0), Masked(wander, mask)])
    b = Masked(wander, np.ones(5, dtype=bool))
    ga, gb = _agents(8), _agents(5, seed=4)
    a(ga, DT)
    mask[:] = False
    a(ga, DT)
    a(ga, DT)  # replayed, wander skipped
    b(gb, DT)  # wander's last record is now one of 5 agents
    # When a is called again (replayed: wander not bound) and a fresh copy of it (walked:
    # wander's last record is not of 8 agents, so it is bound and draws)
    fresh, twin = copy.deepcopy(a), copy.deepcopy(ga)
    np.testing.assert_array_equal(a(ga, DT), fresh(twin, DT))
    # Then, once the mask selects agents again, both wander alike
    mask[:] = True
    fresh.parts[1].mask[:] = True  # type: ignore[union-attr]
    np.testing.assert_array_equal(a(ga, DT), fresh(twin, DT))


def test_plans_do_not_outlive_their_trees() -> None:
    # A tree made and called once (a temporary) is freed with its plan
    import gc
    import weakref

    agents = _agents()
    tree = TruncatedRunningSum([Seek((1.0, 2.0)), Separate(20.0)])
    tree(agents, DT)
    ref = weakref.ref(tree)
    del tree
    gc.collect()
    assert ref() is None, "a kept plan keeps its tree alive"


def _mixed(n: int = 8) -> TruncatedRunningSum:
    mask = np.arange(n) % 2 == 0
    return TruncatedRunningSum(
        [
            Weighted(Separate(120.0), 1.5),
            Masked(Limited(Seek(np.array([[250.0, 60.0]])), max_speed=np.full(n, 40.0)), mask),
            Weighted(Masked(Wander(np.random.default_rng(3)), ~mask), np.linspace(0.2, 1.0, n)),
            Staggered(Seek((100.0, 100.0)), every=3),
        ]
    )


def test_world_size_changed_between_replays() -> None:
    agents = _agents()
    tree = _mixed()
    for _ in range(3):
        tree(agents, DT)
    agents.world_size = (120.0, 90.0)
    expected = _fresh(tree, agents)
    np.testing.assert_array_equal(tree(agents, DT), expected)


def test_a_state_column_replaced_between_replays() -> None:
    agents = _agents()
    tree = _mixed()
    for _ in range(3):
        tree(agents, DT)
    agents.state["wander.angle"] = np.zeros(8)
    expected = _fresh(tree, agents)
    np.testing.assert_array_equal(tree(agents, DT), expected)


def test_two_groups_alternately() -> None:
    g1, g2 = _agents(), _agents(seed=5)
    tree = _mixed()
    for _ in range(3):
        tree(g1, DT)
        tree(g2, DT)
    expected = _fresh(tree, g1)
    np.testing.assert_array_equal(tree(g1, DT), expected)


def test_a_limit_array_changed_in_place_between_replays() -> None:
    agents = _agents()
    tree = _mixed()
    for _ in range(3):
        tree(agents, DT)
    tree.parts[1].behaviour.max_speed[:3] = 5.0  # type: ignore[union-attr]
    tree.parts[2].weight[:] = 2.0  # type: ignore[union-attr]
    expected = _fresh(tree, agents)
    np.testing.assert_array_equal(tree(agents, DT), expected)
