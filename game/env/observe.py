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
from steering.vec import FloatArray

from .rays import CHANNELS, cast_ring, ring_directions

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
        self.wall_start = np.ascontiguousarray(walls.start, dtype=np.float64).reshape(-1, 2)
        self.wall_end = np.ascontiguousarray(walls.end, dtype=np.float64).reshape(-1, 2)
        self.wall_radius = np.ascontiguousarray(world.wall_thickness, dtype=np.float64) / 2.0
        self.enemy_rows = np.flatnonzero(world.kind == ENEMY)
        self.enemy_radius = np.ascontiguousarray(world.agents.radius[self.enemy_rows])
        self.enemy_seen = np.zeros(self.enemy_rows.size, dtype=np.bool_)
        width, height = world.physics.size
        self.size = (float(width), float(height))
        self.diagonal = math.hypot(width, height)
        self.top_speed = float(world.agents.max_speed[0])
        self.ring = np.empty((rays, len(CHANNELS)))
        self.out = np.empty(observation_size(rays))

    def visible_enemies(self) -> FloatArray:
        """(E, 2) the enemies' positions; sets :attr:`enemy_seen` for those within reach that
        the player has a line of sight to."""
        world = self.world
        pos = world.agents.pos
        enemies = np.ascontiguousarray(pos[self.enemy_rows])
        seen = self.enemy_seen
        if enemies.shape[0] == 0:
            return enemies
        px, py = float(pos[0, 0]), float(pos[0, 1])
        gap = np.hypot(enemies[:, 0] - px, enemies[:, 1] - py) - self.enemy_radius
        near = gap < self.reach
        seen[:] = False
        sight = world.physics.line_of_sight
        for k in np.flatnonzero(near).tolist():
            seen[k] = sight((px, py), (float(enemies[k, 0]), float(enemies[k, 1])))
        return enemies

    def observe(self) -> np.ndarray:
        """The observation now: (4R + 8,) float32, every component in [-1, 1]."""
        world = self.world
        pos = world.agents.pos
        px, py = float(pos[0, 0]), float(pos[0, 1])
        enemies = self.visible_enemies()
        ring = self.ring
        cast_ring(
            px,
            py,
            self.dirs,
            self.reach,
            world.obstacle_pos,
            world.obstacle_radius,
            self.wall_start,
            self.wall_end,
            self.wall_radius,
            enemies,
            self.enemy_radius,
            self.enemy_seen,
            self.size[0],
            self.size[1],
            ring,
        )
        out = self.out
        n = ring.size
        out[:n] = ring.reshape(-1)
        out[:n] *= 2.0 / self.reach
        out[:n] -= 1.0
        speed = self.top_speed
        vel = world.agents.vel[0]
        out[n] = vel[0] / speed
        out[n + 1] = vel[1] / speed
        if world.exits.centres.shape[0]:
            ex, ey = world.exits.nearest
            dx, dy = float(ex) - px, float(ey) - py
            d = math.hypot(dx, dy)
            out[n + 2] = dx / d if d > 0.0 else 0.0
            out[n + 3] = dy / d if d > 0.0 else 0.0
            out[n + 4] = 2.0 * d / self.diagonal - 1.0
        else:
            out[n + 2] = out[n + 3] = 0.0
            out[n + 4] = 1.0
        out[n + 5] = 1.0 if world.minds.seen.any() else -1.0
        current = world.current_at_agents[0]
        out[n + 6] = current[0] / speed
        out[n + 7] = current[1] / speed
        np.clip(out, -1.0, 1.0, out=out)
        return out.astype(np.float32)
