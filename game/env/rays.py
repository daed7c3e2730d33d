"""The ring of rays the environment's player sees with: how far along each ray the nearest
rock, wall, visible enemy and map edge are (one compiled call for the whole ring).

Rocks and walls are the shapes the world's sight tests (rocks as circles, walls as segments
thickened by half their thickness), entered from outside, with the same per-ray functions
the enemies' sight regions use (:func:`game.world.sight.circle_entry`,
:func:`~game.world.sight.wall_entry`). Enemies are circles of their body radius; which of
them count is the caller's choice (those the player has a line of sight to).
"""

from __future__ import annotations

import math

import numpy as np

from game.world.sight import circle_entry, wall_entry
from steering.kernels import njit
from steering.vec import FloatArray

__all__ = ["CHANNELS", "cast_ring", "ring_directions"]

#: What each ray reports, in the order of the ring's columns.
CHANNELS = ("rock", "wall", "enemy", "edge")


def ring_directions(rays: int) -> FloatArray:
    """(R, 2) unit directions of a ring of ``rays`` rays: the first along +x (right),
    then counter-clockwise (y up) at equal angles."""
    angle = 2.0 * np.pi * np.arange(rays) / rays
    return np.ascontiguousarray(np.stack((np.cos(angle), np.sin(angle)), axis=1))


@njit
def cast_ring(
    ox: float,
    oy: float,
    dirs: FloatArray,
    reach: float,
    rocks: FloatArray,
    rock_radius: FloatArray,
    wall_start: FloatArray,
    wall_end: FloatArray,
    wall_radius: FloatArray,
    enemies: FloatArray,
    enemy_radius: FloatArray,
    enemy_seen: np.ndarray,
    width: float,
    height: float,
    out: FloatArray,
) -> None:
    """Distances (px, at most ``reach``) along each ray from (ox, oy) into ``out`` (R, 4):
    the nearest rock, wall, enemy (those with ``enemy_seen`` set) and map edge
    (the map is ``width`` x ``height`` from the origin)."""
    for i in range(dirs.shape[0]):
        ux = dirs[i, 0]
        uy = dirs[i, 1]
        best = reach
        for j in range(rocks.shape[0]):
            d = math.hypot(rocks[j, 0] - ox, rocks[j, 1] - oy)
            if d - rock_radius[j] < best:
                t = circle_entry(ox, oy, ux, uy, rocks[j, 0], rocks[j, 1], rock_radius[j])
                best = min(best, t)
        out[i, 0] = best
        best = reach
        for j in range(wall_start.shape[0]):
            t = wall_entry(
                ox,
                oy,
                ux,
                uy,
                wall_start[j, 0],
                wall_start[j, 1],
                wall_end[j, 0],
                wall_end[j, 1],
                wall_radius[j],
            )
            best = min(best, t)
        out[i, 1] = best
        best = reach
        for j in range(enemies.shape[0]):
            if enemy_seen[j]:
                t = circle_entry(ox, oy, ux, uy, enemies[j, 0], enemies[j, 1], enemy_radius[j])
                best = min(best, t)
        out[i, 2] = best
        best = reach
        if ux > 0.0:
            best = min(best, (width - ox) / ux)
        elif ux < 0.0:
            best = min(best, -ox / ux)
        if uy > 0.0:
            best = min(best, (height - oy) / uy)
        elif uy < 0.0:
            best = min(best, -oy / uy)
        out[i, 3] = max(best, 0.0)
