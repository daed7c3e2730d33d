"""Combinators: weighted sum, priority and prioritised running sum; they nest."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from steering.agents import AgentGroup
from steering.base import Debug
from steering.basic import Seek
from steering.combine import (
    FirstNonZero,
    Limited,
    Masked,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
)
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
    blend = TruncatedRunningSum([Const((6.0, 0.0)), Const((8.0, 0.0)), Const((0.0, 5.0))])
    np.testing.assert_allclose(blend(_agents(), 0.0), [[10.0, 0.0]])


def test_prioritized_sum_budget_is_on_magnitude_as_in_buckland() -> None:
    # (6, 0) then (0, 8) fits? |(6, 0)| = 6 leaves 4, so (0, 8) is cut to (0, 4); |(6, 4)| = 7.21
    # leaves 2.79 for the third part, (-5, 0) cut to (-2.79, 0).
    blend = TruncatedRunningSum([Const((6.0, 0.0)), Const((0.0, 8.0)), Const((-5.0, 0.0))])
    remaining = 10.0 - np.hypot(6.0, 4.0)
    np.testing.assert_allclose(blend(_agents(), 0.0), [[6.0 - remaining, 4.0]])


def test_priority_takes_first_significant_force() -> None:
    blend = FirstNonZero([Const((0.0, 0.0)), Const((3.0, 0.0)), Const((0.0, 9.0))])
    debug: Debug = {}
    np.testing.assert_allclose(blend(_agents(), 0.0, debug), [[3.0, 0.0]])
    assert debug["priority.chosen"].tolist() == [1]


def test_priority_all_zero_gives_zero() -> None:
    np.testing.assert_allclose(FirstNonZero([Const((0.0, 0.0))])(_agents(2), 0.0), np.zeros((2, 2)))


def test_combinators_nest() -> None:
    inner = WeightedSum([Weighted(Const((1.0, 1.0)), 2.0)])
    outer = TruncatedRunningSum([FirstNonZero([Const((0.0, 0.0)), inner]), Const((5.0, 0.0))])
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
        TruncatedRunningSum([Const((1.0, 0.0))]),
        FirstNonZero([Const((1.0, 0.0))]),
    ):
        assert blend(_agents(n), 0.0).shape == (n, 2)


# -- bad arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize("combinator", [WeightedSum, TruncatedRunningSum, FirstNonZero])
def test_a_part_that_is_not_a_behaviour_is_named_by_its_index(combinator: type) -> None:
    # Given a list whose second item is a number, not a behaviour
    parts = [Const((1.0, 0.0)), 2.0]
    # When / Then building the combinator says which item
    with pytest.raises(TypeError, match=r"parts\[1\]"):
        combinator(parts)


@pytest.mark.parametrize("weight", [math.nan, math.inf])
def test_a_nan_or_infinite_weight_is_refused(weight: float) -> None:
    # Given / When / Then a weight that would silently zero the sum is refused at construction
    with pytest.raises(ValueError, match="weight"):
        Weighted(Const((1.0, 0.0)), weight)
    # And one assigned afterwards is refused there, with the same message
    part = Weighted(Const((1.0, 0.0)), 1.0)
    with pytest.raises(ValueError, match=r"^Weighted\.weight: must be finite"):
        part.weight = weight
    assert part.weight == 1.0
    # and one put past the check (into the instance's dict) is refused at the call, naming
    # the part
    part.__dict__["weight"] = weight
    for blend in (WeightedSum([Const((0.0, 1.0)), part]), TruncatedRunningSum([part])):
        with pytest.raises(ValueError, match=r"parts\[\d\]\.weight"):
            blend(_agents(), 0.0)
    with pytest.raises(ValueError, match="weight"):
        TruncatedRunningSum.accumulate(np.zeros((1, 2)), np.ones((1, 2)), weight, np.ones(1))


def test_a_weighted_that_is_not_a_behaviour_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Weighted\.behaviour"):
        Weighted("seek", 1.0)  # type: ignore[arg-type]


def test_a_part_returning_the_wrong_shape_is_named() -> None:
    # Given a part that returns one row for two agents
    blend = WeightedSum([Const((1.0, 0.0)), lambda agents, dt, debug=None: np.zeros((1, 2))])
    # When / Then the sum names it rather than failing inside NumPy
    with pytest.raises(ValueError, match=r"parts\[1\]"):
        blend(_agents(2), 0.0)


@pytest.mark.parametrize(
    ("mask", "error"),
    [
        (np.array([True, False]), ValueError),
        (np.array([True, False, True, True]), ValueError),
        (np.array([1, 0, 1]), TypeError),
        (np.zeros(0, dtype=bool), ValueError),
    ],
)
def test_masked_checks_its_mask(mask: np.ndarray, error: type[Exception]) -> None:
    # Given three agents and a mask of the wrong length or of integers (indices?)
    # When / Then the construction (integers) or the call (a length) names the mask
    with pytest.raises(error, match=r"Masked\.mask"):
        masked = Masked(Seek((10.0, 0.0)), mask)
        masked(_agents(3), 0.0)


def test_limited_refuses_bad_limits() -> None:
    with pytest.raises(ValueError, match=r"Limited\.max_speed"):
        Limited(Const((1.0, 0.0)), max_speed=-1.0)
    with pytest.raises(ValueError, match=r"Limited\.max_force"):
        Limited(Const((1.0, 0.0)), max_force=math.nan)
    with pytest.raises(TypeError, match=r"Limited\.behaviour"):
        Limited(None)  # type: ignore[arg-type]
    # Per-agent limits of the wrong length are named at the call
    with pytest.raises(ValueError, match=r"Limited\.max_speed"):
        Limited(Const((1.0, 0.0)), max_speed=np.ones(3))(_agents(2), 0.0)


def test_combinator_loops_match_the_numpy_formulas() -> None:
    # Given random forces of three parts, some past max force, one row not finite
    rng = np.random.default_rng(3)
    agents = AgentGroup.create(np.zeros((50, 2)), max_force=rng.uniform(0, 20, 50))
    forces = [rng.normal(0, 10, (50, 2)) for _ in range(3)]
    forces[1][7] = math.nan
    parts = [Const((0.0, 0.0))] * 3
    for k, f in enumerate(forces):
        parts[k] = lambda agents, dt, debug=None, f=f: f  # type: ignore[misc]
    # When summed
    weights = [1.0, 0.5, 2.0]
    blend = WeightedSum([Weighted(p, w) for p, w in zip(parts, weights, strict=True)])
    total = sum(w * f for w, f in zip(weights, forces, strict=True))
    # Then the weighted sum is the sum, truncated (the NaN row becomes zero)
    assert isinstance(total, np.ndarray)
    norm = np.hypot(total[:, 0], total[:, 1])
    scale = np.where(norm > agents.max_force, agents.max_force / np.where(norm > 0, norm, 1), 1)
    want = np.where(np.isfinite(norm)[:, None], total * scale[:, None], 0.0)
    np.testing.assert_allclose(blend(agents, 0.0), want, rtol=1e-12, atol=1e-12)
    # And the running sum never exceeds max force
    run = TruncatedRunningSum([Weighted(p, w) for p, w in zip(parts, weights, strict=True)])
    out = run(agents, 0.0)
    assert np.isfinite(out).all()
    assert (np.hypot(out[:, 0], out[:, 1]) <= agents.max_force + 1e-9).all()


def test_limited_sees_new_limits_and_new_agents() -> None:
    # Given a limited behaviour that records what it sees
    seen: list[tuple[int, list[float]]] = []

    def spy(agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        seen.append((agents.n, agents.max_speed.tolist()))
        return np.zeros((agents.n, 2))

    agents = _agents(2)
    limited = Limited(spy, max_speed=5.0)
    # When it runs, its limit changes, agents join, and a per-agent limit is changed in place
    limited(agents, 0.0)
    limited(agents, 0.0)
    limited.max_speed = 7.0
    limited(agents, 0.0)
    agents.add([(1.0, 1.0)])
    limited(agents, 0.0)
    per_agent = np.array([1.0, 2.0, 3.0])
    limited.max_speed = per_agent
    limited(agents, 0.0)
    per_agent[0] = 9.0
    limited(agents, 0.0)
    # Then every call saw the current agents and limits
    assert seen == [
        (2, [5.0, 5.0]),
        (2, [5.0, 5.0]),
        (2, [7.0, 7.0]),
        (3, [7.0, 7.0, 7.0]),
        (3, [1.0, 2.0, 3.0]),
        (3, [9.0, 2.0, 3.0]),
    ]
