"""How agents move and turn: :func:`integrate` (the seeds' ``update()``) and the per-agent
steps it and the composites' moving loops are made of: :func:`integrate_row`,
:func:`move_row` (a step, then wrapped into a torus world), :func:`turn_row` (an orientation
request applied once), :func:`turn_toward` and :func:`face_velocity` (a heading turned by at
most ``max_turn_rate * dt``), and their loops over agents."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ._checks import time_step
from ._jit import njit, njit_leaf, prange, rows_kernel
from ._kern import EPSILON, hypot, truncate, unit
from .vec import FloatArray

if TYPE_CHECKING:
    from .agents import AgentGroup

__all__ = [
    "face_rows",
    "face_velocity",
    "integrate",
    "integrate_row",
    "integrate_rows",
    "move_row",
    "turn_reach",
    "turn_row",
    "turn_rows",
    "turn_toward",
    "wrap_row",
    "wrap_rows",
]


def integrate(
    agents: AgentGroup, force: FloatArray, dt: float, *, face_velocity: bool = True
) -> None:
    """Semi-implicit Euler step in place: velocity += force / mass * dt (limited to max speed),
    then move.

    This is the seeds' ``update()``: ``acceleration = force / mass``. With the default mass of 1 a
    behaviour's output is the acceleration itself; pymunk does the same with a body's force
    (:class:`steering.pymunk.BodyBridge`), but does not limit the speed. ``agents.pos``,
    ``agents.vel`` and ``agents.heading`` stay the same array objects, so views of them (a sub-range
    such as the world's crowd) see the step. A row of ``force`` that is not finite stops that agent
    rather than poisoning it. The heading then turns once: toward an orientation behaviour's
    request where one is pending (:class:`~steering.Face`,
    :class:`~steering.LookWhereYouAreGoing`, :meth:`AgentGroup.request_turn`), else, with
    ``face_velocity``, toward the velocity (:meth:`AgentGroup.update_heading`), each limited
    by ``max_turn_rate``.

    Raises:
        ValueError: if ``force`` is not (N, 2) or ``dt`` is negative or not finite.
    """
    pos = agents.pos
    n = pos.shape[0]
    f = force
    if type(f) is not np.ndarray or f.dtype != np.float64:
        try:
            f = np.asarray(force, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"integrate: force must be ({n}, 2) numbers, got {force!r:.40}"
            ) from None
    if f.shape != (n, 2):
        raise ValueError(f"integrate: force must have shape ({n}, 2), got {f.shape}")
    dt = time_step("integrate", dt)
    integrate_rows(n)(
        pos,
        agents.vel,
        agents.heading,
        agents.max_speed,
        agents.mass,
        agents.max_turn_rate,
        f,
        dt,
        face_velocity,
        agents.turns(),
    )
    world = agents.world_size
    if world is not None:
        wrap_rows(n)(pos, world[0], world[1])


# -- kernels ---------------------------------------------------------------------------------


@njit_leaf
def wrap_row(pos: FloatArray, width: float, height: float, i: int) -> None:
    """Agent ``i``'s position wrapped into ``[0, width) x [0, height)`` in place."""
    x = pos[i, 0] % width
    y = pos[i, 1] % height
    # -1e-20 % w is w in floats: keep the half-open box half-open.
    pos[i, 0] = x if x < width else 0.0
    pos[i, 1] = y if y < height else 0.0


@rows_kernel
def wrap_rows(pos: FloatArray, width: float, height: float) -> None:
    """Positions wrapped into ``[0, width) x [0, height)`` in place."""
    for i in prange(pos.shape[0]):
        wrap_row(pos, width, height, i)


@njit
def turn_toward(hx: float, hy: float, wx: float, wy: float, reach: float) -> tuple[float, float]:
    """Heading (hx, hy) turned toward (wx, wy) by at most ``reach`` radians, the short way.

    A desired heading of unit length is used as it is (so a velocity's direction is reached bit
    for bit); no desired direction keeps the heading; no heading takes the desired one.
    """
    if abs(hypot(wx, wy) - 1.0) <= 4e-16:
        dx, dy = wx, wy
    else:
        dx, dy, _ = unit(wx, wy)
    if dx == 0.0 and dy == 0.0:
        return hx, hy
    if reach == math.inf:  # no limit (the default): the angle would be measured for nothing
        return dx, dy
    h_len = hypot(hx, hy)
    if not (h_len > EPSILON and h_len < math.inf):
        return dx, dy
    ux, uy = hx / h_len, hy / h_len
    angle = math.atan2(dy * ux - dx * uy, dx * ux + dy * uy)
    if abs(angle) <= reach:
        return dx, dy
    step = min(max(angle, -reach), reach)
    c, s = math.cos(step), math.sin(step)
    return ux * c - uy * s, ux * s + uy * c


@njit
def turn_reach(rate: float, dt: float) -> float:
    """How far a heading may turn in ``dt``: inf for an inf rate, none for a NaN one."""
    if dt == 0.0:
        return math.inf if rate == math.inf else 0.0
    r = rate * dt
    return r if r >= 0.0 else 0.0


@njit
def face_velocity(
    vx: float, vy: float, hx: float, hy: float, rate: float, dt: float
) -> tuple[float, float]:
    """The heading after one step of facing the velocity (kept when the agent stands)."""
    if hypot(vx, vy) > 1e-6:
        wx, wy, _ = unit(vx, vy)
        return turn_toward(hx, hy, wx, wy, turn_reach(rate, dt))
    return hx, hy


@rows_kernel
def turn_rows(heading: FloatArray, want: FloatArray, rate: FloatArray, dt: float) -> None:
    """Each heading turned toward its row of ``want`` by at most ``rate * dt`` (in place)."""
    for i in prange(heading.shape[0]):
        heading[i, 0], heading[i, 1] = turn_toward(
            heading[i, 0], heading[i, 1], want[i, 0], want[i, 1], turn_reach(rate[i], dt)
        )


@rows_kernel
def face_rows(
    vel: FloatArray, heading: FloatArray, rate: FloatArray, dt: float, turns: FloatArray
) -> None:
    """Each heading's one turn (in place): toward its pending request in ``turns``
    (:func:`turn_row`), else toward its velocity (:func:`face_velocity`)."""
    for i in prange(heading.shape[0]):
        if not turn_row(heading, rate, turns, dt, i):
            heading[i, 0], heading[i, 1] = face_velocity(
                vel[i, 0], vel[i, 1], heading[i, 0], heading[i, 1], rate[i], dt
            )


@njit_leaf
def integrate_row(
    pos: FloatArray,
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    mass: FloatArray,
    rate: FloatArray,
    fx: float,
    fy: float,
    dt: float,
    face: bool,
    turns: FloatArray,
    i: int,
) -> None:
    """Agent ``i``'s semi-implicit Euler step under force (fx, fy) (see :func:`integrate`),
    then its heading's one turn: toward its pending orientation request in ``turns`` (see
    :func:`turn_row`), else with ``face`` toward the new velocity."""
    m = mass[i]
    vx, vy = truncate(vel[i, 0] + fx / m * dt, vel[i, 1] + fy / m * dt, max_speed[i])
    vel[i, 0] = vx
    vel[i, 1] = vy
    pos[i, 0] += vx * dt
    pos[i, 1] += vy * dt
    if not turn_row(heading, rate, turns, dt, i) and face:
        heading[i, 0], heading[i, 1] = face_velocity(
            vx, vy, heading[i, 0], heading[i, 1], rate[i], dt
        )


@njit_leaf
def turn_row(heading: FloatArray, rate: FloatArray, turns: FloatArray, dt: float, i: int) -> bool:
    """Apply agent ``i``'s pending orientation request (row ``i`` of ``turns``, the
    :data:`TURN_COLUMN` an orientation behaviour wrote; none when ``turns`` has no rows or the
    row is zero): its heading turned toward it by at most ``max_turn_rate * dt`` and the
    request cleared, so it is applied once. True when there was one."""
    if turns.shape[0] == 0:
        return False
    wx = turns[i, 0]
    wy = turns[i, 1]
    if wx == 0.0 and wy == 0.0:
        return False
    heading[i, 0], heading[i, 1] = turn_toward(
        heading[i, 0], heading[i, 1], wx, wy, turn_reach(rate[i], dt)
    )
    turns[i, 0] = 0.0
    turns[i, 1] = 0.0
    return True


@njit_leaf
def move_row(
    pos: FloatArray,
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    mass: FloatArray,
    rate: FloatArray,
    force: FloatArray,
    dt: float,
    face: bool,
    turns: FloatArray,
    width: float,
    height: float,
    i: int,
) -> None:
    """Agent ``i``'s step under its row of ``force`` (:func:`integrate_row`), then wrapped into
    a ``width`` x ``height`` world when that is not 0: the move of a kernel that computes the
    forces and moves the agents in one call (:func:`~steering.step`)."""
    integrate_row(
        pos, vel, heading, max_speed, mass, rate, force[i, 0], force[i, 1], dt, face, turns, i
    )
    if width > 0.0:
        wrap_row(pos, width, height, i)


@rows_kernel
def integrate_rows(
    pos: FloatArray,
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    mass: FloatArray,
    rate: FloatArray,
    force: FloatArray,
    dt: float,
    face: bool,
    turns: FloatArray,
) -> None:
    """Every agent's step under its row of ``force`` (:func:`integrate_row`)."""
    for i in prange(pos.shape[0]):
        integrate_row(
            pos, vel, heading, max_speed, mass, rate, force[i, 0], force[i, 1], dt, face, turns, i
        )
