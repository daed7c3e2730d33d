"""Brains: what every agent wants each step, assembled from the steering core's behaviours.

* Enemies patrol their path at their archetype's pace (path following + avoidance +
  separation); when the player is within sight (range and cone) and no rock or wall blocks
  the line between them they pursue; after losing sight for a while (heading meanwhile for
  where the player was last seen) they return to the nearest point of their path and patrol
  again. An enemy without a path wanders around its post. Sentinels interpose between the
  player and the exit; formation followers hold their slots beside their leader.
* NPCs follow their path if they have one, else swim with the current where there is one,
  else wander; they keep their separation, avoid rocks and walls and flee the player when it
  comes near (hiders hide behind rocks instead). With ``wander`` set they add a little wander
  to any of that.
* Every weight, distance, pace, sight cone and turn rate is in the tuning file
  (:mod:`game.world.tuning`).
* The player is driven by its input (:func:`player_accel`).

The state machine (:class:`EnemyMinds`) runs over arrays of enemies; the forces of every
non-player agent come from one :class:`CrowdBrain` call, a Buckland prioritised sum of the
core's behaviours in which each goal behaviour runs once over the crowd and each agent's mode
picks its goal.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import IntEnum

import numpy as np
from numpy.typing import NDArray

from steering import (
    AgentGroup,
    Arrive,
    AvoidAgents,
    AvoidObstacles,
    AvoidWalls,
    Behaviour,
    Contain,
    Debug,
    Flee,
    FlowSource,
    FollowFlow,
    FollowPath,
    Hide,
    Interpose,
    Limited,
    OffsetPursuit,
    PathSet,
    Pursue,
    Queue,
    Seek,
    TruncatedRunningSum,
    Wander,
)
from steering.combine import scatter_debug
from steering.vec import FloatArray, length, scale_rows, take_rows, truncate

from .currents import ShoreFlow
from .tuning import Tuning, default_tuning

__all__ = [
    "MODE_NAMES",
    "CrowdBrain",
    "EnemyMinds",
    "Mode",
    "Tasks",
    "combine",
    "player_accel",
]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


class Mode(IntEnum):
    """Per-agent modes (``World.mode`` holds their values as int8)."""

    NONE = 0
    PATROL = 1
    PURSUE = 2
    RETURN = 3
    WANDER = 4
    FLEE = 5
    FLOW = 6
    FOLLOW = 7
    IDLE = 8
    GUARD = 9
    FORM = 10
    HIDE = 11


#: Every mode's value, in order (one comparison gives a mask per mode).
_MODE_VALUES = np.array([int(m) for m in Mode], dtype=np.int8)[:, None]
#: The modes' names, by value (``World.mode_names``, traces, the overlay).
MODE_NAMES = tuple(m.name.lower() for m in Mode)


def player_accel(
    thrust: FloatArray,
    vel: FloatArray,
    current: FloatArray,
    max_speed: float,
    max_accel: float,
    gain: float,
) -> FloatArray:
    """The player's acceleration from its input: swim at ``thrust * max_speed`` in the water.

    The desired velocity is relative to the water, ``current + thrust * max_speed``, and the
    player closes the gap at ``gain`` per second, at most ``max_accel``; so with no
    input it stops in still water and drifts with a current, and a river carries it sideways
    while it swims across.

    Args:
        thrust: (2,) input, length <= 1 (a unit vector or zero from keys).
        vel: (2,) the player's velocity.
        current: (2,) the current's velocity at the player (zero in still water).
        max_speed: the player's top speed (px/s).
        max_accel: its top acceleration (px/s^2).
        gain: how fast it reaches its input velocity (1/s; the crowd tuning's
            ``player_gain``).
    """
    desired = current + thrust * max_speed
    return truncate(((desired - vel) * gain)[None, :], np.array([max_accel]))[0]


@dataclass
class AtSpeed:
    """Run ``behaviour`` as if every agent's max speed were ``fraction`` of its own (a patrol
    pace); physics still allows the full speed."""

    behaviour: Behaviour
    fraction: float

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the behaviour's forces at the reduced pace."""
        full = agents.max_speed
        agents.max_speed = full * self.fraction
        try:
            return self.behaviour(agents, dt, debug)
        finally:
            agents.max_speed = full


