"""The steer system's fused step (two compiled calls into the behaviours' own loops) computes
the same floats as the behaviour-by-behaviour step, which the world runs when it collects debug
output: every level, agents with every goal, paths edited mid-run."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import game.world.fused as fused_step
import game.world.steer as steer_system
from game.clock import DT
from game.level import load_level, resolve_level
from game.level.changes import PathChanged
from game.world import World
from game.world.tuning import default_tuning
from steering.kernels import njit

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
def test_the_fused_step_equals_the_step_behaviour_by_behaviour(name: str) -> None:
    # Given the same level twice, one world collecting debug output (it steps behaviour by
    # behaviour) and one not (it runs the fused step)
    level = load_level(resolve_level(name))
    fused, plain = World(level), World(level, debug=True)
    assert fused_step.fused_applies(fused) and not fused_step.fused_applies(plain)
    modes: set[int] = set()
    # When both take the same inputs
    for thrust in _thrusts(150):
        fused.step(thrust)
        plain.step(thrust)
        modes.update(fused.mode.tolist())
        # Then every body is in the same place, at the same velocity, facing the same way
        np.testing.assert_array_equal(_snapshot(fused), _snapshot(plain))
    assert fused.outcome == plain.outcome
    assert len(modes) >= 2  # more than one kind of goal was compared


def test_the_fused_step_equals_it_when_paths_are_edited_between_steps() -> None:
    # Given moving paths twice, and random node edits between steps (the followers' places
    # are carried across each edit: path following's second pass)
    level = load_level(resolve_level("moving_paths"))
    fused, plain = World(level), World(level, debug=True)
    rng = np.random.default_rng(11)
    names = list(fused.paths)
    for step, thrust in enumerate(_thrusts(90)):
        if step % 3 == 0:
            name = names[int(rng.integers(len(names)))]
            nodes = [tuple(p) for p in fused.paths[name].nodes.tolist()]
            k = int(rng.integers(len(nodes)))
            nodes[k] = (nodes[k][0] + rng.uniform(-40, 40), nodes[k][1] + rng.uniform(-40, 40))
            path = fused.paths[name]
            change = PathChanged(name, tuple(nodes), path.closed, float(path.radius))
            fused.edit([change])
            plain.edit([change])
        fused.step(thrust)
        plain.step(thrust)
        np.testing.assert_array_equal(_snapshot(fused), _snapshot(plain))


def test_the_fused_step_steps_aside_where_it_does_not_apply() -> None:
    level = load_level(resolve_level("patrol"))
    world = World(level)
    assert fused_step.fused_applies(world)
    world.steering.enabled = False
    assert not fused_step.fused_applies(world)
    world.steering.enabled = True
    assert not fused_step.fused_applies(World(level, stagger=2))
    # a brain whose urgent part is not containment, walls and rocks runs behaviour by behaviour
    world.brain.urgent.parts = list(world.brain.urgent.parts)[:1]
    assert not fused_step.fused_applies(world)
    world.step()  # and still steps
    assert np.isfinite(world.agents.pos).all()


def test_the_pace_replaces_the_max_speed_in_path_followings_kernel_args() -> None:
    world = World(load_level(resolve_level("patrol")))
    args = world.brain.follow.kernel_args(world.crowd, DT)
    assert args[fused_step.FOLLOW_MAX_SPEED] is world.crowd.max_speed


@pytest.mark.parametrize("name", ["rockfield", "patrol"])  # pushable rocks, and none
def test_the_fused_step_equals_it_across_rock_edits_and_a_world_carried_over(name: str) -> None:
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
    fused, plain = worlds
    thrusts = _thrusts(160)
    for step, thrust in enumerate(thrusts):
        if step in (40, 60):  # a rock moved and grown in place, twice
            for world in worlds:
                x, y = world.obstacle_pos[0]
                world.edit([RockChanged(0, int(world.obstacle_id[0]), x + 30.0, y, 40.0)])
        if step == 80:  # a spawn's count raised: the world is carried over (new rows)
            for model in models:
                assert model.set_property(Ref("enemies", 0), CLASSES["enemy"].prop("count"), "3")
            assert fused.n == plain.n
            assert fused_step.fused_applies(fused)
        fused.step(thrust)
        plain.step(thrust)
        np.testing.assert_array_equal(_snapshot(fused), _snapshot(plain))
        # and the bound rocks are the edited ones (rocks that cannot move are kept, not
        # asked for again each step, on Patrol)
        bound = fused_step._BOUND[fused]
        assert bound.side is not None
        rocks = _fields(bound.side, bound.plan)[0]
        expected = fused.brain.avoid.kernel_args(fused.crowd, DT)
        k = fused_step.ROCKS_PAD
        assert _same_args(rocks[:k] + rocks[k + 2 :], expected[:k] + expected[k + 2 :])
        assert (bound.still is None) == bool(fused.obstacle_dynamic.any())


@njit
def _fields(side, plan):  # type: ignore[no-untyped-def]
    """The bound rocks', separation's and containment's arguments, read back from the records."""
    return side.rocks, side.separate, plan.contain


