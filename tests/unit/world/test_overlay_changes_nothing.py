"""The F1 overlay changes what is drawn, not what is computed: a world collecting the steering's
debug records steps to the same floats as one that does not (one composite runs both), on
every level, with agents in every mode, paths and rocks edited mid-run, a world carried over,
settings changed on a running world, a stagger and the smallest crowds."""

from __future__ import annotations

import numpy as np
import pytest

import game.world.steer as steer_system
from game.clock import DT
from game.level import load_level, resolve_level
from game.level.changes import PathChanged
from game.world import World

LEVELS = [
    "patrol",
    "currents",
    "rockfield",
    "swarm",
    "moving_paths",
    "gate",
    "squadron",
    "sentries",
    "finale",
    "sandbox",
]


def _thrusts(steps: int) -> list[tuple[float, float]]:
    rng = np.random.default_rng(5)
    return [tuple(rng.uniform(-1.0, 1.0, 2)) if k % 40 < 25 else (0.0, 0.0) for k in range(steps)]


def _snapshot(world: World) -> np.ndarray:
    a = world.agents
    return np.concatenate((a.pos, a.vel, a.heading, world.physics.pos), axis=0)


@pytest.mark.parametrize("name", LEVELS)
def test_the_overlay_changes_nothing_on_every_level(name: str) -> None:
    # Given the same level twice, one world collecting the steering's debug records (the F1
    # overlay on) and one not
    level = load_level(resolve_level(name))
    quiet, debugged = World(level), World(level, debug=True)
    modes: set[int] = set()
    # When both take the same inputs
    for thrust in _thrusts(150):
        quiet.step(thrust)
        debugged.step(thrust)
        modes.update(quiet.mode.tolist())
        # Then every body is in the same place, at the same velocity, facing the same way
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))
    assert quiet.outcome == debugged.outcome
    assert len(modes) >= 2  # more than one kind of goal was compared


def test_the_overlay_changes_nothing_when_paths_are_edited_between_steps() -> None:
    # Given moving paths twice, and random node edits between steps (the followers' places
    # are carried across each edit: path following's second pass)
    level = load_level(resolve_level("moving_paths"))
    quiet, debugged = World(level), World(level, debug=True)
    rng = np.random.default_rng(11)
    names = list(quiet.paths)
    for step, thrust in enumerate(_thrusts(90)):
        if step % 3 == 0:
            name = names[int(rng.integers(len(names)))]
            nodes = [tuple(p) for p in quiet.paths[name].nodes.tolist()]
            k = int(rng.integers(len(nodes)))
            nodes[k] = (nodes[k][0] + rng.uniform(-40, 40), nodes[k][1] + rng.uniform(-40, 40))
            path = quiet.paths[name]
            change = PathChanged(name, tuple(nodes), path.closed, float(path.radius))
            quiet.edit([change])
            debugged.edit([change])
        quiet.step(thrust)
        debugged.step(thrust)
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))


@pytest.mark.parametrize("name", ["rockfield", "patrol"])  # pushable rocks, and none
def test_the_overlay_changes_nothing_across_rock_edits_and_a_world_carried_over(name: str) -> None:
    # Given a level twice, each following its own edit model as the editor wires it
    from game.editor import EditModel
    from game.editor.objects import Ref
    from game.level import CLASSES
    from game.level.changes import RockChanged

    worlds, models = [], []
    for debug in (False, True):
        model = EditModel(load_level(resolve_level(name)))
        world = World(model.level, debug=debug)
        model.subscribe(lambda changes, w=world, m=model: w.edit(changes, m.level))
        worlds.append(world)
        models.append(model)
    quiet, debugged = worlds
    thrusts = _thrusts(160)
    for step, thrust in enumerate(thrusts):
        if step in (40, 60):  # a rock moved and grown in place, twice
            for world in worlds:
                x, y = world.obstacle_pos[0]
                world.edit([RockChanged(0, int(world.obstacle_id[0]), x + 30.0, y, 40.0)])
        if step == 80:  # a spawn's count raised: the world is carried over (new rows)
            for model in models:
                assert model.set_property(Ref("enemies", 0), CLASSES["enemy"].prop("count"), "3")
            assert quiet.n == debugged.n
        quiet.step(thrust)
        debugged.step(thrust)
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))


