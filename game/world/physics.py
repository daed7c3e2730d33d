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
from typing import NamedTuple

import numpy as np
import pymunk
import pymunk.batch as batch
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from steering.vec import FloatArray, clamp

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
    "Near",
    "Physics",
    "PhysicsSettings",
    "RockGrid",
    "clamp_approach",
    "project_out",
    "pushable_pairs",
]

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
#: Projection passes of :func:`project_out` (bodies wedged between overlapping rocks).
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
        self._identity = bool(
            np.array_equal(self.order[: self.n], np.arange(self.n))
            and (self.order[self.n :] < 0).all()
        )
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

    def read(self) -> tuple[FloatArray, FloatArray]:
        """Positions and velocities of the bodies, (N, 2) each in row order (reused arrays)."""
        self._get.clear()
        batch.get_space_bodies(self.space, _READ, self._get)
        data = np.frombuffer(self._get.float_buf(), dtype=np.float64).reshape(-1, 4)
        if self._identity:
            np.copyto(self.pos, data[: self.n, 0:2])
            np.copyto(self.vel, data[: self.n, 2:4])
        else:
            live = self.order >= 0
            self.pos[self.order[live]] = data[live, 0:2]
            self.vel[self.order[live]] = data[live, 2:4]
        return self.pos, self.vel

    def write(self, vel: FloatArray, force: FloatArray, pos: FloatArray | None = None) -> None:
        """Set every body's velocity and force, and its position if ``pos`` is given ((N, 2)
        each, row order), in one pass."""
        out, buf, fields = self._out, self._set, _WRITE
        cols = [vel, force]
        if pos is not None:
            out, buf, fields = self._out_all, self._set_all, _WRITE_ALL
            cols = [pos, vel, force]
        live = self.order >= 0
        for k, arr in enumerate(cols):
            if self._identity:
                out[: self.n, 2 * k : 2 * k + 2] = arr
            else:
                out[live, 2 * k : 2 * k + 2] = arr[self.order[live]]
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

    Attributes:
        space: the pymunk space.
        bodies: every dynamic body in row order: agents, then pushable rocks.
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
        """Rebuild what depends on the set of rocks: body rows, batch transfer, static grid."""
        self.dynamic_rocks = np.flatnonzero(self.rock_dynamic).astype(np.intp)
        self._row_of_body = {b.id: i for i, b in enumerate(self.bodies)}
        self.io = BatchIO(self.space, self.bodies)
        static = ~self.rock_dynamic
        reach = self._agent_radius_max + float(self.rock_radius[~static].max(initial=0.0))
        self.static_rocks = RockGrid(
            self._rock_pos[static], self.rock_radius[static], self.size, pad=reach + MAX_STEP
        )

    def rock_centres(self) -> FloatArray:
        """(M, 2) rock centres now (pushable rocks where their bodies are)."""
        out = self._rock_pos.copy()
        for j in self.dynamic_rocks:
            body = self.rock_shapes[j].body
            if body is not None:
                out[j] = tuple(body.position)
        return out

    def edit_rock(self, j: int, centre: tuple[float, float], radius: float) -> None:
        """Move and resize rock ``j`` in place (its pymunk shape, and body if pushable)."""
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
        self, centre: tuple[float, float], radius: float, dynamic: bool, mass: float
    ) -> None:
        """Add a rock after the others (a pushable one's body after every other body)."""
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
        ((N + D, 2) each, row order)."""
        self.io.write(vel, force, pos)

    def step(self, dt: float) -> None:
        """Advance pymunk by ``dt`` seconds (pymunk clears the forces afterwards)."""
        self.space.step(dt)

    def line_of_sight(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """True when no rock and no wall blocks the segment from ``a`` to ``b`` (agents
        never do)."""
        return self.space.segment_query_first(a, b, 0.0, SIGHT_FILTER) is None


def clamp_approach(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    physics: Physics,
    dt: float,
    near: Near | None = None,
    pushable: tuple[IntArray, IntArray] | None = None,
) -> None:
    """Speculative contacts with the walls and the rocks, in place on ``vel``.

    pymunk (Chipmunk 7) finds a contact only once two shapes overlap, so a body moving at
    ``v`` sinks up to ``v * dt`` into a rock before it is pushed out. Before each step this
    removes the part of each body's velocity that would carry it closer to a static rock or a
    wall than touching within the step (sliding along them is untouched), and the part of an
    agent's velocity relative to a pushable rock that would carry it into the rock: agents
    stop on its surface, the player sinks by the slop so that pymunk lets it push the rock. A
    body moving more than :data:`MAX_STEP` px in a step is left to pymunk.

    Args:
        pos, vel, radius: (N + D, 2), (N + D, 2), (N + D,) every body in row order (agents,
            then pushable rocks); ``vel`` is modified.
        physics: the world's physics (rocks and world size).
        dt: the coming step.
        near: ``physics.static_rocks.near(pos)`` if already computed for these positions.
        pushable: :func:`pushable_pairs` if already computed for these positions.
    """
    if near is None:
        near = physics.static_rocks.near(pos)
    if pushable is None:
        pushable = pushable_pairs(pos, radius, physics)
    e = near.edge
    if e.size:
        w, h = physics.size
        p, r = pos[e], radius[e]
        vx = np.clip(vel[e, 0], np.minimum((r - p[:, 0]) / dt, 0.0), None)
        vel[e, 0] = np.clip(vx, None, np.maximum((w - r - p[:, 0]) / dt, 0.0))
        vy = np.clip(vel[e, 1], np.minimum((r - p[:, 1]) / dt, 0.0), None)
        vel[e, 1] = np.clip(vy, None, np.maximum((h - r - p[:, 1]) / dt, 0.0))
    _clamp_pushable(pos, vel, radius, physics, dt, pushable)
    i, j = near.body, near.rock
    if i.size == 0:
        return
    grid = physics.static_rocks
    dx = pos[i, 0] - grid.centers[j, 0]
    dy = pos[i, 1] - grid.centers[j, 1]
    d = np.hypot(dx, dy)
    gap = d - radius[i] - grid.radii[j]
    safe_d = np.where(d > 1e-9, d, 1.0)
    nx, ny = dx / safe_d, dy / safe_d  # away from the rock
    approach = -(vel[i, 0] * nx + vel[i, 1] * ny)
    excess = approach - np.maximum(gap, 0.0) / dt
    hit = (excess > 0.0) & (d > 1e-9)
    if not hit.any():
        return
    i, nx, ny, excess = i[hit], nx[hit], ny[hit], excess[hit]
    np.add.at(vel[:, 0], i, nx * excess)
    np.add.at(vel[:, 1], i, ny * excess)


def pushable_pairs(
    pos: FloatArray,
    radius: FloatArray,
    physics: Physics,
    crowd_tree: cKDTree | None = None,
) -> tuple[IntArray, IntArray]:
    """(agent row, rock body row) of every agent that may touch a pushable rock within two
    steps: the candidates for :func:`clamp_approach` now and :func:`project_out` after the step.

    Agents come from ``crowd_tree`` (a k-d tree over agent rows 1..N-1 at the current
    positions; built here when not given) with one ball query per rock; the player (row 0) is
    paired with every pushable rock.
    """
    n = physics.n_agents
    d_count = physics.dynamic_rocks.size
    if d_count == 0 or n == 0:
        e = np.zeros(0, dtype=np.intp)
        return e, e
    rows = np.arange(n, n + d_count)
    agent = np.zeros(d_count, dtype=np.intp)
    rock = rows
    if n > 1:
        reach = radius[rows] + float(radius[:n].max()) + 2 * MAX_STEP
        if crowd_tree is None:
            crowd_tree = cKDTree(pos[1:n])
        found = crowd_tree.query_ball_point(pos[rows], reach, return_sorted=False)
        lens = np.array([len(f) for f in found], dtype=np.intp)
        near = [np.asarray(f, dtype=np.intp) for f in found]
        agent = np.concatenate([agent, *near]) if near else agent
        agent[d_count:] += 1
        rock = np.concatenate((rows, np.repeat(rows, lens)))
    return agent, rock


def _clamp_pushable(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    physics: Physics,
    dt: float,
    pairs: tuple[IntArray, IntArray],
) -> None:
    """Speculative contacts of the agents with the pushable rocks (bodies ``n_agents..``).

    The relative velocity toward a rock is limited so that an agent stops on its surface; the
    player may sink by the slop, enough for pymunk to see the contact and let it push the rock.
    """
    agent, rock = pairs
    if agent.size == 0:
        return
    allow = np.where(agent == 0, physics.settings.collision_slop, 0.0)
    dx = pos[agent, 0] - pos[rock, 0]
    dy = pos[agent, 1] - pos[rock, 1]
    d = np.hypot(dx, dy)
    ok = d > 1e-9
    safe_d = np.where(ok, d, 1.0)
    nx, ny = dx / safe_d, dy / safe_d
    approach = -((vel[agent, 0] - vel[rock, 0]) * nx + (vel[agent, 1] - vel[rock, 1]) * ny)
    gap = d - radius[agent] - radius[rock] + allow
    excess = approach - np.maximum(gap, 0.0) / dt
    hit = ok & (excess > 0.0)
    if hit.any():
        np.add.at(vel[:, 0], agent[hit], nx[hit] * excess[hit])
        np.add.at(vel[:, 1], agent[hit], ny[hit] * excess[hit])


def project_out(
    pos: FloatArray,
    radius: FloatArray,
    physics: Physics,
    near: Near | None = None,
    pushable: tuple[IntArray, IntArray] | None = None,
) -> bool:
    """Move bodies that sank into a rock or a wall by more than the slop back to the surface
    (in place on ``pos``); returns whether any moved. Against a pushable rock only the agent
    moves (the rock keeps its place).

    The speculative contacts of :func:`clamp_approach` keep a body's own motion out of rocks,
    but a crowd pressed against a rock (by a current, say) pushes its front row in through
    pymunk's contact solver, which lets overlaps heal over several steps. Projecting those few
    bodies back makes static rocks and walls hard, so no centre is ever closer to a rock than
    the sum of the radii minus the slop. The world writes the moved positions back to pymunk
    with its next step.

    Args:
        pos, radius: every body; ``pos`` is modified.
        physics: the world's physics.
        near: ``physics.static_rocks.near(pos)`` if already computed.
        pushable: (agent row, rock body row) candidates, e.g. :func:`pushable_pairs` from
            before the step; none if not given.
    """
    if near is None:
        near = physics.static_rocks.near(pos)
    slop = physics.settings.collision_slop
    moved = False
    e = near.edge
    if e.size:
        w, h = physics.size
        r = radius[e]
        for axis, top in ((0, w), (1, h)):
            col = pos[e, axis]
            out = (col < r - slop) | (col > top - r + slop)
            if out.any():
                pos[e[out], axis] = np.clip(col[out], r[out], top - r[out])
                moved = True
    # Every candidate pair as (body, centre, reach): static rocks from the grid, pushable
    # rocks from their bodies' rows.
    grid = physics.static_rocks
    body, other = near.body, near.rock
    centres = grid.centers[other]
    reach = radius[body] + grid.radii[other]
    if pushable is not None and pushable[0].size:
        agent, rock = pushable
        body = np.concatenate((body, agent))
        centres = np.concatenate((centres, pos[rock]))
        reach = np.concatenate((reach, radius[agent] + radius[rock]))
    # A few passes: a body in the crevice between two overlapping rocks, pushed out of one,
    # lands in the other; alternating projections settle it outside both.
    for _ in range(PROJECTION_PASSES):
        if body.size == 0:
            break
        dx = pos[body, 0] - centres[:, 0]
        dy = pos[body, 1] - centres[:, 1]
        d = np.hypot(dx, dy)
        deep = d < reach - slop
        if not deep.any():
            break
        i, dx, dy, d, touch = body[deep], dx[deep], dy[deep], d[deep], reach[deep]
        safe_d = np.where(d > 1e-9, d, 1.0)
        ux = np.where(d > 1e-9, dx / safe_d, 1.0)
        uy = np.where(d > 1e-9, dy / safe_d, 0.0)
        np.add.at(pos[:, 0], i, ux * (touch - d))
        np.add.at(pos[:, 1], i, uy * (touch - d))
        moved = True
    return moved


class Near(NamedTuple):
    """What each body is near, from :meth:`RockGrid.near`: the candidates for the contacts."""

    body: IntArray
    """(P,) body rows of the (body, static rock) candidate pairs."""
    rock: IntArray
    """(P,) static rock index of each pair (into ``RockGrid.centers``)."""
    edge: IntArray
    """(E,) body rows within the pad of the map's edge."""


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

    def near(self, pos: FloatArray) -> Near:
        """The static rocks and edges near each of the (K, 2) points (one cell lookup each)."""
        e = np.zeros(0, dtype=np.intp)
        if pos.shape[0] == 0:
            return Near(e, e, e)
        # Truncation toward zero is the floor here: anything below 0 is clipped to cell 0.
        # Column by column: clipping (K, 2) against a (2,) bound runs NumPy's inner loop two
        # elements at a time (three times slower here).
        g = pos * (1.0 / self.cell)
        col = g[:, 0].astype(np.intp)
        cell = g[:, 1].astype(np.intp)
        clamp(col, 0, self.cols - 1, out=col)
        clamp(cell, 0, self.rows - 1, out=cell)
        cell *= self.cols
        cell += col
        flags = self.flags[cell]
        flagged = np.flatnonzero(flags)
        if flagged.size == 0:
            return Near(e, e, e)
        f = flags[flagged]
        edge = flagged[(f & 2) != 0]
        rocky = flagged[(f & 1) != 0]
        if rocky.size == 0 or self.centers.shape[0] == 0:
            return Near(e, e, edge)
        rocks = self.table[cell[rocky]]
        i = np.broadcast_to(rocky[:, None], rocks.shape)
        ok = rocks >= 0
        return Near(i[ok], rocks[ok], edge)
