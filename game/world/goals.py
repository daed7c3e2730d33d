"""The modes' goals, compiled: the part of the crowd's steering that is a formula per agent.

:class:`ModeGoals` is a row part of the crowd's composite (:mod:`game.world.steer`): each
crowd agent's goal force for the modes whose behaviour is a formula on the agent and one
target (``pursue``, ``return``, a leashed ``wander``, ``flee``, ``idle``, ``guard``,
``form``), from the engine's per-agent maths (:mod:`steering.kernels`), the same functions the
behaviours run, its inputs a typed record (:class:`GoalRecord`). :func:`crowd_needs` is the
small pass before the composite's loop: what else each agent runs beside it (path following,
the current, hiding, wander, queueing, agent avoidance: the masks of those parts), the wander's
weight and the patrol pace, and whether the agent puts its goal before separation.
"""

from __future__ import annotations

import operator
import weakref
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from steering import (
    AgentGroup,
    Arrive,
    Debug,
    Flee,
    Hide,
    Interpose,
    OffsetPursuit,
    Pursue,
    Seek,
)
from steering.composite import AgentCols, RowPart, row_function, scatter_debug
from steering.debug import ArriveDebug, InterposeDebug, OffsetDebug, PursueDebug, SeekDebug
from steering.debug import keys as debug_keys
from steering.kernels import (
    arrive,
    flee,
    hypot,
    interpose,
    njit,
    offset_pursuit,
    pursue,
    set_length,
    use_cache,
)
from steering.kernels import steer as seek_force
from steering.vec import FloatArray

from .brains import Mode
from .spawn import ENEMY, NPC

if TYPE_CHECKING:
    from .world import World

__all__ = [
    "ALL_GOAL_FIRST",
    "FLEE",
    "FLOW",
    "FOLLOW",
    "FORM",
    "GOAL_FIRST",
    "GOAL_PARAMS",
    "GUARD",
    "HIDE",
    "IDLE",
    "NEEDS_AVOID",
    "NEEDS_FLOW",
    "NEEDS_HIDE",
    "NEEDS_PATH",
    "NEEDS_QUEUE",
    "NEEDS_WANDER",
    "PACE",
    "PATROL",
    "PURSUE",
    "RETURN",
    "SEPARATION_FIRST",
    "WANDER",
    "WANDER_WEIGHT",
    "GoalRecord",
    "ModeGoals",
    "crowd_needs",
    "hider",
]

use_cache(__file__)

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

PATROL = int(Mode.PATROL)
PURSUE = int(Mode.PURSUE)
RETURN = int(Mode.RETURN)
WANDER = int(Mode.WANDER)
FLEE = int(Mode.FLEE)
FLOW = int(Mode.FLOW)
FOLLOW = int(Mode.FOLLOW)
IDLE = int(Mode.IDLE)
GUARD = int(Mode.GUARD)
FORM = int(Mode.FORM)
HIDE = int(Mode.HIDE)

# The behaviours' own defaults, read from them (one source for both ways of running them).
_PURSUE = Pursue((0.0, 0.0))
_LOST = Arrive((0.0, 0.0), slowing_radius=60.0)  # heading for the last sighting
_REST = Arrive((0.0, 0.0))  # idle: come to rest where it is
_SEEK = Seek((0.0, 0.0))
_FLEE = Flee((0.0, 0.0))
_GUARD = Interpose((0.0, 0.0), (0.0, 0.0))
_FORM = OffsetPursuit((0.0, 0.0), (0.0, 0.0), (1.0, 0.0), (0.0, 0.0))
GOAL_PARAMS = np.array(
    [
        _PURSUE.max_prediction,
        _PURSUE.gain,
        _LOST.slowing_radius,
        _LOST.gain,
        _LOST.brake_fraction,
        _REST.slowing_radius,
        _REST.gain,
        _REST.brake_fraction,
        _SEEK.gain,
        _FLEE.gain,
        _GUARD.gain,
        _GUARD.slowing_radius,
        _FORM.gain,
        _FORM.slowing_radius,
    ]
)


def hider(world: World, rows: IntArray | slice) -> Hide:
    """The hiding behaviour of crowd ``rows`` (agent rows ``rows + 1``): from each one's
    threat (:attr:`AgentState.threat`) behind the rocks. For the whole crowd (a slice) it is
    one behaviour per world, over views of the state's threat columns (Hide keeps nothing
    between calls), made again when the rocks, the columns or the tuning are replaced."""
    state = world.state
    obstacles = world.brain.avoid.obstacles
    distance = world.options.tuning.hider.hide_distance
    if isinstance(rows, np.ndarray):
        at = rows + 1
        return Hide(
            state.threat[at], obstacles, state.threat_vel[at], distance_from_boundary=distance
        )
    key = (obstacles, state.threat, state.threat_vel, distance)
    held = _HIDERS.get(world)
    if held is None or not all(map(operator.is_, held[0], key)):
        hide = Hide(
            state.threat[1:], obstacles, state.threat_vel[1:], distance_from_boundary=distance
        )
        held = _HIDERS[world] = (key, hide)
    return held[1]


