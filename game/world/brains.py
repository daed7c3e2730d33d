"""Brains: what every agent wants each step, assembled from the steering core's behaviours.

* Enemies patrol their path at :data:`PATROL_SPEED` (path following + avoidance +
  separation); when the player is
  within sight and no rock blocks the line between them they pursue; after losing sight for
  :data:`LOSE_SIGHT_AFTER` seconds (heading meanwhile for where the player was last seen) they
  return to the nearest point of their path and patrol again. An enemy without a path wanders
  around its post.
* NPCs follow their path if they have one, else swim with the current where there is one,
  else wander; they keep their separation, avoid rocks and flee the player when it comes
  within :data:`FLEE_DISTANCE`. With ``wander`` set they add a little wander to any of that.
* The player is driven by its input (:func:`player_accel`).

The state machine (:class:`EnemyMinds`) runs over arrays of enemies; the forces of every
non-player agent come from one :class:`CrowdBrain` call, a Buckland prioritised sum of the
core's behaviours in which the mode-specific goals are :class:`~game.steering.Masked` parts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from game.steering import (
    AgentGroup,
    Arrive,
    AvoidObstacles,
    Behaviour,
    Contain,
    Debug,
    Flee,
    FollowPath,
    Masked,
    Path,
    PrioritizedSum,
    Pursue,
    Seek,
    Wander,
    Weighted,
    WeightedSum,
    truncate,
)
from game.steering.vec import FloatArray, length, scale_rows, take_rows

from .currents import FollowCurrent

__all__ = [
    "EXTRA_WANDER_WEIGHT",
    "FLEE",
    "FLEE_DISTANCE",
    "FLOW",
    "FOLLOW",
    "GOAL_WEIGHT",
    "IDLE",
    "LEASH",
    "LOSE_SIGHT_AFTER",
    "MODE_NAMES",
    "NONE",
    "PATROL",
    "PATROL_SPEED",
    "PLAYER_GAIN",
    "PURSUE",
    "RETURN",
    "SEPARATION_WEIGHT",
    "WANDER",
    "AtSpeed",
    "CrowdBrain",
    "EnemyMinds",
    "Tasks",
    "combine",
    "player_accel",
]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

#: Per-agent modes (``World.mode``); :data:`MODE_NAMES` gives their names.
NONE, PATROL, PURSUE, RETURN, WANDER, FLEE, FLOW, FOLLOW, IDLE = range(9)
MODE_NAMES = ("none", "patrol", "pursue", "return", "wander", "flee", "flow", "follow", "idle")

#: Seconds an enemy keeps hunting (toward where it last saw the player) before it returns.
LOSE_SIGHT_AFTER = 2.0
#: NPCs flee the player when its centre is closer than this (px).
FLEE_DISTANCE = 110.0
#: An enemy without a path wanders within this distance (px) of its post.
LEASH = 200.0
#: Weights in the prioritised sum (Buckland): separation, the goal, the extra NPC wander.
SEPARATION_WEIGHT = 1.5
GOAL_WEIGHT = 1.0
EXTRA_WANDER_WEIGHT = 0.35
#: How fast the player's velocity reaches its input velocity (1/s).
PLAYER_GAIN = 8.0
#: Enemies patrol at this fraction of their max speed (they chase at full speed). Slower
#: guards read better and turn tighter: at 180 px/s and 400 px/s^2 an enemy needs an 80 px
#: turning circle and cuts every sharp corner of a 20 px-wide route; at 60 % it needs 30 px.
PATROL_SPEED = 0.6


def player_accel(
    thrust: FloatArray,
    vel: FloatArray,
    current: FloatArray,
    max_speed: float,
    max_accel: float,
) -> FloatArray:
    """The player's acceleration from its input: swim at ``thrust * max_speed`` in the water.

    The desired velocity is relative to the water, ``current + thrust * max_speed``, and the
    player closes the gap at :data:`PLAYER_GAIN` per second, at most ``max_accel``; so with no
    input it stops in still water and drifts with a current, and a river carries it sideways
    while it swims across.

    Args:
        thrust: (2,) input, length <= 1 (a unit vector or zero from keys).
        vel: (2,) the player's velocity.
        current: (2,) the current's velocity at the player (zero in still water).
        max_speed: the player's top speed (px/s).
        max_accel: its top acceleration (px/s^2).
    """
    desired = current + thrust * max_speed
    return truncate(((desired - vel) * PLAYER_GAIN)[None, :], np.array([max_accel]))[0]


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
        mode: (n,) mode codes (:data:`MODE_NAMES`).
        path: (n,) path index, -1 for none.
        reverse: (n,) walk the path backwards (open paths, on the way back).
        wander: (n,) add the extra wander (NPCs with ``wander`` set).
        seen: (n,) a pursuing enemy sees the player now (else it heads for the last sighting).
        target: (n, 2) pursuit / return target.
        target_vel: (n, 2) the pursued player's velocity.
        current: (n, 2) current velocity at the agent.
        post: (n, 2) an enemy's post.
        leash: (n,) wanders on a leash around its post (enemies without a path).
    """

    mode: NDArray[np.int8]
    path: IntArray
    reverse: BoolArray
    wander: BoolArray
    seen: BoolArray
    target: FloatArray
    target_vel: FloatArray
    current: FloatArray
    post: FloatArray
    leash: BoolArray

    def take(self, rows: IntArray) -> Tasks:
        """The tasks of ``rows`` only."""
        return Tasks(
            *(
                take_rows(column, rows)
                for column in (
                    self.mode,
                    self.path,
                    self.reverse,
                    self.wander,
                    self.seen,
                    self.target,
                    self.target_vel,
                    self.current,
                    self.post,
                    self.leash,
                )
            )
        )