def _same_args(bound: tuple, expected: tuple) -> bool:  # type: ignore[type-arg]
    """Whether two argument tuples hold the same arrays (equal) and numbers."""
    if len(bound) != len(expected):
        return False
    for b, e in zip(bound, expected, strict=True):
        if isinstance(e, np.ndarray):
            if not (isinstance(b, np.ndarray) and np.array_equal(b, e, equal_nan=True)):
                return False
        elif b != e:
            return False
    return True


def test_the_bound_arguments_are_the_behaviours_own_while_pushable_rocks_move() -> None:
    # Given Rock Field, its pushable rocks set moving every step (so the rocks' grid is
    # queried wider, then rebuilt)
    world = World(load_level(resolve_level("rockfield")))
    assert world.physics.dynamic_rocks.size
    pads: set[float] = set()
    checked: list[int] = []

    def after(system: str, seconds: float) -> None:
        # Then right after each steer system, the bound arguments are what the behaviours
        # give for the world as it stands
        if system != "steer":
            return
        bound = fused_step._BOUND[world]
        crowd, brain = world.crowd, world.brain
        assert bound.side is not None
        rocks, separate, contain = _fields(bound.side, bound.plan)
        # (all but how far the rocks moved and the largest radius, passed with each call)
        expected = brain.avoid.kernel_args(crowd, DT)
        k = fused_step.ROCKS_PAD
        assert _same_args(rocks[:k] + rocks[k + 2 :], expected[:k] + expected[k + 2 :])
        assert _same_args(separate, world.separate.kernel_args(crowd, DT))
        assert _same_args(contain, brain.contain.kernel_args(crowd, DT))
        pads.add(brain.avoid.obstacles.index()[1])
        checked.append(world.frame)

    world.timer = after
    grids = set()
    for step, thrust in enumerate(_thrusts(120)):
        world.physics.vel[world.n :] = (0.0, 200.0 if step < 60 else -200.0)
        world.step(thrust)
        grids.add(id(world.brain.avoid.obstacles.index()[0]))
    assert len(checked) == 120
    assert len(pads) > 3  # the rocks really moved between grid builds
    assert len(grids) > 1  # and far enough for their grid to be built again


@pytest.mark.parametrize("agents", [1, 2, 5])
def test_the_fused_step_equals_it_on_the_smallest_crowds(agents: int) -> None:
    # Given the sandbox shrunk to the player alone, and to one and four other agents (its
    # currents, pushable rocks and walls stay)
    from benchmarks.harness.levels import scaled_level

    level = scaled_level(load_level(resolve_level("sandbox")), agents)
    fused, plain = World(level), World(level, debug=True)
    assert fused.n == agents and fused_step.fused_applies(fused)
    for thrust in _thrusts(120):
        fused.step(thrust)
        plain.step(thrust)
        np.testing.assert_array_equal(_snapshot(fused), _snapshot(plain))


