"""Unaligned collision avoidance among a group's own agents (OpenSteer), searched in swept boxes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from ._checks import in_range, non_negative, positive
from ._jit import njit, njit_inline, njit_leaf, prange, rows_kernel
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .debug import AvoidAgentsDebug, write
from .grid import BRUTE_MAX, minimal_offset
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
        world_w, world_h = agents.world_size or (0.0, 0.0)
        horizon = self.time_horizon
        box = np.empty((n, 4))
        status = np.empty(n, dtype=np.int8)
        typical, scale = _boxes(
            agents.pos, agents.vel, agents.radius, horizon, self.margin, world_w, world_h,
            box, status,
        )  # fmt: skip
        brute = n <= BRUTE_MAX
        grid = _box_grid(
            agents.pos, agents.vel, agents.radius, box, status, CELL_SHARE * typical, scale,
            world_w, world_h, brute,
        )  # fmt: skip
        out = np.empty((n, 2))
        if debug is None:
            threat, point, other, when = _NO_INTS, _NO_ROWS, _NO_ROWS, _NO_VALUES
        else:
            threat = np.empty(n, dtype=np.int64)
            point = np.empty((n, 2))
            other = np.empty((n, 2))
            when = np.empty(n)
        _avoid_rows(n)(
            agents.heading,
            agents.max_speed,
            agents.max_force,
            side,
            box,
            status,
            *grid,
            brute,
            world_w,
            world_h,
            self.reach(agents),
            horizon,
            self.gain,
            self.margin,
            self.brake,
            self.commit,
            1.0 if self.tie_break == "left" else -1.0,
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


#: Cell width of the search grid, as a share of the agents' typical swept-box side.
CELL_SHARE = 1.0
#: Grid cells, and grid entries (an agent sits in every cell its box touches), per agent at
#: most: a crowd spread thin over a large area, or very fast agents, get wider cells.
CELLS_PER_AGENT = 4
ENTRIES_PER_AGENT = 16
#: An agent's status in the search: in the grid; wild, so tested against everyone and
#: everyone against it (a box that is not finite although the position and velocity are, a
#: radius that is not finite; or a box far larger than the crowd's, below); or with a
#: position or velocity that is not finite, so no threat to anyone, nor threatened.
IN_GRID, WILD, OUT = 0, 1, 2
#: A box more than this many typical boxes wide is wild (a few very fast agents would
#: otherwise make every cell as wide as their boxes, and the search quadratic), while the
#: wild boxes are at most ``WILD_ROOT * sqrt(N) + 8`` (each costs a test of every agent).
WILD_SIDES = 16.0
WILD_ROOT = 2.0

#: The search grid (see :func:`_box_grid`): the cells' runs, the entries (slots), the boxes
#: in visiting order, the agents in visiting order, the wild agents' slots, every agent's span
#: of cells, positions, velocities and radii in visiting order, the cell counts (x, y).
BoxGrid = tuple[
    IntArray,
    IntArray,
    FloatArray,
    IntArray,
    IntArray,
    IntArray,
    FloatArray,
    FloatArray,
    FloatArray,
    int,
    int,
]


@njit
def _boxes(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    horizon: float,
    margin: float,
    world_w: float,
    world_h: float,
    box: FloatArray,
    status: NDArray[np.int8],
) -> tuple[float, float]:
    """Every agent's swept box, into ``box`` (lo x, lo y, hi x, hi y): the box round the
    segment it covers within the horizon, ``pos`` to ``pos + vel * horizon``, widened by its
    radius and half the margin, and its ``status``. Returns the typical side of the boxes
    (their geometric mean: a few very long boxes do not move it) and the largest coordinate
    (the scale of rounding errors).

    Two agents closest at ``t`` in (0, horizon] within ``r_i + r_j + margin`` are then, at
    ``t``, each on its segment, and discs of ``r + margin / 2`` round them overlap: so do
    their boxes. Agents whose boxes do not overlap cannot threaten each other.
    """
    n = pos.shape[0]
    total = 0.0
    sides = 0
    scale = max(world_w, world_h, 1.0)
    for i in range(n):
        x = pos[i, 0]
        y = pos[i, 1]
        ex = x + vel[i, 0] * horizon
        ey = y + vel[i, 1] * horizon
        if not (
            math.isfinite(x)
            and math.isfinite(y)
            and math.isfinite(vel[i, 0])
            and math.isfinite(vel[i, 1])
        ):
            status[i] = OUT
            continue
        e = max(radius[i], 0.0) + 0.5 * margin
        lx = min(x, ex) - e
        ly = min(y, ey) - e
        hx = max(x, ex) + e
        hy = max(y, ey) + e
        if not (
            math.isfinite(lx) and math.isfinite(ly) and math.isfinite(hx) and math.isfinite(hy)
        ):
            status[i] = WILD
            continue
        status[i] = IN_GRID
        box[i, 0] = lx
        box[i, 1] = ly
        box[i, 2] = hx
        box[i, 3] = hy
        total += math.log(max(hx - lx, 1e-6)) + math.log(max(hy - ly, 1e-6))
        sides += 2
        scale = max(scale, abs(lx), abs(ly), abs(hx), abs(hy))
    return math.exp(total / max(sides, 1)), scale


@njit_leaf
def _wild_boxes(box: FloatArray, status: NDArray[np.int8], side: float, most: int) -> None:
    """Boxes wider or taller than ``side`` made wild (``status``), unless there are more than
    ``most`` of them (then the grid takes them all, with wider cells)."""
    count = 0
    for i in range(box.shape[0]):
        if status[i] == IN_GRID and max(box[i, 2] - box[i, 0], box[i, 3] - box[i, 1]) > side:
            count += 1
    if count == 0 or count > most:
        return
    for i in range(box.shape[0]):
        if status[i] == IN_GRID and max(box[i, 2] - box[i, 0], box[i, 3] - box[i, 1]) > side:
            status[i] = WILD


@njit_leaf
def _residue(v: int, count: int) -> int:
    """``v`` modulo ``count``, without a division when it is already in range."""
    if 0 <= v < count:
        return v
    return v % count


@njit_leaf
def _runs(start: IntArray, cell: int, first_column: bool, first_row: bool) -> tuple[int, int]:
    """The entries of ``cell`` (its first run's index) that an agent whose box starts in
    ``first_column`` and ``first_row`` reads: all of them in its first cell; beyond its first
    column only the boxes that start in this column, beyond its first row only those that
    start in this row (so each pair is tested once, in the first cell of their overlap)."""
    lo = start[cell] if first_row else start[cell + 1]
    if not first_column:
        return lo, start[cell + 2]
    return lo, start[cell + 4] if first_row else start[cell + 3]


@njit_leaf
def _cell_index(v: float) -> int:
    """``floor(v)`` as a cell index, held within +-2**52 (where floats are still whole
    numbers) so that the conversion to an integer is defined for any coordinate; NaN: 0."""
    if not v > -_INDEX_MAX:
        return -_INDEX_MAX if v == v else 0
    if v > _INDEX_MAX:
        return _INDEX_MAX
    return math.floor(v)


_INDEX_MAX = 2**52


@njit_leaf
def _run_of(first_column: bool, first_row: bool) -> int:
    """Which of a cell's four runs holds a box that starts in the cell's column and row."""
    if first_column:
        return 1 if first_row else 0
    return 2 if first_row else 3


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


@njit
def _sign(x: float) -> float:
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return 0.0


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


@njit
def _box_grid(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    box: FloatArray,
    status: NDArray[np.int8],
    cell: float,
    scale: float,
    world_w: float,
    world_h: float,
    brute: bool,
) -> BoxGrid:
    """The search grid of the swept boxes: every agent in each cell its box touches, cells
    about ``cell`` wide (in a torus, a whole number of them across it), wider where the
    cells or the entries would pass :data:`CELLS_PER_AGENT` or :data:`ENTRIES_PER_AGENT` per
    agent; a few boxes far wider than ``cell`` are made wild first (``status``, in place,
    see :func:`_wild_boxes`). The boxes are widened (in place) by a trillionth of ``scale``,
    far more than a rounding error, so that boxes that touch (a threat at the limit) share a
    cell however their coordinates round. ``brute``: no grid, every agent is visited
    against every other.

    The agents are visited cell by cell, and their positions, velocities and radii copied
    in that order, so that neighbours sit close in memory; the grid holds slots (places in
    that order). Each cell's entries are in four runs: the boxes that start in its column
    but not its row, in both, in its row only, in neither (see :func:`_avoid_rows`).

    Returns (the runs' starts into the entries, the entries (slots), the boxes in visiting
    order, the agents in visiting order, the wild agents' slots, each agent's span of cells
    (first x, first y, last x, last y: unwrapped, at most one world across), the positions,
    velocities and radii in visiting order, the cell counts (x, y)).
    """
    n = box.shape[0]
    span = np.zeros((n, 4), dtype=np.int64)
    order = np.arange(n)
    gx = gy = 1
    total = 0
    if brute:
        start = np.zeros(5, dtype=np.int64)
    else:
        _wild_boxes(box, status, WILD_SIDES * cell, int(WILD_ROOT * math.sqrt(n)) + 8)
        eps = 1e-12 * scale
        x0 = y0 = math.inf
        x1 = y1 = -math.inf
        for i in range(n):
            if status[i] != IN_GRID:
                continue
            box[i, 0] -= eps
            box[i, 1] -= eps
            box[i, 2] += eps
            box[i, 3] += eps
            x0 = min(x0, box[i, 0])
            y0 = min(y0, box[i, 1])
            x1 = max(x1, box[i, 2])
            y1 = max(y1, box[i, 3])
        if world_w > 0.0:
            x0 = y0 = 0.0
            x1 = world_w
            y1 = world_h
        cell_cap = CELLS_PER_AGENT * n + 64
        entry_cap = ENTRIES_PER_AGENT * n + 64
        cell = max(cell, 1e-9 * scale)
        for _ in range(64):  # each round doubles the cells' width: ends long before 64
            extent_x = x1 - x0
            extent_y = y1 - y0
            if not (math.isfinite(extent_x) and math.isfinite(extent_y) and cell < math.inf):
                gx = gy = 1
                inv_x = inv_y = 0.0
            elif world_w > 0.0:
                gx = max(1, min(int(world_w / cell), cell_cap))
                gy = max(1, min(int(world_h / cell), cell_cap // gx))
                inv_x = gx / world_w
                inv_y = gy / world_h
            else:
                fx = extent_x / cell
                fy = extent_y / cell
                if (fx + 1.0) * (fy + 1.0) > cell_cap:
                    cell *= 2.0
                    continue
                gx = int(fx) + 1
                gy = int(fy) + 1
                inv_x = inv_y = 1.0 / cell
            total = 0
            for i in range(n):
                if status[i] != IN_GRID:
                    continue
                ax = _cell_index((box[i, 0] - x0) * inv_x)
                ay = _cell_index((box[i, 1] - y0) * inv_y)
                bx = min(_cell_index((box[i, 2] - x0) * inv_x), ax + gx - 1)
                by = min(_cell_index((box[i, 3] - y0) * inv_y), ay + gy - 1)
                span[i, 0] = ax
                span[i, 1] = ay
                span[i, 2] = bx
                span[i, 3] = by
                total += (bx - ax + 1) * (by - ay + 1)
            if total <= entry_cap or gx * gy == 1:
                break
            cell *= 2.0
        cells = gx * gy
        start = np.zeros(4 * cells + 1, dtype=np.int64)
        home = np.zeros(cells + 1, dtype=np.int64)
        for i in range(n):
            if status[i] != IN_GRID:
                continue
            hx = _residue(span[i, 0], gx)
            hy = _residue(span[i, 1], gy)
            home[hy * gx + hx + 1] += 1
            for cy in range(span[i, 1], span[i, 3] + 1):
                ry = _residue(cy, gy)
                for cx in range(span[i, 0], span[i, 2] + 1):
                    rx = _residue(cx, gx)
                    start[4 * (ry * gx + rx) + _run_of(rx == hx, ry == hy) + 1] += 1
        for c in range(4 * cells):
            start[c + 1] += start[c]
        for c in range(cells):
            home[c + 1] += home[c]
        rest = home[cells]  # the agents outside the grid are visited last
        for i in range(n):
            if status[i] == IN_GRID:
                h = _residue(span[i, 1], gy) * gx + _residue(span[i, 0], gx)
                order[home[h]] = i
                home[h] += 1
            else:
                order[rest] = i
                rest += 1
    items = np.empty(start[-1], dtype=np.int64)
    sbox = np.empty((n, 4))
    fill = start[:-1].copy()
    spos = np.empty((n, 2))
    svel = np.empty((n, 2))
    srad = np.empty(n)
    wild_count = 0
    for slot in range(n):
        i = order[slot]
        spos[slot, 0] = pos[i, 0]
        spos[slot, 1] = pos[i, 1]
        svel[slot, 0] = vel[i, 0]
        svel[slot, 1] = vel[i, 1]
        srad[slot] = max(radius[i], 0.0)
        sbox[slot, 0] = box[i, 0]
        sbox[slot, 1] = box[i, 1]
        sbox[slot, 2] = box[i, 2]
        sbox[slot, 3] = box[i, 3]
        if status[i] == WILD:
            wild_count += 1
        if brute or status[i] != IN_GRID:
            continue
        hx = _residue(span[i, 0], gx)
        hy = _residue(span[i, 1], gy)
        for cy in range(span[i, 1], span[i, 3] + 1):
            ry = _residue(cy, gy)
            for cx in range(span[i, 0], span[i, 2] + 1):
                rx = _residue(cx, gx)
                k = 4 * (ry * gx + rx) + _run_of(rx == hx, ry == hy)
                e = fill[k]
                items[e] = slot
                fill[k] = e + 1
    wild = np.empty(wild_count, dtype=np.int64)
    k = 0
    for slot in range(n):
        if status[order[slot]] == WILD:
            wild[k] = slot
            k += 1
    return start, items, sbox, order, wild, span, spos, svel, srad, gx, gy


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
    svel: FloatArray,
    srad: FloatArray,
    order: IntArray,
    k: int,
    dpx: float,
    dpy: float,
    vx: float,
    vy: float,
    ri: float,
    horizon: float,
    margin: float,
    best: int,
    t: float,
    px: float,
    py: float,
    mx: float,
    my: float,
    clear: float,
) -> tuple[int, float, float, float, float, float, float]:
    """The agent in slot ``k``, which :func:`_maybe` let through, tested exactly as a threat
    against the most imminent one found so far (``best``, -1: none): the smallest time of closest
    approach wins, ties to the lowest index. Returns the winner as (index, time, offset now,
    miss at closest approach, clearance)."""
    dvx = svel[k, 0] - vx
    dvy = svel[k, 1] - vy
    closing = -(dpx * dvx + dpy * dvy)
    dv2 = dvx * dvx + dvy * dvy
    if not (closing > 0.0 and closing <= horizon * dv2):
        return best, t, px, py, mx, my, clear
    tj = closing / dv2
    missx = dpx + dvx * tj
    missy = dpy + dvy * tj
    cl = ri + srad[k] + margin
    if not missx * missx + missy * missy < cl * cl:
        return best, t, px, py, mx, my, clear
    j = order[k]
    if tj < t or (tj == t and j < best):
        return j, tj, dpx, dpy, missx, missy, cl
    return best, t, px, py, mx, my, clear


@njit_leaf
def _against(
    spos: FloatArray,
    svel: FloatArray,
    srad: FloatArray,
    order: IntArray,
    k: int,
    xi: float,
    yi: float,
    world_w: float,
    world_h: float,
    vx: float,
    vy: float,
    ri: float,
    reach2: float,
    horizon: float,
    margin: float,
    best: int,
    t: float,
    px: float,
    py: float,
    mx: float,
    my: float,
    clear: float,
) -> tuple[int, float, float, float, float, float, float]:
    """The agent in slot ``k`` tested as a threat to the agent at (xi, yi) outside the grid
    (every pair, or a wild agent), at the minimal image: :func:`_maybe`, then
    :func:`_exact`."""
    dx = minimal_offset(spos[k, 0] - xi, world_w)
    dy = minimal_offset(spos[k, 1] - yi, world_h)
    if _maybe(svel, srad, k, dx, dy, vx, vy, ri, reach2, horizon, margin, t):
        return _exact(
            svel, srad, order, k, dx, dy, vx, vy, ri, horizon, margin, best, t, px, py, mx,
            my, clear,
        )  # fmt: skip
    return best, t, px, py, mx, my, clear


@rows_kernel
def _avoid_rows(
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    side_col: FloatArray,
    box: FloatArray,
    status: NDArray[np.int8],
    start: IntArray,
    items: IntArray,
    sbox: FloatArray,
    order: IntArray,
    wild: IntArray,
    span: IntArray,
    spos: FloatArray,
    svel: FloatArray,
    srad: FloatArray,
    gx: int,
    gy: int,
    brute: bool,
    world_w: float,
    world_h: float,
    reach: float,
    horizon: float,
    gain: float,
    margin: float,
    brake: float,
    commit: float,
    prefer: float,
    debug: bool,
    threat: IntArray,
    point: FloatArray,
    other: FloatArray,
    when: FloatArray,
    out: FloatArray,
) -> None:
    """Every agent's most imminent threat and its steer away from it (forces into ``out``),
    the agents visited in the grid's order (``order``, slot by slot).

    An agent in the grid tests the agents whose boxes overlap its own, each once: in the
    first cell of the two boxes' overlap. So in the cells of its box beyond its first
    column it reads only the runs of boxes that start in the cell's column, and beyond its
    first row only those that start in the cell's row. In a torus the other agent is taken
    at the minimal image (its box moved by whole worlds). Wild agents (``status``) are
    tested against everyone, and everyone against them; with ``brute`` every pair is
    tested.
    """
    n = spos.shape[0]
    reach2 = reach * reach
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
            best = -1
            t = math.inf
            px = py = mx = my = clear = 0.0
            if brute or status[i] == WILD:
                for k in range(n):
                    if k != s:
                        best, t, px, py, mx, my, clear = _against(
                            spos, svel, srad, order, k, xi, yi, world_w, world_h, vx, vy, ri,
                            reach2, horizon, margin, best, t, px, py, mx, my, clear,
                        )  # fmt: skip
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
                    row = _residue(cy, gy) * gx
                    for cx in range(ax, span[i, 2] + 1):
                        lo, hi = _runs(start, 4 * (row + _residue(cx, gx)), cx == ax, cy == ay)
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
                        svel, srad, k, dx, dy, vx, vy, ri, reach2, horizon, margin, t
                    )
                for f in range(maybe):
                    best, t, px, py, mx, my, clear = _exact(
                        svel, srad, order, found[f], offset[f, 0], offset[f, 1], vx, vy, ri,
                        horizon, margin, best, t, px, py, mx, my, clear,
                    )  # fmt: skip
                for w in range(wild.shape[0]):
                    best, t, px, py, mx, my, clear = _against(
                        spos, svel, srad, order, wild[w], xi, yi, world_w, world_h, vx, vy,
                        ri, reach2, horizon, margin, best, t, px, py, mx, my, clear,
                    )  # fmt: skip
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
                point[i, 0] = xi + vx * t
                point[i, 1] = yi + vy * t
                other[i, 0] = point[i, 0] + mx
                other[i, 1] = point[i, 1] + my
                when[i] = t
