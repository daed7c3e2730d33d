"""The pymunk side of a world: the space, its bodies in a fixed row order, batch transfer.

Agents are dynamic circle bodies with infinite moment (they never spin); rocks are circles,
static on ``space.static_body`` or dynamic when pushable; the map's edges are static segments.
Positions and velocities go in and out through ``pymunk.batch`` (one C pass each way) into
float64 NumPy arrays viewed directly on the batch buffers, never a Python loop over bodies.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pymunk
import pymunk.batch as batch
from numpy.typing import NDArray

from steering import Obstacles
from steering.kernels import hypot, njit, use_cache
from steering.vec import FloatArray

from .motion import body_forces

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
    "BatchIO",
    "Physics",
    "PhysicsSettings",
    "RockGrid",
    "pushable_pairs",
]

use_cache(__file__)

log = logging.getLogger(__name__)

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
#: Largest distance (px) a body is expected to move in one step, for the speculative contacts
#: (1,200 px/s at 60 steps a second).
MAX_STEP = 20.0
#: Projection passes of :func:`_project_bodies` (bodies wedged between overlapping rocks).
PROJECTION_PASSES = 8

_READ = batch.BodyFields.POSITION | batch.BodyFields.VELOCITY
_WRITE = batch.BodyFields.VELOCITY | batch.BodyFields.FORCE
_WRITE_ALL = batch.BodyFields.POSITION | batch.BodyFields.VELOCITY | batch.BodyFields.FORCE

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


@dataclass
class _BatchCall:
    """One of pymunk.batch's body passes made ready once: ``cpSpaceEachBody``'s arguments
    (the space, the pass's function, its fields and buffers) and the buffer's float array."""

    args: tuple[Any, Any, Any]
    floats: Any  # cffi records: untyped
    ptr: Any = None


@dataclass
class _BatchCalls:
    """The three body passes :class:`BatchIO` makes every step, each one C call.

    ``pymunk.batch.get_space_bodies`` and ``set_space_bodies`` build the same C record and
    look up the same function on every call: some microseconds of Python a step, as much as
    pymunk's whole step on a small level. Here the records are built once, from the names
    pymunk.batch itself uses; :meth:`make` gives None where they are missing (another pymunk),
    and :class:`BatchIO` then calls pymunk.batch.
    """

    each: Any
    read: _BatchCall
    write: _BatchCall
    write_all: _BatchCall

    @staticmethod
    def make(
        space: pymunk.Space, get: batch.Buffer, put: batch.Buffer, put_all: batch.Buffer
    ) -> _BatchCalls | None:
        try:
            ffi, lib = batch.ffi, batch.lib

            def call(fields: batch.BodyFields, buf: batch.Buffer, name: str) -> _BatchCall:
                data = ffi.new("pmBatchedData *")
                data.fields = fields.value
                data.floatArray = buf._float_arr
                data.intArray = buf._int_arr
                fn = ffi.addressof(lib, name)
                return _BatchCall((space._space, fn, data), buf._float_arr)

            return _BatchCalls(
                lib.cpSpaceEachBody,
                call(_READ, get, "pmSpaceBodyGetIteratorFuncBatched"),
                call(_WRITE, put, "pmSpaceBodySetIteratorFuncBatched"),
                call(_WRITE_ALL, put_all, "pmSpaceBodySetIteratorFuncBatched"),
            )
        except (AttributeError, TypeError, ImportError):  # pragma: no cover - another pymunk
            return None


class BatchIO:
    """Reads positions and velocities of every dynamic body and writes velocities and forces.

    ``pymunk.batch`` visits the space's bodies in its internal order: the dynamic bodies in
    insertion order, then ``space.static_body`` (so buffers need N+1 rows). The order is read
    once from the bodies' ids and turned into a row permutation; when it is the identity (it
    is, as long as no body is removed and none sleeps) the arrays are plain views.

    Args:
        space: the space, every dynamic body already added.
        bodies: the dynamic bodies in *row order* (the order the world's arrays use).
    """

    def __init__(self, space: pymunk.Space, bodies: Sequence[pymunk.Body]) -> None:
        self.space = space
        self.n = len(bodies)
        self._get = batch.Buffer()
        self.order = self._read_order(bodies)
        rows = self.order.shape[0]
        # Write buffers: per visited body vx, vy, fx, fy, or x, y, vx, vy, fx, fy when the
        # positions are written too (the static body's row stays zero).
        self._out = np.zeros((rows, 4))
        self._set = batch.Buffer()
        self._set.set_float_buf(self._out)
        self._out_all = np.zeros((rows, 6))
        self._set_all = batch.Buffer()
        self._set_all.set_float_buf(self._out_all)
        self._calls = _BatchCalls.make(space, self._get, self._set, self._set_all)
        self._got: FloatArray | None = None  # the last fetch's view of pymunk's read buffer
        self._identity = bool(
            np.array_equal(self.order[: self.n], np.arange(self.n))
            and (self.order[self.n :] < 0).all()
        )
        # Which visited rows are the world's bodies, and their rows in row order (made once:
        # the order holds until the bodies change, when a new BatchIO is made).
        self._live = self.order >= 0
        self._rows = self.order[self._live]
        self.pos = np.zeros((self.n, 2))
        self.vel = np.zeros((self.n, 2))

    def _read_order(self, bodies: Sequence[pymunk.Body]) -> IntArray:
        """Row of each visited body (-1 for static ones), from the bodies' ids."""
        self._get.clear()
        batch.get_space_bodies(self.space, batch.BodyFields.BODY_ID, self._get)
        ids = np.frombuffer(self._get.int_buf(), dtype=np.uintp)
        row_of = {b.id: i for i, b in enumerate(bodies)}
        order = np.array([row_of.get(int(i), -1) for i in ids], dtype=np.intp)
        if np.count_nonzero(order >= 0) != len(bodies):
            raise RuntimeError("pymunk.batch does not visit every body of the world exactly once")
        return order

    def fetch(self) -> FloatArray:
        """Every visited body's position and velocity as pymunk has them, (V, 4) in the
        visiting order (:attr:`order` gives each visited body's row, -1 for static ones)."""
        calls = self._calls
        if calls is None:
            self._get.clear()
            batch.get_space_bodies(self.space, _READ, self._get)
            return np.frombuffer(self._get.float_buf(), dtype=np.float64).reshape(-1, 4)
        read = calls.read
        arr = read.floats
        arr.num = 0
        calls.each(*read.args)
        got = self._got
        # The view made at the first fetch holds while pymunk keeps its buffer (it grows it,
        # moving it, only for more values than it held).
        if got is None or arr.arr != read.ptr or arr.num != got.size:
            read.ptr = arr.arr
            got = self._got = np.frombuffer(self._get.float_buf(), dtype=np.float64).reshape(-1, 4)
        return got

    def send(self, with_pos: bool) -> None:
        """Hand pymunk the write buffer (:meth:`buffer`) filled in the visiting order."""
        calls = self._calls
        if calls is None:
            if with_pos:
                batch.set_space_bodies(self.space, _WRITE_ALL, self._set_all)
            else:
                batch.set_space_bodies(self.space, _WRITE, self._set)
            return
        write = calls.write_all if with_pos else calls.write
        arr = write.floats
        num = arr.num
        arr.num = 0  # pymunk reads from the start of the buffer
        calls.each(*write.args)
        arr.num = num

    def buffer(self, with_pos: bool) -> FloatArray:
        """The write buffer, (V, 6) with positions (x, y, vx, vy, fx, fy) or (V, 4) without
        (vx, vy, fx, fy), in the visiting order (static bodies' rows stay zero)."""
        return self._out_all if with_pos else self._out

    def read(self) -> tuple[FloatArray, FloatArray]:
        """Positions and velocities of the bodies, (N, 2) each in row order (reused arrays)."""
        self._get.clear()
        batch.get_space_bodies(self.space, _READ, self._get)
        data = np.frombuffer(self._get.float_buf(), dtype=np.float64).reshape(-1, 4)
        if self._identity:
            np.copyto(self.pos, data[: self.n, 0:2])
            np.copyto(self.vel, data[: self.n, 2:4])
        else:
            self.pos[self._rows] = data[self._live, 0:2]
            self.vel[self._rows] = data[self._live, 2:4]
        return self.pos, self.vel

    def write(self, vel: FloatArray, force: FloatArray, pos: FloatArray | None = None) -> None:
        """Set every body's velocity and force, and its position if ``pos`` is given ((N, 2)
        each, row order), in one pass."""
        out, buf, fields = self._out, self._set, _WRITE
        cols = [vel, force]
        if pos is not None:
            out, buf, fields = self._out_all, self._set_all, _WRITE_ALL
            cols = [pos, vel, force]
        for k, arr in enumerate(cols):
            if self._identity:
                out[: self.n, 2 * k : 2 * k + 2] = arr
            else:
                out[self._live, 2 * k : 2 * k + 2] = arr[self._rows]
        batch.set_space_bodies(self.space, fields, buf)


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
        back (:func:`_clamp_bodies`), the force that brings each body to the velocity its
        acceleration :attr:`acc` asks for (agents at most ``max_speed``: see
        :func:`~game.world.motion.body_forces`) written to pymunk with the velocities (and
        the positions, when :meth:`read_back` moved a body), then pymunk's step. One compiled
        pass and three pymunk calls; returns how many bodies had a non-finite force (zeroed).
        :meth:`read_back` reads the result."""
        self.pushable = self._pushable_now()
        io = self.io
        moved = self.moved
        grid = self.static_rocks
        w, h = self.size
        bad = int(
            _before_step(
                self.pos,
                self.vel,
                self.acc,
                self.body_mass,
                max_speed,
                self.body_radius,
                grid.cell,
                grid.cols,
                grid.rows,
                grid.flags,
                grid.table,
                grid.centers,
                grid.radii,
                w,
                h,
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
        (reused arrays), bodies sunk into a rock projected out (:func:`_project_bodies`), and the
        steering obstacles moved to where the pushable rocks are."""
        io = self.io
        pos, vel = io.pos, io.vel
        pushable = self.pushable
        if pushable is None or pushable[0].shape[0] != pos.shape[0] + 1:
            # None, or a table from before an edit added or removed a rock: no candidates.
            pushable = (np.zeros(pos.shape[0] + 1, dtype=np.intp), np.zeros(0, dtype=np.intp))
        grid = self.static_rocks
        w, h = self.size
        self.moved = bool(
            _after_step(
                io.fetch(),
                io.order,
                pos,
                vel,
                self.body_radius,
                grid.cell,
                grid.cols,
                grid.rows,
                grid.flags,
                grid.table,
                grid.centers,
                grid.radii,
                w,
                h,
                float(self.settings.collision_slop),
                pushable[0],
                pushable[1],
            )
        )
        self.pos, self.vel = pos, vel
        dyn = self.dynamic_rocks
        if dyn.size:
            # In place; the obstacles' grid follows lazily (rebuilt only past a quarter cell).
            self.obstacles.move(dyn, pos[self.n_agents :])
        return pos, vel

    def line_of_sight(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """True when no rock and no wall blocks the segment from ``a`` to ``b`` (agents
        never do)."""
        return self.space.segment_query_first(a, b, 0.0, SIGHT_FILTER) is None


def pushable_pairs(
    pos: FloatArray,
    radius: FloatArray,
    physics: Physics,
) -> tuple[IntArray, IntArray]:
    """The pushable rocks each body may touch within two steps, as a table by body: ``(start,
    rock)`` with body ``i``'s rock body rows at ``rock[start[i]:start[i + 1]]`` in rock order.
    The candidates for :func:`_clamp_bodies` now and :func:`_project_bodies` after the step.

    The player (row 0) is paired with every pushable rock; the other agents (rows 1..N-1)
    with the rocks within reach, each tested only against the rocks listed in its cell of a
    coarse grid over the rocks' reach, made afresh each call (one compiled call, O(N + D): 200
    agents and 12 rocks 6 us, 10,000 agents 0.17 ms, where testing every pair took 21 us and
    0.80 ms).
    """
    n = physics.n_agents
    d_count = physics.dynamic_rocks.size
    bodies = pos.shape[0]
    start = np.zeros(bodies + 1, dtype=np.intp)
    if d_count == 0 or n == 0:
        return start, np.zeros(0, dtype=np.intp)
    return start, _pushable_grid(pos, radius, n, d_count, 2 * MAX_STEP, MAX_PAIR_CELLS, start)


#: Most cells of :func:`_pushable_grid`'s grid (its cells grow to stay under it).
MAX_PAIR_CELLS = 1 << 16


@njit
def _square_half(reach: float) -> float:
    """Half the side of the square :func:`_pushable_grid` lists a rock in: a little wider
    than its reach, so that no agent at the reach is lost to rounding."""
    return reach * (1.0 + 1e-9) + 1e-6


@njit
def _square_cells(
    x: float, y: float, reach: float, x0: float, y0: float, cell: float
) -> tuple[int, int, int, int]:
    """First and last column, first and last row of the cells the square of a rock at (x, y)
    touches, in a grid from (x0, y0) of cells ``cell`` wide."""
    r = _square_half(reach)
    return (
        int((x - r - x0) / cell),
        int((x + r - x0) / cell),
        int((y - r - y0) / cell),
        int((y + r - y0) / cell),
    )


@njit
def _pushable_grid(
    pos: FloatArray,
    radius: FloatArray,
    n: int,
    d_count: int,
    slack: float,
    max_cells: int,
    start: IntArray,
) -> IntArray:
    """:func:`pushable_pairs`' table: the player takes every rock; agent ``i`` rock ``j`` when
    their centres are within ``radius[j]`` plus the largest agent radius plus ``slack``. Each
    agent is tested only against the rocks listed in its cell of a grid whose cells list, in
    rock order, every rock whose reach (a square round its centre) touches them; an agent
    within a rock's reach lies in that square, so in one of its cells. Fills ``start`` and
    returns the rock rows."""
    bodies = pos.shape[0]
    biggest = 0.0
    for i in range(n):
        biggest = max(biggest, radius[i])
    reach = np.empty(d_count)
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for k in range(d_count):
        j = n + k
        reach[k] = radius[j] + biggest + slack
        r = _square_half(reach[k])
        x0 = min(x0, pos[j, 0] - r)
        y0 = min(y0, pos[j, 1] - r)
        x1 = max(x1, pos[j, 0] + r)
        y1 = max(y1, pos[j, 1] + r)
    cell = 1.0
    for k in range(d_count):
        cell = max(cell, 2.0 * reach[k])
    while ((x1 - x0) / cell + 1.0) * ((y1 - y0) / cell + 1.0) > max_cells:
        cell *= 2.0
    cols = int((x1 - x0) / cell) + 1
    rows = int((y1 - y0) / cell) + 1
    # Each rock into the cells its square touches (rocks in order: each cell's list is too).
    per_cell = np.zeros(cols * rows + 1, dtype=np.intp)
    for k in range(d_count):
        c0, c1, r0, r1 = _square_cells(pos[n + k, 0], pos[n + k, 1], reach[k], x0, y0, cell)
        for gy in range(r0, r1 + 1):
            for gx in range(c0, c1 + 1):
                per_cell[gy * cols + gx + 1] += 1
    for c in range(cols * rows):
        per_cell[c + 1] += per_cell[c]
    listed = np.empty(per_cell[cols * rows], dtype=np.intp)
    at = per_cell[:-1].copy()
    for k in range(d_count):
        c0, c1, r0, r1 = _square_cells(pos[n + k, 0], pos[n + k, 1], reach[k], x0, y0, cell)
        for gy in range(r0, r1 + 1):
            for gx in range(c0, c1 + 1):
                c = gy * cols + gx
                listed[at[c]] = k
                at[c] += 1
    # Two passes over the agents: count, then fill.
    count = np.zeros(bodies + 1, dtype=np.intp)
    count[0] = d_count
    for fill in range(2):
        if fill == 1:
            total = 0
            for i in range(bodies + 1):
                start[i] = total
                total += count[i]
            out = np.empty(total, dtype=np.intp)
            for k in range(d_count):
                out[k] = n + k
            slot = start.copy()
            slot[0] += d_count
        for i in range(1, n):
            x, y = pos[i, 0], pos[i, 1]
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                continue
            c = int((y - y0) / cell) * cols + int((x - x0) / cell)
            for m in range(per_cell[c], per_cell[c + 1]):
                k = listed[m]
                j = n + k
                if hypot(x - pos[j, 0], y - pos[j, 1]) <= reach[k]:
                    if fill == 0:
                        count[i] += 1
                    else:
                        out[slot[i]] = j
                        slot[i] += 1
    return out


@njit
def _cell_of(x: float, y: float, cell: float, cols: int, rows: int) -> int:
    """The grid cell holding (x, y), clamped to the grid (a NaN coordinate: the first)."""
    inv = 1.0 / cell
    gx = x * inv
    gy = y * inv
    c = 0 if not gx > 0.0 else (cols - 1 if gx >= cols - 1 else int(gx))
    r = 0 if not gy > 0.0 else (rows - 1 if gy >= rows - 1 else int(gy))
    return r * cols + c


@njit
def _clamp_bodies(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    cell: float,
    cols: int,
    rows: int,
    flags: NDArray[np.int8],
    table: IntArray,
    centers: FloatArray,
    radii: FloatArray,
    w: float,
    h: float,
    dt: float,
    slop: float,
    push_start: IntArray,
    push_rock: IntArray,
) -> None:
    """Speculative contacts with the map's edges and the rocks, in place on ``vel``.

    pymunk (Chipmunk 7) finds a contact only once two shapes overlap, so a body moving at
    ``v`` sinks up to ``v * dt`` into a rock before it is pushed out. Before each step this
    removes the part of each body's velocity that would carry it closer to a static rock or
    the map's edge than touching within the step (sliding along them is untouched), and the
    part of an agent's velocity relative to a pushable rock that would carry it into the rock:
    agents stop on its surface, the player sinks by the slop so that pymunk lets it push the
    rock. Per body: the edge, then the pushable rocks (``push_start``/``push_rock``:
    :func:`pushable_pairs`), then the static rocks of its cell of the rock grid; each stage's
    pushes are summed from the velocity the stage began with."""
    for i in range(pos.shape[0]):
        px, py, r = pos[i, 0], pos[i, 1], radius[i]
        f = flags[_cell_of(px, py, cell, cols, rows)]
        if f & 2:
            vx = max(vel[i, 0], min((r - px) / dt, 0.0))
            vel[i, 0] = min(vx, max((w - r - px) / dt, 0.0))
            vy = max(vel[i, 1], min((r - py) / dt, 0.0))
            vel[i, 1] = min(vy, max((h - r - py) / dt, 0.0))
    # Pushable rocks read the rocks' velocities after their own edge clamp.
    for i in range(push_start.shape[0] - 1):
        a, b = push_start[i], push_start[i + 1]
        if a == b:
            continue
        allow = slop if i == 0 else 0.0
        ax = ay = 0.0
        for k in range(a, b):
            j = push_rock[k]
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            d = hypot(dx, dy)
            if not d > 1e-9:
                continue
            nx, ny = dx / d, dy / d
            approach = -((vel[i, 0] - vel[j, 0]) * nx + (vel[i, 1] - vel[j, 1]) * ny)
            gap = d - radius[i] - radius[j] + allow
            excess = approach - max(gap, 0.0) / dt
            if excess > 0.0:
                ax += nx * excess
                ay += ny * excess
        vel[i, 0] += ax
        vel[i, 1] += ay
    if centers.shape[0] == 0:
        return
    for i in range(pos.shape[0]):
        px, py, r = pos[i, 0], pos[i, 1], radius[i]
        c = _cell_of(px, py, cell, cols, rows)
        if not flags[c] & 1:
            continue
        ax = ay = 0.0
        for k in range(table.shape[1]):
            j = table[c, k]
            if j < 0:
                break
            dx = px - centers[j, 0]
            dy = py - centers[j, 1]
            d = hypot(dx, dy)
            if not d > 1e-9:
                continue
            nx, ny = dx / d, dy / d  # away from the rock
            approach = -(vel[i, 0] * nx + vel[i, 1] * ny)
            excess = approach - max(d - r - radii[j], 0.0) / dt
            if excess > 0.0:
                ax += nx * excess
                ay += ny * excess
        vel[i, 0] += ax
        vel[i, 1] += ay


@njit
def _project_bodies(
    pos: FloatArray,
    radius: FloatArray,
    cell: float,
    cols: int,
    rows: int,
    flags: NDArray[np.int8],
    table: IntArray,
    centers: FloatArray,
    radii: FloatArray,
    w: float,
    h: float,
    slop: float,
    push_start: IntArray,
    push_rock: IntArray,
) -> bool:
    """Move bodies that sank into a rock or out of the map by more than the slop back to the
    surface (in place on ``pos``); returns whether any moved. Against a pushable rock only the
    agent moves (the rock keeps its place).

    The speculative contacts (:func:`_clamp_bodies`) keep a body's own motion out of rocks,
    but a crowd pressed against a rock (by a current, say) pushes its front row in through
    pymunk's contact solver, which lets overlaps heal over several steps. Projecting those few
    bodies back makes static rocks hard, so no centre is ever closer to a rock than the sum of
    the radii minus the slop; the world writes the moved positions back to pymunk with its next
    step. Per body: back inside the map, then out of its static rocks and pushable rocks (the
    rocks where they were before any body moved), in a few passes summing every overlap's push
    (a body in the crevice between two overlapping rocks, pushed out of one, lands in the
    other; alternating projections settle it outside both)."""
    moved = False
    n = pos.shape[0]
    cells = np.empty(n, dtype=np.intp)
    for i in range(n):
        c = _cell_of(pos[i, 0], pos[i, 1], cell, cols, rows)
        cells[i] = c
        if flags[c] & 2:
            r = radius[i]
            for axis, top in ((0, w), (1, h)):
                x = pos[i, axis]
                if x < r - slop or x > top - r + slop:
                    pos[i, axis] = min(max(x, r), top - r)
                    moved = True
    # The pushable rocks' centres before anything moves (a rock is a body too).
    m = push_rock.shape[0]
    rock_x = np.empty(m)
    rock_y = np.empty(m)
    for k in range(m):
        rock_x[k] = pos[push_rock[k], 0]
        rock_y[k] = pos[push_rock[k], 1]
    for i in range(n):
        c = cells[i]
        rocky = (flags[c] & 1) != 0 and centers.shape[0] > 0
        a = push_start[i] if i < push_start.shape[0] - 1 else 0
        b = push_start[i + 1] if i < push_start.shape[0] - 1 else 0
        if not rocky and a == b:
            continue
        r = radius[i]
        for _ in range(PROJECTION_PASSES):
            px, py = pos[i, 0], pos[i, 1]
            sx = sy = 0.0
            deep = False
            if rocky:
                for k in range(table.shape[1]):
                    j = table[c, k]
                    if j < 0:
                        break
                    sx, sy, deep = _push_out(
                        px, py, centers[j, 0], centers[j, 1], r + radii[j], slop, sx, sy, deep
                    )
            for k in range(a, b):
                j = push_rock[k]
                sx, sy, deep = _push_out(
                    px, py, rock_x[k], rock_y[k], r + radius[j], slop, sx, sy, deep
                )
            if not deep:
                break
            pos[i, 0] = px + sx
            pos[i, 1] = py + sy
            moved = True
    return moved


@njit
def _push_out(
    px: float,
    py: float,
    cx: float,
    cy: float,
    reach: float,
    slop: float,
    sx: float,
    sy: float,
    deep: bool,
) -> tuple[float, float, bool]:
    """(sx, sy) plus the push that brings (px, py) to ``reach`` from (cx, cy) when it is
    deeper than the slop (straight along +x from the very centre), and whether any was."""
    dx = px - cx
    dy = py - cy
    d = hypot(dx, dy)
    if not d < reach - slop:
        return sx, sy, deep
    if d > 1e-9:
        ux, uy = dx / d, dy / d
    else:
        ux, uy = 1.0, 0.0
    return sx + ux * (reach - d), sy + uy * (reach - d), True


#: The most cells a :class:`RockGrid` has (about 512 x 512).
MAX_ROCK_CELLS = 262_144


class RockGrid:
    """Static rocks binned on a coarse grid, to find the rocks near many points at once.

    Each cell lists (padded with -1) the rocks whose circle, grown by ``pad``, touches it, so
    the rocks within ``pad`` of a point's surface are among its cell's. O(N) gathers per query
    and no tree to build: cheaper than a k-d tree query for the per-step speculative contacts.

    Args:
        centers, radii: (M, 2), (M,) the static rocks.
        size: (width, height) of the world.
        pad: the largest body radius plus the largest step (px).
        cell: cell size (px).
    """

    def __init__(
        self,
        centers: FloatArray,
        radii: FloatArray,
        size: tuple[float, float],
        pad: float,
        cell: float = 32.0,
    ) -> None:
        self.centers = centers
        self.radii = radii
        # A map so big that 32 px cells would number millions gets bigger cells (at most
        # MAX_ROCK_CELLS of them): the table's memory is bounded whatever the map's size.
        cell = max(float(cell), math.sqrt(size[0] * size[1] / MAX_ROCK_CELLS))
        self.cell = cell
        self.cols = max(math.ceil(size[0] / cell), 1)
        self.rows = max(math.ceil(size[1] / cell), 1)
        n_cells = self.cols * self.rows
        cells: list[IntArray] = []
        rocks: list[IntArray] = []
        for k in range(centers.shape[0]):  # every rock once: the cells its grown circle touches
            r = float(radii[k]) + pad
            x0, x1 = centers[k, 0] - r, centers[k, 0] + r
            y0, y1 = centers[k, 1] - r, centers[k, 1] + r
            rs = np.arange(max(int(y0 // cell), 0), min(int(y1 // cell), self.rows - 1) + 1)
            cs = np.arange(max(int(x0 // cell), 0), min(int(x1 // cell), self.cols - 1) + 1)
            ids = (rs[:, None] * self.cols + cs[None, :]).ravel()
            cells.append(ids)
            rocks.append(np.full(ids.size, k, dtype=np.intp))
        cell_of = np.concatenate(cells) if cells else np.zeros(0, dtype=np.intp)
        rock_of = np.concatenate(rocks) if rocks else np.zeros(0, dtype=np.intp)
        order = np.argsort(cell_of, kind="stable")  # each cell's rocks in rock order
        cell_of, rock_of = cell_of[order], rock_of[order]
        count = np.bincount(cell_of, minlength=n_cells)
        width = int(count.max()) if count.size else 0
        self.table = np.full((n_cells, max(width, 1)), -1, dtype=np.intp)
        start = np.cumsum(count) - count
        self.table[cell_of, np.arange(cell_of.size) - start[cell_of]] = rock_of
        self.count = count
        cols = np.arange(self.cols)
        rows = np.arange(self.rows)
        # Cells any part of which lies within ``pad`` of an edge.
        edge_col = (cols * cell < pad) | ((cols + 1) * cell > size[0] - pad)
        edge_row = (rows * cell < pad) | ((rows + 1) * cell > size[1] - pad)
        self.edge = (edge_row[:, None] | edge_col[None, :]).ravel()
        #: Per cell: 1 near a rock, 2 near an edge (bit flags).
        self.flags = (self.count > 0).astype(np.int8) | (self.edge.astype(np.int8) << 1)

    def arrays(self) -> tuple[float, int, int, NDArray[np.int8], IntArray, FloatArray, FloatArray]:
        """What the contact kernels read of the grid: cell size, columns, rows, per-cell flags,
        the cells' rock table, and the rocks' centres and radii."""
        return self.cell, self.cols, self.rows, self.flags, self.table, self.centers, self.radii


@njit
def _before_step(
    pos: FloatArray,
    vel_now: FloatArray,
    acc: FloatArray,
    mass: FloatArray,
    max_speed: FloatArray,
    radius: FloatArray,
    cell: float,
    cols: int,
    rows: int,
    flags: NDArray[np.int8],
    table: IntArray,
    centres: FloatArray,
    radii: FloatArray,
    w: float,
    h: float,
    dt: float,
    slop: float,
    start: IntArray,
    rock: IntArray,
    order: IntArray,
    force: FloatArray,
    out: FloatArray,
    with_pos: bool,
) -> int:
    """:meth:`Physics.advance`'s compiled pass: the speculative contacts (as
    :func:`_clamp_bodies`) on a copy of the velocities, the bodies' forces
    (:func:`~game.world.motion.body_forces`) into ``force``, and the write buffer ``out``
    filled in pymunk's visiting order ``order`` (positions first ``with_pos``). Returns the
    count of non-finite forces zeroed."""
    vel = vel_now.copy()
    _clamp_bodies(
        pos, vel, radius, cell, cols, rows, flags, table, centres, radii,
        w, h, dt, slop, start, rock,
    )  # fmt: skip
    bad = body_forces(vel, acc, mass, max_speed, dt, force)
    for k in range(order.shape[0]):
        r = order[k]
        if r < 0:
            continue
        c = 0
        if with_pos:
            out[k, 0] = pos[r, 0]
            out[k, 1] = pos[r, 1]
            c = 2
        out[k, c] = vel[r, 0]
        out[k, c + 1] = vel[r, 1]
        out[k, c + 2] = force[r, 0]
        out[k, c + 3] = force[r, 1]
    return bad


@njit
def _after_step(
    data: FloatArray,
    order: IntArray,
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    cell: float,
    cols: int,
    rows: int,
    flags: NDArray[np.int8],
    table: IntArray,
    centres: FloatArray,
    radii: FloatArray,
    w: float,
    h: float,
    slop: float,
    start: IntArray,
    rock: IntArray,
) -> bool:
    """:meth:`Physics.read_back`'s compiled pass: pymunk's positions and velocities (``data``,
    in the visiting order ``order``) into ``pos`` and ``vel`` in row order, then the bodies
    sunk into a rock projected out (as :func:`_project_bodies`); returns whether any moved."""
    for k in range(order.shape[0]):
        r = order[k]
        if r < 0:
            continue
        pos[r, 0] = data[k, 0]
        pos[r, 1] = data[k, 1]
        vel[r, 0] = data[k, 2]
        vel[r, 1] = data[k, 3]
    return _project_bodies(
        pos, radius, cell, cols, rows, flags, table, centres, radii, w, h, slop, start, rock
    )  # fmt: skip
