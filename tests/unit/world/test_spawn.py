"""Who is in a world and where: row order, counts, placement off rocks, stress-run NPCs."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import load_level, resolve_level, shipped_levels
from game.world import ENEMY, NPC, PLAYER, World
from game.world.spawn import extra_npc_plan


@pytest.mark.parametrize("path", shipped_levels(), ids=lambda p: p.stem)
def test_every_shipped_level_builds_and_places_everyone_clear(path: object) -> None:
    level = load_level(path)  # type: ignore[arg-type]
    world = World(level)
    # Row 0 is the player, then the enemies, then the NPCs
    assert world.n == level.agent_count
    assert world.kind[0] == PLAYER and (world.kind[1:] != PLAYER).all()
    kinds = world.kind.tolist()
    assert kinds == sorted(kinds)
    assert kinds.count(ENEMY) == sum(e.count for e in level.enemies)
    # Nobody starts inside a rock or outside the world
    pos, r = world.agents.pos, world.agents.radius
    if len(world.obstacle_radius):
        d = pos[:, None, :] - world.obstacle_pos[None, :, :]
        gap = np.hypot(d[..., 0], d[..., 1]) - r[:, None] - world.obstacle_radius[None, :]
        assert gap.min() > 0.0
    assert (pos - r[:, None] >= 0).all()
    assert (pos[:, 0] + r <= level.width_px).all() and (pos[:, 1] + r <= level.height_px).all()
    # Each agent remembers the Tiled object that spawned it
    ids = {o.id for o in level.objects()}
    assert set(world.spawn_id.tolist()) <= ids


def test_area_spawned_npcs_do_not_overlap() -> None:
    world = World(load_level(resolve_level("swarm")))
    npc = np.flatnonzero(world.kind == NPC)
    p, r = world.agents.pos[npc], world.agents.radius[npc]
    d = np.hypot(*(p[:, None, :] - p[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert (d - r[:, None] - r[None, :]).min() > 0.0


def test_extra_npcs_go_to_the_spawn_areas_and_shrink_only_when_the_world_is_full() -> None:
    level = load_level(resolve_level("sandbox"))
    small = extra_npc_plan(level, 800)
    assert sum(g.count for g in small) == 800
    assert all(g.radius == level.npcs[0].radius for g in small)
    area = level.npcs[0].area
    assert area is not None
    grown = small[0].area
    assert grown.width * grown.height > area.width * area.height
    huge = extra_npc_plan(level, 9798)
    assert sum(g.count for g in huge) == 9798
    assert huge[0].radius < level.npcs[0].radius
    world = World(level, extra_npcs=800)
    assert world.n == level.agent_count + 800
    assert (world.kind[level.agent_count :] == NPC).all()
    assert (world.spawn_id[level.agent_count :] == level.npcs[0].id).all()


def test_a_level_without_npc_spawns_gets_its_extra_npcs_anywhere() -> None:
    level = load_level(resolve_level("patrol"))
    world = World(level, extra_npcs=50)
    extra = world.agents.pos[level.agent_count :]
    assert extra.shape == (50, 2)
    assert (world.spawn_id[level.agent_count :] == 0).all()


def test_the_seed_decides_the_scatter() -> None:
    level = load_level(resolve_level("sandbox"))
    a, b, c = World(level, seed=1), World(level, seed=1), World(level, seed=2)
    assert np.array_equal(a.agents.pos, b.agents.pos)
    assert not np.array_equal(a.agents.pos, c.agents.pos)
    assert World(level).seed == level.seed
