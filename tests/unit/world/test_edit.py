"""World.edit: the editor's changes applied live, with no rebuild: pymunk shapes change in
place, agents keep their positions, velocities and path progress, and nothing turns NaN."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.level.changes import PathChanged, RockChanged, RockRemoved
from game.world import World


def _state(world: World) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    progress = world.brain.follow.progress(world.crowd).copy()
    return world.agents.pos.copy(), world.agents.vel.copy(), progress


def _far_corner(world: World) -> tuple[float, float]:
    """A point at least 80 px from every agent and rock (for rocks that must touch no one)."""
    rng = np.random.default_rng(0)
    for _ in range(1000):
        p = rng.uniform((40, 40), (world.level.width_px - 40, world.level.height_px - 40))
        d_agents = np.hypot(*(world.agents.pos - p).T) - world.agents.radius
        d_rocks = np.hypot(*(world.obstacle_pos - p).T) - world.obstacle_radius
        if d_agents.min() > 80 and (d_rocks.size == 0 or d_rocks.min() > 80):
            return float(p[0]), float(p[1])
    raise AssertionError("no free spot")


def test_moving_resizing_adding_and_removing_rocks_changes_pymunk_in_place() -> None:
    # Given the rock field after a second of play
    world = World(load_level(resolve_level("rockfield")))
    for _ in range(60):
        world.step()
    m = world.obstacle_pos.shape[0]
    shape = world.physics.rock_shapes[0]
    pos, vel, progress = _state(world)
    # When rock 0 moves to a free spot and grows, a fixed rock shrinks where it is, and a new
    # rock is added elsewhere
    x, y = _far_corner(world)
    world.edit([RockChanged(0, int(world.obstacle_id[0]), x, y, 30.0)])
    fixed = int(np.flatnonzero(~world.obstacle_dynamic)[0])
    fx, fy = world.obstacle_pos[fixed].tolist()
    world.edit([RockChanged(fixed, int(world.obstacle_id[fixed]), fx, fy, 12.0)])
    assert world.physics.rock_shapes[fixed].radius == 12.0
    assert world.physics.static_rocks.radii.min() <= 12.0
    x2, y2 = _far_corner(world)
    world.edit([RockChanged(m, 999, x2, y2, 20.0)])
    # Then the same pymunk shape is there now, the core's obstacles agree, and a new one exists
    assert world.physics.rock_shapes[0] is shape
    assert shape.body is not None
    assert shape.radius == 30.0
    assert tuple(shape.body.local_to_world(shape.offset)) == pytest.approx((x, y))
    assert world.obstacle_pos[0].tolist() == pytest.approx([x, y])
    assert world.obstacle_radius[0] == 30.0
    assert world.obstacle_pos.shape[0] == m + 1 and world.obstacle_id[-1] == 999
    assert world.physics.rock_shapes[-1] in world.physics.space.shapes
    assert world.brain.avoid.obstacles is world.obstacles
    # And no agent moved, changed speed or lost its place on its path
    np.testing.assert_array_equal(world.agents.pos, pos)
    np.testing.assert_array_equal(world.agents.vel, vel)
    np.testing.assert_array_equal(world.brain.follow.progress(world.crowd), progress)
    # When the new rock is removed again
    world.edit([RockRemoved(m, 999)])
    assert world.obstacle_pos.shape[0] == m
    assert len(world.physics.rock_shapes) == m
    # Then the world runs on without a NaN
    for _ in range(120):
        world.step()
    assert np.isfinite(world.agents.pos).all() and np.isfinite(world.agents.vel).all()


def test_pushable_rocks_are_edited_and_added_in_place() -> None:
    world = World(load_level(resolve_level("sandbox")))
    dyn = np.flatnonzero(world.obstacle_dynamic)
    if dyn.size == 0:
        pytest.skip("the sandbox has no pushable rock")
    for _ in range(30):
        world.step()
    n_bodies = world.physics.n_bodies
    j = int(dyn[0])
    x, y = _far_corner(world)
    world.edit([RockChanged(j, int(world.obstacle_id[j]), x, y, 25.0)])
    assert world.obstacle_pos[j].tolist() == pytest.approx([x, y])
    assert world.physics.n_bodies == n_bodies
    for _ in range(60):
        world.step()
    assert np.isfinite(world.agents.pos).all()
    assert np.isfinite(world.obstacle_pos).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_path_edits_between_steps_never_move_an_agent_or_make_a_nan(seed: int) -> None:
    # Given moving paths (drifting ones included) and random node edits between steps
    rng = np.random.default_rng(seed)
    world = World(load_level(resolve_level("moving_paths")))
    names = list(world.paths)
    for step in range(90):
        world.step()
        if step % 3:
            continue
        name = names[int(rng.integers(len(names)))]
        path = world.paths[name]
        nodes = [tuple(p) for p in path.nodes.tolist()]
        k = int(rng.integers(len(nodes)))
        nodes[k] = (nodes[k][0] + rng.uniform(-40, 40), nodes[k][1] + rng.uniform(-40, 40))
        if rng.random() < 0.3:
            nodes.insert(k, (nodes[k][0] + 10.0, nodes[k][1] + 10.0))
        closed = path.closed if rng.random() < 0.8 else not path.closed
        radius = float(path.radius * rng.uniform(0.8, 1.25))
        pos, vel, _ = _state(world)
        # When the edit is applied
        world.edit([PathChanged(name, tuple(nodes), closed, radius)])
        # Then no agent moved or changed speed
        np.testing.assert_array_equal(world.agents.pos, pos)
        np.testing.assert_array_equal(world.agents.vel, vel)
    # And every follower still has a finite place on its path
    following = np.flatnonzero(world.path_index[1:] >= 0)
    assert np.isfinite(world.brain.follow.progress(world.crowd)[following]).all()
    assert np.isfinite(world.agents.pos).all() and np.isfinite(world.agents.vel).all()
