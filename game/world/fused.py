"""The steer system in two compiled calls: how the world steps in play.

In play (every agent every step, no debug output, a crowd under FUSED_MAX) the steer system
runs the same behaviours as the steer system's behaviour-by-behaviour path in two compiled calls,
calling their own loops over agents (``steering.kernels.*_rows``) with the arguments each
behaviour gives (``kernel_args``): the goals (modes, path following), then the urgent part,
separation, the running sum and every body's acceleration. Python runs only what is rare or
searches a world in between (an edited path's second pass, currents, hiding, queueing, agent
avoidance, and the wander's random draws). The floats are the same, in the same order, as
the steer system's behaviour-by-behaviour path and :func:`~game.world.steer.steer` compute them.
:func:`steer_fused` is the entry point the steer system calls.

The arrays that stay the same objects from step to step are bound once into a compiled
record (a numba structref, :class:`StepPlan`), so a call passes one object instead of some
eighty arrays (numba unboxes each array argument, about 0.1 us apiece); the plan is bound
again when any object it was made from is replaced (an edit, a world carried over), or the
step's length or a behaviour's setting changes. What
changes every step (the paths' packed geometry, how far the rocks moved since their grid was
built, the neighbour grid above BRUTE_MAX agents, the wander's draws, the currents at the
bodies, the player, the input) is passed with each call.

Why one file: the plan's records are tuples the compiled passes unpack by position, so the
binding (:class:`StepPlan`, :class:`SidePlan` and what fills them) and the passes change
together; split, one layout would live in two files.
"""

from __future__ import annotations

import operator
import weakref
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
from numba.core import types
from numba.experimental import structref
from numpy.typing import NDArray

from steering import AvoidObstacles, AvoidWalls, Contain
from steering.grid import BRUTE_MAX
from steering.kernels import (
    PARALLEL_MIN,
    accumulate_rows,
    avoid_obstacles_rows,
    avoid_walls_rows,
    contain_rows,
    follow_rows,
    njit,
    separate_rows,
    use_cache,
    wander_rows,
)
from steering.vec import FloatArray

