"""Staggered updates: staggered crowds move smoothly, reusing each agent's last force between
their updates, and the world's running sum is the core's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.world import World
from game.world.brains import combine
from game.world.tuning import default_tuning
from steering import AgentGroup, TruncatedRunningSum, Weighted
from steering.vec import truncate

CROWD = default_tuning().crowd


@pytest.mark.parametrize("k", [2, 4, 8])
def test_a_staggered_world_keeps_moving_smoothly(k: int) -> None:
    level = load_level(resolve_level("sandbox"))
    world = World(level, extra_npcs=300, stagger=k)
    for _ in range(30):
        world.step()
    previous = world.agents.vel.copy()
    changes = []
    for _ in range(120):
        world.step()
        changes.append(np.hypot(*(world.agents.vel - previous).T)[1:])
        previous = world.agents.vel.copy()
        assert np.isfinite(world.agents.pos).all()
    # No jolts: per step, velocities change by what max force can do in a step (plus the
    # current's drag); only collisions (a fraction of a percent of samples) do more
    change = np.concatenate(changes)
    per_step = float(world.agents.max_force[1:].max()) * world.dt
    assert np.median(change) <= per_step
    assert np.percentile(change, 99) <= 3.0 * per_step
    # Forces are recomputed in k interleaved groups: the debug rows of one step are one group
    world.steering.debug_enabled = True
    world.step()
    rows = world.steering.debug_rows
    assert rows.size == pytest.approx((world.n - 1) / k, abs=1)
    assert (np.diff(rows) == k).all()


@dataclass
class Given:
    """A behaviour returning forces computed beforehand."""

    force: np.ndarray

    def __call__(self, agents: AgentGroup, dt: float, debug: object = None) -> np.ndarray:
        return self.force


def test_combine_equals_the_cores_prioritised_sum() -> None:
    # Given urgent, separation and goal forces within each agent's max force
    rng = np.random.default_rng(0)
    n = 2000
    group = AgentGroup.create(rng.uniform(0, 100, (n, 2)), max_force=rng.uniform(50, 300, n))
    urgent, sep, goal = (truncate(rng.normal(0, 150, (n, 2)), group.max_force) for _ in range(3))
    # When
    got = combine(group, urgent, sep, goal)
    # Then it is Buckland's running sum, as the core computes it
    expected = TruncatedRunningSum(
        [
            Given(urgent),
            Weighted(Given(sep), CROWD.separation_weight),
            Weighted(Given(goal), CROWD.goal_weight),
        ]
    )(group, 1 / 60)
    np.testing.assert_allclose(got, expected, atol=1e-9)
    assert (np.hypot(*got.T) <= group.max_force * (1 + 1e-12)).all()
