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

__all__ = ["CHANNELS", "cast_ring", "enemies_near", "observe_into", "ring_directions"]

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
    walls: FloatArray,
    pos: FloatArray,
    rows: np.ndarray,
    enemy_radius: FloatArray,
    enemy_seen: np.ndarray,
    width: float,
    height: float,
    out: np.ndarray,
) -> None:
    """Distances (px, at most ``reach``) along each ray from (ox, oy) into ``out`` (4R,),
    four a ray: the nearest rock, wall, enemy and map edge.

    Args:
        dirs: (R, 2) unit directions of the rays.
        rocks, rock_radius: (M, 2) rock centres and (M,) radii.
        walls: (W, 5) each wall as (ax, ay, bx, by, half thickness).
        pos: (N, 2) the agents' positions; rows: (E,) the enemies' rows of it;
            enemy_radius: (E,) their radii; enemy_seen: (E,) the ones that count.
        width, height: the map's size (px) from the origin.
    """
    for i in range(dirs.shape[0]):
        ux = dirs[i, 0]
        uy = dirs[i, 1]
        best = reach
        for j in range(rocks.shape[0]):
            d = math.hypot(rocks[j, 0] - ox, rocks[j, 1] - oy)
            if d - rock_radius[j] < best:
                t = circle_entry(ox, oy, ux, uy, rocks[j, 0], rocks[j, 1], rock_radius[j])
                best = min(best, t)
        out[4 * i] = best
        best = reach
        for j in range(walls.shape[0]):
            t = wall_entry(
                ox, oy, ux, uy, walls[j, 0], walls[j, 1], walls[j, 2], walls[j, 3], walls[j, 4]
            )
            best = min(best, t)
        out[4 * i + 1] = best
        best = reach
        for j in range(rows.shape[0]):
            if enemy_seen[j]:
                r = rows[j]
                t = circle_entry(ox, oy, ux, uy, pos[r, 0], pos[r, 1], enemy_radius[j])
                best = min(best, t)
        out[4 * i + 2] = best
        best = reach
        if ux > 0.0:
            best = min(best, (width - ox) / ux)
        elif ux < 0.0:
            best = min(best, -ox / ux)
        if uy > 0.0:
            best = min(best, (height - oy) / uy)
        elif uy < 0.0:
            best = min(best, -oy / uy)
        out[4 * i + 3] = max(best, 0.0)


@njit
def _unit(v: float) -> float:
    """``v`` clipped to [-1, 1]."""
    return min(max(v, -1.0), 1.0)


@njit
def observe_into(
    out: np.ndarray,
    pos: FloatArray,
    vel: FloatArray,
    current: FloatArray,
    rocks: FloatArray,
    rock_radius: FloatArray,
    walls: FloatArray,
    rows: np.ndarray,
    enemy_radius: FloatArray,
    enemy_seen: np.ndarray,
    dirs: FloatArray,
    nearest: FloatArray,
    seen: np.ndarray,
    params: FloatArray,
) -> None:
    """The whole observation into ``out`` (4R + 8,), every component in [-1, 1]: the ring
    (:func:`cast_ring`, each distance as ``2 d / reach - 1``), then the player's velocity and
    the current under it (row 0 of ``vel`` and ``current``) over its top speed, the unit
    direction to the ``nearest`` exit and its distance as ``2 d / diagonal - 1``, and +1 when
    any of ``seen`` is set (-1 otherwise).

    ``params`` is (reach, width, height, top speed, diagonal, 1 with exits else 0).
    """
    reach = params[0]
    ox = pos[0, 0]
    oy = pos[0, 1]
    rays = dirs.shape[0]
    cast_ring(
        ox,
        oy,
        dirs,
        reach,
        rocks,
        rock_radius,
        walls,
        pos,
        rows,
        enemy_radius,
        enemy_seen,
        params[1],
        params[2],
        out,
    )
    for k in range(4 * rays):
        out[k] = _unit(2.0 * out[k] / reach - 1.0)
    n = 4 * rays
    speed = params[3]
    out[n] = _unit(vel[0, 0] / speed)
    out[n + 1] = _unit(vel[0, 1] / speed)
    if params[5] > 0.0:
        dx = nearest[0] - ox
        dy = nearest[1] - oy
        d = math.hypot(dx, dy)
        out[n + 2] = _unit(dx / d) if d > 0.0 else 0.0
        out[n + 3] = _unit(dy / d) if d > 0.0 else 0.0
        out[n + 4] = _unit(2.0 * d / params[4] - 1.0)
    else:
        out[n + 2] = 0.0
        out[n + 3] = 0.0
        out[n + 4] = 1.0
    out[n + 5] = -1.0
    for k in range(seen.shape[0]):
        if seen[k]:
            out[n + 5] = 1.0
    out[n + 6] = _unit(current[0, 0] / speed)
    out[n + 7] = _unit(current[0, 1] / speed)


@njit
def enemies_near(
    pos: FloatArray, rows: np.ndarray, radius: FloatArray, reach: float, near: np.ndarray
) -> int:
    """Mark in ``near`` the enemies (agent ``rows`` of ``pos``, row 0 the player) whose body
    comes within ``reach`` of the player; returns how many."""
    px = pos[0, 0]
    py = pos[0, 1]
    count = 0
    for k in range(rows.shape[0]):
        r = rows[k]
        near[k] = math.hypot(pos[r, 0] - px, pos[r, 1] - py) - radius[k] < reach
        if near[k]:
            count += 1
    return count