from .brains import combine_rows
from .goals import (
    GOAL_PARAMS,
    NEED_AVOID,
    NEED_FLOW,
    NEED_HIDE,
    NEED_PATH,
    NEED_QUEUE,
    NEED_WANDER,
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

__all__ = [
    "FOLLOW_GEOMETRY",
    "FOLLOW_MAX_SPEED",
    "FUSED_MAX",
    "ROCKS_PAD",
    "SidePlan",
    "StepPlan",
    "fused_applies",
    "steer_fused",
]

use_cache(__file__)

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

#: Where the max speed is in :meth:`FollowPath.kernel_args` (the pace replaces it, as the
#: brain's ``Limited`` view does).
FOLLOW_MAX_SPEED = 9
#: Where the path's packed geometry ends in :meth:`FollowPath.kernel_args` (it is passed with
#: each call; the rest is bound in the plan).
FOLLOW_GEOMETRY = 4
#: Where the rocks' pad (how far they moved since their grid was built) and largest radius
#: are in :meth:`AvoidObstacles.kernel_args` (they are passed with each call).
ROCKS_PAD = 17
#: The crowd size from which the behaviours' parallel loops run (the fused path is serial).
FUSED_MAX = PARALLEL_MIN


@structref.register
class StepPlanType(types.StructRef):
    """numba's type of :class:`StepPlan`."""

    def preprocess_fields(self, fields: Any) -> Any:
        return tuple((name, types.unliteral(t)) for name, t in fields)


class StepPlan(structref.StructRefProxy):
    """The steer system's arrays for one world, bound once (see above). Fields: ``goals``
    (the arrays :func:`mode_goals` reads and writes, then the fused step's own), ``follow``
    (path following's arguments after the geometry, the pace as max speed), ``contain``,
    ``walls`` (None without walls), ``limits`` (the crowd's max force), ``consts`` (the
    tuning's numbers) and ``bodies`` (the steering out, and the bodies' accelerations and
    velocities)."""

    def __new__(cls, *fields: Any) -> StepPlan:
        # numba's own constructor compiles afresh in every process; this one is cached.
        return _new_plan(*fields)


structref.define_proxy(
    StepPlan, StepPlanType, ["goals", "follow", "contain", "walls", "limits", "consts", "bodies"]
)


@njit
def _new_plan(
    goals: tuple,
    follow: tuple,
    contain: tuple,
    walls: tuple | None,
    limits: FloatArray,
    consts: tuple,
    bodies: tuple,
) -> StepPlan:
    return StepPlan(goals, follow, contain, walls, limits, consts, bodies)


@structref.register
class SidePlanType(types.StructRef):
    """numba's type of :class:`SidePlan`."""

    def preprocess_fields(self, fields: Any) -> Any:
        return tuple((name, types.unliteral(t)) for name, t in fields)


class SidePlan(structref.StructRefProxy):
    """The arguments of the rocks' avoidance and of separation for one world, bound while
    the rocks' grid and the neighbour grid stay the same objects (see :func:`_side`):
    ``rocks`` and ``separate`` (None for a crowd whose neighbour grid is built every step;
    its arguments then come with each call)."""

    def __new__(cls, *fields: Any) -> SidePlan:
        return _new_side(*fields)


structref.define_proxy(SidePlan, SidePlanType, ["rocks", "separate"])


@njit
def _new_side(rocks: tuple, separate: tuple | None) -> SidePlan:
    return SidePlan(rocks, separate)


class _Bound:
    """A world's plan and the objects it was made from (compared by identity each step)."""

    __slots__ = (
        "bits",
        "dbg",
        "dt",
        "first",
        "flags",
        "goals",
        "key",
        "pace",
        "pforce",
        "plan",
        "settings",
        "side",
        "side_key",
        "still",
        "urgent",
        "weight",
    )

    def __init__(self, world: World, key: tuple[object, ...], dt: float) -> None:
        m = world.roster.n - 1
        brain = world.brain
        crowd = world.crowd
        state = world.state
        t = world.options.tuning
        self.key = key
        self.dt = dt
        self.settings: list[dict[str, Any]] = []
        self.pace = np.empty(m)
        self.pforce = np.empty((m, 2))
        self.flags = np.empty(m, dtype=np.uint8)
        self.goals = np.empty((m, 2))
        self.bits = np.empty(m, dtype=np.int8)
        self.weight = np.empty(m)
        self.urgent = np.empty((m, 2))
        self.first = np.empty(m, dtype=np.bool_)
        self.dbg = np.empty((0, 8))
        self.side: SidePlan | None = None
        self.side_key: tuple[object, ...] = ()
        #: The pad and largest radius :func:`_side` found for rocks that cannot move (for the
        #: objects of ``side_key``); None while they can.
        self.still: tuple[float, float] | None = None
        follow = brain.follow
        follow.param(crowd)  # makes the path columns the compiled goals write
        fargs = follow.kernel_args(crowd, dt)
        fargs = (*fargs[:FOLLOW_MAX_SPEED], self.pace, *fargs[FOLLOW_MAX_SPEED + 1 :])
        goals = (
            np.arange(m),
            *goal_inputs(world),  # entries 1-18
            GOAL_PARAMS,
            self.goals,
            np.empty((m, 2)),  # where each goal aims (debug output only)
            self.weight,
            self.bits,
            self.pace,
            world.state.leads,
            self.first,
            self.pforce,
            self.dbg,
            self.flags,
            self.urgent,
        )
        consts = (
            float(t.patrol.leash),
            float(brain.flee_distance),
            float(t.sentinel.ratio),
            float(t.fish.extra_wander_weight),
            float(t.crowd.separation_weight),
            float(t.crowd.goal_weight),
            float(t.crowd.player_gain),
            float(ROCK_FRICTION),
            float(ROCK_GRIP),
        )
        wall = brain.walls
        phys = world.physics
        self.plan = StepPlan(
            goals,
            fargs[FOLLOW_GEOMETRY:],
            brain.contain.kernel_args(crowd, dt),
            None if wall is None else wall.kernel_args(crowd, dt),
            crowd.max_force,
            consts,
            (state.steer, phys.acc, phys.vel),
        )


#: Each world's bound plan (a world carried over to an edited level keeps its object and
#: gets a new plan, since the objects it was made from change).
_BOUND: weakref.WeakKeyDictionary[World, _Bound] = weakref.WeakKeyDictionary()


def fused_applies(world: World) -> bool:
    """Whether the steer system runs ``world``'s next step fused: every agent every step, no
    debug output, steering on, a crowd (none, too) under :data:`FUSED_MAX`, compiled kernels (not
    ``NUMBA_DISABLE_JIT``), and the brain's urgent part its own containment, walls and
    rocks."""
    brain = world.brain
    parts = brain.urgent.parts
    wall = brain.walls
    urgent = (brain.contain, brain.avoid) if wall is None else (brain.contain, wall, brain.avoid)
    return (
        world.options.stagger == 1
        and not world.steering.debug_enabled
        and world.steering.enabled
        and world.roster.n - 1 < FUSED_MAX
        and not numba.config.DISABLE_JIT  # type: ignore[attr-defined]
        and len(parts) == len(urgent)
        and all(map(operator.is_, parts, urgent))
        and type(brain.contain) is Contain
        and type(brain.avoid) is AvoidObstacles
        and (wall is None or type(wall) is AvoidWalls)
    )


def _plan_key(world: World) -> tuple[object, ...]:
    """The objects a world's plan is made from: a new plan when any of them is replaced."""
    brain = world.brain
    crowd = world.crowd
    phys = world.physics
    return (
        world.state,
        world.roster,
        world.agents,
        crowd,
        crowd.state,
        crowd.max_force,
        world.state.pace,
        world.state.leads,
        world.roster.path,
        world.roster.kind,
        world.options.tuning,
        brain.follow,
        brain.contain,
        brain.walls,
        phys.acc,
        phys.vel,
    )


def _settings(world: World) -> list[dict[str, Any]]:
    """The fields of the behaviours whose numbers the plans hold (their own dicts, compared
    with the copies taken when the plans were bound in one C-level comparison each step: a
    changed setting binds the plans again)."""
    brain = world.brain
    walls = brain.walls
    return [
        vars(brain.follow),
        vars(brain.contain),
        vars(brain.avoid),
        vars(world.separate),
        {} if walls is None else vars(walls),
    ]


def steer_fused(world: World, dt: float) -> bool:
    """Run the steer system in its fused form when it applies (:func:`fused_applies`); False
    when not, and nothing was done."""
    if not fused_applies(world):
        return False
    key = _plan_key(world)
    bound = _BOUND.get(world)
    settings = _settings(world)
    try:
        same = bound is not None and settings == bound.settings
    except (TypeError, ValueError):  # a setting replaced by an array: compared element-wise
        same = False
    if not same or bound is None or not all(map(operator.is_, key, bound.key)) or dt != bound.dt:
        bound = _BOUND[world] = _Bound(world, key, dt)
        bound.settings = [dict(fields) for fields in settings]  # copies: the dicts live on
    brain = world.brain
    crowd = world.crowd
    geo = world.paths.geometry()
    a = world.agents  # the player is row 0
    player, player_vel, exit_pos = a.pos[0], a.vel[0], world.exits.nearest
    need, edited = _goals_pass(
        bound.plan,
        geo.pf,
        geo.pi,
        geo.sf,
        geo.real,
        world.physics.current,
        world.physics.in_current,
        brain.drag,
        float(player[0]),
        float(player[1]),
        float(player_vel[0]),
        float(player_vel[1]),
        float(exit_pos[0]),
        float(exit_pos[1]),
    )
    goals, bits = bound.goals, bound.bits
    if edited:
        args = brain.follow.kernel_args(crowd, dt)
        args = (*args[:FOLLOW_MAX_SPEED], bound.pace, *args[FOLLOW_MAX_SPEED + 1 :])
        brain.follow.second_pass(args, bound.pforce, bound.dbg, bound.flags)
        add_rows(goals, bound.pforce, bits, NEED_PATH)
    if need & NEED_FLOW:
        add_rows(goals, brain.flow(crowd, dt, None), bits, NEED_FLOW)
    if need & NEED_HIDE:
        add_rows(goals, hider(world, slice(None))(crowd, dt, None), bits, NEED_HIDE)
    # The wander's random numbers are drawn here, where the behaviour would be called; its
    # loop runs in the next compiled call, before the goals are capped.
    wander = brain.wander.kernel_args(crowd, dt) if need & NEED_WANDER else None
    late = need & (NEED_QUEUE | NEED_AVOID)
    thrust = world.player.thrust
    a = world.agents
    side, pad, rmax, separate = _side(bound, world, dt)
    finish = (
        world.physics.current,
        world.physics.in_current,
        world.roster.n,
        float(thrust[0]),
        float(thrust[1]),
        float(a.max_speed[0]),
        float(a.max_force[0]),
        world.currents.drag,
    )
    _urgent_pass(bound.plan, side, pad, rmax, wander, not late, separate, *finish)
    if late:
        t = world.options.tuning
        for bit, behaviour, w in (
            (NEED_QUEUE, brain.queue, t.fish.queue_weight),
            (NEED_AVOID, brain.avoid_agents, t.fish.avoid_weight),
        ):
            if need & bit:
                force = behaviour(crowd, dt, None)
                accumulate_bits(bound.urgent, force, bits, bit, float(w), crowd.max_force)
        _finish(bound.plan, side, separate, *finish)
    return True


def _side(
    world_bound: _Bound, world: World, dt: float
) -> tuple[SidePlan, float, float, tuple[Any, ...] | None]:
    """The rocks' and separation's arguments this step: a :class:`SidePlan`, made again when
    the rocks or their grid changed; how far the rocks moved since the grid was built and the
    largest radius (:meth:`Obstacles.index`, passed with each call); and the separation's
    arguments when the crowd is too big for a fixed neighbour grid.

    Rocks that cannot move (the physics' own obstacles with no pushable rock among them: the
    world moves them only through pushable bodies, and an edit makes new ones) keep the grid,
    pad and radius found when the plan was made, without asking the obstacles again."""
    crowd = world.crowd
    phys = world.physics
    obs = world.brain.avoid.obstacles
    fixed = crowd.n <= BRUTE_MAX  # separation measures every pair: its arguments stay
    side = world_bound.side
    key = world_bound.side_key
    still = world_bound.still
    if (
        still is not None
        and key[0] is obs  # the key's objects: obstacles, centres, ..., avoidance, separation
        and key[1] is obs.centers
        and key[4] is world.brain.avoid
        and key[5] is world.separate
        and fixed
    ):
        return side, still[0], still[1], None  # type: ignore[return-value]
    grid, pad, rmax = obs.index() if len(obs) else (None, 0.0, 0.0)
    key = (obs, obs.centers, obs.radii, grid, world.brain.avoid, world.separate, fixed)
    if side is None or not all(map(operator.is_, key, world_bound.side_key)):
        separate = world.separate.kernel_args(crowd, dt) if fixed else None
        side = world_bound.side = SidePlan(world.brain.avoid.kernel_args(crowd, dt), separate)
        world_bound.side_key = key
    still_rocks = phys.obstacles is obs and phys.dynamic_rocks.size == 0
    world_bound.still = (pad, rmax) if still_rocks and fixed else None
    return side, pad, rmax, None if fixed else world.separate.kernel_args(crowd, dt)


@njit
def _goals_pass(
    plan: Any,  # a StepPlan, as numba sees it
    pf: FloatArray,
    pi: IntArray,
    sf: FloatArray,
    real: IntArray,
    current: FloatArray,
    in_current: NDArray[np.bool_],
    drag: float,
    player_x: float,
    player_y: float,
    player_vx: float,
    player_vy: float,
    exit_x: float,
    exit_y: float,
) -> tuple[int, int]:
    """The goals' compiled part of a fused step: which agents put their goal first, the
    modes' goals (:func:`mode_goals`) and path following at the patrol pace, added to the
    goals unless some path was edited (then the count of such agents is returned, and the
    caller finishes path following). Returns (``NEED_*`` bits of the crowd, that count)."""
    g = plan.goals
    c = plan.consts
    f = plan.follow
    goal_first_rows(g[1], g[25], g[26])
    need = mode_goals(
        g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13],
        g[14], g[15], g[16], g[17], g[18], current, in_current, drag, player_x, player_y,
        player_vx, player_vy, exit_x, exit_y, c[0], c[1], c[2], c[3], g[19], g[20], g[21], g[22],
        g[23], g[24], f[0], f[1],
    )  # fmt: skip
    edited = 0
    if need & NEED_PATH:
        edited = follow_rows(pf, pi, sf, real, *f, g[27], g[28], g[29], False)
        if edited == 0:
            add_rows(g[20], g[27], g[23], NEED_PATH)
    return need, edited


