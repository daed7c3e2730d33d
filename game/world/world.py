"""The world: a level brought to life with pymunk physics and the steering core, one fixed step
at a time, with no window. Everything a renderer needs is an array on :class:`World`.

Its parts are made from the level in :mod:`game.world.build`; an editor's live changes are
applied in :mod:`game.world.edit`; each step's systems live in their own modules."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.clock import DT
from game.level import Level
from game.level.changes import Change
from steering import AgentGroup, Obstacles, Separate
from steering.vec import FloatArray

from .brains import MODE_NAMES, NpcRules
from .build import (
    level_paths,
    level_walls,
    make_brain,
    make_minds,
    make_physics,
    patrol_pace,
    turn_rates,
)
from .crowd import CrowdSteering
from .currents import Currents
from .decide import decide
from .edit import apply_edit
from .exits import Exits
from .motion import ROCK_FRICTION, ROCK_GRIP, read_back
from .move import move
from .options import WorldOptions
from .perceive import perceive
from .physics import PhysicsSettings
from .player import Player
from .respawn import carry_over
from .spawn import KIND_NAMES, Roster, agent_mass, build_roster
from .state import LIMITS, MOTION, AgentState
from .steer import steer
from .think import think
from .tuning import Tuning, default_tuning

__all__ = ["DT", "OUTCOMES", "ROCK_FRICTION", "ROCK_GRIP", "STEP_SYSTEMS", "System", "World"]

log = logging.getLogger(__name__)

#: What :attr:`World.outcome` can be.
OUTCOMES = ("running", "won", "caught")
#: A thrust this little over length 1 is taken as it is (see ``_thrust``).
THRUST_SLACK = 1e-12

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


class System(NamedTuple):
    """One system of the step (esper's processor): its name and its ``process(world)``, which
    reads and writes the world's owners through their public fields."""

    name: str
    process: Callable[[World], None]


#: The step's systems in the order they run, each its own module's entry point called on a
#: world (what each reads and writes is in its module's docstring):
#:
#: * ``perceive`` (:mod:`~game.world.perceive`): drifting paths, currents, sight; writes the
#:   paths, the currents' memory, ``physics.current`` and ``minds.sighted``;
#: * ``think`` (:mod:`~game.world.think`): the enemies' state machine, NPC modes, path turns;
#:   writes the state's brain columns, the minds' memory and ``exits.nearest``;
#: * ``steer`` (:mod:`~game.world.steer`): every body's acceleration from the state, the
#:   minds, the roster and ``player.thrust``; writes the state's held forces, the behaviours'
#:   memory, ``physics.acc`` and ``steering.debug``;
#: * ``physics`` (:mod:`~game.world.move`): contacts, pymunk, the bodies read back; writes
#:   the physics, the state's motion columns and ``frame``;
#: * ``decide`` (:mod:`~game.world.decide`): caught or won; writes ``outcome``.
STEP_SYSTEMS: tuple[System, ...] = (
    System("perceive", lambda w: perceive(w)),
    System("think", lambda w: think(w, DT)),
    System("steer", lambda w: steer(w, DT)),
    System("physics", lambda w: move(w, DT)),
    System("decide", lambda w: decide(w)),
)
#: The names of :attr:`World.systems`, in the order a step runs them.
SYSTEMS = tuple(name for name, _ in STEP_SYSTEMS)


class World:
    """A running level: agents, rocks, currents and paths, advanced by :meth:`step`.

    A world is a composition: each kind of data has one owner (below), and a step runs the
    systems of :data:`STEP_SYSTEMS` in order, each reading and writing the owners' public
    fields. Rows: one agent per row of :attr:`state`; **row 0 is the player**, then the
    enemies, then the NPCs (``roster.kind`` says which). The same rows index every per-agent
    column and the pymunk bodies (``physics.bodies[:n]``). Behaviours run on :attr:`crowd`, a
    view of rows 1.. (so crowd row ``i`` is agent row ``i + 1``).

    Args:
        level: the level.
        seed: seed for every random generator (spawn scatter, wander); default the level's.
            Noise currents use their region's own ``seed``.
        extra_npcs: NPCs added to the level's NPC spawn areas, for stress runs.
        stagger: Reynolds' staggered updates: each non-player agent's steering is recomputed
            every ``stagger``-th step, in ``stagger`` interleaved groups (agent row modulo
            ``stagger``), and its last force is reused in between, so motion stays smooth while
            steering costs ``1/stagger`` per step. Perception, modes, currents, the player and
            physics run every step. 1 (every agent every step) is for play.
        settings: pymunk tuning (:class:`PhysicsSettings`).
        debug: collect the steering debug arrays each step (``steering.debug``).
        tuning: the brains' tuning per archetype (default: ``resources/tuning.json``).

    Attributes:
        level: the level (an edit replaces it).
        options: what the world was built with (:class:`~game.world.options.WorldOptions`:
            seed, extra NPCs, stagger, physics settings, tuning).
        roster: who is who (:class:`~game.world.spawn.Roster`: kind, spawn, archetype, path,
            post, formation, one row per agent; fixed while the agents are the same).
        state: every per-agent column (:class:`~game.world.state.AgentState`): motion,
            limits, identity, mode, held forces, the behaviours' memory.
        agents, crowd: the steering engine's groups over the state's columns: all agents, and
            the non-player agents (rows 1..). They hold **the state's arrays, not copies**
            (``agents.pos is state.pos``; ``crowd.pos`` is a view of rows 1..; the crowd's
            memory dict is ``state.memory``): the engine's behaviours take a group, and the
            group is how they see the state.
        minds: the enemies' senses and memory of the player
            (:class:`~game.world.brains.EnemyMinds`, one row per enemy; ``state.minds`` is
            this object).
        npcs: what decides each NPC's mode (:class:`~game.world.brains.NpcRules`).
        physics: the pymunk side (:class:`~game.world.physics.Physics`): bodies, rocks and
            walls, per-body acceleration and current, the rocks' version.
        paths: the one path registry (:class:`PathSet`): the level's paths as editable
            steering paths, by name and by slot in level order (the editor may move their
            nodes while agents follow them; drifting paths move by themselves every step).
        walls: the level's walls as straight segments (static; the steering core's
            :class:`Walls`), and ``wall_thickness`` (W,) each segment's thickness (px).
        currents: the flow regions (``currents.fields`` for drawing).
        brain: the crowd's behaviours (:class:`~game.world.brains.CrowdBrain`), and
            ``separate`` its separation.
        steering: the steer system's switches and debug output
            (:class:`~game.world.crowd.CrowdSteering`).
        player: the player's input (:class:`~game.world.player.Player`: this step's thrust,
            every thrust so far, whether it is a ghost); its motion is row 0 of the state.
        exits: the exits (:class:`~game.world.exits.Exits`: rectangles, centres, the one
            nearest the player).
        outcome: ``running``, ``won`` or ``caught``; latched once decided (the world keeps
            running if stepped further). A catch and a win in the same step count as caught.
        frame: steps taken.
        timer: called as ``timer(system, seconds)`` after each system of a step when set (the
            bench's hook: see :attr:`systems`).
    """

    def __init__(
        self,
        level: Level,
        seed: int | None = None,
        extra_npcs: int = 0,
        *,
        stagger: int = 1,
        settings: PhysicsSettings | None = None,
        debug: bool = False,
        tuning: Tuning | None = None,
    ) -> None:
        if stagger < 1:
            raise ValueError(f"stagger must be >= 1, got {stagger}")
        if extra_npcs < 0:
            raise ValueError(f"extra_npcs must be >= 0, got {extra_npcs}")
        tuning = tuning or default_tuning()
        seed = int(level.seed if seed is None else seed)
        self.level = level
        self.options = WorldOptions(seed, extra_npcs, int(stagger), settings, tuning)
        self.steering = CrowdSteering(debug_enabled=debug)
        self.frame = 0
        self.outcome = "running"
        spawn_seq, wander_seq = np.random.SeedSequence(seed).spawn(2)
        roster = build_roster(level, np.random.default_rng(spawn_seq), extra_npcs, seed)
        self.roster: Roster = roster
        n = roster.n
        # (N,) rows that lead a formation (their patrol keeps separation before the route).
        leads = np.zeros(n, dtype=bool)
        leads[roster.leader[roster.leader >= 0]] = True
        self.agents = a = AgentGroup.create(
            roster.pos,
            max_speed=roster.max_speed,
            max_force=roster.max_force,
            radius=roster.radius,
            mass=agent_mass(roster.radius),
            max_turn_rate=turn_rates(roster.archetype, tuning),
        )
        self.crowd = AgentGroup(
            pos=a.pos[1:],
            vel=a.vel[1:],
            max_speed=a.max_speed[1:],
            max_force=a.max_force[1:],
            radius=a.radius[1:],
            mass=a.mass[1:],
            heading=a.heading[1:],
            max_turn_rate=a.max_turn_rate[1:],
        )
        self.crowd.column("separation")[:] = roster.separation[1:]

        # Paths, shared and editable; drifting ones move by themselves.
        self.paths = level_paths(level, seed)
        self.walls, self.wall_thickness = level_walls(level)
        self.currents = Currents.from_level(level)
        self.physics = make_physics(level, roster, a, self.walls, self.wall_thickness, settings)
        mode, self.minds = make_minds(roster, tuning)
        self.npcs = NpcRules.of(roster)
        self.brain = make_brain(
            level,
            self.physics.obstacles,
            self.walls,
            self.wall_thickness,
            self.paths,
            self.currents,
            np.random.default_rng(wander_seq),
            tuning,
        )
        # The engine's groups and the minds work on the state's arrays (the groups' own
        # arrays are handed over, not copied); kind and path index are the roster's arrays.
        self.state = AgentState.empty(
            n,
            mode,
            **{name: getattr(a, name) for name in (*MOTION, *LIMITS)},
            kind=roster.kind,
            archetype=roster.archetype,
            path_index=roster.path,
            pace=patrol_pace(roster, tuning),
            leads=leads,
            memory=self.crowd.state,
            fills=self.crowd.fills,
            minds=self.minds,
        )
        self.separate = Separate(per_agent=True)
        self.exits = Exits.of(level.exits)
        self.player = Player()
        self.timer: Callable[[str, float], None] | None = None
        self.read_bodies()
        think(self, DT, enemies=False)

    # -- public views (read through to the owners; nothing is held twice) --------------------

    @property
    def n(self) -> int:
        """How many agents, the player included (``roster.n``)."""
        return self.roster.n

    @property
    def kind(self) -> NDArray[np.int8]:
        """(N,) 0 player, 1 enemy, 2 NPC (``roster.kind``); names in :data:`KIND_NAMES`."""
        return self.roster.kind

    @property
    def spawn_id(self) -> NDArray[np.int64]:
        """(N,) Tiled id of the object that spawned each agent (``roster.spawn_id``)."""
        return self.roster.spawn_id

    @property
    def path_index(self) -> NDArray[np.intp]:
        """(N,) slot of each agent's path in :attr:`paths`, -1 for none (``roster.path``)."""
        return self.roster.path

    @property
    def seed(self) -> int:
        """The seed used (``options.seed``)."""
        return self.options.seed

    @property
    def stagger(self) -> int:
        """The stagger (``options.stagger``)."""
        return self.options.stagger

    @property
    def tuning(self) -> Tuning:
        """The brains' tuning per archetype (``options.tuning``)."""
        return self.options.tuning

    @property
    def mode(self) -> NDArray[np.int8]:
        """(N,) each agent's mode (``state.mode``); names in :data:`MODE_NAMES`."""
        return self.state.mode

    @property
    def reverse(self) -> NDArray[np.bool_]:
        """(N,) agents walking their open path backwards (``state.reverse``)."""
        return self.state.reverse

    @property
    def time(self) -> float:
        """Simulated seconds (``frame * DT``)."""
        return self.frame * DT

    @property
    def player_pos(self) -> FloatArray:
        """(2,) the player's position."""
        return self.agents.pos[0]

    @property
    def player_vel(self) -> FloatArray:
        """(2,) the player's velocity."""
        return self.agents.vel[0]

    @property
    def kind_names(self) -> NDArray[np.str_]:
        """(N,) ``player`` / ``enemy`` / ``npc``."""
        return np.array(KIND_NAMES)[self.kind]

    @property
    def mode_names(self) -> NDArray[np.str_]:
        """(N,) each agent's mode name."""
        return np.array(MODE_NAMES)[self.mode]

    @property
    def obstacles(self) -> Obstacles:
        """The rocks as the steering core sees them (the physics' view of its rocks)."""
        return self.physics.obstacles

    @property
    def obstacle_id(self) -> NDArray[np.int64]:
        """(M,) the rocks' ids in the level."""
        return self.physics.rock_id

    @property
    def obstacle_dynamic(self) -> BoolArray:
        """(M,) which rocks are pushable."""
        return self.physics.rock_dynamic

    @property
    def obstacle_pos(self) -> FloatArray:
        """(M, 2) rock centres now."""
        return self.obstacles.centers

    @property
    def obstacle_radius(self) -> FloatArray:
        """(M,) rock radii."""
        return self.obstacles.radii

    @property
    def current_at_agents(self) -> FloatArray:
        """(N, 2) the current's velocity at each agent (zero in still water)."""
        return self.physics.current[: self.roster.n]

    @property
    def in_current(self) -> BoolArray:
        """(N,) agents inside a flow region now."""
        return self.physics.in_current[: self.roster.n]

    @property
    def dt(self) -> float:
        """The fixed step, :data:`DT`."""
        return DT

    # -- editing -----------------------------------------------------------------------------

    def edit(self, changes: Sequence[Change], level: Level | None = None) -> str:
        """Apply an editor's changes (:class:`~game.level.changes.Change` events) live, with no
        rebuild where the agents stay the same (:func:`~game.world.edit.apply_edit`).

        Args:
            changes: the events of one update of the edited level, in order.
            level: the edited level (new rocks, exits, flows and spawns are read from it).

        Returns:
            ``""`` when all was applied; ``"redraw"`` when exits, flow regions or the agents
            themselves changed (a drawing made from :attr:`level` or sized by the agents must
            be rebuilt).
        """
        return apply_edit(self, changes, level)

    def carry_over_to(self, level: Level) -> None:
        """Become a world of ``level`` with this one's running state, built with this one's
        seed and options (:func:`~game.world.respawn.carry_over`: agents that still exist keep
        their place, motion and memory, new ones start at their spawns, the clock goes on)."""
        o = self.options
        fresh = World(
            level,
            o.seed,
            o.extra_npcs,
            stagger=o.stagger,
            settings=o.settings,
            debug=self.steering.debug_enabled,
            tuning=o.tuning,
        )
        fresh.steering.enabled = self.steering.enabled
        fresh.player.ghost = self.player.ghost
        fresh.player.detection = self.player.detection
        fresh.timer = self.timer
        fresh.physics.rocks_version = self.physics.rocks_version + 1
        carry_over(self, fresh)
        state = vars(self)
        state.clear()
        state.update(vars(fresh))

    # -- stepping ----------------------------------------------------------------------------

    def step(self, thrust: ArrayLike = (0.0, 0.0)) -> str:
        """Advance exactly one fixed step of :data:`DT` seconds: run :attr:`systems` in order.

        Args:
            thrust: the player's input, a direction: a unit vector or zero from keys (longer
                vectors are shortened to length 1, shorter ones swim slower; non-finite
                values count as zero).

        Returns:
            The outcome after the step.
        """
        x, y = _thrust(thrust)
        player = self.player
        player.inputs.append((x, y))
        player.thrust = np.array((x, y))
        timer = self.timer
        if timer is None:
            for _, system in STEP_SYSTEMS:
                system(self)
        else:
            clock = time.perf_counter
            for name, system in STEP_SYSTEMS:
                t0 = clock()
                system(self)
                timer(name, clock() - t0)
        return self.outcome

    @property
    def systems(self) -> tuple[tuple[str, Callable[[], None]], ...]:
        """The step's systems (:data:`STEP_SYSTEMS`), in the order they run, bound to this
        world."""
        return tuple((name, partial(system, self)) for name, system in STEP_SYSTEMS)

    def read_bodies(self) -> None:
        """Take the agents' state from the physics bodies again, and the currents where they
        are (after the bodies were written from outside: a world carried over to an edited
        level, a rock edit)."""
        read_back(self, DT)
        phys = self.physics
        phys.current, phys.in_current = self.currents.velocity_at(phys.pos)


def _thrust(thrust: ArrayLike) -> tuple[float, float]:
    """The input as a finite vector no longer than 1, (x, y)."""
    kind = type(thrust)
    if kind is tuple or kind is list:
        items: Sequence[object] = thrust  # type: ignore[assignment]
        if len(items) == 2 and type(items[0]) in _PLAIN and type(items[1]) in _PLAIN:
            return _short(float(items[0]), float(items[1]))  # type: ignore[arg-type]
    elif kind is np.ndarray:
        arr: FloatArray = thrust  # type: ignore[assignment]
        if arr.shape == (2,) and arr.dtype == np.float64:
            return _short(float(arr[0]), float(arr[1]))
    u = np.asarray(thrust, dtype=np.float64).reshape(-1)
    if u.shape != (2,):
        raise ValueError(f"thrust: expected (x, y), got shape {u.shape}")
    return _short(float(u[0]), float(u[1]))


#: Element types of a thrust given as a tuple or list that :func:`_thrust` takes directly.
_PLAIN = (float, int)


def _short(x: float, y: float) -> tuple[float, float]:
    """(x, y) shortened to length 1 when longer; (0, 0) when not finite."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return 0.0, 0.0
    norm = math.hypot(x, y)
    # The slack makes this idempotent: a thrust already shortened (a recorded World.inputs
    # entry) can measure an ulp over 1 and must pass unchanged, so a replay is exact.
    if norm > 1.0 + THRUST_SLACK:
        return x / norm, y / norm
    return x, y


def replay(
    level: Level,
    inputs: Sequence[tuple[float, float]],
    seed: int | None = None,
    extra_npcs: int = 0,
    stagger: int = 1,
) -> World:
    """A new world stepped through ``inputs`` (e.g. another world's :attr:`World.inputs`)."""
    world = World(level, seed, extra_npcs, stagger=stagger)
    for u in inputs:
        world.step(u)
    return world
