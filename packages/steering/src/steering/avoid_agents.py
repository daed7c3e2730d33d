"""Unaligned collision avoidance among a group's own agents (OpenSteer), searched in swept boxes
(or against another group's agents, :mod:`steering.avoid_others`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ._checks import in_unit, non_negative, positive, time_step
from ._jit import njit_inline, njit_leaf, prange, rows_kernel
from .agents import AgentGroup
from .avoid_others import avoid_others
from .avoid_react import NO_THREAT, AvoidAgentsParams, Threat, respond
from .base import DEFAULT_GAIN, Debug
from .checked import Checked, checks
from .debug import AvoidAgentsDebug, write
from .grid import BRUTE_MAX, minimal_offset
from .others import others_of
from .swept_boxes import (
    CELL_SHARE,
    IN_GRID,
    WILD,
    BoxGrid,
    box_grid,
    cell_runs,
    residue,
    swept_boxes,
)
from .vec import FloatArray

__all__ = ["AvoidAgents", "AvoidAgentsParams", "Threat"]

IntArray = NDArray[np.int64]

#: Agents per task of the compiled loop.
CHUNK = 256
_NO_INTS = np.zeros(1, dtype=np.int64)
_NO_ROWS = np.zeros((1, 2))
_NO_VALUES = np.zeros(1)


def tie_break_side(name: str, value: Any) -> Any:
    """A side to steer to when a threat is dead ahead: "left" or "right"."""
    if value not in ("left", "right"):
        raise ValueError(f"{name}: expected 'left' or 'right', got {value!r}")
    return value


@dataclass
class AvoidAgents(Checked):
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
    2,000 px square 30,000 pairs and 1-2 ms).

    The search (swept boxes): within the horizon each agent covers the segment from where it
    is to ``pos + vel * time_horizon``; two agents that threaten each other are, at their
    closest approach, each on its segment and within their clearance, so the boxes round
    their segments (widened by the radius and half the margin) overlap. Every agent is
    entered in each grid cell its box touches, and tests exactly only the agents whose boxes
    overlap its own, each pair once (in the first cell of the overlap); most of those are
    ruled out without a division or a branch. A slow agent's box is small and a fast one's
    long, so the pairs tested follow each agent's own speed, where a search radius must
    cover the fastest. A few agents far faster than the rest (boxes over 16 typical boxes
    wide) are tested against everyone instead of widening every cell. Small groups test
    every pair. In a wrap-around world the grid wraps and pairs are taken at the minimal
    image. The threats found are exactly those of testing every pair.

    Trade-offs and failures: prediction is linear, so agents on curved paths are
    mispredicted. Only the first threat is avoided, so in a dense crowd a sidestep can walk
    into a second agent: two single files of agents 40 px apart (bodies 16 px) cross head-on
    without contact (within a quarter pixel, measured), but blocks several agents deep still
    touch now and then (shallow contacts, a few px); add :class:`~steering.Separate`
    for agents already touching, which cuts those to a few shallow ones. Agents moving in
    step (``dv = 0``) never threaten each other, and a pair moving apart (``t <= 0``) is
    ignored even when overlapping. Threats beyond ``max_reach`` are seen late. The
    remembered side can send an agent the long way round.

    With ``others`` the threats are another group's agents (walkers dodging a line of cars):
    they are extrapolated at their velocities as they are (their own steering unknown), their
    radii are theirs (0 for an object without ``radius``), and each agent searches the
    neighbour grid over their positions (:mod:`~steering.grid`, not the swept boxes) within
    ``(max(max_speed) + the fastest other's speed) * time_horizon`` plus both largest radii
    and the margin, capped at ``max_reach``. Nobody is left out; ``avoidagents.threat``
    then indexes the others. ``others`` set to the group itself is the default.

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
        others: None (the group's own agents threaten), or another group whose agents do:
            an :class:`~steering.AgentGroup` or any object with ``pos`` and ``vel`` arrays of
            shape (M, 2), and optionally ``radius`` (M,) (see :mod:`steering.others`).
    """

    time_horizon: float = 1.5
    gain: float = DEFAULT_GAIN
    margin: float = 2.0
    brake: float = 0.5
    commit: float = 0.5
    max_reach: float = 300.0
    tie_break: Literal["left", "right"] = "left"
    others: Any = field(default=None, compare=False)

    CHECKS = checks(
        "AvoidAgents",
        tie_break=tie_break_side,
        time_horizon=positive,
        gain=non_negative,
        margin=non_negative,
        brake=in_unit,
        commit=in_unit,
        max_reach=positive,
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

        Raises:
            ValueError: for ``others`` whose arrays are not (M, 2), or radii not (M,) (see
                :func:`~steering.others.others_of`).
        """
        time_step("AvoidAgents", dt)
        n = agents.n
        others = self.others
        seen = None if others is None else others_of("AvoidAgents", others, agents, True)
        side = agents.column("avoidagents.side", fill=0.0)
        if side.dtype != np.float64:
            side = agents.state["avoidagents.side"] = side.astype(np.float64)
        world_w, world_h = agents.world_size or (0.0, 0.0)
        params = AvoidAgentsParams(
            self.time_horizon,
            self.gain,
            self.margin,
            self.brake,
            self.commit,
            1.0 if self.tie_break == "left" else -1.0,
            self.max_reach,
            float(world_w),
            float(world_h),
            n <= BRUTE_MAX,
        )
        if debug is None:
            threat, point, other, when = _NO_INTS, _NO_ROWS, _NO_ROWS, _NO_VALUES
        else:
            threat = np.empty(n, dtype=np.int64)
            point = np.empty((n, 2))
            other = np.empty((n, 2))
            when = np.empty(n)
        if seen is not None:
            outputs = None if debug is None else (threat, point, other, when)
            out = avoid_others(self, others, seen, agents, side, params, outputs)
        else:
            out = np.empty((n, 2))
            _avoid_rows(n)(
                agents.pos,
                agents.vel,
                agents.radius,
                agents.heading,
                agents.max_speed,
                agents.max_force,
                side,
                params,
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


@njit_inline
def _maybe(
    svel: FloatArray,
    srad: FloatArray,
    k: int,
    dpx: float,
    dpy: float,
    vx: float,
    vy: float,
    ri: float,
    reach2: float,
    horizon: float,
    margin: float,
    t: float,
) -> bool:
    """Whether the agent in slot ``k`` (offset ``(dpx, dpy)`` from the agent searching,
    whose velocity is ``(vx, vy)`` and radius ``ri``) may threaten it sooner than ``t``.

    No: beyond the reach; not closing, or closest after the horizon; missing by a clear
    margin (``|miss|^2 = |dp|^2 - closing^2 / |dv|^2`` at least the clearance squared, with
    room for any rounding); or closest clearly later than ``t``. Worked out without a
    division and without a branch: most pairs are ruled out, unpredictably, and a
    mispredicted branch per test cost more than the test (measured)."""
    dvx = svel[k, 0] - vx
    dvy = svel[k, 1] - vy
    closing = -(dpx * dvx + dpy * dvy)
    dv2 = dvx * dvx + dvy * dvy
    dp2 = dpx * dpx + dpy * dpy
    cl = ri + srad[k] + margin
    far = dp2 * dv2
    late = min(t, horizon) * dv2  # (t is inf until a threat is found)
    return (
        (dp2 < reach2)
        & (closing > 0.0)
        & (closing <= horizon * dv2)  # t in (0, horizon] without dividing by a tiny |dv|^2
        # (a product that overflows, or that underflows toward zero, rules nothing out)
        & ((not far - closing * closing > (cl * cl + 1e-9 * dp2) * dv2) | (not far < math.inf))
        & ((not closing > late * (1.0 + 1e-9)) | (not late > 1e-290))
    )


@njit_leaf
def _exact(
    grid: BoxGrid,
    k: int,
    dpx: float,
    dpy: float,
    vx: float,
    vy: float,
    ri: float,
    p: AvoidAgentsParams,
    threat: Threat,
) -> Threat:
    """The agent in slot ``k``, which :func:`_maybe` let through, tested exactly as a threat
    against the most imminent one found so far (``threat``): the smallest time of closest
    approach wins, ties to the lowest index. Returns the winner."""
    dvx = grid.svel[k, 0] - vx
    dvy = grid.svel[k, 1] - vy
    closing = -(dpx * dvx + dpy * dvy)
    dv2 = dvx * dvx + dvy * dvy
    if not (closing > 0.0 and closing <= p.time_horizon * dv2):
        return threat
    tj = closing / dv2
    missx = dpx + dvx * tj
    missy = dpy + dvy * tj
    cl = ri + grid.srad[k] + p.margin
    if not missx * missx + missy * missy < cl * cl:
        return threat
    j = grid.order[k]
    if tj < threat.time or (tj == threat.time and j < threat.agent):
        return Threat(j, tj, dpx, dpy, missx, missy, cl)
    return threat


@njit_leaf
def _against(
    grid: BoxGrid,
    k: int,
    xi: float,
    yi: float,
    vx: float,
    vy: float,
    ri: float,
    reach2: float,
    p: AvoidAgentsParams,
    threat: Threat,
) -> Threat:
    """The agent in slot ``k`` tested as a threat to the agent at (xi, yi) outside the grid
    (every pair, or a wild agent), at the minimal image: :func:`_maybe`, then
    :func:`_exact`."""
    dx = minimal_offset(grid.spos[k, 0] - xi, grid.world_w)
    dy = minimal_offset(grid.spos[k, 1] - yi, grid.world_h)
    if _maybe(
        grid.svel, grid.srad, k, dx, dy, vx, vy, ri, reach2, p.time_horizon, p.margin,
        threat.time,
    ):  # fmt: skip
        return _exact(grid, k, dx, dy, vx, vy, ri, p, threat)
    return threat


@rows_kernel
def _avoid_rows(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    side_col: FloatArray,
    p: AvoidAgentsParams,
    debug: bool,
    threat: IntArray,
    point: FloatArray,
    other: FloatArray,
    when: FloatArray,
    out: FloatArray,
) -> None:
    """Every agent's most imminent threat and its steer away from it (forces into ``out``):
    the agents' swept boxes (:func:`~steering.swept_boxes.swept_boxes`) into their grid
    (:func:`~steering.swept_boxes.box_grid`), then the agents visited in the grid's order
    (``order``, slot by slot).

    An agent in the grid tests the agents whose boxes overlap its own, each once: in the
    first cell of the two boxes' overlap. So in the cells of its box beyond its first
    column it reads only the runs of boxes that start in the cell's column, and beyond its
    first row only those that start in the cell's row. In a torus the other agent is taken
    at the minimal image (its box moved by whole worlds). Wild agents (``status``) are
    tested against everyone, and everyone against them; with ``brute`` every pair is
    tested.
    """
    n = pos.shape[0]
    horizon, margin = p.time_horizon, p.margin
    # The swept boxes and their grid (serial, before the loop over agents).
    box = np.empty((n, 4))
    status = np.empty(n, dtype=np.int8)
    typical, scale = swept_boxes(
        pos, vel, radius, horizon, margin, p.world_w, p.world_h, box, status
    )
    # Named by its class here: numba's parallel loop hands a NamedTuple to its tasks only
    # when it was made by a call to its class (a parameter, too).
    grid = BoxGrid(
        *box_grid(
            pos, vel, radius, box, status, CELL_SHARE * typical, scale, p.world_w, p.world_h,
            p.brute,
        )
    )  # fmt: skip
    reach = _reach(max_speed, radius, horizon, margin, p.max_reach) if n >= 2 else 0.0
    reach2 = reach * reach
    start, items, sbox, order, wild = grid.start, grid.items, grid.sbox, grid.order, grid.wild
    span, spos, svel, srad, gx, gy = grid.span, grid.spos, grid.svel, grid.srad, grid.gx, grid.gy
    brute, world_w, world_h = grid.brute, grid.world_w, grid.world_h
    for c in prange((n + CHUNK - 1) // CHUNK):
        found = np.empty(64, dtype=np.int64)
        offset = np.empty((64, 2))
        for s in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            i = order[s]
            xi = spos[s, 0]
            yi = spos[s, 1]
            vx = svel[s, 0]
            vy = svel[s, 1]
            ri = srad[s]
            imminent = NO_THREAT
            if brute or status[i] == WILD:
                for k in range(n):
                    if k != s:
                        imminent = _against(grid, k, xi, yi, vx, vy, ri, reach2, p, imminent)
            elif status[i] == IN_GRID:
                ax = span[i, 0]
                ay = span[i, 1]
                bx0 = box[i, 0]
                by0 = box[i, 1]
                bx1 = box[i, 2]
                by1 = box[i, 3]
                # Candidates are gathered without a branch each (every one is written, and the
                # count moves on only for one that passes), in two rounds: the entries whose
                # boxes overlap this agent's, then those that may threaten it; those few are
                # tested exactly.
                m = 0
                for cy in range(ay, span[i, 3] + 1):
                    row = residue(cy, gy) * gx
                    for cx in range(ax, span[i, 2] + 1):
                        lo, hi = cell_runs(start, 4 * (row + residue(cx, gx)), cx == ax, cy == ay)
                        if m + hi - lo > found.shape[0]:  # room for this cell's run: grow
                            grown = np.empty(2 * (m + hi - lo), dtype=np.int64)
                            for f in range(m):  # (a slice copy here fails in parallel numba)
                                grown[f] = found[f]
                            found = grown
                            offset = np.empty((grown.shape[0], 2))
                        for q in range(lo, hi):
                            k = items[q]
                            shift_x = shift_y = 0.0
                            if world_w > 0.0:
                                # the minimal image: the other agent moved by whole worlds
                                shift_x = -world_w * np.floor((spos[k, 0] - xi) / world_w + 0.5)
                                shift_y = -world_h * np.floor((spos[k, 1] - yi) / world_h + 0.5)
                            found[m] = k
                            m += (
                                (sbox[k, 0] + shift_x <= bx1)
                                & (sbox[k, 2] + shift_x >= bx0)
                                & (sbox[k, 1] + shift_y <= by1)
                                & (sbox[k, 3] + shift_y >= by0)
                            )
                maybe = 0
                for f in range(m):
                    k = found[f]
                    dx = spos[k, 0] - xi
                    dy = spos[k, 1] - yi
                    if world_w > 0.0:
                        dx = dx - world_w * np.floor(dx / world_w + 0.5)
                        dy = dy - world_h * np.floor(dy / world_h + 0.5)
                    found[maybe] = k
                    offset[maybe, 0] = dx
                    offset[maybe, 1] = dy
                    maybe += (k != s) & _maybe(
                        svel, srad, k, dx, dy, vx, vy, ri, reach2, horizon, margin, imminent.time
                    )
                for f in range(maybe):
                    imminent = _exact(
                        grid, found[f], offset[f, 0], offset[f, 1], vx, vy, ri, p, imminent
                    )
                for w in range(wild.shape[0]):
                    imminent = _against(grid, wild[w], xi, yi, vx, vy, ri, reach2, p, imminent)
            respond(
                i, imminent, p, heading, side_col, (xi, yi, vx, vy), (max_speed[i], max_force[i]),
                out, debug, threat, point, other, when,
            )  # fmt: skip
