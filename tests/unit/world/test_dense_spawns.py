"""Spawns denser than their area: the agents still start apart, so the first step is quick."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree

from game.level import load_level
from game.world import World
from tests.helpers.level import exit_, make_map, player, point, prop, rect


def _world(tmp_path: Path, spawn: dict[str, object]) -> World:
    path = tmp_path / "dense.tmj"
    path.write_text(json.dumps(make_map([player(), exit_(), spawn], width=100, height=60)))
    return World(load_level(path))


def _closest(world: World) -> float:
    pos = world.agents.pos[1:]
    d, _ = cKDTree(pos).query(pos, k=2)
    return float(d[:, 1].min())


def test_a_1_px_rectangle_of_2000_npcs_is_spread_apart(tmp_path: Path) -> None:
    # Given 2,000 NPCs of radius 8 in a 1 x 1 px rectangle
    world = _world(tmp_path, rect(3, "npc", 1500, 900, 1, 1, [prop("count", "int", 2000)]))
    # Then no two start overlapping, and a step moves nobody far (no explosion)
    assert _closest(world) >= 16.0
    before = world.agents.pos.copy()
    world.step(np.zeros(2))
    assert np.isfinite(world.agents.pos).all()
    assert float(np.abs(world.agents.pos - before).max()) < 20.0


def test_2000_enemies_at_one_point_start_apart(tmp_path: Path) -> None:
    world = _world(tmp_path, point(3, "enemy", 1500, 900, [prop("count", "int", 2000)]))
    assert _closest(world) >= 16.0
    world.step(np.zeros(2))
    assert np.isfinite(world.agents.pos).all()