@njit
def _urgent_pass(
    plan: Any,  # a StepPlan, as numba sees it
    side: Any,  # a SidePlan
    pad: float,
    rmax: float,
    wander: tuple | None,
    finish: bool,
    separate: tuple | None,
    current: FloatArray,
    in_current: NDArray[np.bool_],
    n: int,
    thrust_x: float,
    thrust_y: float,
    player_speed: float,
    player_accel: float,
    drag: float,
) -> None:
    """The wander added to the goals of the agents that wander (its weight each); the goals
    capped at max force; the urgent part (Buckland's running sum of containment, walls and
    rocks); then, with ``finish``, :func:`_finish`."""
    goals = plan.goals[20]
    urgent = plan.goals[30]
    max_force = plan.limits
    _wander(wander, plan.goals[22], plan.goals[23], goals)
    cap_rows(goals, max_force)
    force = np.empty((goals.shape[0], 2))
    contain_rows(*plan.contain, force)
    accumulate_rows(urgent, force, 1.0, max_force, True, False)
    _walls(plan.walls, force, urgent, max_force)
    r = side.rocks  # with this step's pad and largest radius (ROCKS_PAD, ROCKS_PAD + 1)
    avoid_obstacles_rows(
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13],
        r[14], r[15], r[16], pad, rmax, r[19], r[20], r[21], r[22], r[23], r[24], r[25],
        force, np.empty((0, 1)),
    )  # fmt: skip
    accumulate_rows(urgent, force, 1.0, max_force, False, True)
    if finish:
        _finish(
            plan, side, separate, current, in_current, n, thrust_x, thrust_y, player_speed,
            player_accel, drag,
        )  # fmt: skip


