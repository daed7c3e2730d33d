"""The modes' goals, compiled: the part of the steer system that is a formula per agent.

:func:`mode_goals` is one pass over the state's columns giving each agent's goal force for
the modes whose behaviour is a formula on the agent and one target (``pursue``, ``return``, a
leashed ``wander``, ``flee``, ``idle``, ``guard``, ``form``), calling the engine's per-agent
maths (:mod:`steering.kernels`), the same functions the behaviours run, and what else each
agent needs (``NEED_*`` bits: path following, the current, hiding, wander, queueing, agent
avoidance). The small loops beside it add a behaviour's force to the rows that need it, cap
the goals and run Buckland's sum on chosen rows. Both ways of running the steer system
(:mod:`game.world.steer` behaviour by behaviour, :mod:`game.world.fused` in two compiled
calls) use them.
"""

from __future__ import annotations

import operator
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from steering import Arrive, Flee, Hide, Interpose, OffsetPursuit, Pursue, Seek
from steering.kernels import (
    arrive,
    flee,
    hypot,
    interpose,
    njit,
    offset_pursuit,
    pursue,
    running_add,
    set_length,
    truncate,
    use_cache,
)
from steering.kernels import steer as seek_force
from steering.vec import FloatArray

from .brains import Mode
from .spawn import ENEMY, NPC

if TYPE_CHECKING:
    from .world import World

