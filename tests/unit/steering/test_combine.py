"""Combinators: weighted sum, priority and prioritised running sum; they nest."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from steering.agents import AgentGroup
from steering.base import Debug
from steering.basic import Seek
from steering.combine import Masked, PrioritizedSum, Priority, Weighted, WeightedSum
from steering.vec import FloatArray


@dataclass
class Const:
    """A behaviour returning the same force for every agent (test double)."""

    force: tuple[float, float]

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        return np.tile(np.array(self.force, dtype=float), (agents.n, 1))


def _agents(n: int = 1, max_force: float = 10.0) -> AgentGroup:
    return AgentGroup.create(np.zeros((n, 2)), max_speed=100, max_force=max_force)


def test_weighted_sum_adds_weights_then_truncates() -> None:
    blend = WeightedSum([Weighted(Const((1.0, 0.0)), 2.0), Weighted(Const((0.0, 1.0)), 3.0)])
    np.testing.assert_allclose(blend(_agents(), 0.0), [[2.0, 3.0]])
    big = WeightedSum([Weighted(Const((30.0, 40.0)), 1.0)])
    np.testing.assert_allclose(big(_agents(), 0.0), [[6.0, 8.0]])


def test_prioritized_sum_gives_first_parts_their_share() -> None:
    # max force 10: the first part takes 6, the second is cut to the remaining 4, the third nothing
    blend = PrioritizedSum([Const((6.0, 0.0)), Const((8.0, 0.0)), Const((0.0, 5.0))])
    np.testing.assert_allclose(blend(_agents(), 0.0), [[10.0, 0.0]])


def test_prioritized_sum_budget_is_on_magnitude_as_in_buckland() -> None:
    # (6, 0) then (0, 8) fits? |(6, 0)| = 6 leaves 4, so (0, 8) is cut to (0, 4); |(6, 4)| = 7.21
    # leaves 2.79 for the third part, (-5, 0) cut to (-2.79, 0).
    blend = PrioritizedSum([Const((6.0, 0.0)), Const((0.0, 8.0)), Const((-5.0, 0.0))])
    remaining = 10.0 - np.hypot(6.0, 4.0)
    np.testing.assert_allclose(blend(_agents(), 0.0), [[6.0 - remaining, 4.0]])


def test_priority_takes_first_significant_force() -> None:
    blend = Priority([Const((0.0, 0.0)), Const((3.0, 0.0)), Const((0.0, 9.0))])
    debug: Debug = {}
    np.testing.assert_allclose(blend(_agents(), 0.0, debug), [[3.0, 0.0]])
    assert debug["priority.chosen"].tolist() == [1]


def test_priority_all_zero_gives_zero() -> None:
    np.testing.assert_allclose(Priority([Const((0.0, 0.0))])(_agents(2), 0.0), np.zeros((2, 2)))


def test_combinators_nest() -> None:
    inner = WeightedSum([Weighted(Const((1.0, 1.0)), 2.0)])
    outer = PrioritizedSum([Priority([Const((0.0, 0.0)), inner]), Const((5.0, 0.0))])
    np.testing.assert_allclose(outer(_agents(), 0.0), [[7.0, 2.0]])


def test_masked_applies_to_selected_agents_only() -> None:
    agents = AgentGroup.create([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], max_speed=1, max_force=100)
    debug: Debug = {}
    force = Masked(Seek((10.0, 0.0)), np.array([True, False, True]))(agents, 0.0, debug)
    assert force[1].tolist() == [0.0, 0.0]
    assert force[0, 0] > 0 and force[2, 0] > 0
    assert np.isnan(debug["seek.target"][1]).all()
    assert debug["seek.target"][0].tolist() == [10.0, 0.0]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_combinators_handle_any_group_size(n: int) -> None:
    for blend in (
        WeightedSum([Const((1.0, 0.0))]),
        PrioritizedSum([Const((1.0, 0.0))]),
        Priority([Const((1.0, 0.0))]),
    ):
        assert blend(_agents(n), 0.0).shape == (n, 2)
