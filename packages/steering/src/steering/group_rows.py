"""The group rules' records and per-agent rows as composites compile them (:class:`Separate`,
:class:`Align`, :class:`Cohere` of :mod:`steering.group`), and how a rule binds its record: its
own group's neighbour grid, or the grid over another group's agents (``others``, see
:mod:`steering.others`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .composite import AgentCols, row_function
from .grid import BRUTE_MAX, Grid, brute_grid, covering_distance, in_grid_order, near, near_point
from .neighbour_sums import (
    COINCIDENT_DISTANCE,
    align_force,
    alignment_sum,
    cohesion_sum,
    facing,
    radius_of,
    separation_sum,
    toward,
)
from .others import OWN, others_grid, others_of
from .records import Held
from .vec import FloatArray

__all__ = [
    "NeighbourRecord",
    "align_row",
    "bind_rule",
    "cohere_row",
    "distance_column",
    "group_grid",
    "neighbours_of",
    "separate_row",
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


@row_function
def separate_row(i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s separation force (see :class:`Separate`)."""
    k, r = neighbours_of(i, a, p, buf)
    ux, uy, blind = facing(a.heading, i, p.cos_half)
    tx, ty, m = separation_sum(i, buf, k, r, ux, uy, blind, p.cos_half)
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
def align_row(i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s alignment force (see :class:`Align`)."""
    k, r = neighbours_of(i, a, p, buf)
    ux, uy, blind = facing(a.heading, i, p.cos_half)
    tx, ty, m = alignment_sum(p.velocities, buf, k, r, ux, uy, blind, p.cos_half)
    if p.debug_count.shape[0] > 0:
        p.debug_count[i] = m
        p.debug_vector[i, 0] = tx / m if m > 0 else 0.0
        p.debug_vector[i, 1] = ty / m if m > 0 else 0.0
    vx = a.vel[i, 0]
    vy = a.vel[i, 1]
    return align_force(tx, ty, m, vx, vy, a.max_speed[i], p.gain, a.max_force[i], p.match_speed)


@row_function
def cohere_row(i: int, a: AgentCols, p: NeighbourRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s cohesion force (see :class:`Cohere`)."""
    k, r = neighbours_of(i, a, p, buf)
    ux, uy, blind = facing(a.heading, i, p.cos_half)
    tx, ty, m = cohesion_sum(buf, k, r, ux, uy, blind, p.cos_half)
    if p.debug_count.shape[0] > 0:
        p.debug_count[i] = m
        p.debug_vector[i, 0] = a.pos[i, 0] + (tx / m if m > 0 else 0.0)
        p.debug_vector[i, 1] = a.pos[i, 1] + (ty / m if m > 0 else 0.0)
    return toward(tx, ty, m, a.vel[i, 0], a.vel[i, 1], a.max_speed[i], p.gain, a.max_force[i])


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
            grid.ints, grid.floats, col, rule.distance, rule.per_agent, cos_half, rule.gain, opos
        )  # fmt: skip
        record = held.get(stamp, 0.0)
        if record is not None:
            return record
    if velocities is None:
        vel = agents.vel if seen is None else seen.vel
        velocities = in_grid_order(grid.ints, grid.floats, vel)
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