@dataclass
class Tasks:
    """What each agent of a group does this step, one row per agent of the group.

    Attributes:
        mode: (n,) mode codes (:class:`Mode`).
        path: (n,) path slot, -1 for none.
        reverse: (n,) walk the path backwards (open paths, on the way back).
        wander: (n,) add the extra wander (NPCs with ``wander`` set).
        seen: (n,) a pursuing enemy sees the player now (else it heads for the last sighting).
        target: (n, 2) pursuit / return target.
        target_vel: (n, 2) the pursued player's velocity.
        post: (n, 2) an enemy's post.
        leash: (n,) wanders on a leash around its post (enemies without a path).
        pace: (n,) fraction of max speed on patrol.
        leader: (n, 2) a formation follower's leader's position.
        leader_vel: (n, 2) its velocity.
        leader_heading: (n, 2) its heading.
        slot: (n, 2) the follower's slot in the leader's frame.
        threat: (n, 2) a hider's nearest threat (the player or an enemy).
        threat_vel: (n, 2) its velocity.
        queue: (n,) queues behind slower agents ahead.
        avoid: (n,) sidesteps agents on a collision course.
        goal_first: (n,) puts its goal before separation (patrols that lead no formation:
            see :func:`combine`).
    """

    mode: NDArray[np.int8]
    path: IntArray
    reverse: BoolArray
    wander: BoolArray
    seen: BoolArray
    target: FloatArray
    target_vel: FloatArray
    post: FloatArray
    leash: BoolArray
    pace: FloatArray
    leader: FloatArray
    leader_vel: FloatArray
    leader_heading: FloatArray
    slot: FloatArray
    threat: FloatArray
    threat_vel: FloatArray
    queue: BoolArray
    avoid: BoolArray
    goal_first: BoolArray

    def take(self, rows: IntArray) -> Tasks:
        """The tasks of ``rows`` only."""
        return Tasks(*(take_rows(getattr(self, f.name), rows) for f in fields(self)))