@dataclass(eq=False)
class CrowdBrain:
    """Steering of every non-player agent: one prioritised sum over the whole group.

    In priority order (Buckland's running sum, capped at max force): containment in the world
    rectangle, rock avoidance, separation (x1.5, given: see
    :meth:`~game.steering.Separate.for_rows`), and the goal of the agent's mode. Goals by mode
    (each a :class:`~game.steering.Masked` part of a weighted sum): ``patrol``/``follow`` path
    following (one :class:`FollowPath` per path and direction, sharing the ``"path"`` state
    columns); ``pursue`` pursuit of the player while seen, else arrival where it was last seen;
    ``return`` seek of the return point; ``wander`` wander, or a seek back to the post beyond
    :data:`LEASH`; ``flow`` swimming with the current; ``flee`` fleeing the player; ``idle``
    coming to rest. NPCs with ``wander`` set add wander at x0.35 to a path or the current.

    Attributes:
        contain, avoid: the shared behaviours.
        paths: the world's paths, by index.
        rng: generator for wander.
        flee_distance: NPCs flee the player within this distance.
        player_pos: the player's position (set by the world each step).
    """

    contain: Contain
    avoid: AvoidObstacles
    paths: Sequence[Path]
    rng: np.random.Generator
    flee_distance: float = FLEE_DISTANCE
    player_pos: FloatArray = field(default_factory=lambda: np.zeros(2))
    _follow: dict[tuple[int, bool], FollowPath] = field(default_factory=dict, init=False)
    _wander: Wander = field(init=False)

    def __post_init__(self) -> None:
        self._wander = Wander(self.rng)

    def follower(self, path: int, reverse: bool) -> FollowPath:
        """The path-following behaviour for path ``path`` in one direction (made on demand)."""
        key = (path, reverse)
        fp = self._follow.get(key)
        if fp is None or fp.path is not self.paths[path]:
            fp = FollowPath(self.paths[path], reverse=reverse, arrive_at_end=True)
            self._follow[key] = fp
        return fp

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
            separation: the separation forces of ``group``'s agents (from
                :meth:`~game.steering.Separate.for_rows`).
            debug: a dict to collect the behaviours' debug arrays into.
        """
        urgent, goals = self.parts(group, tasks, dt, debug)
        return combine(group, urgent, separation, goals)

    def parts(
        self, group: AgentGroup, tasks: Tasks, dt: float, debug: Debug | None = None
    ) -> tuple[FloatArray, FloatArray]:
        """The two parts of the brain's force that a staggered world holds between updates:
        the urgent part (containment then avoidance, Buckland's running sum) and the goal of
        each agent's mode (its weighted sum). :func:`combine` adds separation between them.

        Args:
            group: the agents (all non-player agents, or a staggered subset of them).
            tasks: one row per agent of ``group``.
            dt: seconds since these agents were last updated.
            debug: a dict to collect the behaviours' debug arrays into.
        """
        mode = tasks.mode
        goals: list[Behaviour | Weighted] = []

        def goal(behaviour: Behaviour, mask: BoolArray) -> None:
            if mask.any():
                goals.append(Masked(behaviour, mask))

        on_path = (mode == PATROL) | (mode == FOLLOW)
        if on_path.any():
            for p in np.unique(tasks.path[on_path]):
                for rev in (False, True):
                    mask = (tasks.path == p) & (tasks.reverse == rev)
                    follow = self.follower(int(p), rev)
                    goal(AtSpeed(follow, PATROL_SPEED), mask & (mode == PATROL))
                    goal(follow, mask & (mode == FOLLOW))
        hunting = mode == PURSUE
        seen = hunting & tasks.seen
        goal(Pursue(take_rows(tasks.target, seen), take_rows(tasks.target_vel, seen)), seen)
        lost = hunting & ~tasks.seen
        goal(Arrive(take_rows(tasks.target, lost), slowing_radius=60.0), lost)
        back = mode == RETURN
        goal(Seek(take_rows(tasks.target, back)), back)
        wandering = mode == WANDER
        far = wandering & tasks.leash & (length(group.pos - tasks.post) > LEASH)
        goal(Seek(take_rows(tasks.post, far)), far)
        flowing = mode == FLOW
        goal(FollowCurrent(take_rows(tasks.current, flowing)), flowing)
        goal(Flee(self.player_pos, self.flee_distance), mode == FLEE)
        idle = mode == IDLE  # nothing to do: come to rest where it is
        goal(Arrive(take_rows(group.pos, idle)), idle)
        # One wander call for every agent that wanders at all (its angle advances once per
        # update): full weight as the goal, a little on top of a path or the current.
        roam = wandering & ~far
        extra = tasks.wander & (on_path | flowing)
        if (roam | extra).any():
            goals.append(_WanderMix(self._wander, roam, extra, EXTRA_WANDER_WEIGHT))
        urgent = PrioritizedSum([self.contain, self.avoid])(group, dt, debug)
        return urgent, WeightedSum(goals)(group, dt, debug)


def combine(
    group: AgentGroup, urgent: FloatArray, separation: FloatArray, goals: FloatArray
) -> FloatArray:
    """The crowd's force: Buckland's running sum of the urgent part, separation (x
    :data:`SEPARATION_WEIGHT`) and the goal (x :data:`GOAL_WEIGHT`), capped at max force.

    A running sum is sequential, so this equals one prioritised sum over containment,
    avoidance, separation and the goal's behaviours (:class:`~game.steering.PrioritizedSum`,
    written out here for the three finite parts because the world runs it over the whole
    crowd every step).
    """
    max_force = group.max_force
    total = urgent.copy()
    for part, weight in ((separation, SEPARATION_WEIGHT), (goals, GOAL_WEIGHT)):
        used = length(total)
        remaining = np.maximum(max_force - used, 0.0)
        force = part * weight
        flen = length(force)
        cut = flen > remaining
        if cut.any():
            scale = np.ones_like(flen)
            np.divide(remaining, flen, out=scale, where=cut)
            force = scale_rows(force, scale)
        total += force
    return total


@dataclass
class _WanderMix:
    """Wander at full weight for ``full`` rows and at ``light_weight`` for ``light`` rows, in
    one call so every wandering agent's angle advances exactly once per update."""

    wander: Wander
    full: BoolArray
    light: BoolArray
    light_weight: float

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        mask = self.full | self.light
        force = Masked(self.wander, mask)(agents, dt, debug)
        return scale_rows(force, np.where(self.light, self.light_weight, 1.0))


