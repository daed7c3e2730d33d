"""The steer system: every body's acceleration, above all the crowd's steering, one composite.

:func:`steer` is the system's entry point: the crowd's steering (:func:`crowd_forces`), then
every body's acceleration (:func:`~game.world.motion.accelerations`: the crowd's steering, the
player's thrust, the rocks' friction on the ground and the currents' drag) into
``world.physics.acc``.

The crowd's steering is one tree of the engine's combinators (:class:`CrowdTree`), compiled by
the engine into one loop over the crowd (:mod:`steering.composite`), whatever the crowd's
size, the stagger, the debug output or the JIT: Buckland's prioritised running sum
(:class:`~steering.TruncatedRunningSum`, see :class:`~game.world.brains.CrowdBrain`) of

* the urgent part: the brain's own (containment, walls, rocks), then queueing and agent
  avoidance for the NPCs that have them (each masked to its agents);
* separation, weighted, for the agents that put it before their goal;
* the goal, weighted: a :class:`~steering.WeightedSum` of the modes' formula goals
  (:class:`~game.world.goals.ModeGoals`), path following at the patrol pace, the current,
  hiding and wander (a weight per agent), each masked to the agents whose mode runs it;
* separation again, for the patrols that put their goal first.

The masks, weights and paces are columns written before the loop by
:func:`~game.world.goals.crowd_needs`. With a stagger (Reynolds' staggered updates) the urgent
part and the goal sit in :class:`~steering.Staggered` nodes: each agent's are recomputed every
``stagger``-th step and held in between; separation is fresh every step. With debug output
(the F1 overlay) the same loop also writes each part's debug record: the overlay changes what
is drawn, not what is computed.

Behaviours the engine does not compile yet (they search the world: the current, queueing,
agent avoidance, and until it is ported, wander) run once over the whole crowd before the loop,
when some agent needs them (:class:`CrowdCall`), and are read row by row inside it. Hiding is a
row part (:class:`~steering.Hide`): only the agents that hide work out their spots.
"""

from __future__ import annotations

import operator
import weakref
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from steering import (
    AgentGroup,
    Debug,
    Masked,
    Staggered,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
)
from steering.composite import AgentCols, RowPart, compiles, row_function, run, scatter_debug
from steering.vec import FloatArray

from .goals import (
    ALL_GOAL_FIRST,
    GOAL_FIRST,
    NEEDS_AVOID,
    NEEDS_FLOW,
    NEEDS_HIDE,
    NEEDS_PATH,
    NEEDS_QUEUE,
    NEEDS_WANDER,
    PACE,
    SEPARATION_FIRST,
    WANDER_WEIGHT,
    ModeGoals,
    crowd_needs,
    hider,
)
from .motion import ROCK_FRICTION, ROCK_GRIP, accelerations

if TYPE_CHECKING:
    from collections.abc import Callable

    from .world import World

__all__ = ["CrowdCall", "CrowdTree", "crowd_forces", "steer"]


def steer(world: World, dt: float) -> None:
    """Run the steer system on ``world`` (see the module's docstring)."""
    forces = crowd_forces(world, dt)
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


def crowd_forces(world: World, dt: float) -> FloatArray:
    """The crowd's steering accelerations, into ``world.state.steer`` (zero with steering
    off); with debug output on, the parts' debug records into ``world.steering``."""
    state = world.state
    if not world.steering.enabled:
        state.steer[:] = 0.0
        return state.steer
    tree = CrowdTree.of(world)
    debug: Debug | None = {} if world.steering.debug_enabled else None
    state.steer[:] = tree.run(world, dt, debug)
    if debug is not None:
        tree.report(world, debug)
    return state.steer


class StoredRecord(NamedTuple):
    """A force computed before the loop, read row by row on the rows of ``mask``."""

    force: FloatArray
    mask: np.ndarray