@dataclass(eq=False)
class CrowdBrain:
    """Steering of every non-player agent: one prioritised sum over the whole group, each
    behaviour called once over every agent whatever the number of paths, modes or spawns.

    In priority order (Buckland's running sum, :class:`~steering.TruncatedRunningSum`,
    capped at max force): containment in the world rectangle, wall avoidance (feelers, when
    the level has walls), rock avoidance, queueing and agent avoidance (NPCs with ``queue`` /
    ``avoid`` set), separation (weighted), and the goal of the agent's mode (weighted). The
    goal is one per agent, picked by mode from behaviours each called once over the group with
    per-agent arguments: ``patrol``/``follow`` path following (one :class:`FollowPath` over
    the world's :class:`PathSet`, per-agent path slot and direction in its state columns,
    patrols at their archetype's pace through :class:`Limited`); ``pursue`` pursuit of the
    player while seen, else arrival where it was last seen; ``return`` seek of the return
    point; ``wander`` wander, or a seek back to the post beyond the leash; ``flow`` the core's
    :class:`FollowFlow` over the world's currents; ``flee`` fleeing the player; ``idle``
    coming to rest; ``guard`` (sentinels) :class:`Interpose` between the player and the exit
    nearest it; ``form`` (formation followers) :class:`OffsetPursuit` of their slot beside the
    leader; ``hide`` (hiders) :class:`Hide` behind a rock from the nearest threat. NPCs with
    ``wander`` set add a little wander to a path or the current. Every weight and distance
    comes from :attr:`tuning`.

    Patrols steer for their velocity over the ground: their goal also cancels the current's
    drag (``drag``), so a current does not carry a guard off its route.

    Attributes:
        contain, avoid: the shared behaviours.
        walls: wall avoidance, None for a level without walls.
        paths: the world's path registry.
        currents: the world's currents (a flow source).
        rng: generator for wander.
        tuning: the archetypes' tuning.
        player_pos: the player's position (set by the world each step).
        player_vel: the player's velocity (set by the world each step).
        exit_pos: the centre of the exit nearest the player (set by the world each step).
        drag: the currents' drag rate (1/s) that patrols cancel; 0: they do not.
        bounds: the map's rectangle ``(left, bottom, right, top)``: fish swimming with the
            current turn back from its edges (:class:`~game.world.currents.ShoreFlow`);
            None: they follow the current as it is.
    """

    contain: Contain
    avoid: AvoidObstacles
    walls: AvoidWalls | None
    paths: PathSet
    currents: FlowSource
    rng: np.random.Generator
    tuning: Tuning = field(default_factory=default_tuning)
    player_pos: FloatArray = field(default_factory=lambda: np.zeros(2))
    player_vel: FloatArray = field(default_factory=lambda: np.zeros(2))
    exit_pos: FloatArray = field(default_factory=lambda: np.zeros(2))
    drag: float = 0.0
    bounds: tuple[float, float, float, float] | None = None
    follow: FollowPath = field(init=False)
    _pace: Limited = field(init=False)
    _wander: Wander = field(init=False)
    _flow: FollowFlow = field(init=False)
    _urgent: TruncatedRunningSum = field(init=False)
    _queue: Queue = field(init=False)
    _avoid_agents: AvoidAgents = field(init=False)

    def __post_init__(self) -> None:
        self._wander = Wander(self.rng)
        self.follow = FollowPath(self.paths, arrive_at_end=True)
        self._pace = Limited(self.follow)
        # Issue 15: fish carried to an edge swim back instead of piling up against it.
        shore = self.currents if self.bounds is None else ShoreFlow(self.currents, self.bounds)
        self._flow = FollowFlow(shore)
        urgent: list[Behaviour] = [self.contain, self.avoid]
        if self.walls is not None:
            urgent.insert(1, self.walls)
        self._urgent = TruncatedRunningSum(urgent)
        fish = self.tuning.fish
        self._queue = Queue(distance=fish.queue_distance, brake=fish.queue_brake)
        self._avoid_agents = AvoidAgents(time_horizon=fish.avoid_horizon)

    @property
    def flee_distance(self) -> float:
        """NPCs flee the player within this distance (px)."""
        return self.tuning.fish.flee_distance

    def __call__(
        self,
        group: AgentGroup,
        tasks: Tasks,
        dt: float,
        separation: FloatArray,
        debug: Debug | None = None,
    ) -> FloatArray:
        """Return the (n, 2) steering accelerations of ``group`` for ``tasks``.

        Args:
            group: the agents.
            tasks: one row per agent of ``group``.
            dt: seconds since these agents were last updated.
            separation: the separation forces of ``group``'s agents.
            debug: a dict to collect the behaviours' debug arrays into.
        """
        urgent, goals = self.parts(group, tasks, dt, debug)
        return combine(group, urgent, separation, goals, self.tuning, tasks.goal_first)

    def parts(
        self, group: AgentGroup, tasks: Tasks, dt: float, debug: Debug | None = None
    ) -> tuple[FloatArray, FloatArray]:
        """The two parts of the brain's force that a staggered world holds between updates:
        the urgent part (containment, walls, rocks, then queueing and agent avoidance,
        Buckland's running sum) and the goal of each agent's mode. :func:`combine` adds
        separation between them.

        Args:
            group: the agents (all non-player agents, or a staggered subset of them).
            tasks: one row per agent of ``group``.
            dt: seconds since these agents were last updated.
            debug: a dict to collect the behaviours' debug arrays into.
        """
        mode = tasks.mode
        goals = np.zeros((group.n, 2))

        def run(
            mask: BoolArray, behaviour: Behaviour, weight: FloatArray | float | None = None
        ) -> FloatArray | None:
            # Each behaviour runs once over the whole group; the mask picks whose force it is.
            if not mask.any():
                return None
            sub: Debug | None = None if debug is None else {}
            force = behaviour(group, dt, sub)
            w = mask if weight is None else np.where(mask, weight, 0.0)
            if debug is not None and sub is not None:
                # Debug rows only for the agents whose force this is (as Masked gives).
                idx = np.flatnonzero(mask)
                for key, arr in sub.items():
                    per_agent = arr.ndim > 0 and arr.shape[0] == group.n
                    debug[key] = (
                        scatter_debug(debug.get(key), arr[idx], idx, group.n) if per_agent else arr
                    )
            return scale_rows(force, w)

        def add(mask: BoolArray, behaviour: Behaviour, weight: FloatArray | None = None) -> None:
            force = run(mask, behaviour, weight)
            if force is not None:
                goals[...] += force

        t = self.tuning
        # One mask per mode from one comparison, in Mode's order.
        (
            _,
            patrol,
            hunting,
            back,
            wandering,
            fleeing,
            flowing,
            follow,
            idle,
            guard,
            form,
            hide,
        ) = mode == _MODE_VALUES
        on_path = patrol | follow
        group.column("path.index", fill=-1.0)[:] = np.where(on_path, tasks.path, -1)
        group.column("path.reverse")[:] = tasks.reverse
        if on_path.any():
            self._pace.max_speed = group.max_speed * np.where(patrol, tasks.pace, 1.0)
            add(on_path, self._pace)
        add(hunting & tasks.seen, Pursue(tasks.target, tasks.target_vel))
        add(hunting & ~tasks.seen, Arrive(tasks.target, slowing_radius=60.0))
        add(back, Seek(tasks.target))
        far = wandering & tasks.leash & (length(group.pos - tasks.post) > t.patrol.leash)
        add(far, Seek(tasks.post))
        add(flowing, self._flow)
        add(fleeing, Flee(self.player_pos, self.flee_distance))
        add(idle, Arrive(group.pos.copy()))  # come to rest where it is
        add(
            guard,
            Interpose(self.player_pos, self.exit_pos, self.player_vel, ratio=t.sentinel.ratio),
        )
        add(
            form,
            OffsetPursuit(tasks.leader, tasks.leader_vel, tasks.leader_heading, tasks.slot),
        )
        hider = t.hider
        add(
            hide,
            Hide(
                tasks.threat,
                self.avoid.obstacles,
                tasks.threat_vel,
                distance_from_boundary=hider.hide_distance,
            ),
        )
        if self.drag > 0.0 and patrol.any():
            self._stem(group, patrol, goals)
        # One wander call for every agent that wanders at all (its angle advances once per
        # update): full weight as the goal, a little on top of a path or the current.
        roam = wandering & ~far
        extra = tasks.wander & (on_path | flowing)
        add(roam | extra, self._wander, np.where(roam, 1.0, t.fish.extra_wander_weight))
        urgent = self._urgent(group, dt, debug)
        # Queueing and sidestepping rank after the urgent part and before separation and goal:
        # a blocked fish brakes before its goal pushes it on (see Queue).
        travelling = on_path | flowing
        for mask, behaviour, weight in (
            (tasks.queue & travelling, self._queue, t.fish.queue_weight),
            (tasks.avoid, self._avoid_agents, t.fish.avoid_weight),
        ):
            force = run(mask, behaviour)
            if force is not None:
                TruncatedRunningSum.accumulate(urgent, force, weight, group.max_force)
        return urgent, truncate(goals, group.max_force)

    def _stem(self, group: AgentGroup, rows: BoolArray, goals: FloatArray) -> None:
        """Add to the goals of ``rows`` the force that cancels the current's drag on them
        (issue 15: the Sandbox's ring patroller was carried up to 630 px off its route)."""
        idx = np.flatnonzero(rows)
        pos = group.pos[idx]
        wet = self.currents.contains(pos)
        if wet.any():
            against = (group.vel[idx] - self.currents.lookup(pos)) * self.drag
            goals[idx] += np.where(wet[:, None], against, 0.0)


