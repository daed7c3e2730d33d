"""The cell size for per-agent distances: the smallest positive distance that at most 1/16 of
the agents exceed, computed in one compiled pass, against the definition in NumPy."""

from __future__ import annotations

import numpy as np
import pytest

from steering.grid import covering_distance


def _definition(distances: np.ndarray) -> float:
    positive = distances[distances > 0.0]
    if positive.size == 0:
        return 0.0
    values = np.unique(positive)
    exceed = np.array([np.count_nonzero(positive > v) for v in values])
    return float(values[np.argmax(16 * exceed <= distances.size)])


@pytest.mark.parametrize("seed", range(40))
def test_covering_distance_is_its_definition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 300))
    choices = np.array([0.0, -1.0, 13.0, 24.0, 40.0, np.inf, np.nan, 5.5, 100.0])
    d = rng.choice(choices, size=n) if seed % 2 else rng.uniform(-5.0, 50.0, n).round(seed % 3)
    assert covering_distance(d) == _definition(d)
    # with finite_only, what is not finite counts as no distance
    assert covering_distance(d, finite_only=True) == _definition(np.where(np.isfinite(d), d, 0.0))


def test_a_few_far_agents_do_not_widen_the_cells() -> None:
    # Given 40 fish at 13 px and 2 hunters at 40 px: 2 of 42 exceed 13 (at most 1/16)
    d = np.array([13.0] * 40 + [40.0] * 2)
    assert covering_distance(d) == 13.0
    # and with 10 hunters (over 1/16) the cells cover the hunters
    assert covering_distance(np.array([13.0] * 40 + [40.0] * 10)) == 40.0
    assert covering_distance(np.zeros(5)) == 0.0