@dataclass(eq=False)
class EnemyMinds:
    """The enemies' state machine, vectorised over the enemies (a handful of Python calls for
    the line-of-sight queries of those within sight range).

    Attributes:
        rows: (E,) agent rows of the enemies.
        sight: (E,) sight ranges (0: never pursues).
        has_path: (E,) whether each patrols a path.
        lost_for: (E,) seconds since each last saw the player while pursuing.
        last_seen: (E, 2) where each last saw the player.
        last_vel: (E, 2) the player's velocity then.
        seen: (E,) whether each sees the player this step.
    """

    rows: IntArray
    sight: FloatArray
    has_path: BoolArray
    lost_for: FloatArray = field(init=False)
    last_seen: FloatArray = field(init=False)
    last_vel: FloatArray = field(init=False)
    seen: BoolArray = field(init=False)

    def __post_init__(self) -> None:
        e = self.rows.size
        self.lost_for = np.zeros(e)
        self.last_seen = np.zeros((e, 2))
        self.last_vel = np.zeros((e, 2))
        self.seen = np.zeros(e, dtype=bool)

    def look(
        self,
        pos: FloatArray,
        player: FloatArray,
        line_of_sight: Callable[[tuple[float, float], tuple[float, float]], bool],
    ) -> BoolArray:
        """Which enemies see the player: within sight and no rock on the line between."""
        seen = np.zeros(self.rows.size, dtype=bool)
        if self.rows.size == 0:
            return seen
        d = length(pos - player)
        near = np.flatnonzero((self.sight > 0) & (d <= self.sight))
        target = (float(player[0]), float(player[1]))
        for k in near:  # only the few enemies within sight range
            seen[k] = line_of_sight((float(pos[k, 0]), float(pos[k, 1])), target)
        return seen

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
        m = mode[self.rows]
        self.seen = seen
        self.last_seen[seen] = player
        self.last_vel[seen] = player_vel
        self.lost_for[seen] = 0.0
        m[seen] = PURSUE
        hunting = (m == PURSUE) & ~seen
        self.lost_for[hunting] += dt
        give_up = hunting & (self.lost_for >= LOSE_SIGHT_AFTER)
        m[give_up] = RETURN
        back = (m == RETURN) & on_route
        resumed = back & self.has_path
        m[resumed] = PATROL
        m[back & ~self.has_path] = WANDER
        mode[self.rows] = m
        return resumed
