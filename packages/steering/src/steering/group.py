"""Group behaviours: separation (seed 004), alignment, cohesion and the flock that blends them.

Each is one compiled loop over agents. Agent ``i`` asks the group's neighbour grid
(:mod:`~steering.grid`) for the others closer than its own distance and then does what the seeds'
``Vehicle.separate`` / ``align`` / ``cohesion`` do with them, on plain floats: no pair lists, no
N x N matrices. Below :data:`~steering.grid.BRUTE_MAX` agents the loop measures every other agent
directly; from there up the grid, built once per step per cell size, serves every behaviour.
In a wrap-around world (``agents.world_size``) neighbours are found across the edges and every
offset is the minimal image. With ``others`` the neighbours are another group's agents, found
in the grid over their positions (:mod:`steering.others`, :mod:`steering.group_rows`).

Why one file: the three rules and the :class:`Flock` preset share their settings, their checks
and their debug records, and the preset's fused loop must give the rules' own floats (a test
holds it to them): they are read and changed together. Their per-agent rows are in
:mod:`steering.group_rows`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kern as kern
from ._checks import fov as check_fov
from ._checks import frozen, non_negative, optional_point_array, points, time_step
from ._jit import PARALLEL_MIN, prange, rows_kernel
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .basic import Seek
from .checked import ArraySettings, Checked, checks
from .composite import AgentCols, RowPart
from .debug import AlignDebug, CohereDebug, FlockDebug, SeparateDebug, write
from .grid import (
    BRUTE_MAX,
    BUF_COLS,
    F_H,
    F_W,
    Grid,
    agent_at,
    brute_grid,
    directed_pairs,
    in_grid_order,
    minimal_offset,
    near,
)
from .group_rows import (
    NeighbourRecord,
    align_finish,
    align_near,
    align_row,
    align_term,
    bind_rule,
    cohere_finish,
    cohere_near,
    cohere_row,
    cohere_term,
    kept_align,
    kept_rule,
    kept_shared,
    rule_reach,
    rule_start,
    separate_finish,
    separate_near,
    separate_row,
    separate_term,
)
from .moving import integrate, move_row
from .neighbour_sums import (
    COINCIDENT_DISTANCE,
    FovCache,
    facing,
    flock_sums,
    sees,
    toward,
)
from .others import OWN
from .vec import FloatArray, truncate

__all__ = ["COINCIDENT_DISTANCE", "Align", "Cohere", "Flock", "Separate", "neighbour_distances"]


#: Agents per task of the compiled loops (each task keeps its own neighbour buffer).
CHUNK = 256

IntArray = NDArray[np.int64]
_NO_ROWS = np.zeros((1, 2))


def neighbour_distances(
    agents: AgentGroup, distance: float, per_agent: bool, column: str
) -> FloatArray:
    """Each agent's neighbour distance: ``distance`` for all, or the state column ``column``.

    With ``per_agent`` the column is created filled with ``distance`` on first use, so a game can
    write one value per agent (enemies 40 px, NPCs 24 px) into ``agents.state[column]``.
    Non-finite or negative entries count as 0 (no neighbours).

    Returns:
        (N,) distances in px.
    """
    if per_agent:
        raw = np.asarray(agents.column(column, fill=distance), dtype=np.float64)
    else:
        raw = np.full(agents.n, float(distance))
    ok = np.isfinite(raw) & (raw > 0.0)
    return np.where(ok, raw, 0.0)


# -- kernels -------------------------------------------------------------------------------


class FlockRecord(NamedTuple):
    """:class:`Flock`'s settings, target and neighbour grid for one call of its loop."""

    radii: FloatArray
    """(3,) separation, alignment and cohesion distances, px (0 for a rule weighted 0)."""
    weights: FloatArray
    """(4,) their weights, then the seek's."""
    cos_half: float
    """The cosine of half the field of view (below -1: all round)."""
    gain: float
    """1/s."""
    target: FloatArray
    """(0, 2) no seek, (1, 2) one point for all, or (N, 2) one per agent."""
    grid_ints: IntArray
    """The neighbour grid's integers (:class:`~steering.grid.Grid`)."""
    grid_floats: FloatArray
    """Its numbers."""
    counts: IntArray
    """(N, 3) each agent's neighbours counted by the three rules, written when debug output is
    asked; else (0, 3), not written."""


