"""What the environment's player observes, no more than a player could see, as one vector in
[-1, 1] (its layout and units: :func:`observation_names`, and docs/env.md).

Each observation reads the world's own state: the rocks, walls and enemies where the physics
left them, an enemy only when the player has a line of sight to it (the physics' own sight
test, :meth:`~game.world.physics.Physics.line_of_sight`, the one enemies see the player
with), the nearest exit as the think system found it, whether an enemy sees the player as
the enemies' minds decided (``minds.seen``), and the current the perceive system found.
"""

from __future__ import annotations

import math

import numpy as np

from game.world import ENEMY, World

from .rays import CHANNELS, enemies_near, observe_into, ring_directions

__all__ = ["EXTRA_NAMES", "Observer", "observation_names", "observation_size"]

#: The components after the rays, in order.
EXTRA_NAMES = (
    "velocity_x",
    "velocity_y",
    "exit_direction_x",
    "exit_direction_y",
    "exit_distance",
    "seen",
    "current_x",
    "current_y",
)


def observation_size(rays: int) -> int:
    """How many numbers an observation holds with ``rays`` rays: four a ray, then eight."""
    return len(CHANNELS) * rays + len(EXTRA_NAMES)


def observation_names(rays: int) -> list[str]:
    """Each component's name, in order: ``ray3_enemy`` is the enemy channel of ray 3."""
    return [f"ray{i}_{c}" for i in range(rays) for c in CHANNELS] + list(EXTRA_NAMES)


class Observer:
    """Makes observations of one world (a new one for every world: walls and enemies are the
    world's, fixed while it runs).

    Args:
        world: The world observed.
        rays: Rays in the ring.
        reach: How far a ray sees (px).
    """

    def __init__(self, world: World, rays: int, reach: float) -> None:
        self.world = world
        self.reach = float(reach)
        self.dirs = ring_directions(rays)
        walls = world.walls
        self.walls = np.ascontiguousarray(
            np.column_stack(
                (
                    np.asarray(walls.start, dtype=np.float64).reshape(-1, 2),
                    np.asarray(walls.end, dtype=np.float64).reshape(-1, 2),
                    np.asarray(world.wall_thickness, dtype=np.float64).reshape(-1) / 2.0,
                )
            )
        )
        self.enemy_rows = np.flatnonzero(world.kind == ENEMY)
        self.enemy_radius = np.ascontiguousarray(world.agents.radius[self.enemy_rows])
        self.enemy_seen = np.zeros(self.enemy_rows.size, dtype=np.bool_)
        width, height = world.physics.size
        self.params = np.array(
            (
                self.reach,
                width,
                height,
                float(world.agents.max_speed[0]),
                math.hypot(width, height),
                1.0 if world.exits.centres.shape[0] else 0.0,
            )
        )
        self.out = np.empty(observation_size(rays), dtype=np.float32)

    def visible_enemies(self) -> np.ndarray:
        """(E,) which enemies count on the rays (also in :attr:`enemy_seen`): those whose
        body comes within reach and to which the player has a line of sight (the physics'
        own sight test)."""
        world = self.world
        pos = world.agents.pos
        seen = self.enemy_seen
        rows = self.enemy_rows
        if enemies_near(pos, rows, self.enemy_radius, self.reach, seen):
            px, py = float(pos[0, 0]), float(pos[0, 1])
            sight = world.physics.line_of_sight
            for k in np.flatnonzero(seen).tolist():
                r = rows[k]
                seen[k] = sight((px, py), (float(pos[r, 0]), float(pos[r, 1])))
        return seen

    def observe(self) -> np.ndarray:
        """The observation now: a new (4R + 8,) float32 array, every component in [-1, 1]."""
        world = self.world
        self.visible_enemies()
        agents = world.agents
        physics = world.physics
        out = self.out
        observe_into(
            out,
            agents.pos,
            agents.vel,
            physics.current,
            physics.obstacles.centers,
            physics.obstacles.radii,
            self.walls,
            self.enemy_rows,
            self.enemy_radius,
            self.enemy_seen,
            self.dirs,
            world.exits.nearest,
            world.minds.seen,
            self.params,
        )
        return out.copy()