def _toward_enemy(world: World) -> tuple[float, float]:
    """A thrust toward the nearest enemy (to be seen, pursued and caught)."""
    enemies = np.flatnonzero(world.kind == 1)
    d = world.agents.pos[enemies] - world.agents.pos[0]
    x, y = d[int(np.argmin(np.hypot(*d.T)))]
    return float(x), float(y)


@pytest.mark.parametrize("name", ["patrol", "rockfield", "moving_paths"])
def test_the_fused_step_equals_it_while_enemies_see_and_pursue_the_player(name: str) -> None:
    level = load_level(resolve_level(name))
    base = default_tuning()  # all round, so that the enemies chase whichever side it comes
    seeing = replace(base, patrol=replace(base.patrol, sight_angle=180.0))
    fused, plain = World(level, tuning=seeing), World(level, debug=True, tuning=seeing)
    modes: set[str] = set()
    for _ in range(400):
        thrust = _toward_enemy(fused)
        fused.step(thrust)
        plain.step(thrust)
        modes.update(fused.mode_names.tolist())
        np.testing.assert_array_equal(_snapshot(fused), _snapshot(plain))
        if fused.outcome != "running":
            break
    assert fused.outcome == plain.outcome == "caught"
    assert "pursue" in modes


def test_settings_debug_and_the_step_changed_mid_run_reach_the_fused_step() -> None:
    # Given Rock Field twice, one always stepping behaviour by behaviour
    level = load_level(resolve_level("rockfield"))
    fused, plain = World(level), World(level, debug=True)
    for step, thrust in enumerate(_thrusts(120)):
        if step == 30:  # a behaviour's setting changed on a running world
            for world in (fused, plain):
                world.brain.avoid.min_box_length = 90.0
                world.brain.contain.margin = 40.0
                world.brain.follow.lookahead_time = 0.9
        if step == 50:  # debug output on for a while: the fused world steps the other way
            fused.steering.debug_enabled = True
        if step == 60:
            fused.steering.debug_enabled = False
        if step == 90:  # the steer system asked for another step length
            for world in (fused, plain):
                steer_system.steer(world, DT / 4)
            np.testing.assert_array_equal(fused.physics.acc, plain.physics.acc)
            for column in ("path.progress", "path.nearest", "avoid.timer", "avoid.side"):
                np.testing.assert_array_equal(
                    fused.crowd.column(column), plain.crowd.column(column), err_msg=column
                )
        fused.step(thrust)
        plain.step(thrust)
        np.testing.assert_array_equal(_snapshot(fused), _snapshot(plain))


def test_the_bound_argument_places_are_the_behaviours() -> None:
    world = World(load_level(resolve_level("rockfield")))
    geo = world.paths.geometry()
    args = world.brain.follow.kernel_args(world.crowd, DT)
    assert args[: fused_step.FOLLOW_GEOMETRY] == (geo.pf, geo.pi, geo.sf, geo.real)
    _, pad, rmax = world.brain.avoid.obstacles.index()
    rocks = world.brain.avoid.kernel_args(world.crowd, DT)
    assert rocks[fused_step.ROCKS_PAD : fused_step.ROCKS_PAD + 2] == (pad, rmax)


def test_the_fused_step_equals_it_when_fish_sidestep_one_another() -> None:
    # Given Swarm with its fish avoiding each other (unaligned collision avoidance) and
    # queueing: the fused step's late part, between its two compiled calls
    from dataclasses import replace

    base = load_level(resolve_level("swarm"))
    npcs = [replace(n, avoid=True, queue=True) for n in base.npcs]
    level = replace(base, npcs=npcs)
    fused, plain = World(level), World(level, debug=True)
    assert fused.roster.avoid.sum() > 100 and fused_step.fused_applies(fused)
    for thrust in _thrusts(90):
        fused.step(thrust)
        plain.step(thrust)
        np.testing.assert_array_equal(_snapshot(fused), _snapshot(plain))
