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
    F_H,
    F_W,
    Grid,
    agent_at,
    brute_grid,
    build_grid,
    cell_runs,
    minimal_offset,
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
    2,000 px square 30,000 pairs and 1-2 ms). Each agent searches a grid of where the agents
    will be halfway through the horizon, in speed bands in large crowds (see ``_search``),
    and tests every agent of the cells it visits exactly, in one compiled loop over agents;
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
        fastest, biggest, mean_speed = _fastest(agents.vel, agents.radius)
        qpos, order, bands, halfway = self._search(agents, reach, fastest, biggest, mean_speed)
        out = np.empty((n, 2))
        if debug is None:
            threat, point, other, when = _NO_INTS, _NO_ROWS, _NO_ROWS, _NO_VALUES
        else:
            threat = np.empty(n, dtype=np.int64)
            point = np.empty((n, 2))
            other = np.empty((n, 2))
            when = np.empty(n)
        if len(bands) > 1:
            keep_i = np.empty(n, dtype=np.int64)
            keep_f = np.empty((n, KEEP))
        else:
            keep_i, keep_f = _NO_INTS, _NO_KEEP
        kernel = _avoid_rows(n)
        for b, (grid, members, band_fastest, band_biggest) in enumerate(bands):
            kernel(
                agents.pos,
                qpos,
                halfway,
                agents.vel,
                agents.heading,
                agents.max_speed,
                agents.max_force,
                agents.radius,
                side,
                order.ints,
                order.floats,
                grid.ints,
                grid.floats,
                members,
                reach,
                band_fastest,
                band_biggest,
                self.time_horizon,
                self.gain,
                self.margin,
                self.brake,
                self.commit,
                1.0 if self.tie_break == "left" else -1.0,
                b == 0,
                b == len(bands) - 1,
                keep_i,
                keep_f,
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
        self, agents: AgentGroup, reach: float, fastest: float, biggest: float, mean_speed: float
    ) -> tuple[FloatArray, Grid, list[Band], bool]:
        """Where to search for threats: (the points searched around, the grid whose order the
        agents are visited in, the bands searched, whether the points are the halfway points).

        A pair closest at ``t`` in (0, horizon] within the clearance is, halfway through the
        horizon, within ``clearance + |dv| * horizon / 2`` of each other (``|t - horizon/2|
        <= horizon/2``), ``|dv| <= |v_i| + |v_j|``. So a crowd is searched around where each
        agent will be halfway, ``pos + vel * horizon / 2``, at half the radius that a search
        around the current positions needs (a quarter of the neighbours). The grid's cells are
        half a typical search radius wide: the cells a disc touches then cover about twice its
        area, where cells as wide as the largest radius covered four to eight times it.

        Speed bands: the radius also grows with the other agent's speed, and searching
        everyone with the crowd's fastest over-searches when most agents are slower (a
        crowd of speeds 0-180 px/s searched at 180). From :data:`BANDS_MIN` agents up the
        agents are split by speed at a quarter and a half of the fastest, each band gets its
        own grid, and every agent searches each band with that band's fastest speed (a band
        of fewer than :data:`BAND_SHARE` of the crowd joins the next faster one). The
        threats found are the same; in a crowd moving at one speed there is one band.
        Small crowds search every pair now."""
        n = agents.n
        if n <= BRUTE_MAX:
            brute = brute_grid(agents.world_size)
            return agents.pos, brute, [(brute, _ALL, fastest, biggest)], False
        mid = agents.pos + agents.vel * (0.5 * self.time_horizon)
        clear = 2.0 * max(biggest, 0.0) + self.margin
        full = clear + fastest * self.time_horizon
        if not (0.0 < full < math.inf) or not np.isfinite(mid).all():
            grid = agents.neighbour_grid(min(reach, 2.0 * full))
            return agents.pos, grid, [(grid, _ALL, fastest, biggest)], False
        world = agents.world_size
        cuts = (0.25 * fastest, 0.5 * fastest)
        groups: list[tuple[int, int]] = []  # speed bands searched together: (first, last)
        if n >= BANDS_MIN:
            band = _band_of(agents.vel, cuts[0], cuts[1])
            counts = np.bincount(band, minlength=3)
            low = 0
            for b in range(3):
                if counts[low:].sum() == 0:
                    break  # no agent left (a crowd standing still is all in band 0)
                # a small band joins the next faster one (the last takes what is left)
                if b < 2 and counts[low : b + 1].sum() < BAND_SHARE * n:
                    continue
                groups.append((low, b))
                low = b + 1
        if len(groups) < 2:  # one band: every agent, in one grid
            grid = self._grid(mid, clear, fastest, mean_speed, world)
            return mid, grid, [(grid, _ALL, fastest, biggest)], True
        bands: list[Band] = []
        for low, high in groups:
            members = np.flatnonzero((band >= low) & (band <= high))
            top = fastest if high == 2 else cuts[high]
            # the largest radius, a NaN one left out (as _fastest does for the crowd)
            big = float(np.fmax.reduce(agents.radius[members], initial=0.0))
            grid = self._grid(mid[members], clear, top, mean_speed, world)
            bands.append((grid, members, top, big))
        order = build_grid(mid, clear + fastest * self.time_horizon, world)
        return mid, order, bands, True

    def _grid(
        self,
        mid: FloatArray,
        clear: float,
        top: float,
        mean_speed: float,
        world: tuple[float, float] | None,
    ) -> Grid:
        """A grid over the halfway points ``mid`` of a band whose fastest speed is ``top``,
        with cells half a typical search radius wide (see :meth:`_search`)."""
        typical = clear + 0.5 * (mean_speed + top) * self.time_horizon
        return build_grid(mid, CELL_SHARE * typical, world)


