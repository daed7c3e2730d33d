"""A seed-style reference engine: one Python object per vehicle, ``pymunk.Vec2d`` maths and the
seeds' algorithms as written, the yardstick that ``python -m game bench`` measures the core against.

Nothing here is vectorised or indexed on purpose: path following tries every segment, avoidance
loops over every obstacle (twice, tagging first, as Buckland does) and separation over every other
vehicle, so one step costs O(N^2) Python operations. Keep it that way; it is the "before".

Units. The seeds count pixels and frames (velocity in px/frame, force in px/frame^2, one
``velocity += acceleration; position += velocity`` per frame). Here, as in the game, speeds are
px/s and forces px/s^2 with a fixed step ``dt`` (1/60 s), so:

* :meth:`Vehicle.update` is ``velocity += acceleration * dt``, limit to max speed,
  ``position += velocity * dt``, ``acceleration *= 0``: the seeds' update with one frame per dt;
* the seeds' steer ``desired - velocity`` is a velocity change made within one frame, i.e.
  ``(desired - velocity) / dt`` in px/s^2 (:data:`SEED_GAIN`), then limited to max force. The core
  uses a gain of 8/s instead (``steering.DEFAULT_GAIN``): the direction is the same, and so
  is the force whenever the max-force limit applies;
* distances the seeds give in px (predict 25 px ahead, target 25 px further on, the detection
  box) stay px;
* Buckland's avoidance force is a length in px (how far to move sideways, how far to brake); it is
  multiplied by :data:`AVOID_FORCE_SCALE` (1/s^2, the core's ``AvoidObstacles.force_scale``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from pymunk import Vec2d

from game.clock import DT

__all__ = [
    "AVOID_FORCE_SCALE",
    "BRAKING_WEIGHT",
    "DT",
    "MIN_DETECTION_BOX_LENGTH",
    "PREDICT_AHEAD",
    "SEED_GAIN",
    "TARGET_AHEAD",
    "SeedFlowField",
    "SeedObstacle",
    "SeedPath",
    "SeedWorld",
    "Vehicle",
    "Weights",
    "get_normal_point",
    "limit",
    "tag_obstacles_within_view_range",
]

#: The seeds' ``steer = desired - velocity`` (px/frame per frame) in px/s^2 per px/s: 1 / dt.
SEED_GAIN = 1.0 / DT
#: Seeds 000/001: the future position is 25 px ahead along the velocity.
PREDICT_AHEAD = 25.0
#: Seeds 000/001: the target is 25 px past the normal point along the segment.
TARGET_AHEAD = 25.0
#: Seed 002 (the C# port): braking weight.
BRAKING_WEIGHT = 0.6
#: Buckland's ``MinDetectionBoxLength`` (a parameter in the seed); the core's default, so both
#: engines look equally far.
MIN_DETECTION_BOX_LENGTH = 50.0
#: px -> px/s^2 for the avoidance force (the core's ``AvoidObstacles.force_scale``).
AVOID_FORCE_SCALE = 100.0

_ZERO = Vec2d(0.0, 0.0)
_EAST = Vec2d(1.0, 0.0)


def limit(v: Vec2d, max_length: float) -> Vec2d:
    """Processing's ``PVector.limit``: ``v`` shortened to ``max_length`` if longer."""
    if v.get_length_sqrd() > max_length * max_length:
        return v.normalized() * max_length
    return v


def get_normal_point(p: Vec2d, a: Vec2d, b: Vec2d) -> Vec2d:
    """Seed 001's ``getNormalPoint``: ``p`` projected on the line through ``a`` and ``b``."""
    ap = p - a
    ab = (b - a).normalized()
    ab = ab * ap.dot(ab)
    return a + ab


class Weights(NamedTuple):
    """Weights of the blend (Buckland's weighted truncated sum), shared by both engines."""

    path: float
    """Path following (agents with a path only)."""
    flow: float
    """Flow-field following."""
    avoid: float
    """Obstacle avoidance."""
    separate: float
    """Separation."""


@dataclass(eq=False)
class SeedPath:
    """Seed 000/001's ``Path``: a list of points and a radius; closed paths loop (index modulo)."""

    points: list[Vec2d]
    radius: float
    closed: bool = False

    @property
    def segment_count(self) -> int:
        """Number of segments: one per point when closed, one fewer when open."""
        return len(self.points) if self.closed else len(self.points) - 1


