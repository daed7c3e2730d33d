"""Reynolds' queueing: brake behind a slower neighbour close ahead instead of pushing into it."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .vec import EPSILON, FloatArray, as_complex, as_rows, truncate_complex

__all__ = ["Queue"]


@dataclass
class Queue:
    """Wait in line: brake while a slower neighbour is close ahead (Reynolds' queueing at a
    doorway), so a crowd funnelling through a gap forms a queue instead of a crush.

    An agent's direction of travel is its velocity (its heading when it stands still). A
    neighbour ``j`` blocks agent ``i`` when its centre is closer than ``distance``, inside
    the cone of full angle ``fov`` degrees around that direction, and it is slower along
    it: ``v_j . u_i < v_i . u_i`` (a neighbour that walks away faster, or at the same speed,
    does not block). A blocked agent brakes with ``-velocity * brake * gain``, limited to max
    force; an agent that is not blocked gets zero force.

    Combine it in front of the goal: in a :class:`~steering.PrioritizedSum`
    ``[Queue, Seek]`` the braking takes its share of max force first and the goal gets what is
    left, so a blocked agent creeps on at a speed where braking and goal balance (``max_force
    / (2 * brake * gain)`` for a goal at full force: 28 px/s with the defaults and a max force
    of 360); with :class:`~steering.Priority` ``[Queue, Seek]`` it brakes outright and
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
    :class:`~steering.Priority` falls through to the goal for a step (the agent inches
    forward and brakes again). Stateless: no memory between steps.

    Attributes:
        distance: how close (centre to centre, px) a neighbour must be to block.
        brake: braking strength, the fraction of the velocity shed per ``1 / gain`` seconds.
        fov: full angle of the cone ahead, degrees (0-360).
        gain: 1/s, as for the other behaviours.
    """

    distance: float = 40.0
    brake: float = 0.8
    fov: float = 90.0
    gain: float = DEFAULT_GAIN

    def __post_init__(self) -> None:
        checks = {
            "distance": self.distance >= 0,
            "brake": self.brake >= 0,
            "fov": 0 <= self.fov <= 360,
            "gain": self.gain >= 0,
        }
        for name, ok in checks.items():
            value = getattr(self, name)
            if not (ok and math.isfinite(value)):
                raise ValueError(f"{name}: invalid value {value!r}")

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) braking forces for blocked agents, zero for the others.

        Debug keys: ``queue.braking`` (N,) True where the agent brakes, ``queue.ahead`` (N,)
        the nearest neighbour blocking it (-1: none).
        """
        n = agents.n
        pairs = agents.pairs_within(self.distance)
        # Directed pairs (receiver, neighbour): each undirected pair both ways.
        who = np.concatenate((pairs[:, 0], pairs[:, 1]))
        other = np.concatenate((pairs[:, 1], pairs[:, 0]))
        pos = as_complex(agents.pos)
        vel = as_complex(agents.vel)
        # Direction of travel: the velocity, else the heading, else +x.
        speed = np.abs(vel)
        moving = speed > EPSILON
        u = np.where(moving, vel / np.where(moving, speed, 1.0), as_complex(agents.heading))
        un = np.abs(u)
        u = np.where(un > EPSILON, u / np.where(un > EPSILON, un, 1.0), 1.0 + 0.0j)

        ui = u.take(who)
        d = pos.take(other) - pos.take(who)
        dist = np.abs(d)
        along = d.real * ui.real + d.imag * ui.imag
        cos_half = math.cos(math.radians(self.fov) / 2.0)
        # In the cone (a neighbour on the very same spot counts, whatever the cone).
        inside = along >= dist * cos_half
        own = speed.take(who)  # v_i . u_i: the speed, or 0 when standing still
        theirs = (vel.take(other) * ui.conj()).real
        block = np.flatnonzero(inside & (dist < self.distance) & (theirs < own))

        braking = np.zeros(n, dtype=bool)
        braking[who[block]] = True
        force = np.zeros(n, dtype=np.complex128)
        rows = np.flatnonzero(braking)
        if rows.size:
            force[rows] = truncate_complex(
                vel.take(rows) * (-self.brake * self.gain), agents.max_force.take(rows)
            )
        if debug is not None:
            ahead = np.full(n, -1, dtype=np.intp)
            if block.size:
                # The nearest blocker per agent: sort by receiver, then distance.
                order = np.lexsort((dist[block], who[block]))
                b = block[order]
                first = np.concatenate(([True], who[b][1:] != who[b][:-1]))
                ahead[who[b][first]] = other[b][first]
            debug["queue.braking"] = braking
            debug["queue.ahead"] = ahead
        return as_rows(force)
