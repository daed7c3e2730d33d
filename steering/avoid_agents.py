"""Unaligned collision avoidance among a group's own agents (OpenSteer), over neighbour pairs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from ._checks import in_range, non_negative, positive
from ._jit import njit, njit_leaf, prange, rows_kernel
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .debug import AvoidAgentsDebug, write
from .grid import (
    BRUTE_MAX,
    BUF_COLS,
    F_H,
    F_W,
    Grid,
    agent_at,
    brute_grid,
    build_grid,
    column_in_grid_order,
    in_grid_order,
    minimal_offset,
    near,
)
from .vec import EPSILON, FloatArray

__all__ = ["AvoidAgents"]

IntArray = NDArray[np.int64]

#: Agents per task of the compiled loop.
CHUNK = 256
_NO_INTS = np.zeros(1, dtype=np.int64)
_NO_ROWS = np.zeros((1, 2))
_NO_VALUES = np.zeros(1)


@dataclass
class AvoidAgents:
    """Steer aside from the agent of the group one would collide with first (OpenSteer's
    unaligned collision avoidance), for every agent at once.

    Prediction: every pair closer than the reach (below) is extrapolated at constant
    velocity. With ``dp = p_j - p_i`` and ``dv = v_j - v_i`` the time of closest approach is
    ``t = -dp.dv / |dv|^2`` (0 when ``|dv|`` is about 0); the pair threatens when ``0 < t <=
    time_horizon`` and the distance then, ``|dp + dv t|``, is below ``r_i + r_j + margin``
    (the clearance). Each agent reacts to its most imminent threat only (smallest ``t``, ties
    to the lowest index).

    Reaction: OpenSteer's, a steer perpendicular to the agent's own heading, away from where
    the threat will be at ``t`` (seen from where the agent will be then). Its strength is the
    sideways speed that would move the threat out to the clearance by ``t`` (at most max
    speed), steered toward at ``gain``; with ``brake`` the agent also sheds speed in
    proportion to the urgency ``1 - t / time_horizon`` (``-velocity * brake * urgency *
    gain``), which gives the sidestep time. The sum is limited to max force.

    The side: away from the threat at closest approach when it is more than ``commit *
    clearance`` to one side; else away from where the threat is now, when that is clearly
    to one side (a threat converging from the side). When neither is clear (head on,
    overtaking) the agent keeps the side it remembers, or takes the shared convention: turn
    to the ``tie_break`` side of one's heading (left by default) for a threat in front, to
    the other for one behind. So two agents meeting head on both turn to their own left and
    pass, the one overtaking and the one overtaken part to opposite sides, and a crowd
    shifts as one instead of agents splitting both ways into each other.

    Memory (better than OpenSteer): the side is kept in the state column
    ``"avoidagents.side"`` (+1 left, -1 right, 0 none) while the agent sees any threat, and
    wins every ambiguous choice: in a crowd the most imminent neighbour changes from step to
    step, and re-deciding then makes agents jiggle left-right-left. It is reset to 0 when no
    threat is left. A threat clearly on the remembered side overrides it (keeping it would
    steer into that threat).

    Contact: a threat already inside the clearance is steered away from directly (along
    ``-dp``, at max speed) rather than sideways: two agents sidestepping each other at
    contact range circle round each other (measured) instead of parting.

    The reach: two agents can close at most ``2 * max(max_speed)`` px/s, so pairs further
    apart than ``2 * max(max_speed) * time_horizon + 2 * max(radius) + margin`` cannot
    threaten within the horizon; the reach is capped at ``max_reach`` so that a fast group in
    a dense crowd does not gather hundreds of pairs per agent (measured: 1,000 agents in a
    1,000 px square still give some 100,000 pairs at 300 px and about 10 ms a call; in a
    2,000 px square 30,000 pairs and 1-2 ms). Each agent asks the group's neighbour grid
    (:mod:`~steering.grid`) for the others within the reach, in one compiled loop over agents;
    in a wrap-around world across the edges, at the minimal image.

    Trade-offs and failures: prediction is linear, so agents on curved paths are
    mispredicted. Only the first threat is avoided, so in a dense crowd a sidestep can walk
    into a second agent: two single files of agents 40 px apart (bodies 16 px) cross head-on
    without contact (within a quarter pixel, measured), but blocks several agents deep still
    touch now and then (shallow contacts, a few px); add :class:`~steering.Separate`
    for agents already touching, which cuts those to a few shallow ones. Agents moving in
    step (``dv = 0``) never threaten each other, and a pair moving apart (``t <= 0``) is
    ignored even when overlapping. Threats beyond ``max_reach`` are seen late. The
    remembered side can send an agent the long way round.

    Attributes:
        time_horizon: seconds ahead that a collision counts.
        gain: 1/s, how fast the steer closes the gap to the sidestep velocity.
        margin: extra clearance, px, added to ``r_i + r_j``.
        brake: 0 (only sidestep) to 1: weight of the urgency-scaled braking.
        commit: fraction of the clearance within which a threat counts as dead ahead (and
            the remembered side or the convention decides).
        max_reach: the largest neighbour query distance, px.
        tie_break: the side on which a threat in front is passed when the geometry does not
            decide: "left" or "right" (all agents of a group should share it).
    """

    time_horizon: float = 1.5
    gain: float = DEFAULT_GAIN
    margin: float = 2.0
    brake: float = 0.5
    commit: float = 0.5
    max_reach: float = 300.0
    tie_break: Literal["left", "right"] = "left"

    def __post_init__(self) -> None:
        self.time_horizon = positive("AvoidAgents.time_horizon", self.time_horizon)
        self.gain = non_negative("AvoidAgents.gain", self.gain)
        self.margin = non_negative("AvoidAgents.margin", self.margin)
        self.brake = in_range("AvoidAgents.brake", self.brake, 0.0, 1.0)
        self.commit = in_range("AvoidAgents.commit", self.commit, 0.0, 1.0)
        self.max_reach = positive("AvoidAgents.max_reach", self.max_reach)
        if self.tie_break not in ("left", "right"):
            raise ValueError(
                f"AvoidAgents.tie_break: expected 'left' or 'right', got {self.tie_break!r}"
            )

    def reach(self, agents: AgentGroup) -> float:
        """The neighbour query distance, px (see the class docstring)."""
        if agents.n < 2:
            return 0.0
        return float(
            _reach(agents.max_speed, agents.radius, self.time_horizon, self.margin, self.max_reach)
        )

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) avoidance forces; zero for agents with no threat.

        Debug keys: ``avoidagents.threat`` (N,) index of the agent avoided (-1: none),
        ``avoidagents.point`` (N, 2) the agent's own position at closest approach (NaN:
        none), ``avoidagents.threat_point`` (N, 2) the threat's position then,
        ``avoidagents.time`` (N,) the time of closest approach (inf: none),
        ``avoidagents.side`` (N,) the side steered to (+1 left, -1 right, 0 none).
        """
        n = agents.n
        side = agents.column("avoidagents.side", fill=0.0)
        if side.dtype != np.float64:
            side = agents.state["avoidagents.side"] = side.astype(np.float64)
        reach = self.reach(agents)
        fastest, biggest = _fastest(agents.vel, agents.radius)
        qpos, grid, halfway = self._search(agents, reach, fastest, biggest)
        out = np.empty((n, 2))
        if debug is None:
            threat, point, other, when = _NO_INTS, _NO_ROWS, _NO_ROWS, _NO_VALUES
        else:
            threat = np.empty(n, dtype=np.int64)
            point = np.empty((n, 2))
            other = np.empty((n, 2))
            when = np.empty(n)
        _avoid_rows(n)(
            agents.pos,
            qpos,
            halfway,
            agents.vel,
            agents.heading,
            agents.max_speed,
            agents.max_force,
            agents.radius,
            side,
            reach,
            fastest,
            biggest,
            self.time_horizon,
            self.gain,
            self.margin,
            self.brake,
            self.commit,
            1.0 if self.tie_break == "left" else -1.0,
            grid.ints,
            grid.floats,
            debug is not None,
            threat,
            point,
            other,
            when,
            out,
        )
        if debug is not None:
            write(AvoidAgentsDebug(threat.astype(np.intp), point, other, when, side.copy()), debug)
        return out

    def _search(
        self, agents: AgentGroup, reach: float, fastest: float, biggest: float
    ) -> tuple[FloatArray, Grid, bool]:
        """Where to search for threats: (the points searched, their grid, whether they are the
        halfway points).

        A pair closest at ``t`` in (0, horizon] within the clearance is, halfway through the
        horizon, within ``clearance + |dv| * horizon / 2`` of each other (``|t - horizon/2|
        <= horizon/2``), ``|dv| <= |v_i| + |v_j|``. So a crowd is searched around where each
        agent will be halfway, ``pos + vel * horizon / 2``, at half the radius that a search
        around the current positions needs (a quarter of the neighbours; the halfway grid is
        built per call, some 0.1 ms at 10,000 agents). Small crowds search every pair now."""
        n = agents.n
        if n <= BRUTE_MAX:
            return agents.pos, brute_grid(agents.world_size), False
        cell = 2.0 * max(biggest, 0.0) + self.margin + fastest * self.time_horizon
        mid = agents.pos + agents.vel * (0.5 * self.time_horizon)
        if not (0.0 < cell < math.inf) or not np.isfinite(mid).all():
            return agents.pos, agents.neighbour_grid(min(reach, 2.0 * cell)), False
        return mid, build_grid(mid, cell, agents.world_size), True


