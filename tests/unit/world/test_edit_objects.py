"""World.edit for every object the editor changes: pushable flags, rocks taken from the
middle, exits, flow regions and spawn limits applied live; edits that change which agents
exist ask for a new world."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.editor import Change, EditModel
from game.editor.objects import Ref
from game.level import CLASSES, resolve_level
from game.world import World
from game.world.posts import enemy_post
from game.world.spawn import ENEMY, NPC, Archetype


def _live(name: str) -> tuple[EditModel, World, list[str]]:
    """An edit model and a world that mirrors it; the world's answers are collected."""
    model = EditModel.open(resolve_level(name))
    world = World(model.level)
    answers: list[str] = []

    def hear(changes: Sequence[Change]) -> None:
        answers.append(world.edit(changes, model.level))

    model.subscribe(hear)
    return model, world, answers


def test_a_pushed_rock_resized_in_place_stays_where_it_was_pushed() -> None:
    model, world, _ = _live("sandbox")
    k = next(i for i, r in enumerate(model.level.obstacles) if r.dynamic)
    # Given a pushable rock pushed away from its level position
    body_row = world.physics.rock_centres()
    world.physics.edit_rock(k, (float(body_row[k, 0]) + 30.0, float(body_row[k, 1])), 20.0)
    live = world.physics.rock_centres()[k].copy()
    # When its radius is edited
    model.resize_rock(k, 26.0)
    # Then it keeps its pushed place and takes the new radius
    assert np.allclose(world.physics.rock_centres()[k], live)
    assert world.physics.rock_radius[k] == 26.0


def test_pushable_flag_and_middle_deletion_rebuild_the_rocks_from_there() -> None:
    model, world, _ = _live("rockfield")
    dynamic = CLASSES["obstacle"].prop("dynamic")
    fixed = next(i for i, r in enumerate(model.level.obstacles) if not r.dynamic)
    # When a fixed rock becomes pushable
    assert model.set_property(Ref("obstacles", fixed), dynamic, True)
    assert world.physics.rock_dynamic[fixed]
    # And a rock in the middle is deleted
    assert model.delete(Ref("obstacles", 2))
    ids = [r.id for r in model.level.obstacles]
    assert world.obstacle_id.tolist() == ids
    assert world.physics.rock_dynamic.tolist() == [r.dynamic for r in model.level.obstacles]
    for _ in range(30):
        world.step()
    assert np.isfinite(world.agents.pos).all()
    # Undo brings both back
    model.undo()
    model.undo()
    assert world.obstacle_id.tolist() == [r.id for r in model.level.obstacles]
    assert not world.physics.rock_dynamic[fixed]


def test_exits_and_flows_apply_live_and_ask_for_a_redraw() -> None:
    model, world, answers = _live("currents")
    before = world.agents.pos.copy()
    ref = model.create("exits", 200.0, 1200.0)
    assert ref is not None and answers[-1] == "redraw"
    assert world.exits.rects.shape[0] == len(model.level.exits)
    angle = CLASSES["flow"].prop("angle")
    assert model.set_property(Ref("flows", 0), angle, "180")
    assert answers[-1] == "redraw"
    flow = model.level.flows[0]
    inside = np.array([flow.rect.center])
    vel, _ = world.currents.velocity_at(inside)
    assert vel[0, 0] < 0.0  # the current now runs towards -x
    assert np.array_equal(world.agents.pos, before)  # nobody moved


def test_spawn_limits_reach_their_agents_and_new_spawns_join_the_running_world() -> None:
    model, world, answers = _live("patrol")
    speed = CLASSES["enemy"].prop("max_speed")
    guard = model.level.enemies[0]
    assert model.set_property(Ref("enemies", 0), speed, "77")
    assert answers[-1] == ""
    rows = np.flatnonzero((world.kind == ENEMY) & (world.spawn_id == guard.id))
    assert (world.agents.max_speed[rows] == 77.0).all()
    frame, n = world.frame, world.n
    model.create("enemies", 300.0, 300.0)
    assert answers[-1] == "redraw"  # a new agent to draw; the world goes on
    assert world.n == n + 1 and world.frame == frame


def test_sentinels_guard_an_exit_where_it_was_moved_to() -> None:
    model, world, _ = _live("sentries")
    ref = model.create("exits", 300.0, 300.0)  # a second exit, far from the first
    assert ref is not None
    centres = np.array([e.rect.center for e in model.level.exits])
    np.testing.assert_array_equal(world.exits.centres, centres)
    world.agents.pos[0] = (310.0, 310.0)  # the player right beside the new exit
    world.step()
    np.testing.assert_array_equal(world.exits.nearest, centres[-1])


def test_a_role_edit_reaches_the_running_world() -> None:
    # Given a running school of fish
    model, world, answers = _live("swarm")
    for _ in range(20):
        world.step()
    school = next(i for i, s in enumerate(model.level.npcs) if s.role == "fish")
    spawn = model.level.npcs[school]
    rows = np.flatnonzero((world.kind == NPC) & (world.spawn_id == spawn.id))
    pos = world.agents.pos[rows].copy()
    frame = world.frame
    # When the editor makes them hiders
    assert model.set_property(Ref("npcs", school), CLASSES["npc"].prop("role"), "hider")
    # Then the world carries on with hiders where the fish were
    assert answers[-1] == "redraw"
    assert world.frame == frame
    rows = np.flatnonzero((world.kind == NPC) & (world.spawn_id == spawn.id))
    assert (world.roster.archetype[rows] == Archetype.HIDER).all()
    assert np.array_equal(world.agents.pos[rows], pos)
    # And a queueing flag reaches them too
    assert model.set_property(Ref("npcs", school), CLASSES["npc"].prop("queue"), True)
    assert world.roster.queue[rows].all()


def test_moving_a_wanderers_spawn_moves_the_post_it_roams_round() -> None:
    # Given a running Rock Field, whose first hunter has no path: it wanders round its spawn
    model, world, _ = _live("rockfield")
    k = next(i for i, e in enumerate(model.level.enemies) if not e.path)
    spawn = model.level.enemies[k]
    rows = np.flatnonzero((world.kind == ENEMY) & (world.spawn_id == spawn.id))
    for _ in range(20):
        world.step()
    pos = world.agents.pos[rows].copy()
    frame = world.frame
    # When the editor moves the spawn 400 px to the right
    new = (spawn.x + 400.0, spawn.y)
    assert model.move_object(Ref("enemies", k), *new)
    placed = model.level.enemies[k]
    # Then the running world keeps its agents where they are, with the post at the new place
    assert world.frame == frame
    assert np.array_equal(world.agents.pos[rows], pos)
    # (its post is drawn within the spawn's scatter: the same seeded offset from the new place)
    assert np.allclose(world.roster.post[rows], enemy_post(placed, model.level, world.seed))
    offset = np.subtract(enemy_post(spawn, model.level, world.seed), (spawn.x, spawn.y))
    assert np.allclose(world.roster.post[rows], np.add((placed.x, placed.y), offset))
    # And the wanderer, now far beyond its leash, heads for it and gets closer
    post = world.roster.post[rows].copy()
    before = np.hypot(*(world.agents.pos[rows] - post).T)
    for _ in range(240):
        world.step()
    after = np.hypot(*(world.agents.pos[rows] - post).T)
    assert (after < before - 100.0).all()
