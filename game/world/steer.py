"""The steer system: every body's acceleration, above all the crowd's steering from its modes.

:func:`steer` is the system's entry point: the crowd's steering (``_crowd_forces``), then
every body's acceleration (:func:`~game.world.motion.accelerations`: the crowd's steering, the
player's thrust, the rocks' friction on the ground and the currents' drag) into
``world.physics.acc``. In play it runs fused, in two compiled calls
(:mod:`game.world.fused`); with debug output or a stagger it runs the behaviours one by one
as below, to the same floats.

The force is Buckland's prioritised running sum (see :class:`~game.world.brains.CrowdBrain`):
the urgent part (containment, walls, rocks, then queueing and agent avoidance), separation,
and the goal of the agent's mode. The goal of the modes whose behaviour is a formula on the
agent and one target (``pursue``, ``return``, a leashed ``wander``, ``flee``, ``idle``,
``guard``, ``form``) comes from one compiled pass over the state's columns
(:func:`~game.world.goals.mode_goals`) calling the engine's per-agent maths
(:mod:`steering.kernels`), the same functions the behaviours run. The behaviours with memory
or a world to search (path following, currents, hiding, wander) are called once each over the
crowd, and only when some agent needs them; each agent's column says whose force it is.

``_crowd_forces`` reads ``world.state``, ``world.minds``, ``world.roster``, the currents
at the bodies (``world.physics.current``) and the brain's behaviours, and writes
``world.state.steer`` (and, when staggered, ``urgent`` and ``goals``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from steering import AgentGroup, Debug
from steering.combine import scatter_debug
from steering.debug import ArriveDebug, InterposeDebug, OffsetDebug, PursueDebug, SeekDebug
from steering.debug import keys as debug_keys
from steering.vec import FloatArray, put_rows

from .brains import combine
from .fused import steer_fused
from .goals import (
    FORM,
    GOAL_PARAMS,
    GUARD,
    IDLE,
    NEED_AVOID,
    NEED_FLOW,
    NEED_HIDE,
    NEED_PATH,
    NEED_QUEUE,
    NEED_WANDER,
    PURSUE,
    RETURN,
    WANDER,
    accumulate_bits,
    add_rows,
    cap_rows,
    goal_first_rows,
    goal_inputs,
    hider,
    mode_goals,
)
from .motion import ROCK_FRICTION, ROCK_GRIP, accelerations

if TYPE_CHECKING:
    from .world import World

__all__ = ["steer"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

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


def steer(world: World, dt: float) -> None:
    """Run the steer system on ``world`` (see the module's docstring)."""
    if steer_fused(world, dt):
        return
    forces = _crowd_forces(world, dt)
    phys = world.physics
    a = world.agents
    thrust = world.player.thrust
    accelerations(
        phys.acc,
        phys.vel,
        forces,
        phys.current,
        phys.in_current,
        world.roster.n,
        float(thrust[0]),
        float(thrust[1]),
        float(a.max_speed[0]),
        float(a.max_force[0]),
        world.options.tuning.crowd.player_gain,
        ROCK_FRICTION,
        world.currents.drag,
        ROCK_GRIP,
    )


def _crowd_forces(world: World, dt: float) -> FloatArray:
    """The crowd's steering accelerations (``world.state.steer``): all of it, or this step's
    staggered group (whose parts are held in ``state.urgent`` and ``state.goals``)."""
    state = world.state
    if not world.steering.enabled:
        state.steer[:] = 0.0
        return state.steer
    debug: Debug | None = {} if world.steering.debug_enabled else None
    crowd = world.crowd
    k = world.options.stagger
    n = world.roster.n - 1
    first = _goal_first(world)
    if k == 1:
        crow = np.arange(n)
        urgent, goals = _parts(world, crowd, crow, dt, debug)
        sep = world.separate(crowd, dt, debug)
        state.steer[:] = combine(crowd, urgent, sep, goals, world.options.tuning, first)
    else:
        # Goals, avoidance and containment are held between updates; separation, whose
        # neighbours change fastest, is fresh every step (its neighbour query costs about
        # as much for a quarter of the crowd as for all of it).
        crow = np.arange(world.frame % k, n, k)
        if crow.size:
            sub = crowd.take(crow)
            urgent, goals = _parts(world, sub, crow, k * dt, debug)
            put_rows(state.urgent, crow, urgent)
            put_rows(state.goals, crow, goals)
            crowd.put_state(crow, sub)
        sep = world.separate(crowd, dt, debug)
        state.steer[:] = combine(crowd, state.urgent, sep, state.goals, world.options.tuning, first)
    if debug is not None:
        world.steering.debug_rows = crow + 1
        world.steering.debug = debug
    return state.steer


def _goal_first(world: World) -> BoolArray:
    """(n,) crowd agents that put their goal before separation: patrols that lead no
    formation (see :func:`~game.world.brains.combine`)."""
    out = np.empty(world.roster.n - 1, dtype=np.bool_)
    goal_first_rows(world.state.mode, world.state.leads, out)
    return out


def _parts(
    world: World, group: AgentGroup, rows: IntArray, dt: float, debug: Debug | None
) -> tuple[FloatArray, FloatArray]:
    """The urgent part and the goals of crowd ``rows`` (``group`` holds those agents)."""
    brain = world.brain
    t = world.options.tuning
    state = world.state
    m = rows.size
    goals = np.empty((m, 2))
    aim = np.empty((m, 2))
    weight = np.empty(m)  # the wander's weight
    bits = np.empty(m, dtype=np.int8)  # what else each agent needs (NEED_* bits)
    # The patrol pace is written in place into the array the pace behaviour holds, so that
    # its limited view of the group is made once, not every step.
    held = brain.pace.max_speed
    pace = held if isinstance(held, np.ndarray) and held.shape == (m,) else np.empty(m)
    path_col, direction_col, _, _ = brain.follow.param(group)
    a = world.agents  # the player is row 0
    player, player_vel, exit_pos = a.pos[0], a.vel[0], world.exits.nearest
    need = mode_goals(
        rows,
        *goal_inputs(world),
        world.current_at_agents,
        world.in_current,
        brain.drag,
        float(player[0]),
        float(player[1]),
        float(player_vel[0]),
        float(player_vel[1]),
        float(exit_pos[0]),
        float(exit_pos[1]),
        t.patrol.leash,
        brain.flee_distance,
        t.sentinel.ratio,
        t.fish.extra_wander_weight,
        GOAL_PARAMS,
        goals,
        aim,
        weight,
        bits,
        pace,
        path_col,
        direction_col,
    )
    if debug is not None:
        _aim_debug(debug, state.mode[rows + 1], state.sees[rows + 1], aim)
    if need & NEED_PATH:
        brain.pace.max_speed = pace
        add_rows(goals, _run(brain.pace, group, dt, debug, bits, NEED_PATH), bits, NEED_PATH)
    if need & NEED_FLOW:
        add_rows(goals, _run(brain.flow, group, dt, debug, bits, NEED_FLOW), bits, NEED_FLOW)
    if need & NEED_HIDE:
        hiding = hider(world, rows)
        add_rows(goals, _run(hiding, group, dt, debug, bits, NEED_HIDE), bits, NEED_HIDE)
    if need & NEED_WANDER:
        # One wander call for every agent that wanders at all (its angle advances once per
        # update): full weight as the goal, a little on top of a path or the current.
        force = _run(brain.wander, group, dt, debug, bits, NEED_WANDER)
        add_rows(goals, force * weight[:, None], bits, NEED_WANDER)
    cap_rows(goals, group.max_force)
    urgent = brain.urgent(group, dt, debug)
    # Queueing and sidestepping rank after the urgent part and before separation and goal:
    # a blocked fish brakes before its goal pushes it on (see Queue).
    for bit, behaviour, w in (
        (NEED_QUEUE, brain.queue, t.fish.queue_weight),
        (NEED_AVOID, brain.avoid_agents, t.fish.avoid_weight),
    ):
        if need & bit:
            force = _run(behaviour, group, dt, debug, bits, bit)
            accumulate_bits(urgent, force, bits, bit, float(w), group.max_force)
    return urgent, goals


def _run(
    behaviour: object,
    group: AgentGroup,
    dt: float,
    debug: Debug | None,
    bits: NDArray[np.int8],
    bit: int,
) -> FloatArray:
    """``behaviour``'s forces over ``group``; its debug rows only for the agents whose
    ``bits`` hold ``bit`` (as a masked behaviour gives them)."""
    if debug is None:
        return behaviour(group, dt, None)  # type: ignore[operator]
    sub: Debug = {}
    force = behaviour(group, dt, sub)  # type: ignore[operator]
    idx = np.flatnonzero(bits & bit)
    for key, arr in sub.items():
        per_agent = arr.ndim > 0 and arr.shape[0] == group.n
        debug[key] = scatter_debug(debug.get(key), arr[idx], idx, group.n) if per_agent else arr
    return np.asarray(force)


def _aim_debug(
    debug: Debug, mode: NDArray[np.int8], sees: NDArray[np.bool_], aim: FloatArray
) -> None:
    """Where the compiled goals aim, under the keys their behaviours use (a wandering agent
    has an aim only when its leash pulls it back to its post)."""
    n = mode.size
    aiming = ~np.isnan(aim[:, 0])
    for key, codes, seeing in _AIM_KEYS:
        rows = np.isin(mode, codes) & aiming
        if PURSUE in codes:
            rows &= (mode != PURSUE) | (sees == seeing)
        idx = np.flatnonzero(rows)
        if idx.size:
            debug[key] = scatter_debug(debug.get(key), aim[idx], idx, n)
