"""Per-body arithmetic of the steer and physics systems, compiled: what every body's
acceleration is, the force pymunk applies for it, and the agents' state read back.

Each function is one loop over the bodies (agents first, then pushable rocks) on plain
arrays, called once per step:

* :func:`accelerations`: the crowd's steering, the player's thrust (it swims at
  ``thrust * max_speed`` relative to the water: with no input it stops in still water and
  drifts with a current, and a river carries it sideways while it swims across), rocks'
  friction on the ground, and the currents' drag (less a rock's grip);
* :func:`body_forces`: the velocity each body should reach in a step, at most its max speed
  for agents, and the force that brings it there; a non-finite force is zeroed (it would poison
  a pymunk body forever) and counted;
* :func:`settle`: the agents' velocities limited to max speed and their headings turned toward
  where they look (their velocity, or the player for a guarding sentinel).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from steering.kernels import face, hypot, njit, truncate, turn, unit, use_cache
from steering.vec import FloatArray

from .brains import Mode

if TYPE_CHECKING:
    from .world import World

__all__ = ["ROCK_FRICTION", "ROCK_GRIP", "accelerations", "body_forces", "read_back", "settle"]

use_cache(__file__)

#: Pushable rocks slow down on the ground at this rate (1/s) when nothing pushes them.
ROCK_FRICTION = 3.0
#: Pushable rocks lie on the bottom: the current's drag on one is reduced by this much
#: (px/s^2, static friction), so water slower than ``ROCK_GRIP / CURRENT_DRAG`` (150 px/s)
#: leaves a rock where it is and the Finale's river (130 px/s) no longer rolls one 2,742 px.
ROCK_GRIP = 300.0

GUARD = int(Mode.GUARD)


@njit
def accelerations(
    acc: FloatArray,
    vel: FloatArray,
    steer: FloatArray,
    current: FloatArray,
    in_current: NDArray[np.bool_],
    n: int,
    thrust_x: float,
    thrust_y: float,
    player_speed: float,
    player_accel: float,
    player_gain: float,
    rock_friction: float,
    drag: float,
    grip: float,
) -> None:
    """Every body's acceleration into ``acc``: agents ``1..n-1`` their steering ``steer``
    (crowd rows), the player (row 0) swims at ``thrust * player_speed`` relative to the water
    (closing the gap at ``player_gain`` per second, at most ``player_accel``), pushable rocks
    (rows ``n..``) slow down at ``rock_friction`` per second; in a current every body is
    dragged toward the water's velocity at ``drag`` per second, a rock's drag shortened by
    ``grip`` (static friction of a rock resting on the bottom)."""
    for i in range(1, n):
        acc[i, 0] = steer[i - 1, 0]
        acc[i, 1] = steer[i - 1, 1]
    if n > 0:
        want_x = current[0, 0] + thrust_x * player_speed
        want_y = current[0, 1] + thrust_y * player_speed
        acc[0, 0], acc[0, 1] = truncate(
            (want_x - vel[0, 0]) * player_gain, (want_y - vel[0, 1]) * player_gain, player_accel
        )
    for i in range(n, acc.shape[0]):
        acc[i, 0] = -rock_friction * vel[i, 0]
        acc[i, 1] = -rock_friction * vel[i, 1]
    for i in range(acc.shape[0]):
        if not in_current[i]:
            continue
        dx = (current[i, 0] - vel[i, 0]) * drag
        dy = (current[i, 1] - vel[i, 1]) * drag
        if i >= n:
            mag = hypot(dx, dy)
            keep = max(mag - grip, 0.0) / (mag if mag > 0.0 else 1.0)
            dx *= keep
            dy *= keep
        acc[i, 0] += dx
        acc[i, 1] += dy


@njit
def body_forces(
    vel: FloatArray,
    acc: FloatArray,
    mass: FloatArray,
    max_speed: FloatArray,
    dt: float,
    force: FloatArray,
) -> int:
    """The force on every body that brings its velocity ``vel`` (after the speculative
    contacts) to ``vel + acc * dt``, for agents (the first ``max_speed.shape[0]`` rows) at
    most their max speed, into ``force``; returns how many bodies had a non-finite force,
    which is zeroed."""
    bad = 0
    n = max_speed.shape[0]
    for i in range(vel.shape[0]):
        vx, vy = vel[i, 0], vel[i, 1]
        nx = vx + acc[i, 0] * dt
        ny = vy + acc[i, 1] * dt
        if i < n:
            speed = hypot(nx, ny)
            if speed > max_speed[i]:
                s = max_speed[i] / speed
                nx *= s
                ny *= s
        m = mass[i] / dt
        fx = (nx - vx) * m
        fy = (ny - vy) * m
        if not (abs(fx) < np.inf and abs(fy) < np.inf):
            bad += 1
            fx = fy = 0.0
        force[i, 0] = fx
        force[i, 1] = fy
    return bad


@njit
def settle(
    pos: FloatArray,
    vel: FloatArray,
    agent_pos: FloatArray,
    agent_vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    turn_rate: FloatArray,
    mode: NDArray[np.int8],
    dt: float,
) -> None:
    """The agents' state from their bodies: positions, velocities limited to max speed (what
    pymunk's contact solver added beyond it is dropped, in ``vel`` too), and headings turned,
    at most their turn rate, toward their velocity (kept while they stand) or, for a guarding
    sentinel, toward the player."""
    n = agent_pos.shape[0]
    for i in range(n):
        vx, vy = vel[i, 0], vel[i, 1]
        speed = hypot(vx, vy)
        if speed > max_speed[i]:
            s = max_speed[i] / speed
            vx *= s
            vy *= s
        vel[i, 0] = vx  # the bodies' velocities too: the next step starts from these
        vel[i, 1] = vy
        agent_pos[i, 0] = pos[i, 0]
        agent_pos[i, 1] = pos[i, 1]
        agent_vel[i, 0] = vx
        agent_vel[i, 1] = vy
    for i in range(n):
        hx, hy = heading[i, 0], heading[i, 1]
        if mode[i] == GUARD:
            wx, wy, _ = unit(agent_pos[0, 0] - agent_pos[i, 0], agent_pos[0, 1] - agent_pos[i, 1])
            hx, hy = turn(hx, hy, wx, wy, turn_rate[i], dt)
        else:
            hx, hy = face(agent_vel[i, 0], agent_vel[i, 1], hx, hy, turn_rate[i], dt)
        heading[i, 0] = hx
        heading[i, 1] = hy


def read_back(world: World, dt: float) -> None:
    """The bodies' state from pymunk into the physics' arrays and the agents (in place, so
    views stay valid): bodies sunk into a rock projected out, the agents' velocities limited
    to max speed (what pymunk's contact solver added beyond it is dropped), and their headings
    turned toward where each looks: its velocity (kept while it stands still), or the player
    for a guarding sentinel."""
    pos, vel = world.physics.read_back()
    a = world.agents
    settle(pos, vel, a.pos, a.vel, a.heading, a.max_speed, a.max_turn_rate, world.state.mode, dt)
