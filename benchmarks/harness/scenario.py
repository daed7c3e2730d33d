"""The one benchmark scenario, shared by both engines: the sandbox level's crowd at N agents.

:func:`build_scenario` takes the starting state of a real :class:`~game.world.World` (the crowd,
its paths, the level's flow field as the world builds it, the rocks) and :class:`Scenario` turns
it into (a) the seed-style reference (:meth:`Scenario.reference`) and (b) the core's equivalent
(:meth:`Scenario.core`): the same agents, path following for the agents with a path, flow
following, obstacle avoidance and separation, blended by the same weights in a weighted
truncated sum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from pymunk import Vec2d

from game.level import Level, PathData, load_level, resolve_level
from game.world import Current, World
from steering import (
    AgentGroup,
    AvoidObstacles,
    Behaviour,
    FlowField,
    FollowFlow,
    FollowPath,
    Obstacles,
    Path,
    PathSet,
    Separate,
    Weighted,
    WeightedSum,
)
from steering.vec import FloatArray

from .reference import (
    MIN_DETECTION_BOX_LENGTH,
    SeedFlowField,
    SeedObstacle,
    SeedPath,
    SeedWorld,
    Vehicle,
    Weights,
)

__all__ = ["LEVEL", "WEIGHTS", "Scenario", "build_scenario", "load_sandbox"]

#: The shipped level the benchmark runs on.
LEVEL = "sandbox"
#: The blend, identical in both engines. Avoidance weighs most so it wins the truncated sum
#: near a rock; separation next; the current is a gentle push.
WEIGHTS = Weights(path=1.0, flow=0.6, avoid=2.0, separate=1.5)

IntArray = NDArray[np.intp]


def load_sandbox() -> Level:
    """The shipped sandbox level."""
    return load_level(resolve_level(LEVEL))


@dataclass(frozen=True, eq=False)
class Scenario:
    """The starting state both engines steer: one row per steered agent (the world's crowd).

    Attributes:
        level: the level it came from.
        agents: agents in the world it came from (the crowd plus the player, who is driven by
            input and not steered).
        pos: (n, 2) positions (px).
        vel: (n, 2) velocities (px/s).
        heading: (n, 2) unit facings.
        radius: (n,) bounding radii (px).
        max_speed: (n,) px/s.
        max_force: (n,) px/s^2.
        separation: (n,) desired separation (px), the level's per-spawn value.
        path_index: (n,) index into :attr:`paths` of each agent's path, -1 for none.
        paths: the level's paths.
        field: the flow field of the level's first flow region, as the world builds it.
        rock_centres: (M, 2) rock centres (px).
        rock_radii: (M,) rock radii (px).
        weights: the blend.
    """

    level: Level
    agents: int
    pos: FloatArray
    vel: FloatArray
    heading: FloatArray
    radius: FloatArray
    max_speed: FloatArray
    max_force: FloatArray
    separation: FloatArray
    path_index: IntArray
    paths: tuple[PathData, ...]
    field: FlowField
    rock_centres: FloatArray
    rock_radii: FloatArray
    weights: Weights = WEIGHTS

    @property
    def n(self) -> int:
        """Number of steered agents."""
        return int(self.pos.shape[0])

    def reference(self) -> SeedWorld:
        """The seed-style reference world in this state (fresh objects, plain Python floats)."""
        paths = [
            SeedPath([Vec2d(float(x), float(y)) for x, y in p.points], p.radius, p.closed)
            for p in self.paths
        ]
        flow = SeedFlowField(
            [[Vec2d(x, y) for x, y in row] for row in self.field.vectors.tolist()],
            self.field.cell,
            Vec2d(*self.field.origin),
        )
        rocks = [
            SeedObstacle(Vec2d(x, y), r)
            for (x, y), r in zip(self.rock_centres.tolist(), self.rock_radii.tolist(), strict=True)
        ]
        rows = zip(
            self.pos.tolist(),
            self.vel.tolist(),
            self.heading.tolist(),
            self.max_speed.tolist(),
            self.max_force.tolist(),
            self.radius.tolist(),
            self.separation.tolist(),
            self.path_index.tolist(),
            strict=True,
        )
        vehicles = [
            Vehicle(
                Vec2d(*p),
                Vec2d(*v),
                heading=Vec2d(*h),
                maxspeed=speed,
                maxforce=force,
                r=r,
                desiredseparation=sep,
                path=paths[k] if k >= 0 else None,
            )
            for p, v, h, speed, force, r, sep, k in rows
        ]
        return SeedWorld(vehicles, flow, rocks, self.weights, MIN_DETECTION_BOX_LENGTH)

    def core(self) -> tuple[AgentGroup, WeightedSum]:
        """The core's agent group in this state (fresh arrays) and the same blend of behaviours.

        Path following is one call over every path (a :class:`PathSet`, each agent's slot in
        its path index, :class:`~steering.follow.PathParam`, as
        :class:`~game.world.brains.CrowdBrain` does) and keeps the seeds' rule of steering
        only when the future position strays
        (``cruise_fraction=0``); flow following reads the vehicle's cell (``bilinear=False``),
        as the seed does.
        """
        group = AgentGroup.create(
            self.pos,
            self.vel,
            max_speed=self.max_speed,
            max_force=self.max_force,
            radius=self.radius,
        )
        group.heading = self.heading.copy()
        group.column("separation")[:] = self.separation
        w = self.weights
        parts: list[Weighted | Behaviour] = []
        if (self.path_index >= 0).any():
            registry = PathSet(
                [(d.name, Path(d.points, closed=d.closed, radius=d.radius)) for d in self.paths]
            )
            follow = FollowPath(registry, cruise_fraction=0.0, arrive_at_end=False)
            follow.param(group).path_index[:] = self.path_index
            parts.append(Weighted(follow, w.path))
        rocks = Obstacles.create(self.rock_centres, self.rock_radii)
        parts += [
            Weighted(FollowFlow(self.field, bilinear=False), w.flow),
            Weighted(AvoidObstacles(rocks, min_box_length=MIN_DETECTION_BOX_LENGTH), w.avoid),
            Weighted(Separate(per_agent=True), w.separate),
        ]
        return group, WeightedSum(parts)


def build_scenario(agents: int, level: Level | None = None, weights: Weights = WEIGHTS) -> Scenario:
    """The starting state of ``World(level, extra_npcs=agents - level.agent_count)``.

    Args:
        agents: agents in the world, the player included (the scenario steers ``agents - 1``).
        level: default the shipped sandbox.
        weights: the blend.

    Raises:
        ValueError: if ``agents`` is below the level's own agent count, or the level has no
            flow region.
    """
    lvl = load_sandbox() if level is None else level
    if agents < lvl.agent_count:
        raise ValueError(f"agents: the level has {lvl.agent_count} of its own, got {agents}")
    if not lvl.flows:
        raise ValueError("level: the scenario needs a flow region")
    world = World(lvl, extra_npcs=agents - lvl.agent_count)
    crowd = world.crowd
    rocks = lvl.obstacles
    return Scenario(
        level=lvl,
        agents=world.n,
        pos=crowd.pos.copy(),
        vel=crowd.vel.copy(),
        heading=crowd.heading.copy(),
        radius=crowd.radius.copy(),
        max_speed=crowd.max_speed.copy(),
        max_force=crowd.max_force.copy(),
        separation=crowd.column("separation").copy(),
        path_index=np.asarray(world.path_index[1:], dtype=np.intp).copy(),
        paths=lvl.paths,
        field=Current.build(lvl.flows[0]).field,
        rock_centres=np.array([(o.x, o.y) for o in rocks], dtype=np.float64).reshape(-1, 2),
        rock_radii=np.array([o.radius for o in rocks], dtype=np.float64),
        weights=weights,
    )