#: Each world's whole-crowd hiding behaviour and the objects it was made from.
_HIDERS: weakref.WeakKeyDictionary[World, tuple[tuple[Any, ...], Hide]] = (
    weakref.WeakKeyDictionary()
)


class GoalRecord(NamedTuple):
    """The modes' goals' inputs for one step (:class:`ModeGoals`): crowd columns (one row per
    non-player agent, views of the world's), the whole world's agents (row 0 the player) and
    the tuning's numbers."""

    mode: NDArray[np.int8]
    kind: NDArray[np.int8]
    target: FloatArray
    """(M, 2) where each pursues, heads or returns to (the think system's)."""
    sees: BoolArray
    post: FloatArray
    path: IntArray
    """(M,) each agent's path slot in the roster (-1: none)."""
    in_current: BoolArray
    current: FloatArray
    leader: IntArray
    """(M,) each formation follower's leader (an agent row; row 0 stands in for none)."""
    slot: FloatArray
    everyone_pos: FloatArray
    everyone_vel: FloatArray
    everyone_heading: FloatArray
    exit: FloatArray
    """(2,) the centre of the exit nearest the player (written each step)."""
    drag: float
    """The currents' drag rate (1/s) patrols cancel."""
    leash: float
    flee_distance: float
    ratio: float
    """The sentinels' place between the player and the exit."""
    params: FloatArray
    """:data:`GOAL_PARAMS`."""
    aim: FloatArray
    """(M, 2) where each goal aims when debug output is asked (NaN: nowhere), else (0, 2)."""


@njit
def leashed_away(
    kind: int, path: int, px: float, py: float, post_x: float, post_y: float, leash: float
) -> bool:
    """Whether a wandering agent is pulled back to its post: an enemy without a path beyond
    its leash."""
    return kind == ENEMY and path < 0 and hypot(px - post_x, py - post_y) > leash


@row_function
def goal_row(i: int, a: AgentCols, p: GoalRecord, buf: FloatArray) -> tuple[float, float]:
    """Crowd agent ``i``'s goal force for the modes that are a formula on it and one target
    (zero for the others, whose behaviours run beside it), from the engine's per-agent
    maths."""
    m = p.mode[i]
    px, py, vx, vy = a.pos[i, 0], a.pos[i, 1], a.vel[i, 0], a.vel[i, 1]
    ms, mf = a.max_speed[i], a.max_force[i]
    q = p.params
    fx = fy = 0.0
    ax = ay = np.nan
    if m == PATROL:
        if p.drag > 0.0 and p.in_current[i]:
            # Patrols steer for their velocity over the ground: their goal also cancels the
            # current's drag, so a current does not carry a guard off its route (issue 15).
            fx = (vx - p.current[i, 0]) * p.drag
            fy = (vy - p.current[i, 1]) * p.drag
    elif m == PURSUE:
        tx, ty = p.target[i, 0], p.target[i, 1]
        if p.sees[i]:
            pvx, pvy = p.everyone_vel[0, 0], p.everyone_vel[0, 1]
            fx, fy, ax, ay = pursue(px, py, vx, vy, tx, ty, pvx, pvy, ms, mf, q[0], q[1])
        else:
            ax, ay = tx, ty
            fx, fy = arrive(px, py, vx, vy, tx, ty, ms, mf, q[2], q[3], q[4])
    elif m == RETURN:
        ax, ay = p.target[i, 0], p.target[i, 1]
        dx, dy = set_length(ax - px, ay - py, ms)
        fx, fy = seek_force(dx, dy, vx, vy, q[8], mf)
    elif m == WANDER:
        post_x, post_y = p.post[i, 0], p.post[i, 1]
        if leashed_away(p.kind[i], p.path[i], px, py, post_x, post_y, p.leash):
            ax, ay = post_x, post_y
            dx, dy = set_length(ax - px, ay - py, ms)
            fx, fy = seek_force(dx, dy, vx, vy, q[8], mf)
    elif m == FLEE:
        hx, hy = a.heading[i, 0], a.heading[i, 1]
        player_x, player_y = p.everyone_pos[0, 0], p.everyone_pos[0, 1]
        fx, fy = flee(px, py, vx, vy, hx, hy, player_x, player_y, ms, mf, p.flee_distance, q[9])
    elif m == IDLE:
        ax, ay = px, py
        fx, fy = arrive(px, py, vx, vy, px, py, ms, mf, q[5], q[6], q[7])
    elif m == GUARD:
        fx, fy, ax, ay = _guard(i, a, p)
    elif m == FORM:
        fx, fy, ax, ay = _form(i, a, p)
    if p.aim.shape[0] > 0:
        p.aim[i, 0] = ax
        p.aim[i, 1] = ay
    return fx, fy