@row_function
def stored_row(i: int, a: AgentCols, p: StoredRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s row of a force computed before the loop (zero off its mask)."""
    if p.mask[i]:
        return p.force[i, 0], p.force[i, 1]
    return 0.0, 0.0


class CrowdCall(RowPart):
    """A behaviour the engine does not compile, run once over the whole crowd before the
    composite's loop when any agent of ``mask`` needs it, and read row by row inside the loop
    on the rows of ``mask`` (zero on the others): it sees the whole crowd (its neighbours, its
    per-agent targets) as when called on its own. ``behaviour`` is a callable returning the
    behaviour to run (hiding is made again when the rocks change), ``needed`` whether any agent
    of ``mask`` needs it this step. Its debug rows are kept for the agents of ``mask``."""

    ROW = stored_row
    ROW_RECORD = StoredRecord

    def __init__(
        self, behaviour: Callable[[], Any], mask: np.ndarray, needed: Callable[[], bool]
    ) -> None:
        self.behaviour = behaviour
        self.mask = mask
        self.needed = needed
        self._stored = StoredRecord(np.zeros((mask.shape[0], 2)), mask)
        self._debug: Debug | None = None

    def kept(self, agents: AgentGroup, record: StoredRecord) -> bool:
        """The record holds while no agent needs the behaviour (its mask selects none: its
        forces are read by no row), so that a replay does not call it."""
        return record is self._stored and not self.needed()

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> StoredRecord:
        """Run the behaviour when some agent needs it (its forces held in the record)."""
        self._debug = None
        record = self._stored
        if self.needed():
            sub: Debug | None = {} if debug else None
            record.force[:] = self.behaviour()(agents, dt, sub)
            self._debug = sub
        return record

    def report(self, agents: AgentGroup, record: StoredRecord, debug: Debug) -> None:
        """The behaviour's debug rows of the agents that need it."""
        if self._debug is None:
            return
        idx = np.flatnonzero(self.mask)
        n = agents.n
        for key, arr in self._debug.items():
            per_agent = arr.ndim > 0 and arr.shape[0] == n
            debug[key] = scatter_debug(debug.get(key), arr[idx], idx, n) if per_agent else arr


class CrowdTree:
    """One world's crowd steering as a tree of the engine's combinators (see the module's
    docstring), made again when any object it was made from is replaced (an edit, a world
    carried over, a behaviour swapped) or the crowd's goal order changes kind."""

    def __init__(
        self,
        world: World,
        key: tuple[object, ...],
        first: int,
        needs: np.ndarray,
        weights: FloatArray,
        flags: np.ndarray,
    ) -> None:
        self.key = key
        brain = world.brain
        t = world.options.tuning
        #: Which agents need each part (rows ``NEEDS_*``), shared by a world's trees.
        self.needs = needs
        #: The roster's wander, queue and avoid columns stacked (3, N).
        self.flags = flags
        #: The paces and wander weights (rows ``PACE``, ``WANDER_WEIGHT``).
        self.weights = weights
        self.first = first  # 0: no agent puts its goal first, 2: every agent, 1: some
        #: Which rows of :attr:`needs` hold any agent this step (bit k for row k).
        self.some = 0
        #: The paths' geometry when last stepped, and how often it was another.
        self._geometry: Any = None
        self._geometries = 0
        needs = self.needs
        brain.pace.max_speed = self.weights[PACE]

        def part(behaviour: Any, row: int) -> Any:
            """``behaviour`` for the agents of needs row ``row``."""
            if compiles(behaviour):
                return Masked(behaviour, needs[row])
            return CrowdCall(lambda: behaviour, needs[row], lambda: self.some >> row & 1 == 1)

        goal = WeightedSum(
            [
                ModeGoals(world),
                part(brain.pace, NEEDS_PATH),
                part(brain.flow, NEEDS_FLOW),
                part(hider(world, slice(None)), NEEDS_HIDE),
                # Wander runs for every agent when any wanders (each one's angle advances, as
                # when the behaviour is called on the crowd), weighted 0 where it is not wanted.
                Weighted(
                    Masked(brain.wander, needs[WANDERS])
                    if compiles(brain.wander)
                    else part(brain.wander, NEEDS_WANDER),
                    self.weights[WANDER_WEIGHT],
                ),
            ]
        )
        urgent = TruncatedRunningSum(
            [
                brain.urgent,
                Weighted(part(brain.queue, NEEDS_QUEUE), float(t.fish.queue_weight)),
                Weighted(part(brain.avoid_agents, NEEDS_AVOID), float(t.fish.avoid_weight)),
            ]
        )
        k = world.options.stagger
        self.staggered = [Staggered(urgent, k), Staggered(goal, k)] if k > 1 else []
        if self.staggered:
            urgent, goal = self.staggered  # type: ignore[assignment]
        sep_w = float(t.crowd.separation_weight)
        goal_w = float(t.crowd.goal_weight)
        separate = world.separate
        parts: list[Any] = [urgent]
        if self.first < 2:
            sep = separate if self.first == 0 else Masked(separate, needs[SEPARATION_FIRST])
            parts.append(Weighted(sep, sep_w))
        parts.append(Weighted(goal, goal_w))
        if self.first > 0:
            sep = separate if self.first == 2 else Masked(separate, needs[GOAL_FIRST])
            parts.append(Weighted(sep, sep_w))
        self.tree = TruncatedRunningSum(parts)

    @staticmethod
    def key_of(world: World) -> tuple[object, ...]:
        """The objects a world's trees are made from."""
        brain = world.brain
        state = world.state
        return (
            state,
            world.roster,
            world.agents,
            world.crowd,
            world.options.tuning,
            world.options.stagger,
            world.separate,
            brain,
            brain.urgent,
            brain.pace,
            brain.flow,
            brain.wander,
            brain.queue,
            brain.avoid_agents,
            # What the crowd's hiding is made from (:func:`~game.world.goals.hider`).
            brain.avoid.obstacles,
            state.threat,
            state.threat_vel,
        )

    @classmethod
    def of(cls, world: World) -> CrowdTree:
        """``world``'s tree for this step, its needs written (:func:`crowd_needs`)."""
        trees = _TREES.get(world)
        if trees is None:
            trees = _TREES[world] = {}
        tree = next(iter(trees.values()), None)
        state, roster, a = world.state, world.roster, world.agents
        m = roster.n - 1
        if tree is None or tree.needs.shape[1] != m or tree.key[1] is not roster:
            needs, weights = np.zeros((WANDERS + 1, m), dtype=bool), np.zeros((2, m))
            flags = np.stack((roster.wander, roster.queue, roster.avoid))
            trees.clear()
        else:
            needs, weights, flags = tree.needs, tree.weights, tree.flags
        follow = CrowdTree._follow_columns(world)
        some = crowd_needs(
            state.mode,
            roster.kind,
            roster.path,
            state.reverse,
            flags,
            state.leads,
            state.pace,
            a.pos,
            roster.post,
            a.max_speed,
            float(world.options.tuning.patrol.leash),
            float(world.options.tuning.fish.extra_wander_weight),
            needs,
            weights,
            follow[0],
            follow[1],
        )
        wanders = some >> NEEDS_WANDER & 1 == 1  # every row, or none (the stamp's bit)
        if m and needs[WANDERS, 0] != wanders:
            needs[WANDERS] = wanders
        first = 2 if some >> ALL_GOAL_FIRST & 1 else some >> GOAL_FIRST & 1
        key = cls.key_of(world)
        if tree is not None and not all(map(operator.is_, key, tree.key)):
            trees.clear()
        tree = trees.get(first)
        if tree is None:
            # Each order's tree is kept: a crowd whose patrols turn goal-first and back
            # switches between two trees, each with its kept plan.
            tree = trees[first] = cls(world, key, first, needs, weights, flags)
        tree.some = some
        return tree

    @staticmethod
    def _follow_columns(world: World) -> tuple[FloatArray, FloatArray]:
        """Path following's path and direction columns of the crowd (kept while the crowd's
        state columns are the same arrays)."""
        crowd = world.crowd
        state = tuple(crowd.state.values())
        kept = _FOLLOW.get(world)
        if kept is None or kept[0] is not crowd or not all(map(operator.is_, state, kept[1])):
            param = world.brain.follow.param(crowd)
            # Read again: param may have made the columns. Last, how often they were read.
            count = 0 if kept is None else kept[4] + 1
            kept = (crowd, tuple(crowd.state.values()), param[0], param[1], count)
            _FOLLOW[world] = kept
        return kept[2], kept[3]

    def run(self, world: World, dt: float, debug: Debug | None) -> FloatArray:
        """The crowd's forces this step (staggered nodes turn with the world's frame), under
        the world's stamp (:func:`~steering.composite.run`): which needs rows hold any agent,
        the paths' geometry replaced, the crowd's state columns replaced, the pushable rocks'
        moves (the world replaces no other object its parts read without assigning a part's
        setting or making a new tree)."""
        for node in self.staggered:
            node.turn = world.frame
        geometry = world.paths.geometry()
        if geometry is not self._geometry:
            self._geometry = geometry
            self._geometries += 1
        stamp = (self.some, self._geometries, _FOLLOW[world][4], world.physics.rocks_moves)
        return run(self.tree, world.crowd, dt, debug, stamp=stamp)

    def report(self, world: World, debug: Debug) -> None:
        """Hand the step's debug records to the overlay: every crowd agent's, or with a
        stagger only the group whose urgent part and goal were recomputed."""
        m = world.roster.n - 1
        rows = np.arange(m)
        k = world.options.stagger
        if k > 1 and self.staggered:
            rows = rows[rows % k == (world.frame % k)]
            debug = {
                key: arr[rows] if arr.ndim > 0 and arr.shape[0] == m else arr
                for key, arr in debug.items()
            }
        world.steering.debug_rows = rows + 1
        world.steering.debug = debug


#: The needs row (after :func:`crowd_needs`' rows) selecting every agent while any wanders.
WANDERS = 8

#: Each world's tree (a world carried over to an edited level keeps its object and gets a
#: new tree, since the objects it was made from change).
_TREES: weakref.WeakKeyDictionary[World, dict[int, CrowdTree]] = weakref.WeakKeyDictionary()
#: Each world's path-following columns, with the crowd and state columns they were read from.
_FOLLOW: weakref.WeakKeyDictionary[World, tuple[Any, ...]] = weakref.WeakKeyDictionary()
