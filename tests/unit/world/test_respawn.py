"""Edits that change which agents exist apply live (issue 16): the running world is carried
over to the edited level, so agents that still exist keep their place, motion, mode and path
progress, new ones start at their spawns, removed ones are gone, and the clock goes on."""

from __future__ import annotations

import numpy as np

from game.editor import EditModel
from game.editor.objects import Ref
from game.level import CLASSES, load_level, resolve_level
from game.world import World
from game.world.brains import Mode
from game.world.respawn import agent_keys, match_agents


def _running(name: str, frames: int = 90) -> tuple[EditModel, World]:
    """A level's edit model and its world after ``frames`` steps, the world following the
    model's edits as the editor view wires them."""
    model = EditModel(load_level(resolve_level(name)))
    world = World(model.level)
    for _ in range(frames):
        world.step((1.0, 0.0))
    model.subscribe(lambda changes: world.edit(changes, model.level))
    return model, world


def _snapshot(world: World) -> dict[tuple[int, int, int], tuple[float, float, float, float, int]]:
    """(kind, spawn, ordinal) -> (x, y, vx, vy, mode) of every agent."""
    out = {}
    for row, key in enumerate(agent_keys(world)):
        x, y = world.agents.pos[row].tolist()
        vx, vy = world.agents.vel[row].tolist()
        out[key] = (x, y, vx, vy, int(world.mode[row]))
    return out


def test_raising_a_spawn_count_adds_agents_and_moves_no_one() -> None:
    # Given Patrol running for 1.5 s, the player swimming east
    model, world = _running("patrol")
    before, frame = _snapshot(world), world.frame
    progress = world.brain.follow.progress(world.crowd).copy()
    n = world.n
    spawn = model.level.enemies[0]
    # When the first enemy spawn's count goes from 1 to 3 in the property panel
    assert model.set_property(Ref("enemies", 0), CLASSES["enemy"].prop("count"), "3")
    # Then the world has two more enemies, at that spawn, and the clock went on
    assert world.n == n + 2 and world.frame == frame
    rows = np.flatnonzero(world.spawn_id == spawn.id)
    assert rows.size == 3
    new = world.agents.pos[rows[1:]]
    assert np.hypot(*(new - (spawn.x, spawn.y)).T).max() < 60.0
    # And every agent that was there keeps its place, velocity and mode exactly
    after = _snapshot(world)
    for key, state in before.items():
        assert after[key] == state, key
    # And patrols keep their progress along their paths
    o, m = match_agents_rows(before, world)
    assert np.array_equal(world.brain.follow.progress(world.crowd)[m - 1], progress[o - 1])
    # And the world runs on, finite
    for _ in range(120):
        world.step((0.0, 1.0))
    assert np.isfinite(world.agents.pos).all() and np.isfinite(world.agents.vel).all()


def match_agents_rows(
    before: dict[tuple[int, int, int], tuple[float, float, float, float, int]], world: World
) -> tuple[np.ndarray, np.ndarray]:
    """Old and new rows of the non-player agents of ``before`` (rows in key order)."""
    keys = list(before)
    now = list(_snapshot(world))
    old = np.array([keys.index(k) for k in keys if k[0] != 0 and k in now])
    new = np.array([now.index(k) for k in keys if k[0] != 0 and k in now])
    return old, new


def test_deleting_a_spawn_removes_its_agents_only() -> None:
    # Given Swarm running for 1.5 s
    model, world = _running("swarm")
    before = _snapshot(world)
    gone = model.level.npcs[2].id
    count = int(np.sum(world.spawn_id == gone))
    assert count > 0
    # When an NPC spawn area is deleted
    assert model.delete(Ref("npcs", 2))
    # Then its fish are gone and every other agent is where it was, moving as it was
    assert not np.any(world.spawn_id == gone)
    after = _snapshot(world)
    assert len(after) == len(before) - count
    for key, state in after.items():
        assert before[key] == state, key
    # And undo brings the fish back at their spawn, the rest untouched again
    assert model.undo()
    assert int(np.sum(world.spawn_id == gone)) == count
    for _ in range(60):
        world.step()
    assert np.isfinite(world.agents.pos).all()