class FlockMove(NamedTuple):
    """Whether and how :class:`Flock`'s loop moves the agents after their forces (as
    :func:`~steering.step`)."""

    move: int
    """0: not; 1: integrate them (:func:`~steering.integrate`, wrapped in the grid's world when
    it has one), each heading turned by its pending request; 2: turned toward its velocity."""
    dt: float
    """The step, s."""
    rate: FloatArray
    """(N,) max turn rates, rad/s."""
    turns: FloatArray
    """(N, 2) pending turn requests, or (0, 2) (:meth:`AgentGroup.turns`)."""


@rows_kernel
def _flock_rows(cols: AgentCols, rec: FlockRecord, how: FlockMove, out: FloatArray) -> None:
    """Separation, alignment, cohesion (radii[0..2], weights[0..2]) over one neighbour query,
    plus seek (weights[3]) when ``target`` has rows; the weighted sum limited to max force.
    Then, with ``how.move``, every agent is moved under it.

    The records arrive as plain tuples of their fields in order and are named again here: numba
    types a tuple in C, a NamedTuple argument in Python (1-2 us a call, measured: about half of
    a whole call at a handful of agents). Their arrays are read into locals before the loops,
    since inside numba's ``prange`` a write through an array held in a tuple is lost (numba
    0.68)."""
    a = AgentCols(*cols)
    r = FlockRecord(*rec)
    m = FlockMove(*how)
    pos, vel, heading, mass = a.pos, a.vel, a.heading, a.mass
    max_speed, max_force = a.max_speed, a.max_force
    radii, weights, cos_half, gain, target = r.radii, r.weights, r.cos_half, r.gain, r.target
    ints, floats, counts = r.grid_ints, r.grid_floats, r.counts
    move, dt, rate, turns = m.move, m.dt, m.rate, m.turns
    debug = counts.shape[0] > 0
    n = pos.shape[0]
    rs = radii[0]
    ra = radii[1]
    rc = radii[2]
    reach = max(rs, max(ra, rc))
    seek = target.shape[0] > 0
    shared = target.shape[0] == 1
    svel = in_grid_order(ints, floats, vel)
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty((64, BUF_COLS))
        for s in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            i = agent_at(ints, floats, s)
            vx = vel[i, 0]
            vy = vel[i, 1]
            speed = max_speed[i]
            limit = max_force[i]
            k = near(ints, floats, pos, i, reach, buf)
            if k > buf.shape[0]:  # more than the buffer holds: grow it, ask again
                buf = np.empty((2 * k, BUF_COLS))
                k = near(ints, floats, pos, i, reach, buf)
            ux, uy, blind = facing(heading, i, cos_half)
            sx, sy, ms, ax, ay, ma, cx, cy, mc = flock_sums(
                i, svel, buf, k, rs, ra, rc, ux, uy, blind, cos_half
            )
            fx, fy = toward(sx, sy, ms, vx, vy, speed, gain, limit)
            totx = fx * weights[0]
            toty = fy * weights[0]
            fx, fy = toward(ax, ay, ma, vx, vy, speed, gain, limit)
            totx += fx * weights[1]
            toty += fy * weights[1]
            fx, fy = toward(cx, cy, mc, vx, vy, speed, gain, limit)
            totx += fx * weights[2]
            toty += fy * weights[2]
            if seek:
                t = 0 if shared else i
                dx, dy = kern.set_length(target[t, 0] - pos[i, 0], target[t, 1] - pos[i, 1], speed)
                fx, fy = kern.steer(dx, dy, vx, vy, gain, limit)
                totx += fx * weights[3]
                toty += fy * weights[3]
            out[i, 0], out[i, 1] = kern.truncate(totx, toty, limit)
            if debug:
                counts[i, 0] = ms
                counts[i, 1] = ma
                counts[i, 2] = mc
    if move > 0:
        face = move > 1
        width = floats[F_W]
        height = floats[F_H]
        for i in prange(n):
            move_row(
                pos, vel, heading, max_speed, mass, rate, out, dt, face, turns, width, height, i
            )


# -- behaviours ----------------------------------------------------------------------------


