"""The group rules' records and per-agent rows as composites compile them (:class:`Separate`,
:class:`Align`, :class:`Cohere` of :mod:`steering.group`), and how a rule binds its record: its
own group's neighbour grid, or the grid over another group's agents (``others``, see
:mod:`steering.others`)."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .composite import AgentCols, row_function
from .grid import (
    BRUTE_MAX,
    F_MODE,
    MODE_BRUTE,
    Grid,
    brute_grid,
    covering_distance,
    in_grid_order,
    near,
    near_point,
)
from .neighbour_sums import (
    COINCIDENT_DISTANCE,
    agents_velocity_sum,
    align_force,
    alignment_sum,
    away,
    cohesion_sum,
    facing,
    radius_of,
    sees,
    separation_sum,
    toward,
)
from .others import OWN, others_grid, others_of
from .records import Held
from .vec import FloatArray

__all__ = [
    "NeighbourRecord",
    "RuleSum",
    "align_finish",
    "align_near",
    "align_row",
    "align_term",
    "bind_rule",
    "cohere_finish",
    "cohere_near",
    "cohere_row",
    "cohere_term",
    "distance_column",
    "group_grid",
    "kept_align",
    "kept_rule",
    "kept_shared",
    "neighbours_of",
    "rule_reach",
    "rule_start",
    "separate_finish",
    "separate_near",
    "separate_row",
    "separate_term",
]

IntArray = NDArray[np.int64]
_NO_COLUMN = np.zeros(1)
_NO_INTS = np.zeros(0, dtype=np.int64)
_NO_VECTORS = np.zeros((0, 2))


def distance_column(agents: AgentGroup, per_agent: bool, name: str, fill: float) -> FloatArray:
    """The state column ``name`` of per-agent distances (float64), or a placeholder."""
    if not per_agent:
        return _NO_COLUMN
    col = agents.column(name, fill=fill)
    return col if col.dtype == np.float64 else np.asarray(col, dtype=np.float64)


def group_grid(agents: AgentGroup, per_agent: bool, col: FloatArray, distance: float) -> Grid:
    """The group's own neighbour grid for a search to ``distance`` (or to ``col``)."""
    if agents.n <= BRUTE_MAX:
        return brute_grid(agents.world_size)
    if per_agent:
        distance = covering_distance(col, finite_only=True)
    return agents.neighbour_grid(distance)


class NeighbourRecord(NamedTuple):
    """:class:`Separate`'s, :class:`Align`'s or :class:`Cohere`'s parameters for one call."""

    grid_ints: IntArray
    """The neighbour grid (:class:`~steering.grid.Grid`) the rule searches: the group's own,
    or the others' (then the loop does not follow its order)."""
    grid_floats: FloatArray
    """The grid's floats."""
    distances: FloatArray
    """(N,) each agent's distance with ``per_agent``, else unused."""
    distance: float
    """px, for every agent without ``per_agent``."""
    per_agent: bool
    """Whether ``distances`` holds the distances."""
    cos_half: float
    """The cosine of half the field of view (-2: all round)."""
    gain: float
    """1/s."""
    match_speed: bool
    """Align: desire the mean velocity itself."""
    velocities: FloatArray
    """Align: (N, 2) the velocities (the others', with ``others``) in grid order (read by a
    neighbour's slot)."""
    debug_count: IntArray
    """(N,) neighbours counted when debug output is asked (-1: not run), else (0,)."""
    debug_vector: FloatArray
    """(N, 2) the rule's debug vector when asked (NaN: not run), else (0, 2): separation's
    averaged sum, alignment's mean velocity, cohesion's center."""
    others: int
    """The number of other agents searched (M), or :data:`~steering.others.OWN` (-1): the
    group's own. The composite sizes its scratch buffer to it."""
    others_pos: FloatArray
    """(M, 2) the others' positions, or (0, 2) for the group's own."""