#: A band of the search: its grid, its agents (empty: every agent), fastest speed, largest
#: radius.
Band = tuple[Grid, IntArray, float, float]

#: Crowds from this many agents are searched in speed bands (see ``AvoidAgents._search``).
BANDS_MIN = 2048
#: A speed band with fewer than this share of the agents is searched with the next one.
BAND_SHARE = 0.125
#: Cell width of the search grids, as a share of a typical search radius.
CELL_SHARE = 0.5
#: What an agent's search keeps between bands: time, offset now (x, y), miss (x, y),
#: clearance.
KEEP = 6
_ALL = np.zeros(0, dtype=np.int64)
_NO_KEEP = np.zeros((1, KEEP))


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
def _fastest(vel: FloatArray, radius: FloatArray) -> tuple[float, float, float]:
    """The largest current speed and radius of the group, and the mean finite speed."""
    speed = 0.0
    big = 0.0
    total = 0.0
    m = 0
    for i in range(vel.shape[0]):
        v = kern.hypot(vel[i, 0], vel[i, 1])
        speed = max(speed, v)
        big = max(big, radius[i])
        if math.isfinite(v):
            total += v
            m += 1
    return speed, big, total / max(m, 1)


@njit
def _band_of(vel: FloatArray, low: float, high: float) -> IntArray:
    """Each agent's speed band: 0 up to ``low``, 1 up to ``high``, else 2."""
    n = vel.shape[0]
    band = np.empty(n, dtype=np.int64)
    for i in range(n):
        v = kern.hypot(vel[i, 0], vel[i, 1])
        band[i] = 0 if v <= low else 1 if v <= high else 2
    return band


@njit
def _sign(x: float) -> float:
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return 0.0


@njit
def _gather(
    ints: IntArray,
    floats: FloatArray,
    members: IntArray,
    m: int,
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
) -> tuple[IntArray, FloatArray, FloatArray, FloatArray]:
    """A band's agents in its grid's order (slot by slot): their indices, positions now,
    velocities and radii, so that the agents of one cell sit side by side in memory."""
    index = np.empty(m, dtype=np.int64)
    spos = np.empty((m, 2))
    svel = np.empty((m, 2))
    sradius = np.empty(m)
    every = members.shape[0] == 0
    for k in range(m):
        a = agent_at(ints, floats, k)
        j = a if every else members[a]
        index[k] = j
        spos[k, 0] = pos[j, 0]
        spos[k, 1] = pos[j, 1]
        svel[k, 0] = vel[j, 0]
        svel[k, 1] = vel[j, 1]
        sradius[k] = max(radius[j], 0.0)
    return index, spos, svel, sradius


@njit_leaf
def _first_threat(
    index: IntArray,
    spos: FloatArray,
    svel: FloatArray,
    sradius: FloatArray,
    runs: IntArray,
    count: int,
    i: int,
    xi: float,
    yi: float,
    vx: float,
    vy: float,
    ri: float,
    reach2: float,
    horizon: float,
    margin: float,
    world_w: float,
    world_h: float,
    best: int,
    t: float,
    px: float,
    py: float,
    mx: float,
    my: float,
    clear: float,
) -> tuple[int, float, float, float, float, float, float]:
    """The most imminent threat to agent ``i`` (at ``(xi, yi)``, velocity ``(vx, vy)``,
    radius ``ri``) among the slots of ``runs`` and the one found so far (``best``, -1: none):
    smallest time of closest approach, ties to the lowest index. Returns it as (index, time,
    offset now, miss at closest approach, clearance)."""
    for q in range(count):
        for k in range(runs[q, 0], runs[q, 1]):
            dpx = minimal_offset(spos[k, 0] - xi, world_w)
            dpy = minimal_offset(spos[k, 1] - yi, world_h)
            if not dpx * dpx + dpy * dpy < reach2:
                continue
            dvx = svel[k, 0] - vx
            dvy = svel[k, 1] - vy
            closing = -(dpx * dvx + dpy * dvy)
            dv2 = dvx * dvx + dvy * dvy
            # t in (0, horizon] without dividing by a tiny |dv|^2
            if not (closing > 0.0 and closing <= horizon * dv2):
                continue
            tj = closing / dv2
            missx = dpx + dvx * tj
            missy = dpy + dvy * tj
            cl = ri + sradius[k] + margin
            if not missx * missx + missy * missy < cl * cl:
                continue
            j = index[k]
            if j == i:
                continue
            if tj < t or (tj == t and j < best):
                best = j
                t = tj
                px = dpx
                py = dpy
                mx = missx
                my = missy
                clear = cl
    return best, t, px, py, mx, my, clear


