"""Enemies on the patrol level keep to their routes and go round them."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.world import World


@pytest.mark.slow
def test_enemies_stay_on_their_paths_and_go_round_them() -> None:
    # Given the patrol level, the player waiting at the start (out of every enemy's sight)
    world = World(load_level(resolve_level("patrol")))
    rows = np.flatnonzero((world.kind == 1) & (world.path_index >= 0))
    paths = [world.paths.at(int(world.path_index[r])) for r in rows]
    assert all(p is not None and p.closed for p in paths)
    lengths = np.array([p.length for p in paths])
    inside = np.zeros(rows.size)
    patrolling = np.zeros(rows.size)
    travelled = np.zeros(rows.size)
    previous: np.ndarray | None = None
    # When 30 seconds pass
    for _ in range(1800):
        world.step()
        on_patrol = world.mode[rows] == 1
        for k, (row, path) in enumerate(zip(rows, paths, strict=True)):
            if on_patrol[k]:
                patrolling[k] += 1
                inside[k] += (
                    path.project(world.agents.pos[row : row + 1]).distance[0] <= path.radius
                )
        progress = world.crowd.state["path.progress"][rows - 1]
        if previous is not None:
            step = (progress - previous + lengths / 2) % lengths - lengths / 2
            travelled += step
        previous = progress.copy()
    # Then every enemy patrolled all along, inside its path's radius at least 95 % of the time
    assert (patrolling == 1800).all()
    assert (inside / patrolling >= 0.95).all(), inside / patrolling
    # and went round its closed path (forward, more than once)
    assert (travelled / lengths > 1.0).all(), travelled / lengths
    assert world.outcome == "running"
