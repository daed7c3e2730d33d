"""The world: a level brought to life with pymunk physics and the steering core, one fixed step
at a time, with no window. Everything a renderer needs is an array on :class:`World`."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.clock import DT
from game.level import EnemySpawn, ExitData, Level, NpcSpawn
from game.level.changes import Change, ObjectsChanged, RockChanged, RockRemoved
from game.level.sync import apply_changes
from steering import (
    AgentGroup,
    AvoidObstacles,
    AvoidWalls,
    Contain,
    Debug,
    DriftingPath,
    Obstacles,
    Path,
    PathSet,
    Separate,
    Walls,
)
from steering.vec import (
    FloatArray,
)

from .brains import (
    MODE_NAMES,
    CrowdBrain,
    EnemyMinds,
    Mode,
    NpcRules,
)
from .currents import Currents
from .decide import decide
from .motion import ROCK_FRICTION, ROCK_GRIP, read_back
from .move import move
from .perceive import perceive
from .physics import (
    ENEMY_TYPE,
    NPC_TYPE,
    PLAYER_TYPE,
    Physics,
    PhysicsSettings,
)
from .spawn import (
    ENEMY,
    KIND_NAMES,
    NPC,
    PLAYER,
    Archetype,
    Roster,
    agent_mass,
    build_roster,
)
from .state import LIMITS, MOTION, AgentState
from .steer import steer
from .think import think
from .tuning import (
    FormationTuning,
    PatrolTuning,
    SentinelTuning,
    Tuning,
    default_tuning,
    turn_rate_rad,
)

__all__ = ["DT", "OUTCOMES", "ROCK_FRICTION", "ROCK_GRIP", "World"]

log = logging.getLogger(__name__)

#: What :attr:`World.outcome` can be.
OUTCOMES = ("running", "won", "caught")
#: A thrust this little over length 1 is taken as it is (see ``_thrust``).
THRUST_SLACK = 1e-12

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


#: The names of :attr:`World.systems`, in the order a step runs them.
SYSTEMS = ("perceive", "think", "steer", "physics", "decide")


class World:
    """A running level: agents, rocks, currents and paths, advanced by :meth:`step`.

    Rows: one agent per row of :attr:`agents`; **row 0 is the player**, then the enemies, then
    the NPCs (:attr:`kind` says which). The same rows index :attr:`mode`, :attr:`spawn_id`,
    :attr:`kind`, and the pymunk bodies (``physics.bodies[:n]``). Behaviours run on
    :attr:`crowd`, a view of rows 1.. (so crowd row ``i`` is agent row ``i + 1``).

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
        debug: collect the steering debug arrays each step (see :attr:`debug`).
        tuning: the brains' tuning per archetype (default: ``resources/tuning.json``).

    Attributes:
        level: the level.
        seed: the seed used.
        agents: positions, velocities, limits, headings of every agent (row 0 the player).
        crowd: the non-player agents (views of rows 1..): behaviour memory lives in its state.
        kind: (N,) 0 player, 1 enemy, 2 NPC; names in :data:`KIND_NAMES`.
        mode: (N,) current mode; names in :data:`MODE_NAMES` (``patrol``, ``pursue``,
            ``return``, ``wander``, ``flee``, ``flow``, ``follow``, ``idle``; ``none`` for the
            player).
        spawn_id: (N,) Tiled id of the object that spawned each agent.
        paths: the one path registry (:class:`PathSet`): the level's paths as editable
            steering paths, by name and by slot in level order (the editor may move their
            nodes while agents follow them; drifting paths move by themselves every step).
        path_index: (N,) slot of each agent's path in :attr:`paths`, -1 for none.
        reverse: (N,) agents walking their open path backwards (they turn at its ends).
        obstacles: every rock (centres of pushable rocks follow their bodies each step).
        obstacle_id: (M,) Tiled ids of the rocks.
        obstacle_dynamic: (M,) which rocks are pushable.
        walls: the level's walls as straight segments (static; the steering core's
            :class:`Walls`).
        wall_thickness: (W,) thickness of each segment of :attr:`walls` (px).
        currents: the flow regions (``currents.fields`` for drawing).
        physics: the pymunk side.
        outcome: ``running``, ``won`` or ``caught``; latched once decided (the world keeps
            running if stepped further). A catch and a win in the same step count as caught.
        frame: steps taken.
        debug_enabled: collect the steering debug arrays each step into :attr:`debug`.
        debug: the last step's steering debug arrays (when enabled), keyed as the core's
            behaviours key them (``avoid.box``, ``path.future``, ``wander.target``, ...) plus
            ``separate.count``; per-agent arrays have one row per agent of
            :attr:`debug_rows`.
        debug_rows: the agent rows the last step's debug arrays cover: all non-player
            agents, or this step's staggered group (empty until a step collects them).
        inputs: every thrust given to :meth:`step`, in order (replaying them reproduces the run).
        steering_enabled: False turns the crowd's steering off (tests, debugging): physics,
            currents, perception and the player still run.
        ghost: True makes the player a ghost (the editor's live world, where the player is
            only a start marker): no enemy sees it and a touch catches no one.
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
        self.level = level
        self._extra_npcs, self._settings = extra_npcs, settings  # to build again (edit)
        self.tuning = tuning = tuning or default_tuning()
        self.seed = int(level.seed if seed is None else seed)
        self.stagger = int(stagger)
        self.debug_enabled = debug
        self.steering_enabled = True
        self.ghost = False
        self.debug: Debug = {}
        self.debug_rows: NDArray[np.intp] = np.zeros(0, dtype=np.intp)
        self.inputs: list[tuple[float, float]] = []
        self.frame = 0
        self.outcome = "running"
        spawn_seq, wander_seq = np.random.SeedSequence(self.seed).spawn(2)
        roster = build_roster(level, np.random.default_rng(spawn_seq), extra_npcs)
        self.roster: Roster = roster
        n = roster.n
        self.n = n
        self.kind = roster.kind
        self.spawn_id = roster.spawn_id
        # (N,) rows that lead a formation (their patrol keeps separation before the route).
        leads = np.zeros(n, dtype=bool)
        leads[roster.leader[roster.leader >= 0]] = True
        self.agents = AgentGroup.create(
            roster.pos,
            max_speed=roster.max_speed,
            max_force=roster.max_force,
            radius=roster.radius,
            mass=agent_mass(roster.radius),
            max_turn_rate=_turn_rates(roster.archetype, tuning),
        )
        a = self.agents
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
        self.paths = PathSet()
        for k, pd in enumerate(level.paths):
            self.paths[pd.name] = Path(pd.points, closed=pd.closed, radius=pd.radii or pd.radius)
            if pd.drift > 0:
                drift = DriftingPath(
                    pd.points, (pd.drift, pd.drift), pd.drift_speed, seed=self.seed * 7919 + k
                )
                self.paths.set_drift(pd.name, drift)
        self.path_index = roster.path

        # Rocks.
        obs = level.obstacles
        centres = np.array([(o.x, o.y) for o in obs], dtype=np.float64).reshape(-1, 2)
        radii = np.array([o.radius for o in obs], dtype=np.float64)
        dynamic = np.array([o.dynamic for o in obs], dtype=bool)
        #: Incremented by every rock edit (:meth:`edit`), so drawings know to rebuild.
        self.rocks_version = 0
        rock_mass = np.array([o.mass for o in obs], dtype=np.float64)

        segs = [(seg, wd.thickness) for wd in level.walls for seg in wd.segments]
        self.walls = Walls.create(np.array([sg for sg, _ in segs]).reshape(-1, 2, 2))
        self.wall_thickness = np.array([t for _, t in segs], dtype=np.float64)

        self.currents = Currents.from_level(level)

        types = np.where(
            roster.kind == PLAYER, PLAYER_TYPE, np.where(roster.kind == ENEMY, ENEMY_TYPE, NPC_TYPE)
        )
        self.physics = Physics(
            (level.width_px, level.height_px),
            a.pos,
            a.radius,
            a.mass,
            types,
            centres,
            radii,
            rock_mass,
            dynamic,
            settings,
            self.walls.segments,
            self.wall_thickness / 2,
            np.array([o.id for o in obs], dtype=np.int64),
        )

        # Brains.
        mode = np.full(n, Mode.NONE, dtype=np.int8)
        enemies = np.flatnonzero(roster.kind == ENEMY)
        arch = roster.archetype[enemies]
        sentinel = arch == Archetype.SENTINEL
        follower = roster.leader[enemies] >= 0
        mode[enemies] = np.where(roster.path[enemies] >= 0, Mode.PATROL, Mode.WANDER)
        mode[enemies[sentinel]] = Mode.GUARD
        mode[enemies[follower]] = Mode.FORM
        per_arch: dict[Archetype, PatrolTuning | SentinelTuning | FormationTuning] = {
            Archetype.PATROL: tuning.patrol,
            Archetype.SENTINEL: tuning.sentinel,
            Archetype.FORMATION: tuning.formation,
        }
        angle = np.array([per_arch[Archetype(a)].sight_angle for a in arch.tolist()])
        self.minds = EnemyMinds(
            enemies,
            roster.sight[enemies],
            roster.path[enemies] >= 0,
            half_angle=np.radians(angle).reshape(-1),
            lose_after=np.array(
                [per_arch[Archetype(a)].lose_sight_after for a in arch.tolist()]
            ).reshape(-1),
            sentinel=sentinel,
            follower=follower,
            squad=roster.squad[enemies],
        )
        # (N,) the fraction of max speed each agent patrols at.
        pace = np.where(
            roster.archetype == Archetype.FORMATION,
            tuning.formation.patrol_speed,
            tuning.patrol.patrol_speed,
        )
        self.npcs = NpcRules.of(roster)
        w, h = level.width_px, level.height_px
        self.brain = CrowdBrain(
            contain=Contain(0.0, 0.0, w, h),
            avoid=AvoidObstacles(self.physics.obstacles),
            walls=_wall_avoidance(self.walls, self.wall_thickness, tuning),
            paths=self.paths,
            currents=self.currents,
            rng=np.random.default_rng(wander_seq),
            tuning=tuning,
            drag=self.currents.drag,  # issue 15: patrols hold their route in a current
            bounds=(0.0, 0.0, w, h),  # issue 15: fish turn back from the map's edges
        )
        #: Every per-agent column: the engine's groups (``agents``, ``crowd``) and the
        #: enemies' minds work on its arrays.
        self.state = AgentState.empty(
            n,
            mode,
            **{name: getattr(a, name) for name in (*MOTION, *LIMITS)},
            kind=roster.kind,
            archetype=roster.archetype,
            path_index=roster.path,
            pace=pace,
            leads=leads,
            memory=self.crowd.state,
            fills=self.crowd.fills,
            minds=self.minds,
        )
        #: The crowd's separation (each agent keeps its own distance).
        self.separate = Separate(per_agent=True)
        #: (X, 4) the exits' rectangles (left, bottom, right, top), and (X, 2) their centres
        #: (sentinels guard the one nearest the player).
        self.exit_rects, self.exit_centres = _exit_arrays(level.exits)
        #: Called as ``timer(system, seconds)`` after each system of a step when set (the
        #: bench's hook: see :attr:`systems`).
        self.timer: Callable[[str, float], None] | None = None
        #: (2,) the player's input this step (a direction no longer than 1).
        self.thrust = np.zeros(2)
        #: (N + D, 2) the current's velocity at every body, and (N + D,) which bodies are
        #: in a flow region (the perceive system's).
        self.body_current = np.zeros((self.physics.n_bodies, 2))
        self.body_in_current = np.zeros(self.physics.n_bodies, dtype=bool)
        self.read_bodies()
        think(self, DT, enemies=False)

    # -- public views ------------------------------------------------------------------------

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
        return self.body_current[: self.n]

    @property
    def in_current(self) -> BoolArray:
        """(N,) agents inside a flow region now."""
        return self.body_in_current[: self.n]

    @property
    def dt(self) -> float:
        """The fixed step, :data:`DT`."""
        return DT

    # -- editing -----------------------------------------------------------------------------

    def edit(self, changes: Sequence[Change], level: Level | None = None) -> str:
        """Apply an editor's changes (:class:`~game.level.changes.Change` events) live,
        with no rebuild: agents keep their positions, velocities and path progress.

        Paths change in place in :attr:`paths` with the fewest node edits (followers keep
        their progress; a drifting path gets a new drift base); a new path gets a new slot.
        Rocks are moved, resized, added or removed in the pymunk space in place (a pushable
        rock whose place in the level did not change stays where it was pushed); the steering
        core's obstacles and the world's per-body arrays follow. Exits and flow regions are
        replaced; a spawn's speeds, force, sight, separation and place (the post its wanderers
        roam round) reach its agents at once.
        An edit that changes which agents exist (a spawn added or removed; its count, path,
        radius, wander, role, formation, spacing, queueing or avoidance changed; the world's
        size) or edits a wall carries the running world over to the edited level
        (:func:`~game.world.respawn.carry_over`): agents that still exist keep their place,
        motion and memory, new ones start at their spawns, and the clock goes on.

        Args:
            changes: the events of one update of the edited level, in order.
            level: the edited level (new rocks, exits, flows and spawns are read from it).

        Returns:
            ``""`` when all was applied; ``"redraw"`` when exits, flow regions or the agents
            themselves changed (a drawing made from :attr:`level` or sized by the agents must
            be rebuilt).
        """
        old = self.level
        if level is not None:
            self.level = level
        if apply_changes(self.paths, changes, self.time):
            self._edit_rocks(changes, old, level)
        fields = {c.field for c in changes if isinstance(c, ObjectsChanged)}
        if not fields or level is None:
            return ""
        if fields & {"map", "walls"} or not self._edit_spawns(old, level):
            self._carry_over(level)
            return "redraw"
        if "exits" in fields:
            # Sentinels guard the exit nearest the player: the edited exits, not the old ones.
            self.exit_rects, self.exit_centres = _exit_arrays(level.exits)
        if "flows" in fields:
            self.currents.items[:] = Currents.from_level(level).items
            self.currents.remember(np.zeros((0, 2)), np.zeros((0, 2)))
            self.body_current, self.body_in_current = self.currents.velocity_at(self.physics.pos)
        return "redraw" if fields & {"exits", "flows"} else ""

    def _carry_over(self, level: Level) -> None:
        """Become a world of ``level`` with this one's running state (see :meth:`edit`)."""
        from .respawn import carry_over

        fresh = World(
            level,
            self.seed,
            self._extra_npcs,
            stagger=self.stagger,
            settings=self._settings,
            debug=self.debug_enabled,
            tuning=self.tuning,
        )
        fresh.steering_enabled = self.steering_enabled
        fresh.ghost = self.ghost
        fresh.timer = self.timer
        fresh.rocks_version = self.rocks_version + 1
        carry_over(self, fresh)
        state = vars(self)
        state.clear()
        state.update(vars(fresh))

    def _edit_rocks(self, changes: Sequence[Change], old: Level, level: Level | None) -> None:
        """Mirror rock events in the physics (see :meth:`edit`)."""
        phys = self.physics
        rebuild: int | None = None
        if level is not None:
            # A rock that became pushable or fixed, or a rock taken from the middle: the rocks
            # from there on are made again from the level.
            removed = any(isinstance(c, RockRemoved) for c in changes)
            for c in changes:
                if isinstance(c, RockChanged) and c.index < len(old.obstacles):
                    was = old.obstacles[c.index]
                    if removed or (was.dynamic, was.mass) != (c.dynamic, c.mass):
                        rebuild = c.index if rebuild is None else min(rebuild, c.index)
        live = phys.rock_centres()
        for change in changes:
            if isinstance(change, RockChanged):
                if rebuild is not None and change.index >= rebuild:
                    continue
                centre = (float(change.x), float(change.y))
                if change.index < phys.rock_id.size:
                    was_at = (
                        old.obstacles[change.index] if change.index < len(old.obstacles) else None
                    )
                    if change.dynamic and was_at is not None and (was_at.x, was_at.y) == centre:
                        centre = (float(live[change.index, 0]), float(live[change.index, 1]))
                    phys.edit_rock(change.index, centre, float(change.radius), change.id)
                else:
                    phys.add_rock(
                        centre, float(change.radius), change.dynamic, change.mass, change.id
                    )
            elif isinstance(change, RockRemoved) and phys.rock_id.size and rebuild is None:
                phys.remove_last_rock()
        if rebuild is not None and level is not None:
            while phys.rock_id.size > rebuild:
                phys.remove_last_rock()
            for rock in level.obstacles[rebuild:]:
                phys.add_rock((rock.x, rock.y), rock.radius, rock.dynamic, rock.mass, rock.id)
        self._sync_rocks()

    def _edit_spawns(self, old: Level, new: Level) -> bool:
        """Bring agents' limits in line with their edited spawns; False when the edit
        changes which agents exist (see :meth:`edit`)."""

        def roster_of(level: Level) -> list[tuple[object, ...]]:
            rows: list[tuple[object, ...]] = [(level.player.id, level.player.radius)]
            # Role, formation, queueing and avoidance are the roster's too (the archetype, the
            # slots, the NPC rules), so changing one carries the world over.
            rows += [
                (e.id, e.count, e.path, e.radius, e.role, e.formation, e.spacing)
                for e in level.enemies
            ]
            rows += [
                (n.id, n.count, n.path, n.radius, n.wander, n.role, n.queue, n.avoid)
                for n in level.npcs
            ]
            return rows

        if roster_of(old) != roster_of(new):
            return False
        a = self.agents
        a.max_speed[0] = new.player.max_speed
        separation = self.crowd.column("separation")
        spawns: list[EnemySpawn | NpcSpawn] = [*new.enemies, *new.npcs]
        for spawn in spawns:
            kind = ENEMY if isinstance(spawn, EnemySpawn) else NPC
            rows = np.flatnonzero((self.kind == kind) & (self.spawn_id == spawn.id))
            a.max_speed[rows] = spawn.max_speed
            a.max_force[rows] = spawn.max_force
            separation[rows - 1] = spawn.separation
            # A moved spawn moves its agents' post: what a wanderer without a path roams
            # round and is pulled back to (the agents stay where they are).
            self.roster.post[rows] = (spawn.x, spawn.y)
            if isinstance(spawn, EnemySpawn):
                self.minds.sight[np.isin(self.minds.rows, rows)] = spawn.sight
        return True

    def _sync_rocks(self) -> None:
        """Bring what steers by the rocks in line with the physics' rocks after an edit."""
        self.brain.avoid.obstacles = self.physics.obstacles
        self.rocks_version += 1
        self.read_bodies()

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
        self.inputs.append((x, y))
        self.thrust = np.array((x, y))
        timer = self.timer
        if timer is None:  # the systems of :attr:`systems`, called directly
            perceive(self)
            think(self, DT)
            steer(self, DT)
            move(self, DT)
            decide(self)
        else:
            clock = time.perf_counter
            for name, system in self.systems:
                t0 = clock()
                system()
                timer(name, clock() - t0)
        return self.outcome

    @property
    def systems(self) -> tuple[tuple[str, Callable[[], None]], ...]:
        """The step's systems, in the order they run, by name (names are :data:`SYSTEMS`),
        each the entry point of its own module called on this world:

        * ``perceive`` (:mod:`~game.world.perceive`): drifting paths, currents, sight;
        * ``think`` (:mod:`~game.world.think`): the enemies' state machine, NPC modes, path
          turns;
        * ``steer`` (:mod:`~game.world.steer`): every body's acceleration;
        * ``physics`` (:mod:`~game.world.move`): contacts, pymunk, the bodies read back;
        * ``decide`` (:mod:`~game.world.decide`): caught or won.
        """
        return (
            ("perceive", self._perceive),
            ("think", self._think),
            ("steer", self._steer),
            ("physics", self._move),
            ("decide", self._decide),
        )

    def read_bodies(self) -> None:
        """Take the agents' state from the physics bodies again, and the currents where they
        are (after the bodies were written from outside: a world carried over to an edited
        level, a rock edit)."""
        read_back(self, DT)
        self.body_current, self.body_in_current = self.currents.velocity_at(self.physics.pos)

    # The systems, bound to this world (each is its module's entry point).

    def _perceive(self) -> None:
        perceive(self)

    def _think(self) -> None:
        think(self, DT)

    def _steer(self) -> None:
        steer(self, DT)

    def _move(self) -> None:
        move(self, DT)

    def _decide(self) -> None:
        decide(self)