@row_function
def neighbours_of(i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray) -> tuple[int, float]:
    """Agent ``i``'s neighbours closer than its distance, written into ``buf`` (a row for every
    agent searched: they always fit): their count and the distance."""
    r = radius_of(p.distances, p.distance, p.per_agent, i)
    if p.others < 0:
        return near(p.grid_ints, p.grid_floats, a.pos, i, r, buf), r
    k = near_point(p.grid_ints, p.grid_floats, p.others_pos, a.pos[i, 0], a.pos[i, 1], -1, r, buf)
    # The buffer has a row per other agent; bounded again here, as a buffer that was too
    # small would be read past its end.
    return min(k, buf.shape[0]), r


#: A group rule's sum over one agent's neighbours while it is taken (see
#: :func:`rule_start`): the agent's distance, heading and whether it sees all round, the sum and
#: the count.
RuleSum = tuple[float, float, float, bool, float, float, int]


@row_function
def rule_start(i: int, a: AgentCols, p: NeighbourRecord) -> RuleSum:
    """Agent ``i``'s empty sum for a group rule: its distance and heading (it reads nothing
    but the agents' headings, the same in every view of them)."""
    r = radius_of(p.distances, p.distance, p.per_agent, i)
    ux, uy, blind = facing(a.heading, i, p.cos_half)
    return r, ux, uy, blind, 0.0, 0.0, 0


@row_function
def separate_term(
    i: int, a: AgentCols, p: NeighbourRecord, s: RuleSum, buf: FloatArray, q: int
) -> RuleSum:
    """``s`` with row ``q`` of ``buf`` added as :func:`separation_sum` adds it."""
    r, ux, uy, blind, tx, ty, m = s
    d = buf[q, 3]
    if d < r:
        dx = buf[q, 1]
        dy = buf[q, 2]
        if sees(ux, uy, blind, dx, dy, d, p.cos_half):
            px, py = away(i, int(buf[q, 0]), dx, dy, d)
            return r, ux, uy, blind, tx + px * r, ty + py * r, m + 1
    return s


@row_function
def separate_finish(i: int, a: AgentCols, p: NeighbourRecord, s: RuleSum) -> tuple[float, float]:
    """Agent ``i``'s separation force (see :class:`Separate`) from its sum."""
    r, _, _, _, tx, ty, m = s
    if p.debug_count.shape[0] > 0:
        p.debug_count[i] = m
        scale = m * r
        if m > 0 and r > COINCIDENT_DISTANCE:
            p.debug_vector[i, 0] = tx / scale
            p.debug_vector[i, 1] = ty / scale
        else:
            p.debug_vector[i, 0] = 0.0
            p.debug_vector[i, 1] = 0.0
    return toward(tx, ty, m, a.vel[i, 0], a.vel[i, 1], a.max_speed[i], p.gain, a.max_force[i])


@row_function
def separate_near(
    i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray, k: int
) -> tuple[float, float]:
    """Agent ``i``'s separation force (see :class:`Separate`) from the first ``k`` rows of
    ``buf``: its neighbours, and maybe agents further than its distance."""
    r, ux, uy, blind, _, _, _ = rule_start(i, a, p)
    tx, ty, m = separation_sum(i, buf, k, r, ux, uy, blind, p.cos_half)
    return separate_finish(i, a, p, (r, ux, uy, blind, tx, ty, m))


