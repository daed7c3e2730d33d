""":class:`~steering.AvoidAgents` against another group's agents (``others=``): each agent's
most imminent threat among them, found through the neighbour grid over their positions."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._jit import prange, rows_kernel
from .agents import AgentGroup
from .avoid_react import NO_THREAT, AvoidAgentsParams, Threat, respond
from .grid import BUF_COLS, near_point
from .others import Others, others_grid
from .vec import FloatArray

__all__ = ["avoid_others", "others_reach"]

IntArray = NDArray[np.int64]

#: Agents per task of the compiled loop.
CHUNK = 256


class OthersSearch(NamedTuple):
    """The others as the compiled loop searches them."""

    ints: IntArray
    """The neighbour grid over their positions (:class:`~steering.grid.Grid`)."""
    floats: FloatArray
    """The grid's floats."""
    pos: FloatArray
    """(M, 2) their positions."""
    vel: FloatArray
    """(M, 2) their velocities."""
    radius: FloatArray
    """(M,) their radii."""
    reach: float
    """How far each agent searches, px."""


def others_reach(
    agents: AgentGroup, seen: Others, horizon: float, margin: float, cap: float
) -> float:
    """How far (px) an agent searches the others: a pair closes at most at the agent's max
    speed plus the other's speed now (the others are extrapolated at their velocities), so
    an other further than that times the horizon, plus both radii and the margin, cannot
    threaten within it; at most ``cap``."""
    if agents.n == 0 or seen.pos.shape[0] == 0:
        return 0.0
    speed = float(np.max(agents.max_speed))
    other = float(np.sqrt(np.max(np.einsum("ij,ij->i", seen.vel, seen.vel))))
    reach = (speed + other) * horizon + float(np.max(agents.radius))
    reach += float(np.max(seen.radius)) + margin
    # (a NaN or infinite velocity: search the cap)
    return min(reach, cap) if math.isfinite(reach) else cap


def avoid_others(
    rule: object,
    others: object,
    seen: Others,
    agents: AgentGroup,
    side: FloatArray,
    params: AvoidAgentsParams,
    outputs: tuple[IntArray, FloatArray, FloatArray, FloatArray] | None,
) -> FloatArray:
    """The (N, 2) forces of ``rule`` (an AvoidAgents) against the others ``seen``; with
    ``outputs`` (threat, point, other, when) the debug rows are written into them."""
    n = agents.n
    reach = others_reach(agents, seen, params.time_horizon, params.margin, params.max_reach)
    grid = others_grid(rule, others, seen, None, reach)
    out = np.empty((n, 2))
    debug = outputs is not None
    threat, point, other, when = outputs if outputs is not None else _NO_OUTPUTS
    _avoid_others_rows(n)(
        agents.pos,
        agents.vel,
        agents.radius,
        agents.heading,
        agents.max_speed,
        agents.max_force,
        side,
        params,
        OthersSearch(grid.ints, grid.floats, seen.pos, seen.vel, seen.radius, reach),
        debug,
        threat,
        point,
        other,
        when,
        out,
    )
    return out


_NO_OUTPUTS = (np.zeros(1, dtype=np.int64), np.zeros((1, 2)), np.zeros((1, 2)), np.zeros(1))


@rows_kernel
def _avoid_others_rows(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    side_col: FloatArray,
    p: AvoidAgentsParams,
    o: OthersSearch,
    debug: bool,
    threat: IntArray,
    point: FloatArray,
    other: FloatArray,
    when: FloatArray,
    out: FloatArray,
) -> None:
    """Every agent's most imminent threat among the others ``o`` within their reach and its
    steer away from it (:func:`react`), tested as :class:`~steering.AvoidAgents` tests a pair
    of its own group."""
    n = pos.shape[0]
    horizon = p.time_horizon
    ints, floats, opos, ovel, orad, reach = o.ints, o.floats, o.pos, o.vel, o.radius, o.reach
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty((64, BUF_COLS))
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            xi = pos[i, 0]
            yi = pos[i, 1]
            vx = vel[i, 0]
            vy = vel[i, 1]
            k = near_point(ints, floats, opos, xi, yi, -1, reach, buf)
            if k > buf.shape[0]:  # more than the buffer holds: grow it, ask again
                buf = np.empty((2 * k, BUF_COLS))
                k = near_point(ints, floats, opos, xi, yi, -1, reach, buf)
            imminent = NO_THREAT
            for q in range(min(k, buf.shape[0])):
                j = int(buf[q, 0])
                dpx = buf[q, 1]
                dpy = buf[q, 2]
                dvx = ovel[j, 0] - vx
                dvy = ovel[j, 1] - vy
                closing = -(dpx * dvx + dpy * dvy)
                dv2 = dvx * dvx + dvy * dvy
                if not (closing > 0.0 and closing <= horizon * dv2):
                    continue
                tj = closing / dv2
                missx = dpx + dvx * tj
                missy = dpy + dvy * tj
                cl = radius[i] + orad[j] + p.margin
                if not missx * missx + missy * missy < cl * cl:
                    continue
                if tj < imminent.time or (tj == imminent.time and j < imminent.agent):
                    imminent = Threat(j, tj, dpx, dpy, missx, missy, cl)
            respond(
                i, imminent, p, heading, side_col, (xi, yi, vx, vy), (max_speed[i], max_force[i]),
                out, debug, threat, point, other, when,
            )  # fmt: skip