@njit
def _walls(
    walls: tuple | None, force: FloatArray, urgent: FloatArray, max_force: FloatArray
) -> None:
    """The walls' part of the running sum (nothing without walls)."""
    if walls is not None:
        avoid_walls_rows(*walls, force, np.empty((0, 1)))
        accumulate_rows(urgent, force, 1.0, max_force, False, False)


@njit
def _finish(
    plan: Any,  # a StepPlan, as numba sees it
    side: Any,  # a SidePlan
    separate: tuple | None,
    current: FloatArray,
    in_current: NDArray[np.bool_],
    n: int,
    thrust_x: float,
    thrust_y: float,
    player_speed: float,
    player_accel: float,
    drag: float,
) -> None:
    """Separation, the crowd's running sum (:func:`~game.world.brains.combine_rows`) into
    the steering out, and every body's acceleration (:func:`~game.world.motion.accelerations`)."""
    g = plan.goals
    c = plan.consts
    steer_out, acc, body_vel = plan.bodies
    m = steer_out.shape[0]
    sep = np.empty((m, 2))
    _separate(side.separate, sep)  # one of the two is None: nothing
    _separate(separate, sep)
    combine_rows(g[30], sep, g[20], c[4], c[5], g[26], plan.limits, steer_out)
    accelerations(
        acc, body_vel, steer_out, current, in_current, n, thrust_x, thrust_y, player_speed,
        player_accel, c[6], c[7], drag, c[8],
    )  # fmt: skip


@njit
def _separate(args: tuple | None, out: FloatArray) -> None:
    """Separation's loop on its arguments (:meth:`Separate.kernel_args`); nothing for None
    (numba prunes the call for a None argument)."""
    if args is not None:
        separate_rows(*args, False, np.zeros(1, dtype=np.int64), np.zeros((1, 2)), out)


@njit
def _wander(
    args: tuple | None, weight: FloatArray, bits: NDArray[np.int8], goals: FloatArray
) -> None:
    """``goals += wander * weight`` on the rows that wander (:meth:`Wander.kernel_args`);
    nothing for None."""
    if args is not None:
        m = goals.shape[0]
        force = np.empty((m, 2))
        wander_rows(*args, np.empty((m, 2)), force)
        for i in range(m):
            if bits[i] & NEED_WANDER:
                goals[i, 0] += force[i, 0] * weight[i]
                goals[i, 1] += force[i, 1] * weight[i]