@njit_leaf
def _react(
    heading: FloatArray,
    side_col: FloatArray,
    i: int,
    vx: float,
    vy: float,
    speed_max: float,
    force_max: float,
    t: float,
    px: float,
    py: float,
    mx: float,
    my: float,
    clear: float,
    horizon: float,
    gain: float,
    brake: float,
    commit: float,
    prefer: float,
) -> tuple[float, float]:
    """Agent ``i``'s steer away from its threat (closest at ``t``, offset now ``(px, py)``,
    miss ``(mx, my)``, clearance ``clear``); records the side taken in ``side_col``."""
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
        if remembered == 0.0:
            remembered = prefer if px * hx + py * hy >= 0.0 else -prefer
        side = remembered
    elif abs(lateral) > band:
        side = -_sign(lateral)
    else:
        side = -_sign(now)
    side_col[i] = side
    speed_max = max(speed_max, 0.0)
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
    return kern.truncate(sx, sy, force_max)


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
    order_ints: IntArray,
    order_floats: FloatArray,
    ints: IntArray,
    floats: FloatArray,
    members: IntArray,
    reach: float,
    fastest: float,
    biggest: float,
    horizon: float,
    gain: float,
    margin: float,
    brake: float,
    commit: float,
    prefer: float,
    first: bool,
    last: bool,
    keep_i: IntArray,
    keep_f: FloatArray,
    debug: bool,
    threat: IntArray,
    point: FloatArray,
    other: FloatArray,
    when: FloatArray,
    out: FloatArray,
) -> None:
    """Every agent's most imminent threat among one band's agents (``members`` in the grid
    ``ints``/``floats``; empty: every agent), with ``fastest`` and ``biggest`` that band's
    largest speed and radius. ``first``: no threat found yet; else the search so far is read
    from ``keep_i``/``keep_f``. ``last``: the agents then react (forces into ``out``); else
    the search is kept there for the next band."""
    n = pos.shape[0]
    m = n if members.shape[0] == 0 else members.shape[0]
    index, spos, svel, sradius = _gather(ints, floats, members, m, pos, vel, radius)
    world_w = floats[F_W]
    world_h = floats[F_H]
    reach2 = reach * reach
    for c in prange((n + CHUNK - 1) // CHUNK):
        runs = np.empty((32, 2), dtype=np.int64)
        for s in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            i = agent_at(order_ints, order_floats, s)
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
            count = cell_runs(ints, floats, m, qpos[i, 0], qpos[i, 1], radius_i, runs)
            if count > runs.shape[0]:  # more runs than rows: grow them and ask again
                runs = np.empty((2 * count, 2), dtype=np.int64)
                count = cell_runs(ints, floats, m, qpos[i, 0], qpos[i, 1], radius_i, runs)
            if first:
                best = -1
                t = math.inf
                px = py = mx = my = clear = 0.0
            else:
                best = keep_i[i]
                t = keep_f[i, 0]
                px = keep_f[i, 1]
                py = keep_f[i, 2]
                mx = keep_f[i, 3]
                my = keep_f[i, 4]
                clear = keep_f[i, 5]
            best, t, px, py, mx, my, clear = _first_threat(
                index, spos, svel, sradius, runs, count, i, pos[i, 0], pos[i, 1], vx, vy, ri,
                reach2, horizon, margin, world_w, world_h, best, t, px, py, mx, my, clear,
            )  # fmt: skip
            if not last:
                keep_i[i] = best
                keep_f[i, 0] = t
                keep_f[i, 1] = px
                keep_f[i, 2] = py
                keep_f[i, 3] = mx
                keep_f[i, 4] = my
                keep_f[i, 5] = clear
                continue
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
            out[i, 0], out[i, 1] = _react(
                heading, side_col, i, vx, vy, max_speed[i], max_force[i], t, px, py, mx, my,
                clear, horizon, gain, brake, commit, prefer,
            )  # fmt: skip
            if debug:
                threat[i] = best
                point[i, 0] = pos[i, 0] + vx * t
                point[i, 1] = pos[i, 1] + vy * t
                other[i, 0] = point[i, 0] + mx
                other[i, 1] = point[i, 1] + my
                when[i] = t
