"""The pymunk side of a world: the space, its bodies in a fixed row order, the rocks' registry.

Agents are dynamic circle bodies with infinite moment (they never spin); rocks are circles,
static on ``space.static_body`` or dynamic when pushable; the map's edges are static segments.
Positions and velocities go in and out through :class:`~game.world.physics_batch.BatchIO`
(one C pass each way); the compiled contacts around pymunk's step are in
:mod:`game.world.contacts` and the pushable rocks' candidate pairs in :mod:`game.world.pushable`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pymunk
from numpy.typing import NDArray

from steering import Obstacles
from steering.vec import FloatArray

from .contacts import MAX_STEP, RockGrid, after_step, before_step
from .physics_batch import BatchIO
from .pushable import pushable_pairs

__all__ = [
    "CAT_AGENT",
    "CAT_LEVEL_WALL",
    "CAT_PLAYER",
    "CAT_ROCK",
    "CAT_SIGHT",
    "CAT_WALL",
    "ENEMY_TYPE",
    "NPC_TYPE",
    "PLAYER_TYPE",
    "ROCK_TYPE",
    "SIGHT_FILTER",
    "WALL_TYPE",
    "Physics",
    "PhysicsSettings",
]

#: Collision types (pymunk ``Shape.collision_type``).
PLAYER_TYPE, ENEMY_TYPE, NPC_TYPE, ROCK_TYPE, WALL_TYPE = 1, 2, 3, 4, 5

#: Shape filter categories (``CAT_WALL``: the map's edges; ``CAT_LEVEL_WALL``: the level's
#: ``wall`` objects).
CAT_AGENT, CAT_PLAYER, CAT_ROCK, CAT_WALL, CAT_SIGHT, CAT_LEVEL_WALL = 1, 2, 4, 8, 16, 32

#: Line-of-sight queries: rocks and the level's walls block sight (agents, the player and the
#: map's edges do not).
SIGHT_FILTER = pymunk.ShapeFilter(categories=CAT_SIGHT, mask=CAT_ROCK | CAT_LEVEL_WALL)

#: Half thickness of the edge walls (px); their inner face is exactly on the map's edge.
WALL_RADIUS = 16.0

IntArray = NDArray[np.intp]


@dataclass(frozen=True)
class PhysicsSettings:
    """pymunk tuning; the defaults were measured on the sandbox (see benchmarks/world_step.py).

    Attributes:
        iterations: contact solver iterations per step (pymunk's default is 10). Agents rarely
            press on each other (separation keeps them apart), so fewer are enough.
        collision_slop: overlap (px) pymunk allows before it pushes shapes apart.
        spatial_hash: ``(cell size, count)`` to use pymunk's spatial hash instead of its
            default bounding-box tree. Measured no better on the sandbox (cells of 16 and
            20 px: slightly slower at 5,000 agents, within noise at 10,000 and 20,000), so
            off by default.
    """

    iterations: int = 4
    collision_slop: float = 0.1
    spatial_hash: tuple[float, int] | None = None


class Physics:
    """A pymunk space holding the agents (rows 0..N-1), pushable rocks (rows N..) and walls.

    Args:
        size: (width, height) of the world in px.
        agent_pos, agent_radius, agent_mass: (N, 2), (N,), (N,) agent bodies.
        agent_type: (N,) collision types (:data:`PLAYER_TYPE`, :data:`ENEMY_TYPE`,
            :data:`NPC_TYPE`).
        rock_pos, rock_radius, rock_mass: (M, 2), (M,), (M,) rocks.
        rock_dynamic: (M,) which rocks are pushable bodies (the others are static shapes).
        settings: solver tuning.
        walls: (W, 2, 2) the level's wall segments (start, end), static.
        wall_radius: (W,) half the thickness of each wall segment.
        rock_id: (M,) the rocks' ids in the level (default: their indices).

    The physics owns the bodies' radius and mass, the contact pipeline around pymunk's step
    (speculative contacts, projection out of rocks, the pushable pairs between them) and the
    one registry of rocks: their ids, rest centres, radii, masses and which are pushable.
    The steering core's :class:`~steering.Obstacles` are a view of that registry, made again
    after a rock edit and moved with the pushable rocks' bodies after every read.

    Attributes:
        space: the pymunk space.
        bodies: every dynamic body in row order: agents, then pushable rocks.
        body_radius, body_mass: (N + D,) every body's radius and mass, in row order.
        pos, vel: (N + D, 2) every body's position and velocity as last read back
            (:meth:`read_back`).
        acc: (N + D, 2) every body's acceleration for the coming step (the steer system
            writes it); ``force`` the forces made from it (:func:`~game.world.motion.body_forces`).
        pushable: the pushable rocks each body may touch (:func:`pushable_pairs`), from the
            last :meth:`advance`; None before the first or after a rock edit.
        moved: whether the last :meth:`read_back` moved a body out of a rock (the positions
            are written back to pymunk with the next step).
        rock_id, rock_radius, rock_mass, rock_dynamic: (M,) the rocks, by rock index.
        obstacles: the rocks as the steering core sees them (centres now, radii).
        agent_shapes: the agents' circles, by agent row.
        rock_shapes: the rocks' circles, by rock index.
        wall_shapes: the level's wall segments, by segment index.
        dynamic_rocks: (D,) rock indices of the pushable rocks (body rows N..N+D-1).
        caught_by: agent rows of enemies that touched the player since the last reset.
        current: (N + D, 2) the water's velocity at every body, and ``in_current`` (N + D,)
            which bodies are in a flow region (the perceive system writes both each step).
        rocks_version: incremented by every rock edit (and a world carried over), so drawings
            know to rebuild.
        rocks_moves: incremented by every :meth:`read_back` whose pushable rocks' moves
            changed the steering obstacles' index (their grid rebuilt, or moved at all since it
            was built): part of the steer system's stamp, since rock avoidance's record holds
            while they move within the grid.
    """

    def __init__(
        self,
        size: tuple[float, float],
        agent_pos: FloatArray,
        agent_radius: FloatArray,
        agent_mass: FloatArray,
        agent_type: NDArray[np.integer],
        rock_pos: FloatArray,
        rock_radius: FloatArray,
        rock_mass: FloatArray,
        rock_dynamic: NDArray[np.bool_],
        settings: PhysicsSettings | None = None,
        walls: FloatArray | None = None,
        wall_radius: FloatArray | None = None,
        rock_id: NDArray[np.integer] | None = None,
    ) -> None:
        self.settings = settings or PhysicsSettings()
        self.size = (float(size[0]), float(size[1]))
        space = pymunk.Space()
        space.gravity = (0.0, 0.0)
        space.iterations = self.settings.iterations
        space.collision_slop = self.settings.collision_slop
        if self.settings.spatial_hash is not None:
            dim, count = self.settings.spatial_hash
            space.use_spatial_hash(dim, count)
        self.space = space
        self.n_agents = int(agent_pos.shape[0])
        self.caught_by: list[int] = []
        self.rocks_version = 0
        self.rocks_moves = 0
        self._rocks_index: tuple[object, bool] = (None, False)

        bodies: list[pymunk.Body] = []
        shapes: list[pymunk.Shape] = []
        for i in range(self.n_agents):
            body = pymunk.Body(float(agent_mass[i]), math.inf)
            body.position = (float(agent_pos[i, 0]), float(agent_pos[i, 1]))
            shape = pymunk.Circle(body, float(agent_radius[i]))
            kind = int(agent_type[i])
            shape.collision_type = kind
            cat = CAT_PLAYER if kind == PLAYER_TYPE else CAT_AGENT
            shape.filter = pymunk.ShapeFilter(categories=cat)
            shape.friction = 0.0
            shape.elasticity = 0.0
            bodies.append(body)
            shapes.append(shape)
        self.agent_shapes = list(shapes)

        self.rock_shapes: list[pymunk.Circle] = []
        self.rock_radius = np.asarray(rock_radius, dtype=np.float64).reshape(-1).copy()
        self.rock_mass = np.asarray(rock_mass, dtype=np.float64).reshape(-1).copy()
        self.rock_dynamic = np.asarray(rock_dynamic, dtype=bool).reshape(-1).copy()
        self._rock_pos = np.asarray(rock_pos, dtype=np.float64).reshape(-1, 2).copy()
        m = self._rock_pos.shape[0]
        ids = np.arange(m) if rock_id is None else np.asarray(rock_id).reshape(-1)
        self.rock_id = ids.astype(np.int64)
        self._agent_radius = np.asarray(agent_radius, dtype=np.float64).reshape(-1).copy()
        self._agent_mass = np.asarray(agent_mass, dtype=np.float64).reshape(-1).copy()
        self._agent_radius_max = float(np.max(agent_radius, initial=0.0))
        for j in range(rock_pos.shape[0]):
            shape, rock_body = self._rock_shape(j)
            if rock_body is not None:
                bodies.append(rock_body)
            shapes.append(shape)
            self.rock_shapes.append(shape)

        w, h = self.size
        k = WALL_RADIUS
        for a, b in (
            ((-k, -k), (w + k, -k)),
            ((w + k, -k), (w + k, h + k)),
            ((w + k, h + k), (-k, h + k)),
            ((-k, h + k), (-k, -k)),
        ):
            wall = pymunk.Segment(space.static_body, a, b, k)
            wall.collision_type = WALL_TYPE
            wall.filter = pymunk.ShapeFilter(categories=CAT_WALL)
            wall.friction = 0.0
            shapes.append(wall)
        self.wall_shapes: list[pymunk.Segment] = []
        segs = np.zeros((0, 2, 2)) if walls is None else np.asarray(walls, dtype=np.float64)
        half = np.zeros(segs.shape[0]) if wall_radius is None else np.asarray(wall_radius)
        level_walls = pymunk.ShapeFilter(categories=CAT_LEVEL_WALL)
        for k in range(segs.shape[0]):  # a handful of walls, once
            (ax, ay), (bx, by) = segs[k].tolist()
            seg = pymunk.Segment(space.static_body, (ax, ay), (bx, by), float(half[k]))
            seg.collision_type = WALL_TYPE
            seg.filter = level_walls
            seg.friction = 0.0
            seg.elasticity = 0.0
            shapes.append(seg)
            self.wall_shapes.append(seg)

        space.add(*bodies, *shapes)
        self.bodies = bodies
        handler = space.add_collision_handler(ENEMY_TYPE, PLAYER_TYPE)
        handler.begin = self._on_catch
        self._index_rocks()

    def _rock_shape(self, j: int) -> tuple[pymunk.Circle, pymunk.Body | None]:
        """The pymunk shape of rock ``j`` (and its body when pushable), not yet added."""
        r = float(self.rock_radius[j])
        centre = (float(self._rock_pos[j, 0]), float(self._rock_pos[j, 1]))
        body: pymunk.Body | None = None
        if self.rock_dynamic[j]:
            m = float(self.rock_mass[j])
            body = pymunk.Body(m, pymunk.moment_for_circle(m, 0.0, r))
            body.position = centre
            shape = pymunk.Circle(body, r)
        else:
            shape = pymunk.Circle(self.space.static_body, r, centre)
        shape.collision_type = ROCK_TYPE
        shape.filter = pymunk.ShapeFilter(categories=CAT_ROCK)
        shape.friction = 0.0
        shape.elasticity = 0.0
        return shape, body

    def _index_rocks(self) -> None:
        """Rebuild what depends on the set of rocks: body rows and arrays, batch transfer,
        static grid, the steering obstacles."""
        self.dynamic_rocks = dyn = np.flatnonzero(self.rock_dynamic).astype(np.intp)
        self.body_radius = np.concatenate((self._agent_radius, self.rock_radius[dyn]))
        self.body_mass = np.concatenate((self._agent_mass, self.rock_mass[dyn]))
        bodies = self.body_radius.shape[0]
        self.acc = np.zeros((bodies, 2))
        self.force = np.zeros((bodies, 2))
        self.current = np.zeros((bodies, 2))
        self.in_current = np.zeros(bodies, dtype=bool)
        self.pushable: tuple[IntArray, IntArray] | None = None
        self._no_pushable: tuple[IntArray, IntArray] | None = None
        self.moved = False
        centres = self.rock_centres()
        self.obstacles = (
            Obstacles.create(centres, self.rock_radius.copy())
            if centres.shape[0]
            else Obstacles.empty()
        )
        self._row_of_body = {b.id: i for i, b in enumerate(self.bodies)}
        self.io = BatchIO(self.space, self.bodies)
        static = ~self.rock_dynamic
        reach = self._agent_radius_max + float(self.rock_radius[~static].max(initial=0.0))
        self.static_rocks = RockGrid(
            self._rock_pos[static], self.rock_radius[static], self.size, pad=reach + MAX_STEP
        )
        self.read_back()

    def rock_centres(self) -> FloatArray:
        """(M, 2) rock centres now (pushable rocks where their bodies are)."""
        out = self._rock_pos.copy()
        for j in self.dynamic_rocks:
            body = self.rock_shapes[j].body
            if body is not None:
                out[j] = tuple(body.position)
        return out

    def edit_rock(
        self, j: int, centre: tuple[float, float], radius: float, rock_id: int | None = None
    ) -> None:
        """Move and resize rock ``j`` in place (its pymunk shape, and body if pushable), and
        give it ``rock_id`` if given."""
        if rock_id is not None:
            self.rock_id[j] = rock_id
        self._rock_pos[j] = centre
        self.rock_radius[j] = radius
        shape = self.rock_shapes[j]
        shape.unsafe_set_radius(float(radius))
        if self.rock_dynamic[j]:
            body = shape.body
            assert body is not None
            body.position = centre
            body.velocity = (0.0, 0.0)
            m = float(self.rock_mass[j])
            body.moment = pymunk.moment_for_circle(m, 0.0, float(radius))
        else:
            shape.unsafe_set_offset(centre)
        self.space.reindex_shape(shape)
        self._index_rocks()

    def add_rock(
        self,
        centre: tuple[float, float],
        radius: float,
        dynamic: bool,
        mass: float,
        rock_id: int | None = None,
    ) -> None:
        """Add a rock after the others (a pushable one's body after every other body); its id
        is ``rock_id``, or its index when not given."""
        m = self._rock_pos.shape[0]
        self.rock_id = np.append(self.rock_id, np.int64(m if rock_id is None else rock_id))
        self._rock_pos = np.vstack((self._rock_pos, [centre]))
        self.rock_radius = np.append(self.rock_radius, float(radius))
        self.rock_dynamic = np.append(self.rock_dynamic, bool(dynamic))
        self.rock_mass = np.append(self.rock_mass, float(mass))
        shape, body = self._rock_shape(self._rock_pos.shape[0] - 1)
        if body is not None:
            self.space.add(body, shape)
            self.bodies.append(body)
        else:
            self.space.add(shape)
        self.rock_shapes.append(shape)
        self._index_rocks()

    def remove_last_rock(self) -> None:
        """Remove the last rock (the editor only ever removes rocks from the end)."""
        shape = self.rock_shapes.pop()
        if self.rock_dynamic[-1]:
            body = self.bodies.pop()
            self.space.remove(body, shape)
        else:
            self.space.remove(shape)
        self._rock_pos = self._rock_pos[:-1]
        self.rock_id = self.rock_id[:-1]
        self.rock_radius = self.rock_radius[:-1]
        self.rock_dynamic = self.rock_dynamic[:-1]
        self.rock_mass = self.rock_mass[:-1]
        self._index_rocks()

    def _on_catch(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> bool:
        """pymunk ``begin`` callback for an enemy touching the player: note who."""
        for shape in arbiter.shapes:
            if shape.collision_type == ENEMY_TYPE and shape.body is not None:
                self.caught_by.append(self._row_of_body.get(shape.body.id, -1))
        return True

    @property
    def n_bodies(self) -> int:
        """Number of dynamic bodies (agents and pushable rocks)."""
        return len(self.bodies)

    def read(self) -> tuple[FloatArray, FloatArray]:
        """(N + D, 2) positions and velocities of every dynamic body, in row order."""
        return self.io.read()

    def write(self, vel: FloatArray, force: FloatArray, pos: FloatArray | None = None) -> None:
        """Set the velocity and force (and position, if given) of every dynamic body
        ((N + D, 2) each, row order): for a world whose bodies are set from outside (a world
        carried over to an edited level)."""
        self.io.write(vel, force, pos)

    def advance(self, max_speed: FloatArray, dt: float) -> int:
        """Move every body one step: the speculative contacts on the velocities last read
        back (:func:`~game.world.contacts.clamp_bodies`), the force that brings each body to
        the velocity its acceleration :attr:`acc` asks for (agents at most ``max_speed``: see
        :func:`~game.world.motion.body_forces`) written to pymunk with the velocities (and
        the positions, when :meth:`read_back` moved a body), then pymunk's step. One compiled
        pass and three pymunk calls; returns how many bodies had a non-finite force (zeroed).
        :meth:`read_back` reads the result."""
        self.pushable = self._pushable_now()
        io = self.io
        moved = self.moved
        bad = int(
            before_step(
                self.pos,
                self.vel,
                self.acc,
                self.body_mass,
                max_speed,
                self.body_radius,
                self.static_rocks.fields,
                float(dt),
                float(self.settings.collision_slop),
                self.pushable[0],
                self.pushable[1],
                io.order,
                self.force,
                io.buffer(moved),
                moved,
            )
        )
        io.send(moved)
        self.space.step(dt)
        return bad

    def _pushable_now(self) -> tuple[IntArray, IntArray]:
        """:func:`pushable_pairs` for the bodies' positions now (a table kept while there is
        no pushable rock)."""
        if self.dynamic_rocks.size == 0:
            table = self._no_pushable
            if table is None or table[0].shape[0] != self.pos.shape[0] + 1:
                table = self._no_pushable = pushable_pairs(self.pos, self.body_radius, self)
            return table
        return pushable_pairs(self.pos, self.body_radius, self)

    def read_back(self) -> tuple[FloatArray, FloatArray]:
        """Every body's position and velocity from pymunk into :attr:`pos` and :attr:`vel`
        (reused arrays), bodies sunk into a rock projected out
        (:func:`~game.world.contacts.project_bodies`), and the steering obstacles moved to where
        the pushable rocks are."""
        io = self.io
        pos, vel = io.pos, io.vel
        pushable = self.pushable
        if pushable is None or pushable[0].shape[0] != pos.shape[0] + 1:
            # None, or a table from before an edit added or removed a rock: no candidates.
            pushable = (np.zeros(pos.shape[0] + 1, dtype=np.intp), np.zeros(0, dtype=np.intp))
        self.moved = bool(
            after_step(
                io.fetch(),
                io.order,
                pos,
                vel,
                self.body_radius,
                self.static_rocks.fields,
                float(self.settings.collision_slop),
                pushable[0],
                pushable[1],
            )
        )
        self.pos, self.vel = pos, vel
        dyn = self.dynamic_rocks
        if dyn.size:
            # In place; the obstacles' grid follows lazily (rebuilt only past a quarter cell).
            obs = self.obstacles
            if obs.move(dyn, pos[self.n_agents :]):
                grid, shift, _ = obs.index()
                index = (grid, shift > 0.0)
                if index[0] is not self._rocks_index[0] or index[1] != self._rocks_index[1]:
                    self._rocks_index = index
                    self.rocks_moves += 1
        return pos, vel

    def line_of_sight(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """True when no rock and no wall blocks the segment from ``a`` to ``b`` (agents
        never do)."""
        return self.space.segment_query_first(a, b, 0.0, SIGHT_FILTER) is None