__all__ = [
    "FLEE",
    "FLOW",
    "FOLLOW",
    "FORM",
    "GOAL_PARAMS",
    "GUARD",
    "HIDE",
    "IDLE",
    "NEED_AVOID",
    "NEED_FLOW",
    "NEED_HIDE",
    "NEED_PATH",
    "NEED_QUEUE",
    "NEED_WANDER",
    "PATROL",
    "PURSUE",
    "RETURN",
    "WANDER",
    "accumulate_bits",
    "add_rows",
    "cap_rows",
    "goal_first_rows",
    "goal_inputs",
    "hider",
    "mode_goals",
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

#: What an agent's goal needs beyond the compiled pass (bits of ``mode_goals``' result).
NEED_PATH, NEED_FLOW, NEED_HIDE, NEED_WANDER, NEED_QUEUE, NEED_AVOID = 1, 2, 4, 8, 16, 32

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


def goal_inputs(world: World) -> tuple[Any, ...]:
    """The state's columns :func:`mode_goals` reads after its rows, in its order (``mode``
    to ``reverse``): one list for both ways of running the steer system."""
    a = world.agents
    state = world.state
    roster = world.roster
    return (
        state.mode,
        world.roster.kind,
        a.pos,
        a.vel,
        a.heading,
        a.max_speed,
        a.max_force,
        state.target,
        state.sees,
        roster.post,
        roster.wander,
        roster.queue,
        roster.avoid,
        roster.leader,
        roster.slot,
        world.state.pace,
        world.roster.path,
        state.reverse,
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


@njit
def goal_first_rows(mode: NDArray[np.int8], leads: BoolArray, out: BoolArray) -> None:
    for i in range(out.shape[0]):
        out[i] = mode[i + 1] == PATROL and not leads[i + 1]


@njit
def add_rows(goals: FloatArray, force: FloatArray, bits: NDArray[np.int8], bit: int) -> None:
    """``goals += force`` on the rows whose ``bits`` hold ``bit``."""
    for i in range(goals.shape[0]):
        if bits[i] & bit:
            goals[i, 0] += force[i, 0]
            goals[i, 1] += force[i, 1]


@njit
def cap_rows(goals: FloatArray, max_force: FloatArray) -> None:
    """Each row of ``goals`` shortened to its max force, in place."""
    for i in range(goals.shape[0]):
        goals[i, 0], goals[i, 1] = truncate(goals[i, 0], goals[i, 1], max_force[i])


@njit
def accumulate_bits(
    total: FloatArray,
    force: FloatArray,
    bits: NDArray[np.int8],
    bit: int,
    weight: float,
    max_force: FloatArray,
) -> None:
    """Buckland's running sum of ``force * weight`` into ``total`` on the rows whose
    ``bits`` hold ``bit``."""
    for i in range(total.shape[0]):
        if bits[i] & bit:
            total[i, 0], total[i, 1] = running_add(
                total[i, 0], total[i, 1], force[i, 0] * weight, force[i, 1] * weight, max_force[i]
            )


@njit
def mode_goals(
    rows: IntArray,
    mode: NDArray[np.int8],
    kind: NDArray[np.int8],
    pos: FloatArray,
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    target: FloatArray,
    seen: NDArray[np.bool_],
    post: FloatArray,
    wander: NDArray[np.bool_],
    queue: NDArray[np.bool_],
    avoid: NDArray[np.bool_],
    leader: IntArray,
    slot: FloatArray,
    pace: FloatArray,
    path_index: IntArray,
    reverse: NDArray[np.bool_],
    current: FloatArray,
    in_current: NDArray[np.bool_],
    drag: float,
    player_x: float,
    player_y: float,
    player_vx: float,
    player_vy: float,
    exit_x: float,
    exit_y: float,
    leash: float,
    flee_distance: float,
    ratio: float,
    extra_wander: float,
    params: FloatArray,
    goals: FloatArray,
    aim: FloatArray,
    weight: FloatArray,
    bits: NDArray[np.int8],
    speed: FloatArray,
    path_col: FloatArray,
    direction_col: FloatArray,
) -> int:
    """Each agent's goal force for the modes that are a formula (zero for the others), where
    it aims, and what else it needs (``bits``, and all of them or-ed together returned:
    ``NEED_*``). Agent row ``r = rows[i] + 1``."""
    need = 0
    for i in range(rows.shape[0]):
        r = rows[i] + 1
        m = mode[r]
        px, py, vx, vy = pos[r, 0], pos[r, 1], vel[r, 0], vel[r, 1]
        ms, mf = max_speed[r], max_force[r]
        fx = fy = 0.0
        ax, ay = np.nan, np.nan
        w = 0.0
        path = m in (PATROL, FOLLOW)
        b = 0
        path_col[i] = path_index[r] if path else -1.0
        direction_col[i] = -1.0 if reverse[r] else 1.0
        speed[i] = ms * pace[r] if m == PATROL else ms
        if path:
            b |= NEED_PATH
            if m == PATROL and drag > 0.0 and in_current[r]:
                # Patrols steer for their velocity over the ground: their goal also cancels
                # the current's drag, so a current does not carry a guard off its route
                # (issue 15: the Sandbox's ring patroller was carried 630 px off it).
                fx = (vx - current[r, 0]) * drag
                fy = (vy - current[r, 1]) * drag
        elif m == PURSUE:
            if seen[r]:
                fx, fy, ax, ay = pursue(
                    px,
                    py,
                    vx,
                    vy,
                    target[r, 0],
                    target[r, 1],
                    player_vx,
                    player_vy,
                    ms,
                    mf,
                    params[0],
                    params[1],
                )
            else:
                ax, ay = target[r, 0], target[r, 1]
                fx, fy = arrive(px, py, vx, vy, ax, ay, ms, mf, params[2], params[3], params[4])
        elif m == RETURN:
            ax, ay = target[r, 0], target[r, 1]
            dx, dy = set_length(ax - px, ay - py, ms)
            fx, fy = seek_force(dx, dy, vx, vy, params[8], mf)
        elif m == WANDER:
            leashed = kind[r] == ENEMY and path_index[r] < 0
            if leashed and hypot(px - post[r, 0], py - post[r, 1]) > leash:
                ax, ay = post[r, 0], post[r, 1]
                dx, dy = set_length(ax - px, ay - py, ms)
                fx, fy = seek_force(dx, dy, vx, vy, params[8], mf)
            else:
                w = 1.0
        elif m == FLOW:
            b |= NEED_FLOW
        elif m == FLEE:
            fx, fy = flee(
                px,
                py,
                vx,
                vy,
                heading[r, 0],
                heading[r, 1],
                player_x,
                player_y,
                ms,
                mf,
                flee_distance,
                params[9],
            )
        elif m == IDLE:
            ax, ay = px, py
            fx, fy = arrive(px, py, vx, vy, px, py, ms, mf, params[5], params[6], params[7])
        elif m == GUARD:
            fx, fy, ax, ay = interpose(
                px,
                py,
                vx,
                vy,
                (player_x, player_y, player_vx, player_vy),
                (exit_x, exit_y, 0.0, 0.0),
                ratio,
                ms,
                mf,
                params[10],
                params[11],
            )
        elif m == FORM:
            lead = max(leader[r], 0)  # row 0 stands in for "no leader"
            fx, fy, ax, ay = offset_pursuit(
                px,
                py,
                vx,
                vy,
                pos[lead, 0],
                pos[lead, 1],
                vel[lead, 0],
                vel[lead, 1],
                heading[lead, 0],
                heading[lead, 1],
                slot[r, 0],
                slot[r, 1],
                ms,
                mf,
                params[12],
                params[13],
            )
        elif m == HIDE:
            b |= NEED_HIDE
        if w == 0.0 and wander[r] and kind[r] == NPC and (path or m == FLOW):
            w = extra_wander
        if w > 0.0:
            b |= NEED_WANDER
        if queue[r] and (path or m == FLOW):
            b |= NEED_QUEUE
        if avoid[r]:
            b |= NEED_AVOID
        bits[i] = b
        need |= b
        weight[i] = w
        goals[i, 0] = fx
        goals[i, 1] = fy
        aim[i, 0] = ax
        aim[i, 1] = ay
    return need