@row_function
def _guard(i: int, a: AgentCols, p: GoalRecord) -> tuple[float, float, float, float]:
    """A sentinel's interposition between the player and the exit nearest it."""
    pos, vel = p.everyone_pos, p.everyone_vel
    return interpose(
        a.pos[i, 0], a.pos[i, 1], a.vel[i, 0], a.vel[i, 1],
        (pos[0, 0], pos[0, 1], vel[0, 0], vel[0, 1]), (p.exit[0], p.exit[1], 0.0, 0.0),
        p.ratio, a.max_speed[i], a.max_force[i], p.params[10], p.params[11],
    )  # fmt: skip


@row_function
def _form(i: int, a: AgentCols, p: GoalRecord) -> tuple[float, float, float, float]:
    """A formation follower's pursuit of its slot beside its leader."""
    lead = max(p.leader[i], 0)  # row 0 stands in for "no leader"
    pos, vel, heading = p.everyone_pos, p.everyone_vel, p.everyone_heading
    return offset_pursuit(
        a.pos[i, 0], a.pos[i, 1], a.vel[i, 0], a.vel[i, 1],
        pos[lead, 0], pos[lead, 1], vel[lead, 0], vel[lead, 1],
        heading[lead, 0], heading[lead, 1], p.slot[i, 0], p.slot[i, 1],
        a.max_speed[i], a.max_force[i], p.params[12], p.params[13],
    )  # fmt: skip


#: Rows of :func:`crowd_needs`' boolean output: which agents run each goal behaviour beside
#: :class:`ModeGoals`, which put separation before their goal and which after.
(
    NEEDS_PATH,
    NEEDS_FLOW,
    NEEDS_HIDE,
    NEEDS_WANDER,
    NEEDS_QUEUE,
    NEEDS_AVOID,
    SEPARATION_FIRST,
    GOAL_FIRST,
) = range(8)
#: The bit of :func:`crowd_needs`' result set when every crowd agent puts its goal first.
ALL_GOAL_FIRST = 8
#: Rows of :func:`crowd_needs`' float output: the wander's weight and the path-following pace.
WANDER_WEIGHT, PACE = 0, 1


@njit
def crowd_needs(
    mode: NDArray[np.int8],
    kind: NDArray[np.int8],
    path_index: IntArray,
    reverse: BoolArray,
    flags: NDArray[np.bool_],
    leads: BoolArray,
    pace: FloatArray,
    pos: FloatArray,
    post: FloatArray,
    max_speed: FloatArray,
    leash: float,
    extra_wander: float,
    needs: NDArray[np.bool_],
    weights: FloatArray,
    path_col: FloatArray,
    direction_col: FloatArray,
) -> int:
    """What each crowd agent runs this step beside its mode's formula goal, from the agents'
    columns (agent row ``r = i + 1``; ``flags`` the roster's wander, queue and avoid rows):
    ``needs`` (8, M) by the ``NEEDS_*`` rows, ``weights`` (2, M) the wander's weight and the
    path pace (max speed), and path following's per-agent path and direction columns.
    Returns which rows of ``needs`` hold any agent (bit ``k`` for row ``k``), and bit
    :data:`ALL_GOAL_FIRST` when every agent (at least one) puts its goal first."""
    some = 0
    every = needs.shape[1] > 0
    for i in range(needs.shape[1]):
        r = i + 1
        m = mode[r]
        path = m in (PATROL, FOLLOW)
        w = 0.0
        if m == WANDER and not leashed_away(
            kind[r], path_index[r], pos[r, 0], pos[r, 1], post[r, 0], post[r, 1], leash
        ):
            w = 1.0
        elif (path or m == FLOW) and flags[0, r] and kind[r] == NPC:
            w = extra_wander
        needs[NEEDS_PATH, i] = path
        needs[NEEDS_FLOW, i] = m == FLOW
        needs[NEEDS_HIDE, i] = m == HIDE
        needs[NEEDS_WANDER, i] = w > 0.0
        needs[NEEDS_QUEUE, i] = flags[1, r] and (path or m == FLOW)
        needs[NEEDS_AVOID, i] = flags[2, r]
        first = m == PATROL and not leads[r]  # see game.world.brains.combine
        needs[SEPARATION_FIRST, i] = not first
        needs[GOAL_FIRST, i] = first
        weights[WANDER_WEIGHT, i] = w
        weights[PACE, i] = max_speed[r] * pace[r] if m == PATROL else max_speed[r]
        path_col[i] = path_index[r] if path else -1.0
        direction_col[i] = -1.0 if reverse[r] else 1.0
        for k in range(8):
            if needs[k, i]:
                some |= 1 << k
        every = every and first
    return some | (1 << ALL_GOAL_FIRST if every else 0)


