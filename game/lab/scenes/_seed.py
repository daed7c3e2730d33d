"""What the path-following seed scenes share: the seeds' two vehicles and their borders.

Seed 000 (The Nature of Code 5.4 in pygame, 640 x 360, y down) starts vehicle 1 at (0, 50)
with max speed 2 px/frame and max force 0.02 px/frame^2, vehicle 2 at (0, 180) with 3 and
0.05, both moving at (2, 0) px/frame. Here y is up (y = 360 - y) and frames are 1/60 s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from game.lab import FloatArray, Param, Scene, seed_force, seed_speed
from steering import AgentGroup, Debug, FollowPath, Path

__all__ = [
    "HEIGHT",
    "VEHICLE_PARAMS",
    "WIDTH",
    "SeedPathScene",
    "flip",
    "seed_vehicles",
    "wrap_along_path",
]

WIDTH, HEIGHT = 640.0, 360.0

#: The two vehicles' limits, live.
VEHICLE_PARAMS = (
    Param("speed1", "vehicle 1 max speed", seed_speed(2), 30, 400, 10, "px/s"),
    Param("force1", "vehicle 1 max force", seed_force(0.02), 10, 1000, 6, "px/s²"),
    Param("speed2", "vehicle 2 max speed", seed_speed(3), 30, 400, 10, "px/s"),
    Param("force2", "vehicle 2 max force", seed_force(0.05), 10, 1000, 6, "px/s²"),
)


def flip(points: Sequence[tuple[float, float]]) -> FloatArray:
    """The seed's screen points (y down) in the world's coordinates (y up)."""
    p = np.asarray(points, dtype=np.float64)
    return np.stack((p[:, 0], HEIGHT - p[:, 1]), axis=1)


def seed_vehicles(scene: Scene) -> AgentGroup:
    """Vehicles 1 and 2 of seed 000, limits from the scene's parameters."""
    p = scene.p
    return AgentGroup.create(
        flip([(0, 50), (0, 180)]),
        [(seed_speed(2), 0.0), (seed_speed(2), 0.0)],
        max_speed=[p["speed1"], p["speed2"]],
        max_force=[p["force1"], p["force2"]],
        radius=6.0,
    )


def apply_vehicle_limits(scene: Scene) -> None:
    """Copy the four limit parameters into the two vehicles."""
    p, a = scene.p, scene.agents
    a.max_speed[:] = (p["speed1"], p["speed2"])
    a.max_force[:] = (p["force1"], p["force2"])


def wrap_along_path(agents: AgentGroup, path: Path) -> None:
    """The seed's ``borders``: past the path's last x, back to its start at the same offset."""
    start, end = path.nodes[0], path.nodes[-1]
    past = agents.pos[:, 0] > end[0]
    agents.pos[past, 0] = start[0]
    agents.pos[past, 1] = start[1] + (agents.pos[past, 1] - end[1])


class SeedPathScene(Scene):
    """Seed 000's examples 5.6 and 5.8: its two vehicles follow one path (``POINTS``, y down)
    with the seed's rule, live: predict ``predict`` px ahead along the velocity, find the
    normal point on the nearest segment, and seek ``target`` px further on only when the
    future point is outside the path's radius; past the path's end a vehicle wraps back to
    its start. A subclass gives the example's points, radius and look-ahead."""

    POINTS: ClassVar[tuple[tuple[float, float], ...]]
    RADIUS: ClassVar[float]
    PREDICT: ClassVar[float]
    TARGET_AHEAD: ClassVar[float] = 25.0
    trail = 40
    agent_noun = "vehicle"

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Every example's live parameters: look-ahead, target distance and radius from its
        constants, then the vehicles' limits."""
        super().__init_subclass__(**kwargs)
        cls.PARAMS = (
            Param("predict", "predict ahead", cls.PREDICT, 0, 150, 5, "px"),
            Param("target", "target ahead", cls.TARGET_AHEAD, 0, 150, 5, "px"),
            Param("radius", "path radius", cls.RADIUS, 2, 100, 2, "px"),
            *VEHICLE_PARAMS,
        )

    def setup(self) -> AgentGroup:
        self.paths = [Path(flip(self.POINTS), radius=self.p["radius"])]
        return seed_vehicles(self)

    def apply_limits(self) -> None:
        apply_vehicle_limits(self)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        path = self.paths[0]
        if path.radius != self.p["radius"]:
            path.set_radius(self.p["radius"])
        follow = FollowPath(
            path,
            lookahead_distance=self.p["predict"],  # the seed: unit(velocity) x px
            target_ahead=self.p["target"],
            target_ahead_time=0.0,
            arrive_at_end=False,
            cruise_fraction=0.0,  # the seed's rule: steer only when outside the radius
        )
        return follow(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        wrap_along_path(self.agents, self.paths[0])
