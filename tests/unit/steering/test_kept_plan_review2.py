"""Second review of the kept plan's replay that binds only the row parts with work to do
(``RowPart.kept``): cases where a replayed call differs from a fresh deep copy of the tree and
the agents called once, or where the state the parts write differs."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from steering import (
    AgentGroup,
    AvoidObstacles,
    FollowPath,
    Masked,
    Obstacles,
    Path,
    Seek,
    Separate,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
    composite,
)

DT = 1.0 / 60.0


def _swimmers(n: int = 8) -> AgentGroup:
    """Agents heading right at the rocks of :func:`_rocks`, so that avoidance acts."""
    ys = np.linspace(120.0, 230.0, n)
    return AgentGroup.create(
        np.column_stack((np.full(n, 40.0) + ys % 7.0, ys)),
        vel=np.tile([60.0, 0.0], (n, 1)),
        max_force=5000.0,
    )


def _rocks() -> Obstacles:
    return Obstacles([(150.0, 150.0), (60.0, 220.0)], [30.0, 20.0])


def _path() -> Path:
    return Path([(20.0, 20.0), (280.0, 20.0), (280.0, 280.0)], radius=15.0)


def _same_as_fresh(tree: Any, agents: AgentGroup, dt: float = DT) -> None:
    """The call equals a fresh copy's, and so do the state columns the parts wrote."""
    fresh, twin = copy.deepcopy(tree), copy.deepcopy(agents)
    np.testing.assert_array_equal(tree(agents, dt), fresh(twin, dt))
    assert set(agents.state) == set(twin.state)
    for key, col in twin.state.items():
        np.testing.assert_array_equal(agents.state[key], col, err_msg=key)


def _masked(part: Any, n: int = 8) -> tuple[TruncatedRunningSum, np.ndarray]:
    mask = np.ones(n, dtype=bool)
    return TruncatedRunningSum([Masked(part, mask), Seek((280.0, 150.0))]), mask


# -- a record standing in under an empty mask is not this plan's -----------------------------


def test_a_stand_in_made_at_another_step_is_not_kept_when_its_mask_fills() -> None:
    # Given avoidance under a mask, stepped at 1/60 s (its record holds the step: its side
    # memory's timer runs down by it)
    avoid = AvoidObstacles(_rocks(), side_memory=0.5)
    tree, mask = _masked(avoid)
    agents = _swimmers()
    for _ in range(3):
        tree(agents, DT)
    assert np.abs(agents.state["avoid.timer"]).max() > 0  # a side chosen and remembered
    # When its mask empties, the game steps at 1/30 s (a plan walked anew, the avoidance's
    # 1/60 s record standing in: read by no row), and the mask fills again (replayed)
    mask[:] = False
    tree(agents, 2 * DT)
    tree(agents, 2 * DT)
    mask[:] = True
    agents.pos[:, 0] = 290.0  # past the rocks, in place: the timers run down
    agents.state["avoid.timer"][:] = 0.4
    # Then the avoidance runs at 1/30 s, as a fresh copy's does (its timers, its forces)
    _same_as_fresh(tree, agents, 2 * DT)


def test_a_setting_assigned_while_the_mask_is_empty_is_read_once_it_fills() -> None:
    # Given avoidance under a mask in a kept plan
    avoid = AvoidObstacles(_rocks())
    tree, mask = _masked(avoid)
    agents = _swimmers()
    for _ in range(3):
        tree(agents, DT)
    # When its mask empties, a setting is assigned, the plan is walked anew (another step),
    # and the mask fills again (replayed)
    mask[:] = False
    avoid.force_scale = 5.0
    tree(agents, 2 * DT)
    tree(agents, 2 * DT)
    mask[:] = True
    # Then the new setting steers, as in a fresh copy
    _same_as_fresh(tree, agents, 2 * DT)


def test_a_follower_whose_setting_changed_under_an_empty_mask_reads_it_once_it_fills() -> None:
    # Given a path follower under a mask in a kept plan
    follow = FollowPath(_path())
    tree, mask = _masked(follow)
    agents = _swimmers()
    for _ in range(3):
        tree(agents, DT)
    # When its mask empties, its gain is assigned, the plan is walked anew, and the mask fills
    # again
    mask[:] = False
    follow.gain = 0.5
    tree(agents, 2 * DT)
    tree(agents, 2 * DT)
    mask[:] = True
    # Then the follower steers with the new gain, as a fresh copy does
    _same_as_fresh(tree, agents, 2 * DT)


def test_a_follower_first_called_for_debug_output_replays_once_its_mask_fills() -> None:
    # Given a path follower under a mask, first called for debug output (its record then is
    # not the one it keeps)
    tree, mask = _masked(FollowPath(_path()))
    agents = _swimmers()
    tree(agents, DT, {})
    # When its mask empties (walked: the debug record stands in) and fills again (replayed)
    mask[:] = False
    tree(agents, DT)
    tree(agents, DT)
    mask[:] = True
    # Then the call follows the path as a fresh copy does (KeyError '_held' from kept)
    _same_as_fresh(tree, agents)


