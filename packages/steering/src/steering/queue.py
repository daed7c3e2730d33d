"""Reynolds' queueing: brake behind a slower neighbour close ahead instead of pushing into it.
The behaviour, its record and its per-agent function."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from ._checks import fov as check_fov
from ._checks import non_negative
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .checked import checks
from .composite import AgentCols, RowPart, row_function
from .debug import QueueDebug, write
from .grid import BRUTE_MAX, near, near_point
from .others import OWN, others_grid, others_of
from .vec import EPSILON, FloatArray

__all__ = ["Queue", "QueueRecord", "queue_agent", "queue_row"]

IntArray = NDArray[np.int64]

_NO_INTS = np.zeros(0, dtype=np.int64)
_NO_VECTORS = np.zeros((0, 2))


class QueueRecord(NamedTuple):
    """:class:`Queue`'s neighbour grid and parameters for one call."""

    grid_ints: IntArray
    """The neighbour grid (:class:`~steering.grid.Grid`) searched."""
    grid_floats: FloatArray
    """The grid's floats."""
    distance: float
    """How close a blocker is, px."""
    cos_half: float
    """The cosine of half the cone ahead."""
    brake: float
    """``brake * gain``, 1/s."""
    ahead: IntArray
    """(N,) the blocker each agent brakes for (-1: none; with ``others`` an index into them)
    when debug output is asked, else (0,)."""
    others: int
    """The number of other agents searched (M), or :data:`~steering.others.OWN` (-1): the
    group's own."""
    others_pos: FloatArray
    """(M, 2) the others' positions, or (0, 2)."""
    others_vel: FloatArray
    """(M, 2) the others' velocities, or (0, 2)."""


@row_function
def queue_agent(i: int, a: AgentCols, p: QueueRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s queueing force (see :class:`Queue`): braking behind the nearest slower
    neighbour ahead, zero when none; ``buf`` takes its neighbours (a row for every agent)."""
    vx = a.vel[i, 0]
    vy = a.vel[i, 1]
    # Direction of travel: the velocity, else the heading, else +x.
    speed = kern.hypot(vx, vy)
    if speed > EPSILON:
        ux = vx / speed
        uy = vy / speed
    else:
        ux, uy, ok = kern.unit(a.heading[i, 0], a.heading[i, 1])
        if not ok:
            ux = 1.0
            uy = 0.0
    own = p.others < 0
    if own:
        k = near(p.grid_ints, p.grid_floats, a.pos, i, p.distance, buf)
    else:
        x = a.pos[i, 0]
        y = a.pos[i, 1]
        k = near_point(p.grid_ints, p.grid_floats, p.others_pos, x, y, -1, p.distance, buf)
        k = min(k, buf.shape[0])  # (the buffer has a row per other agent)
    # The nearest blocker: in the cone (a neighbour on the very same spot counts, whatever
    # the cone) and slower along the agent's direction.
    best = -1
    best_d = math.inf
    for q in range(k):
        dx = buf[q, 1]
        dy = buf[q, 2]
        d = buf[q, 3]
        if not dx * ux + dy * uy >= d * p.cos_half:
            continue
        j = int(buf[q, 0])
        if own:
            along = a.vel[j, 0] * ux + a.vel[j, 1] * uy
        else:
            along = p.others_vel[j, 0] * ux + p.others_vel[j, 1] * uy
        if not along < speed:
            continue
        if d < best_d or (d == best_d and j < best):
            best = j
            best_d = d
    if p.ahead.shape[0] > 0:
        p.ahead[i] = best
    if best >= 0:
        return kern.truncate(-vx * p.brake, -vy * p.brake, a.max_force[i])
    return 0.0, 0.0


@row_function
def queue_row(i: int, a: AgentCols, p: QueueRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s queueing force in a composite."""
    return queue_agent(i, a, p, buf)


@dataclass
class Queue(RowPart):
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

    With ``others`` the agents that block are another group's (a crowd queueing behind a line
    of carts): the grid is built over their positions and their velocities decide who is
    slower; nobody is left out. ``others`` set to the group itself is the default.

    Attributes:
        distance: how close (center to center, px) a neighbour must be to block.
        brake: braking strength, the fraction of the velocity shed per ``1 / gain`` seconds.
        fov: full angle of the cone ahead, degrees (0-360).
        gain: 1/s, as for the other behaviours.
        others: None (the group's own agents block), or another group whose agents do: an
            :class:`~steering.AgentGroup` or any object with ``pos`` and ``vel`` arrays of
            shape (M, 2) (see :mod:`steering.others`).
    """

    ROW = queue_row
    ROW_RECORD = QueueRecord
    ORDERS = True

    distance: float = 40.0
    brake: float = 0.8
    fov: float = 90.0
    gain: float = DEFAULT_GAIN
    others: Any = field(default=None, compare=False)

    CHECKS = checks(
        "Queue",
        fov=functools.partial(check_fov, allow_zero=True),
        distance=non_negative,
        brake=non_negative,
        gain=non_negative,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> QueueRecord:
        """This call's record: the neighbour grid is built (or found) here.

        Debug output (:class:`~steering.debug.QueueDebug`): ``queue.braking`` (N,) True where
        the agent brakes, ``queue.ahead`` (N,) the nearest neighbour blocking it (-1: none;
        with ``others`` an index into them).

        Raises:
            ValueError: for ``others`` whose arrays are not (M, 2) (see
                :func:`~steering.others.others_of`).
        """
        n = agents.n
        others = self.others
        seen = None if others is None else others_of("Queue", others, agents, True)
        if seen is None:
            grid = agents.neighbour_grid(self.distance if n > BRUTE_MAX else 0.0)
            count, opos, ovel = OWN, _NO_VECTORS, _NO_VECTORS
        else:
            grid = others_grid(self, others, seen, None, self.distance)
            count, opos, ovel = seen.pos.shape[0], seen.pos, seen.vel
        return QueueRecord(
            grid.ints,
            grid.floats,
            self.distance,
            math.cos(math.radians(self.fov) / 2.0),
            self.brake * self.gain,
            np.full(n, -1, dtype=np.int64) if debug else _NO_INTS,
            count,
            opos,
            ovel,
        )

    def report(self, agents: AgentGroup, record: QueueRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.QueueDebug`."""
        ahead = record.ahead
        write(QueueDebug(ahead >= 0, ahead.astype(np.intp)), debug)