def combine(
    group: AgentGroup,
    urgent: FloatArray,
    separation: FloatArray,
    goals: FloatArray,
    tuning: Tuning | None = None,
    goal_first: BoolArray | None = None,
) -> FloatArray:
    """The crowd's force: Buckland's running sum (:meth:`TruncatedRunningSum.accumulate`) of the
    urgent part, separation and the goal (weighted as the crowd's tuning says), capped at max
    force. The world holds the parts' forces (a staggered crowd reuses them between updates),
    so it runs the core's running sum on them.

    Rows in ``goal_first`` (patrolling enemies) put their goal before separation: a school of
    fish streaming past a guard no longer spends its whole force budget and pushes it off its
    route (issue 15); what is left of the budget still keeps it apart from the school. A
    formation's leader is left out: its followers' separation slowing it down is what keeps
    the formation together round corners.
    """
    crowd = (tuning or default_tuning()).crowd
    total = urgent.copy()
    sep_w, goal_w = crowd.separation_weight, crowd.goal_weight
    if goal_first is None or not goal_first.any():
        TruncatedRunningSum.accumulate(total, separation, sep_w, group.max_force)
        TruncatedRunningSum.accumulate(total, goals, goal_w, group.max_force)
        return total
    first = goal_first[:, None]
    TruncatedRunningSum.accumulate(
        total, np.where(first, goals * goal_w, separation * sep_w), 1.0, group.max_force
    )
    TruncatedRunningSum.accumulate(
        total, np.where(first, separation * sep_w, goals * goal_w), 1.0, group.max_force
    )
    return total