@pytest.mark.parametrize("part", ["follow", "avoid", "separate"])
def test_a_part_shared_with_a_group_of_the_same_size_reads_its_own_groups_memory(
    part: str,
) -> None:
    # Given one part in two trees, each stepping its own group of 8 agents; tree a's part
    # under a mask
    made: Any = {
        "follow": lambda: FollowPath(_path()),
        "avoid": lambda: AvoidObstacles(_rocks()),
        "separate": lambda: Separate(40.0, per_agent=True),
    }[part]()
    a, mask = _masked(made)
    b = Masked(made, np.ones(8, dtype=bool))
    ga = _swimmers()
    gb = _swimmers()
    gb.pos[:, 0] += 200.0  # past the rocks, swimming away from them, near the path's end
    gb.vel[:, 0] = -60.0
    for _ in range(3):
        a(ga, DT)
        b(gb, DT)
    if part == "separate":
        ga.state["separation"][:] = 60.0
    # When a's mask empties (a's plan walked anew after the group b's call: b's record of
    # the part stands in, read by no row), then fills again (replayed)
    mask[:] = False
    a(ga, 2 * DT)
    b(gb, DT)
    a(ga, 2 * DT)
    mask[:] = True
    before = {key: col.copy() for key, col in gb.state.items()}
    # Then a's agents read and write their own memory, as a fresh copy's do, and group b's
    # memory is left alone
    _same_as_fresh(a, ga, 2 * DT)
    for key, col in before.items():
        np.testing.assert_array_equal(gb.state[key], col, err_msg=key)


# -- in-place changes that a kept record does not see ---------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_per_agent_distances_in_a_column_of_another_type_are_read_as_changed(
    dtype: Any,
) -> None:
    # Given separation by per-agent distances, the state column put in as another type (the
    # rule reads a float64 copy of it)
    agents = _swimmers()
    agents.state["separation"] = np.full(8, 10, dtype=dtype)
    tree = TruncatedRunningSum([Separate(10.0, per_agent=True), Seek((280.0, 150.0))])
    for _ in range(3):
        tree(agents, DT)
    assert composite.kept_plan(tree) is not None
    # When the column is written in place (the same array)
    agents.state["separation"][:] = 60
    # Then the new distances separate, as in a fresh copy
    _same_as_fresh(tree, agents)


# -- per-agent weights ------------------------------------------------------------------------


@pytest.mark.parametrize("strided", [False, True], ids=["contiguous", "strided"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_per_agent_weights_made_non_finite_in_place_are_refused_with_the_walks_message(
    bad: float, strided: bool
) -> None:
    # Given per-agent weights in a kept plan (an array of their own, or a column of a table)
    agents = _swimmers()
    weights = np.linspace(0.2, 1.0, 8)
    if strided:
        table = np.column_stack((weights, weights))
        weights = table[:, 1]
    tree = WeightedSum([Weighted(Seek((100.0, 100.0)), weights), Separate(30.0)])
    for _ in range(3):
        tree(agents, DT)
    # When one is made non-finite in place
    weights[3] = bad
    # Then the replay refuses it with the message a walk gives, as before the compiled check
    with pytest.raises(ValueError) as walked:
        copy.deepcopy(tree)(copy.deepcopy(agents), DT)
    with pytest.raises(ValueError) as replayed:
        tree(agents, DT)
    assert str(replayed.value) == str(walked.value)
    assert str(replayed.value) == (
        f"WeightedSum.parts[0].weight: expected finite weights, got {bad}"
    )


@pytest.mark.parametrize(
    "weights",
    [
        [0.5] * 7 + [np.nan],
        np.array([0.5] * 7 + [np.nan], dtype=np.float32),
        np.array([0.5] * 7 + [np.inf], dtype=np.float16),
        np.full(8, 0.5),
        np.full((8, 2), 0.5)[:, 0],
    ],
    ids=["list", "float32", "float16", "float64", "float64_strided"],
)
def test_weights_of_any_kind_are_checked_as_before(weights: Any) -> None:
    # Given weights of any kind, When assigned, Then finite float64 ones are taken as they
    # are, others refused or converted with the messages of the NumPy check
    values = np.asarray(weights, dtype=np.float64)
    if np.isfinite(values).all():
        assert Weighted(Seek((1.0, 1.0)), weights).weight is weights
        return
    with pytest.raises((TypeError, ValueError)):
        Weighted(Seek((1.0, 1.0)), weights)


def test_a_state_column_renamed_is_not_the_one_the_part_reads() -> None:
    # Given avoidance in a kept plan, its side memory's timer the group's last state column
    avoid = AvoidObstacles(_rocks())
    tree = TruncatedRunningSum([avoid, Seek((280.0, 150.0))])
    agents = _swimmers()
    for _ in range(3):
        tree(agents, DT)
    assert list(agents.state)[-1] == "avoid.timer"
    # When the game keeps that column under another name (the same array, the same place
    # among the columns)
    agents.state["avoid.timer.saved"] = agents.state.pop("avoid.timer")
    # Then the part makes and writes its column anew, as a fresh copy does, and leaves the
    # renamed one alone
    saved = agents.state["avoid.timer.saved"].copy()
    _same_as_fresh(tree, agents)
    np.testing.assert_array_equal(agents.state["avoid.timer.saved"], saved)