@njit_leaf
def _reach(
    max_speed: FloatArray, radius: FloatArray, horizon: float, margin: float, cap: float
) -> float:
    speed = 0.0
    big = 0.0
    for i in range(max_speed.shape[0]):
        speed = max(speed, max_speed[i])
        big = max(big, radius[i])
    return min(2.0 * speed * horizon + 2.0 * big + margin, cap)


@njit_leaf
def _fastest(vel: FloatArray, radius: FloatArray) -> tuple[float, float]:
    """The largest current speed and radius of the group."""
    speed = 0.0
    big = 0.0
    for i in range(vel.shape[0]):
        speed = max(speed, kern.hypot(vel[i, 0], vel[i, 1]))
        big = max(big, radius[i])
    return speed, big


@njit
def _sign(x: float) -> float:
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return 0.0


@rows_kernel
def _avoid_rows(
    pos: FloatArray,
    qpos: FloatArray,
    halfway: bool,
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    radius: FloatArray,
    side_col: FloatArray,
    reach: float,
    fastest: float,
    biggest: float,
    horizon: float,
    gain: float,
    margin: float,
    brake: float,
    commit: float,
    prefer: float,
    ints: IntArray,
    floats: FloatArray,
    debug: bool,
    threat: IntArray,
    point: FloatArray,
    other: FloatArray,
    when: FloatArray,
    out: FloatArray,
) -> None:
    n = pos.shape[0]
    # Neighbours' velocities and radii in grid order, read by slot: neighbours in one cell
    # sit side by side in memory.
    svel = in_grid_order(ints, floats, vel)
    sradius = column_in_grid_order(ints, floats, radius)
    spos = in_grid_order(ints, floats, pos)
    world_w = floats[F_W]
    world_h = floats[F_H]
    reach2 = reach * reach
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty((64, BUF_COLS))
        for s in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            i = agent_at(ints, floats, s)
            vx = vel[i, 0]
            vy = vel[i, 1]
            ri = max(radius[i], 0.0)
            # Nothing further than (|v_i| + |v_j|) * horizon + clearance can threaten within
            # the horizon (and nothing beyond the reach counts); around the halfway points
            # half that.
            clear_max = ri + max(biggest, 0.0) + margin
            closing_max = (kern.hypot(vx, vy) + fastest) * horizon
            if halfway:
                radius_i = clear_max + 0.5 * closing_max
            else:
                radius_i = min(reach, clear_max + closing_max)
            k = near(ints, floats, qpos, i, radius_i, buf)
            if k > buf.shape[0]:  # more than the buffer holds: grow it, ask again
                buf = np.empty((2 * k, BUF_COLS))
                k = near(ints, floats, qpos, i, radius_i, buf)
            # The most imminent threat: smallest time of closest approach, ties to the
            # lowest index.
            best = -1
            t = math.inf
            px = 0.0
            py = 0.0
            mx = 0.0
            my = 0.0
            clear = 0.0
            for q in range(k):
                slot = int(buf[q, 4])
                if halfway:
                    dpx = minimal_offset(spos[slot, 0] - pos[i, 0], world_w)
                    dpy = minimal_offset(spos[slot, 1] - pos[i, 1], world_h)
                    if not dpx * dpx + dpy * dpy < reach2:
                        continue
                else:
                    dpx = buf[q, 1]
                    dpy = buf[q, 2]
                dvx = svel[slot, 0] - vx
                dvy = svel[slot, 1] - vy
                closing = -(dpx * dvx + dpy * dvy)
                dv2 = dvx * dvx + dvy * dvy
                # t in (0, horizon] without dividing by a tiny |dv|^2
                if not (closing > 0.0 and closing <= horizon * dv2):
                    continue
                tj = closing / dv2
                missx = dpx + dvx * tj
                missy = dpy + dvy * tj
                cl = ri + max(sradius[slot], 0.0) + margin
                if not missx * missx + missy * missy < cl * cl:
                    continue
                j = int(buf[q, 0])
                if tj < t or (tj == t and j < best):
                    best = j
                    t = tj
                    px = dpx
                    py = dpy
                    mx = missx
                    my = missy
                    clear = cl
            if best < 0:
                side_col[i] = 0.0
                out[i, 0] = 0.0
                out[i, 1] = 0.0
                if debug:
                    threat[i] = -1
                    point[i, 0] = math.nan
                    point[i, 1] = math.nan
                    other[i, 0] = math.nan
                    other[i, 1] = math.nan
                    when[i] = math.inf
                continue
            hx, hy, ok = kern.unit(heading[i, 0], heading[i, 1])
            if not ok:
                hx = 1.0
                hy = 0.0
            # The threat at closest approach in the agent's frame (ahead, to the left), and
            # where it is now, to the left.
            ahead = mx * hx + my * hy
            lateral = my * hx - mx * hy
            now = hx * py - hy * px
            band = commit * clear
            if abs(lateral) <= band and abs(now) <= band:
                # Ambiguous (head on, overtaking): the remembered side, else the convention:
                # a threat in front passed on the preferred side, one behind on the other.
                remembered = side_col[i]
                remembered = _sign(remembered) if math.isfinite(remembered) else 0.0
                if remembered != 0.0:
                    side = remembered
                else:
                    side = prefer if px * hx + py * hy >= 0.0 else -prefer
            elif abs(lateral) > band:
                side = -_sign(lateral)
            else:
                side = -_sign(now)
            side_col[i] = side
            speed_max = max(max_speed[i], 0.0)
            w = math.sqrt(max(clear * clear - ahead * ahead, 0.0))
            need = min((side * lateral + w) / max(t, EPSILON), speed_max)
            sx = -hy * (side * need * gain)
            sy = hx * (side * need * gain)
            gap = kern.hypot(px, py)
            if gap < clear:
                # At contact range: straight away from the threat.
                if gap > EPSILON * clear:
                    ax = -px / gap
                    ay = -py / gap
                else:
                    ax = -hy * side
                    ay = hx * side
                sx = ax * (speed_max * gain)
                sy = ay * (speed_max * gain)
            if brake > 0.0:
                urgency = 1.0 - t / horizon
                sx -= vx * (brake * urgency * gain)
                sy -= vy * (brake * urgency * gain)
            out[i, 0], out[i, 1] = kern.truncate(sx, sy, max_force[i])
            if debug:
                threat[i] = best
                point[i, 0] = pos[i, 0] + vx * t
                point[i, 1] = pos[i, 1] + vy * t
                other[i, 0] = point[i, 0] + mx
                other[i, 1] = point[i, 1] + my
                when[i] = t
