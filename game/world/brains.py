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
* The player is driven by its input (:func:`game.world.motion.accelerations`): it swims at
  ``thrust * max_speed`` relative to the water, so a current carries it while it swims.

The enemies' memory (:class:`EnemyMinds`) is arrays over the enemies, and the think system
(:mod:`game.world.think`) runs their state machine over it; the forces of every
non-player agent come from one :class:`CrowdBrain` call, a Buckland prioritised sum of the
core's behaviours in which each goal behaviour runs once over the crowd and each agent's mode
picks its goal.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np
from numpy.typing import NDArray

from steering import (
    AgentGroup,
    AvoidAgents,
    AvoidObstacles,
    AvoidWalls,
    Behaviour,
    Contain,
    FlowSource,
    FollowFlow,
    FollowPath,
    Limited,
    PathSet,
    Queue,
    TruncatedRunningSum,
    Wander,
)
from steering.kernels import hypot, njit, running_add, use_cache
from steering.vec import FloatArray

from .currents import ShoreFlow
from .spawn import NPC, Archetype, Roster
from .tuning import Tuning, default_tuning

__all__ = [
    "MODE_NAMES",
    "CrowdBrain",
    "EnemyMinds",
    "Mode",
    "NpcRules",
    "combine",
    "combine_rows",
]

use_cache(__file__)

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
    drag: float = 0.0
    bounds: tuple[float, float, float, float] | None = None
    follow: FollowPath = field(init=False)
    pace: Limited = field(init=False)
    wander: Wander = field(init=False)
    flow: FollowFlow = field(init=False)
    urgent: TruncatedRunningSum = field(init=False)
    queue: Queue = field(init=False)
    avoid_agents: AvoidAgents = field(init=False)

    def __post_init__(self) -> None:
        self.wander = Wander(self.rng)
        self.follow = FollowPath(self.paths, arrive_at_end=True)
        self.pace = Limited(self.follow)
        # Issue 15: fish carried to an edge swim back instead of piling up against it.
        shore = self.currents if self.bounds is None else ShoreFlow(self.currents, self.bounds)
        self.flow = FollowFlow(shore)
        urgent: list[Behaviour] = [self.contain, self.avoid]
        if self.walls is not None:
            urgent.insert(1, self.walls)
        self.urgent = TruncatedRunningSum(urgent)
        fish = self.tuning.fish
        self.queue = Queue(distance=fish.queue_distance, brake=fish.queue_brake)
        self.avoid_agents = AvoidAgents(time_horizon=fish.avoid_horizon)

    @property
    def flee_distance(self) -> float:
        """NPCs flee the player within this distance (px)."""
        return self.tuning.fish.flee_distance


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
    n = urgent.shape[0]
    first = np.zeros(n, dtype=bool) if goal_first is None else goal_first
    total = np.empty((n, 2))
    combine_rows(
        urgent,
        separation,
        goals,
        float(crowd.separation_weight),
        float(crowd.goal_weight),
        first,
        group.max_force,
        total,
    )
    return total


@njit
def combine_rows(
    urgent: FloatArray,
    separation: FloatArray,
    goals: FloatArray,
    sep_w: float,
    goal_w: float,
    goal_first: BoolArray,
    max_force: FloatArray,
    out: FloatArray,
) -> None:
    for i in range(out.shape[0]):
        sx, sy = separation[i, 0] * sep_w, separation[i, 1] * sep_w
        gx, gy = goals[i, 0] * goal_w, goals[i, 1] * goal_w
        if goal_first[i]:
            sx, sy, gx, gy = gx, gy, sx, sy
        tx, ty = running_add(urgent[i, 0], urgent[i, 1], sx, sy, max_force[i])
        out[i, 0], out[i, 1] = running_add(tx, ty, gx, gy, max_force[i])


@njit
def _in_sight_rows(
    pos: FloatArray,
    heading: FloatArray,
    rows: IntArray,
    sight: FloatArray,
    cos_half: FloatArray,
    out: BoolArray,
) -> bool:
    """Which enemies (at agent ``rows`` of ``pos`` and ``heading``; row 0 the player) have
    the player within sight range and their sight cone: cos(angle to the player) >= cos(half
    angle), all round when the half angle is pi; returns whether any has."""
    any_in = False
    for k in range(out.shape[0]):
        r = rows[k]
        rx = pos[0, 0] - pos[r, 0]
        ry = pos[0, 1] - pos[r, 1]
        d = hypot(rx, ry)
        ok = sight[k] > 0.0 and d <= sight[k]
        if ok and cos_half[k] > -1.0:
            ok = rx * heading[r, 0] + ry * heading[r, 1] >= cos_half[k] * d
        out[k] = ok
        any_in = any_in or ok
    return any_in


@dataclass(eq=False)
class EnemyMinds:
    """The enemies' senses and memory, one row per enemy: what the perceive system's
    :meth:`sense` sees (a handful of Python calls for the line-of-sight queries of those that
    could see the player) and what the think system (:func:`~game.world.think.think`) keeps.

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
        sighted: (E,) whether each sees the player itself this step (the perceive system's
            :meth:`sense`).
        seen: (E,) whether each sees the player this step, itself or through its formation
            (the think system, :func:`~game.world.think.think`).
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
    sighted: BoolArray = field(init=False)
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
        self.sighted = np.zeros(e, dtype=bool)
        self.seen = np.zeros(e, dtype=bool)

    def sense(
        self,
        pos: FloatArray,
        heading: FloatArray,
        line_of_sight: Callable[[tuple[float, float], tuple[float, float]], bool],
    ) -> None:
        """Which enemies see the player, into :attr:`sighted`, in place: within sight range
        and cone, no rock or wall on the line between. From the agents' (N, 2) positions and
        unit headings (row 0 the player): one compiled pass over the enemies' rows for range
        and cone, then ``line_of_sight`` for the few in range."""
        seen = self.sighted
        if not _in_sight_rows(pos, heading, self.rows, self.sight, self._cos, seen):
            return
        target = (float(pos[0, 0]), float(pos[0, 1]))
        for k in np.flatnonzero(seen).tolist():  # only the enemies that could see the player
            r = self.rows[k]
            seen[k] = line_of_sight((float(pos[r, 0]), float(pos[r, 1])), target)


@dataclass(frozen=True)
class NpcRules:
    """What decides each NPC's mode, fixed at spawn, one row per NPC.

    Attributes:
        rows: (K,) agent rows of the NPCs.
        free: (K,) NPCs without a path (they swim with a current where there is one).
        base: (K,) the mode outside currents and danger: ``follow`` with a path, else
            ``wander`` or ``idle``.
        hider: (K,) hiders (they hide from threats instead of fleeing the player).
        has_hiders: any NPC is a hider.
        n_hiders: how many NPCs are hiders.
    """

    rows: IntArray
    free: NDArray[np.bool_]
    base: NDArray[np.int8]
    hider: NDArray[np.bool_]
    has_hiders: bool
    n_hiders: int = 0

    @classmethod
    def of(cls, roster: Roster) -> NpcRules:
        """The rules of ``roster``'s NPCs."""
        rows = np.flatnonzero(roster.kind == NPC)
        on_path = roster.path[rows] >= 0
        wander = np.where(roster.wander[rows], Mode.WANDER, Mode.IDLE)
        hider = roster.archetype[rows] == Archetype.HIDER
        return cls(
            rows=rows,
            free=~on_path,
            base=np.where(on_path, Mode.FOLLOW, wander).astype(np.int8),
            hider=hider,
            has_hiders=bool(hider.any()),
            n_hiders=int(np.count_nonzero(hider)),
        )
