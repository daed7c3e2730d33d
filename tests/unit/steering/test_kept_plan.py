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
    for step in range(40):
        flip = rng.random(8) < 0.5
        for tree in (played, debugged):
            tree.parts[1].mask[:] = flip  # type: ignore[union-attr]
        fa = played(a, DT)
        fb = debugged(b, DT, {})
        # Then every step's forces are bit-identical, and so the agents' memory
        np.testing.assert_array_equal(fa, fb, err_msg=f"step {step}")
        for g in (a, b):
            g.vel += fa * DT
            g.pos += g.vel * DT
    for key in a.state:
        np.testing.assert_array_equal(a.state[key], b.state[key], err_msg=key)
    assert _plan_of(played) is not None and _plan_of(debugged) is None


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
