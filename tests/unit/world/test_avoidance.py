"""With steering on, agents heading at rocks go round them instead of bumping into them."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.world import World


@pytest.mark.slow
@pytest.mark.parametrize("stagger", [1, 4, 8])
def test_agents_in_the_rock_field_rarely_touch_a_rock(stagger: int) -> None:
    # Given the rock-field level with 300 more wandering NPCs among its 48 rocks (their
    # behaviours updated every step, or every 4th or 8th step in staggered groups)
    world = World(load_level(resolve_level("rockfield")), extra_npcs=300, stagger=stagger)
    touching = 0
    samples = 0
    closest = np.inf
    # When 20 seconds pass
    for _ in range(1200):
        world.step()
        pos, radius = world.agents.pos[1:], world.agents.radius[1:]
        d = pos[:, None, :] - world.obstacle_pos[None, :, :]
        gap = np.hypot(d[..., 0], d[..., 1]) - radius[:, None] - world.obstacle_radius[None, :]
        nearest = gap.min(axis=1)
        touching += int((nearest < 0.5).sum())
        samples += nearest.size
        closest = min(closest, float(nearest.min()))
    # Then fewer than 2 % of the agent samples touch a rock (and none sinks in)
    print(f"stagger {stagger}: {touching / samples:.2%} of samples touch a rock")
    assert touching / samples < 0.02, touching / samples
    assert closest >= -world.physics.settings.collision_slop - 1e-9