@dataclass(eq=False)
class SeedFlowField:
    """Seed 003's ``FlowField``: rows x cols cells of ``resolution`` px, one Vec2d per cell.

    Row 0 is the bottom row at ``origin`` (the game's y axis points up; the seed's rows run down
    the screen), as in the core's :class:`~steering.FlowField`.
    """

    field: list[list[Vec2d]]
    resolution: float
    origin: Vec2d = _ZERO

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.field)

    @property
    def cols(self) -> int:
        """Number of columns."""
        return len(self.field[0])

    def lookup(self, position: Vec2d) -> Vec2d:
        """The vector of the cell holding ``position``, the column and row clamped to the grid."""
        column = int((position.x - self.origin.x) // self.resolution)
        if column < 0:
            column = 0
        elif column > self.cols - 1:
            column = self.cols - 1
        row = int((position.y - self.origin.y) // self.resolution)
        if row < 0:
            row = 0
        elif row > self.rows - 1:
            row = self.rows - 1
        return self.field[row][column]


@dataclass(eq=False)
class SeedObstacle:
    """Buckland's circular obstacle entity: position, bounding radius and a tag."""

    pos: Vec2d
    radius: float
    tagged: bool = False


def tag_obstacles_within_view_range(
    vehicle: Vehicle, obstacles: Sequence[SeedObstacle], radius: float
) -> None:
    """Buckland's ``TagNeighbors``: tag every obstacle within ``radius`` plus its own radius."""
    for ob in obstacles:
        ob.tagged = False
        to = ob.pos - vehicle.position
        reach = radius + ob.radius
        if to.get_length_sqrd() < reach * reach:
            ob.tagged = True


class Vehicle:
    """One seed vehicle: the seeds' ``Vehicle`` with its PVectors as ``pymunk.Vec2d``.

    Each behaviour returns its steering force (px/s^2) the way seed 001's ``follow`` does; the
    caller weights, sums and applies them (:class:`SeedWorld`).

    Attributes:
        position: px.
        velocity: px/s.
        acceleration: px/s^2, accumulated by :meth:`apply_force`, reset by :meth:`update`.
        heading: unit facing (Buckland's), follows the velocity while the vehicle moves.
        maxspeed: speed limit (px/s).
        maxforce: steering force limit (px/s^2).
        r: bounding radius (px); the detection box's half width.
        desiredseparation: seed 004's separation distance (px).
        path: the path the vehicle follows, or None.
        gain: the steer's gain (1/s), :data:`SEED_GAIN` as in the seeds.
    """

    def __init__(
        self,
        position: Vec2d,
        velocity: Vec2d = _ZERO,
        *,
        heading: Vec2d = _EAST,
        maxspeed: float = 120.0,
        maxforce: float = 300.0,
        r: float = 8.0,
        desiredseparation: float = 24.0,
        path: SeedPath | None = None,
        gain: float = SEED_GAIN,
    ) -> None:
        self.position = position
        self.velocity = velocity
        self.acceleration = _ZERO
        self.heading = heading
        self.maxspeed = maxspeed
        self.maxforce = maxforce
        self.r = r
        self.desiredseparation = desiredseparation
        self.path = path
        self.gain = gain

    def __repr__(self) -> str:
        return f"Vehicle(position={self.position}, velocity={self.velocity})"

    # -- the seeds' mechanics ----------------------------------------------------------------

    def apply_force(self, force: Vec2d) -> None:
        """Add a force to the acceleration (mass 1, as in the seeds)."""
        self.acceleration = self.acceleration + force

    def update(self, dt: float = DT) -> None:
        """The seeds' ``update()`` with a step of ``dt`` seconds (see the module docstring)."""
        self.velocity = limit(self.velocity + self.acceleration * dt, self.maxspeed)
        self.position = self.position + self.velocity * dt
        self.acceleration = _ZERO
        if self.velocity.get_length_sqrd() > 1e-16:
            self.heading = self.velocity.normalized()

    def seek(self, target: Vec2d) -> Vec2d:
        """Seed 001's ``seek``: desired at max speed toward ``target``, steer limited."""
        desired = (target - self.position).normalized() * self.maxspeed
        steer = (desired - self.velocity) * self.gain
        return limit(steer, self.maxforce)

    # -- behaviours --------------------------------------------------------------------------

    def follow_path(self, path: SeedPath) -> Vec2d:
        """Seed 001's ``follow``: the nearest normal point over every segment, seek if strayed.

        The future position is 25 px ahead; each segment's normal point outside the segment
        (bounding-box test) is replaced by the segment's end, with the next segment's direction;
        the target is 25 px past the nearest normal point; the vehicle seeks it only when that
        normal point is farther than the path radius. An open path has no segment after its last
        one, which keeps its own direction.
        """
        predictpos = self.position + self.velocity.normalized() * PREDICT_AHEAD
        target = None
        world_record = 1000000.0
        points = path.points
        m = len(points)
        for i in range(path.segment_count):
            a = points[i]
            b = points[(i + 1) % m]
            normal_point = get_normal_point(predictpos, a, b)
            if (
                normal_point.x < min(a.x, b.x)
                or normal_point.x > max(a.x, b.x)
                or normal_point.y < min(a.y, b.y)
                or normal_point.y > max(a.y, b.y)
            ):
                normal_point = b
                if path.closed or i + 2 < m:
                    a = points[(i + 1) % m]
                    b = points[(i + 2) % m]
            direction = b - a
            distance = predictpos.get_distance(normal_point)
            if distance < world_record:
                world_record = distance
                target = normal_point + direction.normalized() * TARGET_AHEAD
        if target is not None and world_record > path.radius:
            return self.seek(target)
        return _ZERO

    def follow_flow(self, flow: SeedFlowField) -> Vec2d:
        """Seed 003's ``follow``: desired = the field vector of the vehicle's cell at max speed."""
        desired = flow.lookup(self.position)
        if desired.length != 0:
            desired = desired.scale_to_length(self.maxspeed)
        steer = (desired - self.velocity) * self.gain
        return limit(steer, self.maxforce)

    def avoid_obstacles(
        self,
        obstacles: Sequence[SeedObstacle],
        min_box_length: float = MIN_DETECTION_BOX_LENGTH,
    ) -> Vec2d:
        """Seed 002's ``ObstacleAvoidance`` (Buckland, C# port), looping over every obstacle.

        The detection box is ``min + speed / maxspeed * min`` long; obstacles within it are
        tagged, moved to local space (x along the heading, y to the left), those behind dropped,
        those whose expanded radius (obstacle + vehicle) misses the x axis dropped; the one whose
        expanded circle crosses the x axis closest is avoided with a lateral force
        ``(-R - y) * m`` (obstacle on the left) or ``(R - y) * m`` with ``m = 1.5 + (L - x) / L``
        and a braking force ``(R - x) * 0.6``, turned back to world space. A rock exactly dead
        ahead gets its side from rounding in the rotation (the seed tests ``y > 0``).
        """
        box_length = min_box_length + (self.velocity.length / self.maxspeed) * min_box_length
        tag_obstacles_within_view_range(self, obstacles, box_length)
        closest: SeedObstacle | None = None
        dist_to_closest = math.inf
        local_of_closest = _ZERO
        angle = self.heading.angle
        for ob in obstacles:
            if ob.tagged:
                local = (ob.pos - self.position).rotated(-angle)
                if local.x >= 0:
                    expanded = ob.radius + self.r
                    if abs(local.y) < expanded:
                        cx, cy = local.x, local.y
                        sqrt_part = math.sqrt(expanded * expanded - cy * cy)
                        ip = cx - sqrt_part
                        if ip <= 0.0:
                            ip = cx + sqrt_part
                        if ip < dist_to_closest:
                            dist_to_closest = ip
                            closest = ob
                            local_of_closest = local
        if closest is None:
            return _ZERO
        multiplier = 1.5 + (box_length - local_of_closest.x) / box_length
        if local_of_closest.y > 0:
            lateral = (-closest.radius - local_of_closest.y) * multiplier
        else:
            lateral = (closest.radius - local_of_closest.y) * multiplier
        braking = (closest.radius - local_of_closest.x) * BRAKING_WEIGHT
        return Vec2d(braking, lateral).rotated(angle) * AVOID_FORCE_SCALE

    def separate(self, vehicles: Sequence[Vehicle]) -> Vec2d:
        """Seed 004's ``separate``: away from every vehicle closer than the desired separation.

        Each away vector is normalised and divided by the distance; their average, set to max
        speed, is the desired velocity. No force without a neighbour that close.
        """
        total = _ZERO
        count = 0
        for other in vehicles:
            d = self.position.get_distance(other.position)
            if 0 < d < self.desiredseparation:
                diff = (self.position - other.position).normalized() / d
                total = total + diff
                count += 1
        if count > 0:
            total = total / count
            total = total.normalized() * self.maxspeed
            steer = (total - self.velocity) * self.gain
            return limit(steer, self.maxforce)
        return _ZERO


@dataclass(eq=False)
class SeedWorld:
    """The reference world: vehicles, the shared path/field/obstacles and the blend.

    Attributes:
        vehicles: every vehicle (each one's ``path`` says whether it follows one).
        flow: the flow field every vehicle follows.
        obstacles: the rocks.
        weights: the blend (Buckland's weighted truncated sum).
        min_box_length: the avoidance detection box at rest (px).
    """

    vehicles: list[Vehicle]
    flow: SeedFlowField
    obstacles: list[SeedObstacle]
    weights: Weights
    min_box_length: float = MIN_DETECTION_BOX_LENGTH

    def calculate(self, vehicle: Vehicle) -> Vec2d:
        """Buckland's ``CalculateWeightedSum`` for one vehicle: weighted forces, summed, limited."""
        w = self.weights
        force = _ZERO
        if vehicle.path is not None:
            force = force + vehicle.follow_path(vehicle.path) * w.path
        force = force + vehicle.follow_flow(self.flow) * w.flow
        force = force + vehicle.avoid_obstacles(self.obstacles, self.min_box_length) * w.avoid
        force = force + vehicle.separate(self.vehicles) * w.separate
        return limit(force, vehicle.maxforce)

    def forces(self) -> list[Vec2d]:
        """The steering force of every vehicle (positions are not touched)."""
        return [self.calculate(v) for v in self.vehicles]

    def integrate(self, forces: Sequence[Vec2d], dt: float = DT) -> None:
        """Apply each vehicle's force and move it (the seeds' ``applyForce``; ``update``)."""
        for vehicle, force in zip(self.vehicles, forces, strict=True):
            vehicle.apply_force(force)
            vehicle.update(dt)

    def step(self, dt: float = DT) -> None:
        """One step: every force first, then every vehicle moves."""
        self.integrate(self.forces(), dt)