@row_function
def separate_row(i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s separation force (see :class:`Separate`)."""
    k, _ = neighbours_of(i, a, p, buf)
    return separate_near(i, a, p, buf, k)


@row_function
def align_term(
    i: int, a: AgentCols, p: NeighbourRecord, s: RuleSum, buf: FloatArray, q: int
) -> RuleSum:
    """``s`` with row ``q`` of ``buf`` added as :func:`agents_velocity_sum` adds it (the
    velocity read by agent)."""
    r, ux, uy, blind, tx, ty, m = s
    d = buf[q, 3]
    if d < r and sees(ux, uy, blind, buf[q, 1], buf[q, 2], d, p.cos_half):
        j = int(buf[q, 0])
        return r, ux, uy, blind, tx + a.vel[j, 0], ty + a.vel[j, 1], m + 1
    return s


@row_function
def align_finish(i: int, a: AgentCols, p: NeighbourRecord, s: RuleSum) -> tuple[float, float]:
    """Agent ``i``'s alignment force (see :class:`Align`) from its sum."""
    _, _, _, _, tx, ty, m = s
    if p.debug_count.shape[0] > 0:
        p.debug_count[i] = m
        p.debug_vector[i, 0] = tx / m if m > 0 else 0.0
        p.debug_vector[i, 1] = ty / m if m > 0 else 0.0
    vx = a.vel[i, 0]
    vy = a.vel[i, 1]
    return align_force(tx, ty, m, vx, vy, a.max_speed[i], p.gain, a.max_force[i], p.match_speed)


@row_function
def align_near(
    i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray, k: int
) -> tuple[float, float]:
    """Agent ``i``'s alignment force (see :class:`Align`) from the first ``k`` rows of
    ``buf`` (found in another grid than the record's: the velocities are read by agent)."""
    r, ux, uy, blind, _, _, _ = rule_start(i, a, p)
    tx, ty, m = agents_velocity_sum(a.vel, buf, k, r, ux, uy, blind, p.cos_half)
    return align_finish(i, a, p, (r, ux, uy, blind, tx, ty, m))


@row_function
def align_row(i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s alignment force (see :class:`Align`)."""
    k, r = neighbours_of(i, a, p, buf)
    ux, uy, blind = facing(a.heading, i, p.cos_half)
    tx, ty, m = alignment_sum(p.velocities, buf, k, r, ux, uy, blind, p.cos_half)
    return align_finish(i, a, p, (r, ux, uy, blind, tx, ty, m))


@row_function
def cohere_term(
    i: int, a: AgentCols, p: NeighbourRecord, s: RuleSum, buf: FloatArray, q: int
) -> RuleSum:
    """``s`` with row ``q`` of ``buf`` added as :func:`cohesion_sum` adds it."""
    r, ux, uy, blind, tx, ty, m = s
    d = buf[q, 3]
    if d < r and sees(ux, uy, blind, buf[q, 1], buf[q, 2], d, p.cos_half):
        return r, ux, uy, blind, tx + buf[q, 1], ty + buf[q, 2], m + 1
    return s


@row_function
def cohere_finish(i: int, a: AgentCols, p: NeighbourRecord, s: RuleSum) -> tuple[float, float]:
    """Agent ``i``'s cohesion force (see :class:`Cohere`) from its sum."""
    _, _, _, _, tx, ty, m = s
    if p.debug_count.shape[0] > 0:
        p.debug_count[i] = m
        p.debug_vector[i, 0] = a.pos[i, 0] + (tx / m if m > 0 else 0.0)
        p.debug_vector[i, 1] = a.pos[i, 1] + (ty / m if m > 0 else 0.0)
    return toward(tx, ty, m, a.vel[i, 0], a.vel[i, 1], a.max_speed[i], p.gain, a.max_force[i])


@row_function
def cohere_near(
    i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray, k: int
) -> tuple[float, float]:
    """Agent ``i``'s cohesion force (see :class:`Cohere`) from the first ``k`` rows of
    ``buf``."""
    r, ux, uy, blind, _, _, _ = rule_start(i, a, p)
    tx, ty, m = cohesion_sum(buf, k, r, ux, uy, blind, p.cos_half)
    return cohere_finish(i, a, p, (r, ux, uy, blind, tx, ty, m))


@row_function
def cohere_row(i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s cohesion force (see :class:`Cohere`)."""
    k, _ = neighbours_of(i, a, p, buf)
    return cohere_near(i, a, p, buf, k)


def rule_reach(rule: Any, record: NeighbourRecord) -> float:
    """A group rule's distance for a shared neighbour query
    (:meth:`~steering.composite.RowPart.near_reach`): its own group's agents at one distance
    for all; 0 otherwise."""
    r = record.distance
    if record.others < 0 and not record.per_agent and 0.0 < r < math.inf:
        return float(r)
    return 0.0


def bind_rule(
    rule: Any,
    name: str,
    agents: AgentGroup,
    debug: bool,
    cos_half: float,
    match_speed: bool,
    velocities: FloatArray | None,
) -> NeighbourRecord:
    """A group rule's record (``velocities`` None: the velocities searched, in the grid's
    order). ``rule`` holds ``distance``, ``per_agent``, ``column``, ``gain`` and ``others``.

    Raises:
        ValueError: for ``others`` whose arrays are not (M, 2) (see
            :func:`~steering.others.others_of`).
    """
    col = distance_column(agents, rule.per_agent, rule.column, rule.distance)
    others = rule.others
    seen = None if others is None else others_of(name, others, agents, velocities is None)
    if seen is None:
        grid = group_grid(agents, rule.per_agent, col, rule.distance)
        count, opos = OWN, _NO_VECTORS
    else:
        grid = others_grid(rule, others, seen, col if rule.per_agent else None, rule.distance)
        count, opos = seen.pos.shape[0], seen.pos
    if velocities is None and seen is None and grid.floats[F_MODE] == MODE_BRUTE:
        # No grid: agents are visited in index order, so a neighbour's slot is its index and
        # the velocities in grid order are the group's own column, read live (the loop moves
        # no agent): the record is then kept like the other rules'.
        velocities = agents.vel
    held: Held | None = None
    stamp: tuple[Any, ...] = ()
    if velocities is not None and not debug:
        # Kept while the grid, the distances, the others' positions and the settings are the
        # same objects (a grid built anew each step, as for a large crowd, makes a new record;
        # so do others of another count: their positions are another array).
        held = rule.__dict__.get("_held")
        if held is None:
            held = rule.__dict__["_held"] = Held()
        stamp = (
            grid.ints, grid.floats, col, rule.distance, rule.per_agent, cos_half, rule.gain, opos,
            velocities, match_speed,
        )  # fmt: skip
        record = held.get(stamp, 0.0)
        if record is not None:
            return record
    if velocities is None:
        vel = agents.vel if seen is None else seen.vel
        velocities = in_grid_order(grid.ints, grid.floats, vel)
        if not debug:
            # Held too (a copy made now is never found again), so that the rule's latest
            # record is known (:func:`kept_shared`).
            held = rule.__dict__.get("_held")
            if held is None:
                held = rule.__dict__["_held"] = Held()
            stamp = (velocities,)
    n = agents.n
    record = NeighbourRecord(
        grid.ints,
        grid.floats,
        col,
        rule.distance,
        rule.per_agent,
        cos_half,
        rule.gain,
        match_speed,
        velocities,
        np.full(n, -1, dtype=np.int64) if debug else _NO_INTS,
        np.full((n, 2), np.nan) if debug else _NO_VECTORS,
        count,
        opos,
    )
    return record if held is None else held.put(stamp, 0.0, record)


def kept_rule(rule: Any, agents: AgentGroup, record: NeighbourRecord) -> bool:
    """Whether a group rule's ``record`` still holds for a replayed call: the rule searches
    its own group and ``record`` is the one it keeps; in a group large enough for a grid, the
    grid is built again here for this step (into the same arrays, which the record holds, when
    they hold it). Other agents (``others``) move between calls: their record is made again;
    so are per-agent distances read from a column of another type than float64 (the record
    holds a copy of it, which a change in place does not reach)."""
    if rule.others is not None:
        return False
    per_agent = rule.per_agent
    if per_agent and record.distances is not agents.state.get(rule.column):
        return False
    held = rule.__dict__.get("_held")
    if held is None or held.record is not record:
        return False
    if agents.pos.shape[0] <= BRUTE_MAX:
        return True
    grid = group_grid(agents, per_agent, record.distances, rule.distance)
    return grid.ints is record.grid_ints and grid.floats is record.grid_floats


def kept_align(rule: Any, agents: AgentGroup, record: NeighbourRecord) -> bool:
    """:func:`kept_rule` for :class:`Align`, whose record reads the velocities: it holds
    while they are the group's own column (no grid: a neighbour's slot is its index)."""
    return record.velocities is agents.vel and kept_rule(rule, agents, record)


def kept_shared(rule: Any, agents: AgentGroup, record: NeighbourRecord) -> bool:
    """Whether a group rule's ``record`` still holds for a replayed call in which its
    neighbours come from a query shared with other rules (the record's grid and velocities
    are then not read, only its settings): it is the record the rule made last."""
    held = rule.__dict__.get("_held")
    return held is not None and held.record is record
