"""The bench's maths: the fitted exponent, the N^2 prediction and the 10-s skip rule."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from benchmarks.harness.results import fit_exponent
from benchmarks.harness.timing import (
    STEP_LIMIT_S,
    ReferenceTiming,
    predict_step_seconds,
    time_reference,
)

SIZES = [250, 1_000, 4_000, 10_000, 20_000]


@pytest.mark.parametrize("k", [0.5, 1.0, 1.15, 2.0])
def test_the_fit_recovers_a_power_law(k: float) -> None:
    # Given ms = c * N^k exactly
    ms = [0.003 * n**k for n in SIZES]
    # Then the fitted exponent is k
    assert fit_exponent(SIZES, ms) == pytest.approx(k)


def test_the_fit_is_least_squares_over_noisy_points() -> None:
    # Given c * N with the middle point 10 % high: the slope barely moves
    ms = [0.001 * n for n in SIZES]
    ms[2] *= 1.1
    assert fit_exponent(SIZES, ms) == pytest.approx(1.0, abs=0.02)


def test_the_fit_skips_missing_figures_and_needs_two_sizes() -> None:
    assert fit_exponent([250, 1_000, 4_000], [2.5, None, 40.0]) == pytest.approx(1.0)
    assert fit_exponent([250, 1_000], [2.5, None]) is None
    assert fit_exponent([], []) is None


def test_the_prediction_is_quadratic() -> None:
    assert predict_step_seconds(1_000, 0.5, 4_000) == pytest.approx(8.0)


class FakeClock:
    """A clock that only moves when a fake engine works."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeEngine:
    """Forces cost ``cost(n)`` seconds on the fake clock; integration is free."""

    def __init__(self, n: int, clock: FakeClock, cost: float, power: float) -> None:
        self.seconds = cost * n**power
        self.clock = clock
        self.calls = 0

    def forces(self) -> list[object]:
        self.calls += 1
        self.clock.now += self.seconds
        return []

    def integrate(self, forces: Sequence[object], dt: float = 1 / 60) -> None:
        self.clock.now += 0.0


def run(
    cost: float, power: float, steps: int = 3, warmup: int = 1
) -> tuple[list[ReferenceTiming], dict[int, FakeEngine]]:
    clock = FakeClock()
    built: dict[int, FakeEngine] = {}

    def build(n: int) -> FakeEngine:
        built[n] = FakeEngine(n, clock, cost, power)
        return built[n]

    rows = time_reference([4_000, 250, 1_000], steps, warmup, build, clock=clock)
    return rows, built


def test_sizes_run_in_order_while_steps_stay_under_the_limit() -> None:
    # Given a reference whose step costs 1e-6 N^2 s: 0.06 s, 1 s, then 16 s predicted
    rows, built = run(1e-6, 2.0)
    # Then 250 and 1,000 run (warm-up + 3 timed steps), 4,000 is never built
    assert [r.agents for r in rows] == [250, 1_000, 4_000]
    assert sorted(built) == [250, 1_000]
    assert built[1_000].calls == 4
    assert rows[1].total_ms == pytest.approx([1000.0] * 3)
    assert rows[1].steering_ms == pytest.approx([1000.0] * 3)
    assert not rows[2].ran
    assert "predicted at 16.0 s" in rows[2].note and f"{STEP_LIMIT_S:g} s" in rows[2].note


def test_a_step_over_the_limit_ends_the_series() -> None:
    # Given a cost growing as N^3: 1,000 is predicted at 2.7 s from 250 but takes 11 s
    rows, built = run(1.1e-8, 3.0)
    # Then 1,000 stops after that one step, which is kept, and 4,000 is never built
    assert built[1_000].calls == 1
    assert rows[1].total_ms == pytest.approx([11_000.0])
    assert "over the 10 s limit" in rows[1].note
    assert 4_000 not in built and not rows[2].ran and "took 11.0 s" in rows[2].note


def test_a_prediction_never_starts_a_step_over_the_limit() -> None:
    # Given a step of exactly 0.7 s at 1,000 agents (11.2 s predicted at 4,000)
    rows, built = run(0.7e-6, 2.0)
    assert 4_000 not in built
    assert rows[0].ran and rows[1].ran and not rows[2].ran


def test_small_sizes_take_more_steps_within_the_time_budget() -> None:
    # Given steps of 0.1 s at 250 agents (1e-6 N^2: 0.0625 s) and 1 s at 1,000, a 2-s budget
    clock = FakeClock()
    built: dict[int, FakeEngine] = {}

    def build(n: int) -> FakeEngine:
        built[n] = FakeEngine(n, clock, 1e-6, 2.0)
        return built[n]

    rows = time_reference([250, 1_000], 3, 1, build, clock=clock, budget_s=2.0, max_steps=15)
    # Then 250 runs until the cap (15 x 0.0625 s < 2 s) and 1,000 until the budget (2 x 1 s)
    # but never fewer than the 3 steps asked for
    assert len(rows[0].total_ms) == 15 and built[250].calls == 16
    assert len(rows[1].total_ms) == 3 and built[1_000].calls == 4
    assert rows[1].total_ms == pytest.approx([1000.0] * 3)
