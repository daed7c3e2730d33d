"""What a renderer reads from a world: rows, kinds, modes, rocks, currents, debug arrays."""

from __future__ import annotations

import numpy as np

from game.level import load_level, resolve_level
from game.world import KIND_NAMES, MODE_NAMES, World

from .helpers import ascii_level


def test_the_arrays_a_renderer_reads() -> None:
    level = load_level(resolve_level("finale"))
    world = World(level, debug=True)
    world.step((1.0, 0.0))
    n = level.agent_count
    assert world.agents.pos.shape == world.agents.vel.shape == world.agents.heading.shape == (n, 2)
    assert set(world.kind_names.tolist()) == set(KIND_NAMES)
    assert set(world.mode_names.tolist()) <= set(MODE_NAMES)
    assert world.mode_names[0] == "none"
    assert np.allclose(np.hypot(*world.agents.heading.T), 1.0)
    assert world.obstacle_pos.shape == (len(level.obstacles), 2)
    assert world.obstacle_id.tolist() == [o.id for o in level.obstacles]
    assert len(world.currents.fields) == len(level.flows)
    assert set(world.paths) == {p.name for p in level.paths}
    assert world.player.inputs == [(1.0, 0.0)]
    # debug arrays: one row per non-player agent
    rows = world.steering.debug_rows
    assert rows.tolist() == list(range(1, n))
    for key in ("avoid.box", "separate.count", "path.future", "flow.sample"):
        assert world.steering.debug[key].shape[0] == rows.size, key
    # and a goal's arrays only for the agents whose goal it is (NaN for the others)
    mode = world.mode_names[rows]
    flowing = mode == "flow"
    assert np.isfinite(world.steering.debug["flow.sample"][flowing]).all()
    assert np.isnan(world.steering.debug["flow.sample"][~flowing]).all()
    on_path = np.isin(mode, ["patrol", "follow"])
    assert np.isnan(world.steering.debug["path.future"][~on_path]).all()


def test_the_outcome_is_latched_and_the_world_keeps_running() -> None:
    world = World(ascii_level(["......", ".PE...", "......"]))
    world.step((1.0, 0.0))
    for _ in range(30):
        world.step((1.0, 0.0))
    assert world.outcome == "won"
    frame = world.frame
    world.step((-1.0, 0.0))
    assert world.outcome == "won" and world.frame == frame + 1