@dataclass(eq=False)
class EnemyMinds:
    """The enemies' state machine, vectorised over the enemies (a handful of Python calls for
    the line-of-sight queries of those that could see the player).

    An enemy sees the player within its sight range and its sight cone (``half_angle`` each
    side of its heading; pi sees all round) when no rock or wall is on the line between. A
    formation shares what any member sees: the whole formation pursues. After losing sight
    for ``lose_after`` seconds (heading meanwhile for where the player was last seen) a
    sentinel interposes again (``guard``), a formation follower takes its slot again
    (``form``) and every other enemy returns to its route (``return``, then ``patrol``, or
    ``wander`` without a path).

    Attributes:
        rows: (E,) agent rows of the enemies.
        sight: (E,) sight ranges (0: never pursues).
        has_path: (E,) whether each patrols a path.
        half_angle: (E,) half-angle of each sight cone (radians; pi: all round).
        lose_after: (E,) seconds of lost sight before giving up.
        sentinel: (E,) sentinels.
        follower: (E,) formation followers.
        squad: (E,) formation number, -1 for none.
        lost_for: (E,) seconds since each last saw the player while pursuing.
        last_seen: (E, 2) where each last saw the player.
        last_vel: (E, 2) the player's velocity then.
        seen: (E,) whether each sees the player this step (itself or through its formation).
    """

    rows: IntArray
    sight: FloatArray
    has_path: BoolArray
    half_angle: FloatArray | None = None
    lose_after: FloatArray | None = None
    sentinel: BoolArray | None = None
    follower: BoolArray | None = None
    squad: IntArray | None = None
    lost_for: FloatArray = field(init=False)
    last_seen: FloatArray = field(init=False)
    last_vel: FloatArray = field(init=False)
    seen: BoolArray = field(init=False)

    def __post_init__(self) -> None:
        e = self.rows.size
        tuning = default_tuning()
        if self.half_angle is None:
            self.half_angle = np.full(e, math.radians(tuning.patrol.sight_angle))
        if self.lose_after is None:
            self.lose_after = np.full(e, tuning.patrol.lose_sight_after)
        if self.sentinel is None:
            self.sentinel = np.zeros(e, dtype=bool)
        if self.follower is None:
            self.follower = np.zeros(e, dtype=bool)
        if self.squad is None:
            self.squad = np.full(e, -1, dtype=np.intp)
        self._cos = np.cos(np.minimum(self.half_angle, math.pi))
        self.lost_for = np.zeros(e)
        self.last_seen = np.zeros((e, 2))
        self.last_vel = np.zeros((e, 2))
        self.seen = np.zeros(e, dtype=bool)

    def look(
        self,
        pos: FloatArray,
        player: FloatArray,
        line_of_sight: Callable[[tuple[float, float], tuple[float, float]], bool],
        heading: FloatArray | None = None,
    ) -> BoolArray:
        """Which enemies see the player: within sight range and cone, no rock or wall on the
        line between (``heading``: (E, 2) unit headings; None counts every cone as all
        round)."""
        seen = np.zeros(self.rows.size, dtype=bool)
        if self.rows.size == 0:
            return seen
        rel = player - pos
        d = length(rel)
        near = (self.sight > 0) & (d <= self.sight)
        if heading is not None:
            # In the cone: cos(angle to the player) >= cos(half angle); all round when pi.
            ahead = (rel * heading).sum(axis=1)
            near &= (self._cos <= -1.0) | (ahead >= self._cos * d)
        target = (float(player[0]), float(player[1]))
        for k in np.flatnonzero(near):  # only the few enemies that could see the player
            seen[k] = line_of_sight((float(pos[k, 0]), float(pos[k, 1])), target)
        return seen

    def share(self, seen: BoolArray) -> BoolArray:
        """``seen`` spread to every member of a formation one of whose members sees."""
        squad = self.squad
        assert squad is not None
        member = squad >= 0
        if not member.any():
            return seen
        spotted = np.bincount(squad[member], weights=seen[member], minlength=1) > 0
        out = seen.copy()
        out[member] |= spotted[squad[member]]
        return out

    def update(
        self,
        mode: NDArray[np.int8],
        pos: FloatArray,
        player: FloatArray,
        player_vel: FloatArray,
        seen: BoolArray,
        on_route: BoolArray,
        dt: float,
    ) -> BoolArray:
        """Advance the modes of the enemies (in place in ``mode``, indexed by agent row).

        Args:
            mode: (N,) every agent's mode; the enemies' rows are updated.
            pos: (E, 2) enemy positions.
            player, player_vel: the player's position and velocity.
            seen: (E,) from :meth:`look`.
            on_route: (E,) returning enemies that reached their route (path radius or post).
            dt: the step.

        Returns:
            (E,) enemies that just went back to patrolling (their path progress must be
            searched afresh).
        """
        assert self.lose_after is not None and self.sentinel is not None
        assert self.follower is not None
        seen = self.share(seen)
        m = mode[self.rows]
        self.seen = seen
        self.last_seen[seen] = player
        self.last_vel[seen] = player_vel
        self.lost_for[seen] = 0.0
        m[seen] = Mode.PURSUE
        hunting = (m == Mode.PURSUE) & ~seen
        self.lost_for[hunting] += dt
        give_up = hunting & (self.lost_for >= self.lose_after)
        m[give_up] = np.where(
            self.sentinel[give_up],
            Mode.GUARD,
            np.where(self.follower[give_up], Mode.FORM, Mode.RETURN),
        )
        back = (m == Mode.RETURN) & on_route
        resumed = back & self.has_path
        m[resumed] = Mode.PATROL
        m[back & ~self.has_path] = Mode.WANDER
        mode[self.rows] = m
        return resumed
