"""Soak: the sandbox with 2,000 agents for a minute of simulated time."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.perf import tune_allocator
from game.world import World


@pytest.mark.slow
def test_sandbox_with_2000_agents_for_3600_steps() -> None:
    tune_allocator()
    level = load_level(resolve_level("sandbox"))
    world = World(level, extra_npcs=2000 - level.agent_count)
    assert world.n == 2000
    n = world.n
    slop = world.physics.settings.collision_slop
    w, h = level.width_px, level.height_px
    closest = np.inf
    fastest = 0.0
    for k in range(3600):
        # the player swims in slow circles through the crowd
        world.step((np.cos(k / 120.0), np.sin(k / 90.0)))
        raw_pos, raw_vel = world.physics.io.pos, world.physics.io.vel
        assert np.isfinite(raw_pos).all() and np.isfinite(raw_vel).all(), f"NaN at step {k}"
        pos, radius = world.agents.pos, world.agents.radius
        d = pos[:, None, :] - world.obstacle_pos[None, :, :]
        gap = np.hypot(d[..., 0], d[..., 1]) - radius[:, None] - world.obstacle_radius[None, :]
        closest = min(closest, float(gap.min()))
        # pymunk's own velocities (before the world's clamp), against each agent's limit
        fastest = max(fastest, float((np.hypot(*raw_vel[:n].T) / world.agents.max_speed).max()))
        assert (pos[:, 0] > 0).all() and (pos[:, 0] < w).all(), f"left the world at step {k}"
        assert (pos[:, 1] > 0).all() and (pos[:, 1] < h).all(), f"left the world at step {k}"
    assert closest >= -slop - 1e-9, closest
    assert fastest <= 1.0 + 1e-6, fastest
    assert (np.hypot(*world.agents.vel.T) <= world.agents.max_speed * (1 + 1e-12)).all()