@pytest.mark.parametrize("agents", [1, 2, 5])
def test_the_overlay_changes_nothing_on_the_smallest_crowds(agents: int) -> None:
    # Given the sandbox shrunk to the player alone, and to one and four other agents (its
    # currents, pushable rocks and walls stay)
    from benchmarks.harness.levels import scaled_level

    level = scaled_level(load_level(resolve_level("sandbox")), agents)
    quiet, debugged = World(level), World(level, debug=True)
    assert quiet.n == agents
    for thrust in _thrusts(120):
        quiet.step(thrust)
        debugged.step(thrust)
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))


def _toward_enemy(world: World) -> tuple[float, float]:
    """A thrust toward the nearest enemy, then still within 150 px of it: to be seen (the
    detection meter fills while in sight), pursued and caught, not bumped into from behind."""
    enemies = np.flatnonzero(world.kind == 1)
    d = world.agents.pos[enemies] - world.agents.pos[0]
    k = int(np.argmin(np.hypot(*d.T)))
    if np.hypot(*d[k]) < 150.0:
        return 0.0, 0.0
    x, y = d[k]
    return float(x), float(y)


@pytest.mark.parametrize("name", ["patrol", "rockfield", "moving_paths"])
def test_the_overlay_changes_nothing_while_enemies_see_and_pursue_the_player(name: str) -> None:
    level = load_level(resolve_level(name))
    quiet, debugged = World(level), World(level, debug=True)
    modes: set[str] = set()
    for _ in range(900):
        thrust = _toward_enemy(quiet)
        quiet.step(thrust)
        debugged.step(thrust)
        modes.update(quiet.mode_names.tolist())
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))
        if quiet.outcome != "running":
            break
    assert quiet.outcome == debugged.outcome == "caught"
    assert "pursue" in modes


def test_settings_the_overlay_and_the_step_changed_mid_run() -> None:
    # Given Rock Field twice, one always collecting debug records
    level = load_level(resolve_level("rockfield"))
    quiet, debugged = World(level), World(level, debug=True)
    for step, thrust in enumerate(_thrusts(120)):
        if step == 30:  # a behaviour's setting changed on a running world
            for world in (quiet, debugged):
                world.brain.avoid.min_box_length = 90.0
                world.brain.contain.margin = 40.0
                world.brain.follow.lookahead_time = 0.9
        if step == 50:  # the overlay on for a while
            quiet.steering.debug_enabled = True
        if step == 60:
            quiet.steering.debug_enabled = False
        if step == 90:  # the steer system asked for another step length
            for world in (quiet, debugged):
                steer_system.steer(world, DT / 4)
            np.testing.assert_array_equal(quiet.physics.acc, debugged.physics.acc)
            for column in ("path.progress", "path.nearest", "avoid.timer", "avoid.side"):
                np.testing.assert_array_equal(
                    quiet.crowd.column(column), debugged.crowd.column(column), err_msg=column
                )
        quiet.step(thrust)
        debugged.step(thrust)
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))


def test_the_overlay_changes_nothing_when_fish_sidestep_one_another() -> None:
    # Given Swarm with its fish avoiding each other (unaligned collision avoidance) and
    # queueing (behaviours run over the whole crowd before the composite's loop)
    from dataclasses import replace

    base = load_level(resolve_level("swarm"))
    npcs = [replace(n, avoid=True, queue=True) for n in base.npcs]
    level = replace(base, npcs=npcs)
    quiet, debugged = World(level), World(level, debug=True)
    assert quiet.roster.avoid.sum() > 100
    for thrust in _thrusts(90):
        quiet.step(thrust)
        debugged.step(thrust)
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))


@pytest.mark.parametrize("stagger", [2, 3])
def test_the_overlay_changes_nothing_under_a_stagger(stagger: int) -> None:
    # Given the sandbox with a crowd, staggered, twice
    level = load_level(resolve_level("sandbox"))
    quiet = World(level, extra_npcs=60, stagger=stagger)
    debugged = World(level, extra_npcs=60, stagger=stagger, debug=True)
    for thrust in _thrusts(60):
        quiet.step(thrust)
        debugged.step(thrust)
        np.testing.assert_array_equal(_snapshot(quiet), _snapshot(debugged))
    # And the debug records cover this step's staggered group
    rows = debugged.steering.debug_rows
    assert rows.size and np.all((rows - 1) % stagger == (debugged.frame - 1) % stagger)
