"""Paths in a world: drifting nodes move every step, and edits keep followers' progress."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.world import World


def test_drifting_paths_move_their_nodes_and_enemies_keep_up() -> None:
    world = World(load_level(resolve_level("moving_paths")))
    name = next(iter(world.paths.drifts))
    path = world.paths[name]
    start = path.nodes.copy()
    for _ in range(120):
        world.step()
    moved = np.hypot(*(path.nodes - start).T)
    assert moved.max() > 5.0
    drifting = world.paths.drift_of(name)
    assert drifting is not None
    base = drifting.base_nodes
    drift = next(p.drift for p in world.level.paths if p.name == name)
    assert (np.abs(path.nodes - base) <= drift + 1e-9).all()
    progress = world.crowd.state["path.progress"]
    followers = np.flatnonzero(world.path_index[1:] >= 0)
    assert np.isfinite(progress[followers]).all()


@pytest.mark.slow
def test_moving_a_node_while_agents_follow_keeps_them_on_the_path() -> None:
    world = World(load_level(resolve_level("patrol")))
    for _ in range(60):
        world.step()
    path = world.paths["square"]
    row = int(np.flatnonzero(world.path_index == world.paths.slot("square"))[0])
    node = path.nodes[1].copy()
    path.move_node(1, node + np.array([30.0, -30.0]))
    for _ in range(600):
        world.step()
    assert np.isfinite(world.crowd.state["path.progress"][row - 1])
    assert path.project(world.agents.pos[row : row + 1]).distance[0] <= path.radius