def test_a_pursuing_enemy_keeps_pursuing_across_another_spawns_edit() -> None:
    # Given Patrol with the first enemy chasing the player, who stands beside it
    model, world = _running("patrol", frames=1)
    row = int(np.flatnonzero(world.kind == 1)[0])
    world.physics.bodies[0].position = tuple(world.agents.pos[row] + (40.0, 0.0))
    for _ in range(10):
        world.step()
    assert world.mode[row] == Mode.PURSUE
    e = int(np.flatnonzero(world.minds.rows == row)[0])
    seen = world.minds.last_seen[e].copy()
    # When another enemy spawn's count changes
    assert model.set_property(Ref("enemies", 3), CLASSES["enemy"].prop("count"), "2")
    # Then it still pursues, remembering where it saw the player
    row2 = int(np.flatnonzero(world.kind == 1)[0])
    e2 = int(np.flatnonzero(world.minds.rows == row2)[0])
    assert world.mode[row2] == Mode.PURSUE
    assert world.minds.last_seen[e2].tolist() == seen.tolist()


def test_a_new_path_for_a_spawn_keeps_its_agent_in_place_and_patrols_the_new_path() -> None:
    # Given Patrol running
    model, world = _running("patrol")
    row = int(np.flatnonzero(world.kind == 1)[0])
    pos = world.agents.pos[row].copy()
    other = model.level.paths[1].name
    # When its spawn is given another path
    assert model.set_property(Ref("enemies", 0), CLASSES["enemy"].prop("path"), other)
    # Then the enemy is where it was, following the new path
    assert world.agents.pos[row].tolist() == pos.tolist()
    assert world.level.paths[int(world.path_index[row])].name == other
    assert world.mode[row] == Mode.PATROL


def test_shrinking_the_map_keeps_every_agent_inside() -> None:
    # Given Sandbox running, agents spread over it
    model, world = _running("sandbox", frames=30)
    level = model.level
    w = int(level.width_px // level.tile_width)
    h = int(level.height_px // level.tile_height)
    # When the map loses tiles on its far sides, as far as its objects allow
    for dw, dh in ((1, 0), (0, 1)):
        while model.set_map_size(w - dw, h - dh):
            w, h = w - dw, h - dh
    # Then the world has the new, smaller size and every agent is inside it
    assert world.level.width_px == model.level.width_px < level.width_px
    assert world.level.height_px == model.level.height_px <= level.height_px
    r = world.agents.radius
    p = world.agents.pos
    assert (p[:, 0] >= r - 1e-9).all() and (p[:, 0] <= world.level.width_px - r + 1e-9).all()
    assert (p[:, 1] >= r - 1e-9).all() and (p[:, 1] <= world.level.height_px - r + 1e-9).all()


def test_a_pushed_rock_stays_where_it_was_pushed() -> None:
    # Given Finale running, with its pushable rock pushed somewhere
    model, world = _running("finale", frames=1)
    j = int(np.flatnonzero(world.obstacle_dynamic)[0])
    body = world.physics.rock_shapes[j].body
    assert body is not None
    body.position = (body.position.x + 30.0, body.position.y)
    world.step()
    pushed = world.obstacle_pos[j].copy()
    # When an enemy spawn is added
    assert model.create("enemies", 200.0, 200.0) is not None
    # Then the rock is still where it was pushed
    assert np.allclose(world.obstacle_pos[j], pushed)
    assert match_agents(world, world)[0].size == world.n


def test_the_wanderers_draws_go_on_across_a_world_carried_over() -> None:
    # Given Squadron running (its NPCs wander), the wander drawing from the brain's generator
    model, world = _running("squadron", frames=30)
    rng = world.brain.wander.rng
    assert rng is world.brain.rng
    # When an edit carries the world over
    assert model.set_property(Ref("enemies", 0), CLASSES["enemy"].prop("count"), "3")
    # Then the wander still draws from the same generator, going on where it was
    assert world.brain.wander.rng is rng and world.brain.rng is rng
