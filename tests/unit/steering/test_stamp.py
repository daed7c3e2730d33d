"""A caller's stamp (``composite.run(..., stamp=)``): while it is the same, a replay of a tree's
kept plan skips the in-place checks and the parts whose records held; a caller that changes it
whenever what the parts read changes (a mask emptied or filled, rocks moved, a path replaced)
gets, call after call, the forces a walk of the tree gives, and a setting assigned or a list
changed is still seen."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from steering import (
    AgentGroup,
    AvoidObstacles,
    FollowPath,
    Limited,
    Masked,
    Obstacles,
    Path,
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
N = 10


def _agents() -> AgentGroup:
    rng = np.random.default_rng(11)
    return AgentGroup.create(
        rng.uniform(0, 300, (N, 2)), vel=rng.uniform(-50, 50, (N, 2)), max_force=5000.0
    )


def _tree(rocks: Obstacles, path: Path) -> TruncatedRunningSum:
    mask = np.arange(N) % 2 == 0
    return TruncatedRunningSum(
        [
            AvoidObstacles(rocks),
            Weighted(Masked(Separate(120.0), mask.copy()), 1.5),
            Masked(Limited(Seek(np.array([[250.0, 60.0]])), max_speed=np.full(N, 40.0)), mask),
            Weighted(Masked(Wander(np.random.default_rng(3)), ~mask), np.linspace(0.2, 1.0, N)),
            WeightedSum([FollowPath(path), Staggered(Seek((100.0, 100.0)), every=3)]),
        ]
    )


def _world() -> tuple[Obstacles, Path]:
    rocks = Obstacles.create([[80.0, 80.0], [200.0, 150.0], [150.0, 260.0]], [20.0, 15.0, 30.0])
    return rocks, Path([(20.0, 20.0), (280.0, 40.0), (260.0, 280.0)], radius=10.0)


def test_stamped_calls_compute_what_walked_calls_compute() -> None:
    # Given twin trees and groups: one called under a stamp its caller changes when a mask
    # empties or fills or a rock moves, one with debug output (walked at every call)
    (rocks_a, path_a), (rocks_b, path_b) = _world(), _world()
    played, debugged = _tree(rocks_a, path_a), _tree(rocks_b, path_b)
    a, b = _agents(), _agents()
    rng = np.random.default_rng(2)
    quiet = 0
    for step in range(80):
        # masks turn in place (some steps select no agent), rocks move now and then
        flip = rng.random(N) < (0.0 if step % 7 == 3 else 0.5)
        moved = step % 5 == 0
        for tree, rocks in ((played, rocks_a), (debugged, rocks_b)):
            tree.parts[2].mask[:] = flip  # type: ignore[union-attr]
            tree.parts[4].parts[1].turn = step  # type: ignore[union-attr]
            if moved:
                rocks.move(np.array([1], dtype=np.intp), np.array([[200.0 + step, 150.0]]))
        stamp = (bool(flip.any()), step // 5)
        plan = composite.kept_plan(played)
        if plan is not None and plan.holds_quiet(played, a, DT, stamp):
            quiet += 1
        fa = composite.run(played, a, DT, stamp=stamp)
        fb = composite.run(debugged, b, DT, {})
        # Then every step's forces are bit-identical, and so the agents' memory
        np.testing.assert_array_equal(fa, fb, err_msg=f"step {step}")
        for g in (a, b):  # in place (assigning a column is a change a plan walks again for)
            g.vel[:] += fa * DT
            g.pos[:] += g.vel * DT
    for key in a.state:
        if key != "path.uid":  # which path object (each twin has its own)
            np.testing.assert_array_equal(a.state[key], b.state[key], err_msg=key)
    assert quiet > 40  # most calls were replayed under an unchanged stamp


def _weight(tree: TruncatedRunningSum) -> None:
    tree.parts[1].weight = 0.25  # type: ignore[union-attr]


def _limit(tree: TruncatedRunningSum) -> None:
    tree.parts[2].behaviour.max_speed = 90.0  # type: ignore[union-attr]


def _part_setting(tree: TruncatedRunningSum) -> None:
    tree.parts[2].behaviour.behaviour.target = np.array([[0.0, 0.0]])  # type: ignore[union-attr]


def _rule_setting(tree: TruncatedRunningSum) -> None:
    tree.parts[1].behaviour.behaviour.distance = 30.0  # type: ignore[union-attr]


def _rocks_replaced(tree: TruncatedRunningSum) -> None:
    tree.parts[0].obstacles = Obstacles.create([[150.0, 150.0]], 60.0)  # type: ignore[union-attr]


SETTINGS = [_weight, _limit, _part_setting, _rule_setting, _rocks_replaced]


@pytest.mark.parametrize("change", SETTINGS, ids=[c.__name__[1:] for c in SETTINGS])
def test_a_setting_assigned_under_the_same_stamp_is_seen(change: object) -> None:
    # Given a tree called under one stamp until its calls are quiet replays
    agents = _agents()
    tree = _tree(*_world())
    for _ in range(4):
        composite.run(tree, agents, DT, stamp=7)
    plan = composite.kept_plan(tree)
    assert plan is not None and plan.holds_quiet(tree, agents, DT, 7)
    # When a setting is assigned (the stamp unchanged), Then the next call equals a deep
    # copy's (which walks afresh)
    change(tree)  # type: ignore[operator]
    fresh, twin = copy.deepcopy(tree), copy.deepcopy(agents)
    np.testing.assert_array_equal(composite.run(tree, agents, DT, stamp=7), fresh(twin, DT))


def test_a_list_changed_in_place_is_seen_under_a_new_stamp() -> None:
    # Given quiet replays under one stamp
    agents = _agents()
    tree = _tree(*_world())
    for _ in range(4):
        composite.run(tree, agents, DT, stamp=1)
    # When a part is appended in place and the caller changes its stamp, as the contract asks
    tree.parts.append(Weighted(Seek(np.array([[150.0, 150.0]])), 0.7))  # type: ignore[attr-defined]
    fresh, twin = copy.deepcopy(tree), copy.deepcopy(agents)
    # Then the part is in the forces
    np.testing.assert_array_equal(composite.run(tree, agents, DT, stamp=2), fresh(twin, DT))


def test_in_place_weights_are_checked_again_under_a_new_stamp_only() -> None:
    # Given per-agent weights, called under a stamp until quiet
    agents = _agents()
    tree = _tree(*_world())
    for _ in range(4):
        composite.run(tree, agents, DT, stamp=1)
    weights = tree.parts[3].weight  # type: ignore[union-attr]
    # When a weight turns NaN in place
    weights[4] = np.nan
    # Then under the same stamp it is not checked again (it was when given: the caller keeps
    # it valid), and under a new stamp, or none, the call names it
    composite.run(tree, agents, DT, stamp=1)
    for stamp in (2, None):
        with pytest.raises(ValueError, match=r"parts\[3\]\.weight"):
            composite.run(tree, agents, DT, stamp=stamp)
