"""Reynolds' queueing: brake behind a slower neighbour close ahead instead of pushing into it."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from ._checks import fov as check_fov
from ._checks import non_negative
from ._jit import prange, rows_kernel
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .debug import QueueDebug, write
from .grid import BRUTE_MAX, BUF_COLS, agent_at, near
from .vec import EPSILON, FloatArray

__all__ = ["Queue"]

IntArray = NDArray[np.int64]

#: Agents per task of the compiled loop.
CHUNK = 256
_NO_INTS = np.zeros(1, dtype=np.int64)


@dataclass
class Queue:
    """Wait in line: brake while a slower neighbour is close ahead (Reynolds' queueing at a
    doorway), so a crowd funnelling through a gap forms a queue instead of a crush.

    An agent's direction of travel is its velocity (its heading when it stands still). A
    neighbour ``j`` blocks agent ``i`` when its center is closer than ``distance``, inside
    the cone of full angle ``fov`` degrees around that direction, and it is slower along
    it: ``v_j . u_i < v_i . u_i`` (a neighbour that walks away faster, or at the same speed,
    does not block). A blocked agent brakes with ``-velocity * brake * gain``, limited to max
    force; an agent that is not blocked gets zero force.

    Combine it in front of the goal: in a :class:`~steering.TruncatedRunningSum`
    ``[Queue, Seek]`` the braking takes its share of max force first and the goal gets what is
    left, so a blocked agent creeps on at a speed where braking and goal balance (``max_force
    / (2 * brake * gain)`` for a goal at full force: 28 px/s with the defaults and a max force
    of 360); with :class:`~steering.FirstNonZero` ``[Queue, Seek]`` it brakes outright and
    only starts again when the neighbour ahead moves off. Neither keeps a gap by itself, so
    list :class:`~steering.Separate` (a little beyond the bodies' diameter) before it to
    hold agents apart while they wait: measured, a line of eight behind a slow leader then
    passes a door in its order without a touch, while with separation and no queueing the
    fast ones push round the leader and into each other.

    Trade-offs and failures: the cone looks along the agent's own velocity, so an agent that
    swerves round a queue sees nobody ahead and pushes past (a narrower ``fov`` makes that
    easier, a wider one makes agents side by side block each other). Two agents facing each
    other head-on both brake and neither gets through: queueing is for flows in one
    direction. A stopped agent has no velocity to shed, so braking gives zero force and a
    :class:`~steering.FirstNonZero` falls through to the goal for a step (the agent inches
    forward and brakes again). Stateless: no memory between steps. Neighbours come from the
    group's neighbour grid (:mod:`~steering.grid`), across the edges of a wrap-around world.

    Attributes:
        distance: how close (center to center, px) a neighbour must be to block.
        brake: braking strength, the fraction of the velocity shed per ``1 / gain`` seconds.
        fov: full angle of the cone ahead, degrees (0-360).
        gain: 1/s, as for the other behaviours.
    """

    distance: float = 40.0
    brake: float = 0.8
    fov: float = 90.0
    gain: float = DEFAULT_GAIN

    def __post_init__(self) -> None:
        self.distance = non_negative("Queue.distance", self.distance)
        self.brake = non_negative("Queue.brake", self.brake)
        self.fov = check_fov("Queue.fov", self.fov, allow_zero=True)
        self.gain = non_negative("Queue.gain", self.gain)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) braking forces for blocked agents, zero for the others.

        Debug keys: ``queue.braking`` (N,) True where the agent brakes, ``queue.ahead`` (N,)
        the nearest neighbour blocking it (-1: none).
        """
        n = agents.n
        grid = agents.neighbour_grid(self.distance if n > BRUTE_MAX else 0.0)
        ahead = np.empty(n, dtype=np.int64) if debug is not None else _NO_INTS
        out = np.empty((n, 2))
        _queue_rows(n)(
            agents.pos,
            agents.vel,
            agents.heading,
            agents.max_force,
            self.distance,
            math.cos(math.radians(self.fov) / 2.0),
            self.brake * self.gain,
            grid.ints,
            grid.floats,
            debug is not None,
            ahead,
            out,
        )
        if debug is not None:
            write(QueueDebug(ahead >= 0, ahead.astype(np.intp)), debug)
        return out


@rows_kernel
def _queue_rows(
    pos: FloatArray,
    vel: FloatArray,
    heading: FloatArray,
    max_force: FloatArray,
    distance: float,
    cos_half: float,
    brake: float,
    ints: IntArray,
    floats: FloatArray,
    debug: bool,
    ahead: IntArray,
    out: FloatArray,
) -> None:
    n = pos.shape[0]
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty((64, BUF_COLS))
        for s in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            i = agent_at(ints, floats, s)
            vx = vel[i, 0]
            vy = vel[i, 1]
            # Direction of travel: the velocity, else the heading, else +x.
            speed = kern.hypot(vx, vy)
            if speed > EPSILON:
                ux = vx / speed
                uy = vy / speed
            else:
                ux, uy, ok = kern.unit(heading[i, 0], heading[i, 1])
                if not ok:
                    ux = 1.0
                    uy = 0.0
            k = near(ints, floats, pos, i, distance, buf)
            if k > buf.shape[0]:  # more than the buffer holds: grow it, ask again
                buf = np.empty((2 * k, BUF_COLS))
                k = near(ints, floats, pos, i, distance, buf)
            # The nearest blocker: in the cone (a neighbour on the very same spot counts,
            # whatever the cone) and slower along the agent's direction.
            best = -1
            best_d = math.inf
            for q in range(k):
                dx = buf[q, 1]
                dy = buf[q, 2]
                d = buf[q, 3]
                if not dx * ux + dy * uy >= d * cos_half:
                    continue
                j = int(buf[q, 0])
                if not vel[j, 0] * ux + vel[j, 1] * uy < speed:
                    continue
                if d < best_d or (d == best_d and j < best):
                    best = j
                    best_d = d
            if best >= 0:
                out[i, 0], out[i, 1] = kern.truncate(-vx * brake, -vy * brake, max_force[i])
            else:
                out[i, 0] = 0.0
                out[i, 1] = 0.0
            if debug:
                ahead[i] = best
