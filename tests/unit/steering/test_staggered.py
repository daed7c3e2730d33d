"""Staggered updates and weights per agent: each agent's force is fresh on its turn (with the
longer step), held in between, and a weight per agent scales its own row only."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Arrive,
    Masked,
    Seek,
    Staggered,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
)
from steering.base import Debug
from steering.vec import FloatArray


@dataclass
class Clock:
    """An outside behaviour whose force records the step it was given and the group's size
    (test double): x is dt, y the number of agents it was called on."""

    calls: list[int] = field(default_factory=list)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        self.calls.append(agents.n)
        return np.tile([dt, float(agents.n)], (agents.n, 1))


def _agents(n: int, seed: int = 3) -> AgentGroup:
    rng = np.random.default_rng(seed)
    return AgentGroup.create(
        rng.uniform(0, 400, (n, 2)), vel=rng.uniform(-20, 20, (n, 2)), max_force=500.0
    )


def test_the_first_call_updates_everyone_then_one_agent_in_k_per_call() -> None:
    # Given seven agents and a compiled part, staggered in three
    agents = _agents(7)
    seek = Seek((200.0, 200.0))
    staggered = Staggered(seek, every=3)
    # When it is called first, Then every agent gets its fresh force
    first = staggered(agents, 0.1)
    np.testing.assert_allclose(first, seek(agents, 0.1), rtol=0, atol=1e-12)
    # When the agents move and it is called again (its second call, turn 1)
    agents.pos += 15.0
    second = staggered(agents, 0.1)
    fresh = seek(agents, 0.1)
    turn = np.arange(7) % 3 == 1
    # Then the agents in turn have fresh forces and the others keep their last ones
    np.testing.assert_allclose(second[turn], fresh[turn], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(second[~turn], first[~turn])
    assert not np.allclose(second[~turn], fresh[~turn])


def test_the_agents_in_turn_run_with_k_times_the_step() -> None:
    # Given an outside behaviour that reports its step and group, staggered in four
    agents = _agents(10)
    clock = Clock()
    staggered = Staggered(clock, every=4)
    staggered(agents, 0.05)  # everyone, with the longer step
    # When it is called with turn 2
    staggered.turn = 2
    out = staggered(agents, 0.05)
    # Then it ran on the rows in turn only, with four times the step
    assert clock.calls == [10, 2]  # rows 2 and 6 of ten
    turn = np.arange(10) % 4 == 2
    np.testing.assert_allclose(out[turn], np.tile([0.2, 2.0], (2, 1)))
    np.testing.assert_allclose(out[~turn], np.tile([0.2, 10.0], (8, 1)))


def test_a_group_that_grows_is_updated_whole_and_bad_every_is_refused() -> None:
    agents = _agents(4)
    seek = Seek((0.0, 0.0))
    staggered = Staggered(seek, every=2)
    staggered(agents, 0.1)
    staggered(agents, 0.1)
    # When agents are added, Then the next call updates every one of them
    agents.add(np.array([[50.0, 50.0], [60.0, 10.0]]))
    np.testing.assert_allclose(staggered(agents, 0.1), seek(agents, 0.1), rtol=0, atol=1e-12)
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match=r"^Staggered\.every: expected a whole number"):
            Staggered(seek, every=bad)  # type: ignore[arg-type]


def test_a_weight_per_agent_scales_its_own_row() -> None:
    # Given agents, an arrival and a weight per agent
    agents = _agents(6)
    arrive = Arrive((100.0, 300.0))
    weights = np.array([0.0, 0.5, 1.0, 2.0, 0.25, 1.5])
    base = arrive(agents, 0.1)
    # When it is weighted per agent in a sum, and in a running sum after a masked seek
    summed = WeightedSum([Weighted(arrive, weights)])(agents, 0.1)
    mask = np.array([True, False, True, False, False, False])
    seek = Seek((0.0, 0.0))
    running = TruncatedRunningSum([Masked(seek, mask), Weighted(arrive, weights)])(agents, 0.1)
    # Then each row is its agent's weight times its force (limited at max force)
    expected = base * weights[:, None]
    length = np.hypot(*expected.T)
    over = length > agents.max_force
    expected[over] *= (agents.max_force[over] / length[over])[:, None]
    np.testing.assert_allclose(summed, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(running[~mask], expected[~mask], rtol=1e-12, atol=1e-12)
    assert np.all(np.hypot(*running.T) <= agents.max_force * (1 + 1e-12))
    # And weights of the wrong length or not finite are refused by name
    with pytest.raises(
        ValueError, match=r"WeightedSum\.parts\[0\]\.weight has 4 rows, the group 6"
    ):
        WeightedSum([Weighted(arrive, np.ones(4))])(agents, 0.1)
    with pytest.raises(ValueError, match=r"^Weighted\.weight: expected finite weights"):
        Weighted(arrive, np.array([1.0, np.nan]))