def _exit_arrays(exits: Sequence[ExitData]) -> tuple[FloatArray, FloatArray]:
    """(X, 4) the exits' rectangles (left, bottom, right, top) and (X, 2) their centres (the
    decide system reads the first, sentinels guard the centre nearest the player)."""
    rects = np.array(
        [(e.rect.left, e.rect.bottom, e.rect.right, e.rect.top) for e in exits], dtype=np.float64
    )
    centres = np.array([e.rect.center for e in exits], dtype=np.float64)
    return rects.reshape(-1, 4), centres.reshape(-1, 2)


def _wall_avoidance(walls: Walls, thickness: FloatArray, tuning: Tuning) -> AvoidWalls | None:
    """Feelers against the level's walls (None without walls): the skin starts where the
    thickest wall's surface is, so agents keep clear of every wall's face."""
    if len(walls) == 0:
        return None
    crowd = tuning.crowd
    return AvoidWalls(
        walls,
        feeler_length=crowd.wall_feeler_length,
        feeler_angle=crowd.wall_feeler_angle,
        margin=4.0 + float(thickness.max()) / 2,
    )


def _turn_rates(archetype: NDArray[np.int8], tuning: Tuning) -> FloatArray:
    """(N,) each agent's max turn rate (rad/s; inf: none) from its archetype's tuning."""
    rates = {
        Archetype.PLAYER: None,
        Archetype.PATROL: tuning.patrol.turn_rate,
        Archetype.SENTINEL: tuning.sentinel.turn_rate,
        Archetype.FORMATION: tuning.formation.turn_rate,
        Archetype.FISH: tuning.fish.turn_rate,
        Archetype.HIDER: tuning.hider.turn_rate,
    }
    table = np.array([turn_rate_rad(rates[a]) for a in Archetype])
    return np.asarray(table[archetype], dtype=np.float64)


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