@dataclass
class Separate(RowPart):
    """Keep away from neighbours closer than ``distance`` (Nature of Code 6.11, seed 004).

    For every other agent closer than the agent's desired separation: the unit vector away from
    it, weighted by 1/d; these are summed, averaged by their count, set to max speed as the
    desired velocity, and the steer is ``(desired - velocity) * gain`` limited to max force.
    Agents with no neighbour that close get zero force. Neighbours come from the group's
    neighbour grid (:mod:`~steering.grid`; no N^2 loop beyond a few dozen agents); a neighbour
    j counts for i when ``d < distance_i``, so mixed groups (enemies 40 px, NPCs 24 px) keep
    their own spacing. In a wrap-around world neighbours across an edge count, at their minimal
    image.

    With ``fov`` below 360 a neighbour counts for agent i only where the angle between i's
    heading and the direction to it is at most ``fov / 2`` (coincident neighbours are always
    seen): agents ignore what is behind them.

    Trade-offs: the 1/d weighting lets the nearest neighbour dominate, and the desired speed is
    always max speed, so a crowd keeps flying apart at full speed while anyone is too close and
    keeps its velocity afterwards; combine it with arrive/seek or some braking so it settles.
    Where the weighted away vectors cancel exactly (an agent boxed in symmetrically) the desired
    velocity is zero and the agent brakes, as in the seed. Two coincident agents (closer than
    :data:`COINCIDENT_DISTANCE`) have no away direction: each such pair gets a deterministic
    pair-specific direction and the two are pushed opposite ways with weight
    1/COINCIDENT_DISTANCE, so a stack of agents always comes apart.

    With ``others`` the neighbours are another group's agents instead (a school of fish keeping
    clear of the sharks): the grid is built over the others' positions and each agent searches
    it at its own distance, in the group's world; nobody is left out (an agent at the very
    spot of another one is pushed along the pair's direction). ``others`` set to the group
    itself is the default.

    Attributes:
        distance: desired separation in px (the seed's ``desiredseparation``).
        gain: how fast the steer closes the gap to the desired velocity (1/s).
        per_agent: read each agent's separation from ``agents.state[column]`` (created filled
            with ``distance`` on first use); non-finite or negative entries mean none.
        column: the state column holding per-agent separations.
        fov: field of view in degrees, in (0, 360]; 360 sees all round.
        others: None (the group's own agents are the neighbours), or another group whose
            agents are: an :class:`~steering.AgentGroup` or any object with ``pos`` and
            ``vel`` arrays of shape (M, 2) (see :mod:`steering.others`).
    """

    ROW = separate_row
    ROW_RECORD = NeighbourRecord
    ORDERS = True
    ROW_NEAR = separate_near
    NEAR_FOLD = (rule_start, separate_term, separate_finish)
    #: Shares a neighbour query with the tree's other group rules when it searches its own
    #: group at one distance (:func:`~steering.group_rows.rule_reach`).
    near_reach = rule_reach
    kept_shared = kept_shared
    KEPT_BY_HELD = True

    distance: float = 24.0
    gain: float = DEFAULT_GAIN
    per_agent: bool = False
    column: str = "separation"
    fov: float = 360.0
    others: Any = field(default=None, compare=False)
    _cos: FovCache = field(default_factory=FovCache, init=False, repr=False, compare=False)

    CHECKS = checks(
        "Separate",
        fov=check_fov,
        distance=non_negative,
        gain=non_negative,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> NeighbourRecord:
        """This call's record: the neighbour grid is built (or found) here.

        Debug output (:class:`~steering.debug.SeparateDebug`): the neighbours that pushed each
        agent, the pairs ``i < j`` where at least one pushed the other (none with
        ``others``: the pairs are within one group), each agent's separation, and the seed's
        averaged 1/d-weighted sum.
        """
        cos_half = self._cos.of("Separate.fov", self.fov)
        return bind_rule(self, "Separate", agents, debug, cos_half, False, _NO_ROWS)

    #: The record holds while the group is small enough to measure every pair and is the one
    #: kept (:func:`~steering.group_rows.kept_rule`, called as the method itself: a replay asks
    #: at every call).
    kept = kept_rule

    def report(self, agents: AgentGroup, record: NeighbourRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.SeparateDebug`."""
        sep = neighbour_distances(agents, self.distance, self.per_agent, self.column)
        if record.others == OWN:
            grid = Grid(record.grid_ints, record.grid_floats)
            pairs = _pairs_in_view(agents, grid, sep, record.cos_half)
        else:  # the grid is over the others: no pairs within the group
            pairs = np.zeros((0, 2), dtype=np.intp)
        count = record.debug_count.astype(np.intp)
        write(SeparateDebug(count, pairs, sep, record.debug_vector), debug)


def _pairs_in_view(agents: AgentGroup, grid: Grid, radii: FloatArray, cos_half: float) -> IntArray:
    """(P, 2) pairs ``i < j`` where i sees j closer than ``radii[i]`` or j sees i (debug)."""
    i, j = directed_pairs(grid, agents.pos, radii)
    if cos_half > -1.5 and i.size:
        keep = np.array(
            [
                _sees_pair(agents.pos, agents.heading, int(a), int(b), cos_half, agents.world_size)
                for a, b in zip(i, j, strict=True)
            ],
            dtype=bool,
        )
        i, j = i[keep], j[keep]
    # Each pair once, sorted by (i, j): one key per pair sorts far faster than unique rows.
    n = max(agents.n, 1)
    keys = np.unique(np.minimum(i, j).astype(np.int64) * n + np.maximum(i, j))
    return np.column_stack((keys // n, keys % n)).reshape(-1, 2).astype(np.intp)


def _sees_pair(
    pos: FloatArray,
    heading: FloatArray,
    i: int,
    j: int,
    cos_half: float,
    world: tuple[float, float] | None,
) -> bool:
    w, h = world if world is not None else (0.0, 0.0)
    dx = float(minimal_offset(pos[j, 0] - pos[i, 0], w))
    dy = float(minimal_offset(pos[j, 1] - pos[i, 1], h))
    ux, uy, blind = facing(heading, i, cos_half)
    return bool(sees(ux, uy, blind, dx, dy, math.hypot(dx, dy), cos_half))


@dataclass
class Align(RowPart):
    """Match the average velocity of the neighbours within ``distance`` (Reynolds' alignment).

    The neighbours' velocities are averaged; the desired velocity is that average's direction at
    max speed (Nature of Code's ``align``), or with ``match_speed`` the average itself limited to
    max speed. Steer is ``(desired - velocity) * gain`` limited to max force; agents with no
    neighbour get zero force. Coincident agents are neighbours like any other.

    Trade-offs: stopped neighbours add nothing to the direction, and neighbours whose velocities
    cancel (two streams head-on) give a zero desired velocity, so the agent brakes. A neighbour
    j counts for i when ``d < distance_i`` (and, with ``fov`` below 360, when j lies within
    ``fov / 2`` of i's heading, as in :class:`Separate`). Uses the group's neighbour grid, shared
    with :class:`Separate` and :class:`Cohere` when the distances are equal.

    With ``others`` the neighbours are another group's agents and their velocities are
    averaged (a school matching the heading of a shoal beside it), searched as
    :class:`Separate` searches them; ``others`` set to the group itself is the default.

    Attributes:
        distance: neighbourhood radius in px.
        gain: how fast the steer closes the gap to the desired velocity (1/s).
        match_speed: desire the neighbours' average velocity itself rather than its direction
            at max speed.
        per_agent: read each agent's radius from ``agents.state[column]``.
        column: the state column holding per-agent radii.
        fov: field of view in degrees, in (0, 360]; 360 sees all round.
        others: None (the group's own agents are the neighbours), or another group whose
            agents are: an :class:`~steering.AgentGroup` or any object with ``pos`` and
            ``vel`` arrays of shape (M, 2) (see :mod:`steering.others`).
    """

    ROW = align_row
    ROW_RECORD = NeighbourRecord
    ORDERS = True
    ROW_NEAR = align_near
    NEAR_FOLD = (rule_start, align_term, align_finish)
    #: Shares a neighbour query with the tree's other group rules when it searches its own
    #: group at one distance (:func:`~steering.group_rows.rule_reach`).
    near_reach = rule_reach
    kept_shared = kept_shared
    KEPT_BY_HELD = True

    distance: float = 50.0
    gain: float = DEFAULT_GAIN
    match_speed: bool = False
    per_agent: bool = False
    column: str = "alignment"
    fov: float = 360.0
    others: Any = field(default=None, compare=False)
    _cos: FovCache = field(default_factory=FovCache, init=False, repr=False, compare=False)

    CHECKS = checks(
        "Align",
        fov=check_fov,
        distance=non_negative,
        gain=non_negative,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> NeighbourRecord:
        """This call's record: the neighbour grid is built (or found) here and the velocities
        put in its order.

        Debug output (:class:`~steering.debug.AlignDebug`): each agent's neighbour count and
        their mean velocity.
        """
        cos_half = self._cos.of("Align.fov", self.fov)
        return bind_rule(self, "Align", agents, debug, cos_half, bool(self.match_speed), None)

    #: The record holds while the group is small enough to measure every pair (its velocities
    #: are then the group's own column) and is the one kept
    #: (:func:`~steering.group_rows.kept_align`).
    kept = kept_align

    def report(self, agents: AgentGroup, record: NeighbourRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.AlignDebug`."""
        write(AlignDebug(record.debug_count.astype(np.intp), record.debug_vector), debug)


@dataclass
class Cohere(RowPart):
    """Seek the center of mass of the neighbours within ``distance`` (Reynolds' cohesion).

    The center is the agent's position plus the mean offset to its neighbours (offsets keep
    precision at huge coordinates, and in a wrap-around world they are the minimal images, so a
    group straddling an edge coheres across it); the desired velocity points at it at max speed
    and the steer is ``(desired - velocity) * gain`` limited to max force. Agents with no
    neighbour get zero force.

    Trade-offs: seeking at max speed overshoots the center and makes tight groups pulse; use it
    with separation so the group holds a spacing. An agent exactly at the center desires zero
    velocity and brakes. Neighbours beyond ``distance`` are invisible, so two groups further
    apart than that never merge. A neighbour j counts for i when ``d < distance_i`` (and, with
    ``fov`` below 360, when j lies within ``fov / 2`` of i's heading, as in :class:`Separate`).

    With ``others`` the center is that of another group's agents within ``distance`` (escorts
    closing on a convoy), searched as :class:`Separate` searches them; ``others`` set to the
    group itself is the default.

    Attributes:
        distance: neighbourhood radius in px.
        gain: how fast the steer closes the gap to the desired velocity (1/s).
        per_agent: read each agent's radius from ``agents.state[column]``.
        column: the state column holding per-agent radii.
        fov: field of view in degrees, in (0, 360]; 360 sees all round.
        others: None (the group's own agents are the neighbours), or another group whose
            agents are: an :class:`~steering.AgentGroup` or any object with ``pos`` and
            ``vel`` arrays of shape (M, 2) (see :mod:`steering.others`).
    """

    ROW = cohere_row
    ROW_RECORD = NeighbourRecord
    ORDERS = True
    ROW_NEAR = cohere_near
    NEAR_FOLD = (rule_start, cohere_term, cohere_finish)
    #: Shares a neighbour query with the tree's other group rules when it searches its own
    #: group at one distance (:func:`~steering.group_rows.rule_reach`).
    near_reach = rule_reach
    kept_shared = kept_shared
    KEPT_BY_HELD = True

    distance: float = 50.0
    gain: float = DEFAULT_GAIN
    per_agent: bool = False
    column: str = "cohesion"
    fov: float = 360.0
    others: Any = field(default=None, compare=False)
    _cos: FovCache = field(default_factory=FovCache, init=False, repr=False, compare=False)

    CHECKS = checks(
        "Cohere",
        fov=check_fov,
        distance=non_negative,
        gain=non_negative,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> NeighbourRecord:
        """This call's record: the neighbour grid is built (or found) here.

        Debug output (:class:`~steering.debug.CohereDebug`): each agent's neighbour count and
        their center of mass (the agent's own position where it has none).
        """
        cos_half = self._cos.of("Cohere.fov", self.fov)
        return bind_rule(self, "Cohere", agents, debug, cos_half, False, _NO_ROWS)

    #: The record holds while the group is small enough to measure every pair and is the one
    #: kept (:func:`~steering.group_rows.kept_rule`, called as the method itself: a replay asks
    #: at every call).
    kept = kept_rule

    def report(self, agents: AgentGroup, record: NeighbourRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.CohereDebug`."""
        write(CohereDebug(record.debug_count.astype(np.intp), record.debug_vector), debug)


_NO_TARGET = np.zeros((0, 2))
_INF = float("inf")


@dataclass(eq=False)
class Flock(Checked, ArraySettings):
    """Reynolds' flock in one pass: separation, alignment and cohesion, plus an optional seek.

    Each agent asks the neighbour grid once, at the largest of the three distances, and computes
    what :class:`Separate`, :class:`Align` and :class:`Cohere` would (the same per-agent maths,
    so the result equals their :class:`~steering.WeightedSum` with a :class:`~steering.Seek`),
    weighted and summed, limited to max force.

    The defaults are measured, not Nature of Code's (separation 25 px weighted 1.5, alignment
    and cohesion 50 px weighted 1): with those, 120 agents scattered over a 200 px square do
    turn as one, but cohesion and alignment outvote separation and agents end 7-10 px apart.
    Separation and alignment weighted 2 and cohesion 0.5, alignment and cohesion reaching 70 px,
    keep the same agents 16-25 px apart (separation 25) while their headings converge (mean
    heading length above 0.99 after 10 s). A stronger separation freezes the flock into a
    lattice that no longer turns as one; a wider cohesion pulls it into a ball.

    Attributes:
        separation: separation distance, px.
        alignment: alignment radius, px.
        cohesion: cohesion radius, px.
        separation_weight, alignment_weight, cohesion_weight: the weights of the three.
        target: None, or a point (or one point per agent) the flock seeks.
        seek_weight: the weight of the seek.
        fov: field of view in degrees, in (0, 360], for all three.
        gain: 1/s, as for the other behaviours.
        others: None (the group's own agents are the neighbours), or another group whose
            agents are, as for :class:`Separate`, :class:`Align` and :class:`Cohere` (an
            :class:`~steering.AgentGroup`, or an object with ``pos`` and ``vel`` arrays of shape
            (M, 2); see :mod:`steering.others`). The flock is then the weighted sum of those
            three with ``others`` (and its seek), each in its own loop, not in one pass, and its
            debug output is theirs (``separate.count``, ...), not ``flock.count``. ``others``
            set to the group itself is the default.
    """

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            separation: float = ...,
            alignment: float = ...,
            cohesion: float = ...,
            separation_weight: float = ...,
            alignment_weight: float = ...,
            cohesion_weight: float = ...,
            target: ArrayLike | None = ...,
            seek_weight: float = ...,
            fov: float = ...,
            gain: float = ...,
            others: Any = ...,
        ) -> None: ...

        @property
        def target(self) -> FloatArray | None: ...
        @target.setter
        def target(self, value: ArrayLike | None) -> None: ...

    separation: float = 25.0
    alignment: float = 70.0
    cohesion: float = 70.0
    separation_weight: float = 2.0
    alignment_weight: float = 2.0
    cohesion_weight: float = 0.5
    if not TYPE_CHECKING:
        target: ArrayLike | None = None
    seek_weight: float = 1.0
    fov: float = 360.0
    gain: float = DEFAULT_GAIN
    _cos: FovCache = field(default_factory=FovCache, init=False, repr=False, compare=False)
    others: Any = field(default=None, compare=False)
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    CHECKS = checks(
        "Flock",
        separation=non_negative,
        alignment=non_negative,
        cohesion=non_negative,
        separation_weight=non_negative,
        alignment_weight=non_negative,
        cohesion_weight=non_negative,
        target=optional_point_array,
        seek_weight=non_negative,
        fov=check_fov,
        gain=non_negative,
    )

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the (N, 2) flocking forces.

        Debug keys: ``flock.count`` (N, 3) neighbours counted by separation, alignment and
        cohesion.

        Raises:
            TypeError, ValueError: for a target that is not finite points of the right shape,
                or a ``dt`` that is not a finite number >= 0.
        """
        if not (type(dt) is float and 0.0 <= dt < _INF):  # time_step's own fast test, inline
            dt = time_step("Flock", dt)
        return self._run(agents, dt, debug, 0)

    def _run(self, agents: AgentGroup, dt: float, debug: Debug | None, move: int) -> FloatArray:
        """The forces; with ``move`` the same compiled call then integrates the agents under
        them (1; 2 also turns them to face their velocities), as :func:`~steering.step` does."""
        others = self.others
        if others is not None and others is not agents:
            # each part searches the others in its own loop; their sum limited to max force
            force = np.zeros((agents.n, 2))
            for part, weight in self._parts(others):
                force += weight * part(agents, dt, debug)
            force = truncate(force, agents.max_force)
            if move:
                integrate(agents, force, dt, face_velocity=move == 2)
            return force
        pos = agents.pos
        n = pos.shape[0]
        world = agents.world_size
        # Made again when a setting is assigned (Checked drops "_record") or the world changes.
        prepared = self.__dict__.get("_record")
        if prepared is None or prepared[0] != world:
            prepared = self.__dict__["_record"] = self._prepare(world)
        _, radii, weights, reach, cos_half, gain, brute = prepared
        target = _NO_TARGET if self.target is None else self._target(n)
        grid = brute if n <= BRUTE_MAX else agents.neighbour_grid(reach)
        counts = np.zeros((n, 3), dtype=np.int64) if debug is not None else _NO_COUNT_3
        out = np.empty((n, 2))
        loop = _flock_rows.parallel if n >= PARALLEL_MIN else _flock_rows.serial
        # AgentCols', FlockRecord's and FlockMove's fields in order, as plain tuples (see
        # _flock_rows).
        loop(
            (
                pos,
                agents.vel,
                agents.max_speed,
                agents.max_force,
                agents.radius,
                agents.mass,
                agents.heading,
            ),
            (radii, weights, cos_half, gain, target, grid.ints, grid.floats, counts),
            (move, dt, agents.max_turn_rate, agents.turns()),
            out,
        )
        if debug is not None:
            write(FlockDebug(counts.astype(np.intp)), debug)
        return out

    def _parts(self, others: Any) -> list[tuple[Any, float]]:
        """The three rules searching ``others`` (and the seek), each with its weight, made
        again when a setting, the target or the others changed."""
        key = (
            self.separation,
            self.alignment,
            self.cohesion,
            self.separation_weight,
            self.alignment_weight,
            self.cohesion_weight,
            self.seek_weight,
            self.fov,
            self.gain,
        )
        kept = self._memo.get("others")
        if kept is not None and kept[0] == key and kept[1] is others and kept[2] is self.target:
            return kept[3]
        fov, gain = self.fov, self.gain
        parts: list[tuple[Any, float]] = [
            (Separate(self.separation, gain, fov=fov, others=others), key[3]),
            (Align(self.alignment, gain, fov=fov, others=others), key[4]),
            (Cohere(self.cohesion, gain, fov=fov, others=others), key[5]),
        ]
        if self.target is not None:
            parts.append((Seek(self.target, gain), self.seek_weight))
        self._memo["others"] = (key, others, self.target, parts)
        return parts

    def _target(self, n: int) -> FloatArray:
        """The target as (1, 2) or (N, 2) points. A frozen array (a tuple or a list assigned)
        cannot change, so what is made of it is kept between calls (while the agent count fits
        it); anything else is checked every call."""
        t = self.target
        if t is None:
            return _NO_TARGET
        memo = self._memo
        kept = memo.get("target")
        if kept is not None and kept[0] is t and kept[1].shape[0] in (1, n):
            return kept[1]
        arr = points("Flock.target", t, n)
        if type(t) is tuple or frozen(t):
            memo["target"] = (t, arr)
        return arr

    def _prepare(self, world: tuple[float, float] | None) -> tuple[Any, ...]:
        """What the kernel reads of the settings and ``world`` (rebuilt only when they change):
        the radii (a part weighted 0 gets radius 0, so it finds no neighbours and costs
        nothing), the weights, the query reach, the fov's cosine, the gain and the no-grid
        marker of the world."""
        ws, wa, wc = self.separation_weight, self.alignment_weight, self.cohesion_weight
        radii = np.array(
            [
                self.separation if ws > 0.0 else 0.0,
                self.alignment if wa > 0.0 else 0.0,
                self.cohesion if wc > 0.0 else 0.0,
            ]
        )
        weights = np.array([ws, wa, wc, self.seek_weight])
        cos_half = self._cos.of("Flock.fov", self.fov)
        reach = float(radii.max())
        return world, radii, weights, reach, cos_half, self.gain, brute_grid(world)


_NO_COUNT_3 = np.zeros((0, 3), dtype=np.int64)