class ModeGoals(RowPart):
    """The goal of every crowd agent whose mode is a formula on it and one target (pursue,
    return, a leashed wander, flee, idle, guard, form), compiled into the crowd's composite;
    zero for the others (path following, currents, hiding and wander run beside it). Reads
    the world's columns each step (:class:`GoalRecord`)."""

    ROW = goal_row
    ROW_RECORD = GoalRecord

    def __init__(self, world: World) -> None:
        self.world = world
        self._stored: tuple[tuple[Any, ...], GoalRecord] | None = None

    def _key(self, debug: bool) -> tuple[Any, ...]:
        """The objects a record is made from (the crowd's columns are views of them)."""
        world = self.world
        state, phys = world.state, world.physics
        return (
            state,
            world.roster,
            world.agents.pos,
            state.mode,
            state.target,
            phys.current,
            phys.in_current,
            world.exits.nearest,
            world.brain,
            world.options.tuning,
            debug or None,  # a new debug buffer each step it is asked
        )

    def kept(self, agents: AgentGroup, record: GoalRecord) -> bool:
        """The record holds while the objects it was made from are the same."""
        held = self._stored
        return (
            held is not None
            and record is held[1]
            and all(map(operator.is_, self._key(False), held[0]))
        )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> GoalRecord:
        """This step's record: made again when the world's arrays, its brain or its tuning are
        replaced (the crowd's columns are views), else the last one (the exit nearest the
        player is read in place: the think system writes it)."""
        key = self._key(debug)
        held = self._stored
        if held is not None and all(map(operator.is_, key, held[0])):
            return held[1]
        world = self.world
        state, roster, a, phys = world.state, world.roster, world.agents, world.physics
        n = roster.n
        t = world.options.tuning
        record = GoalRecord(
            state.mode[1:n],
            roster.kind[1:n],
            state.target[1:n],
            state.sees[1:n],
            roster.post[1:n],
            roster.path[1:n],
            phys.in_current[1:n],
            phys.current[1:n],
            roster.leader[1:n],
            roster.slot[1:n],
            a.pos,
            a.vel,
            a.heading,
            world.exits.nearest,
            float(world.brain.drag),
            float(t.patrol.leash),
            float(world.brain.flee_distance),
            float(t.sentinel.ratio),
            GOAL_PARAMS,
            np.full((agents.n, 2), np.nan) if debug else _NO_AIM,
        )
        if not debug:
            self._stored = (key, record)
        return record

    def report(self, agents: AgentGroup, record: GoalRecord, debug: Debug) -> None:
        """Where the goals aim, under the keys their behaviours use (a wandering agent has an
        aim only when its leash pulls it back to its post)."""
        aim = record.aim
        aiming = ~np.isnan(aim[:, 0])
        for key, codes, seeing in _AIM_KEYS:
            rows = np.isin(record.mode, codes) & aiming
            if PURSUE in codes:
                rows &= (record.mode != PURSUE) | (record.sees == seeing)
            idx = np.flatnonzero(rows)
            if idx.size:
                debug[key] = scatter_debug(debug.get(key), aim[idx], idx, agents.n)


_NO_AIM = np.zeros((0, 2))

#: Where an agent's goal aims, by what it does, in the debug dict (the behaviours' own keys):
#: pursuing a player it sees, heading for the last sighting (an arrival), returning or
#: pulled back to its post (a seek), coming to rest, guarding, holding a slot.
_AIM_KEYS = (
    (debug_keys(PursueDebug)[0], (PURSUE,), True),
    (debug_keys(ArriveDebug)[0], (PURSUE, IDLE), False),
    (debug_keys(SeekDebug)[0], (RETURN, WANDER), False),
    (debug_keys(InterposeDebug)[0], (GUARD,), False),
    (debug_keys(OffsetDebug)[0], (FORM,), False),
)
