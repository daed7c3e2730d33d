"""Seed 000, Example 5.6: simple path following along one segment."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from game.steering import AgentGroup, Debug, FollowPath, Path

from ._seed import VEHICLE_PARAMS, apply_vehicle_limits, flip, seed_vehicles, wrap_along_path

#: Example 5.6: path from (0, H/3) to (W, 2H/3), radius 20; predict 25 px, target 25 px on.
PATH = [(0.0, 120.0), (640.0, 240.0)]
RADIUS = 20.0
PREDICT = 25.0
TARGET_AHEAD = 25.0


class Path56(Scene):
    title = "Path 5.6: one segment"
    caption = (
        "Seed 000, NoC Example 5.6: predict 25 px, normal point on the segment, seek 25 px "
        "further on when outside radius 20"
    )
    PARAMS = (
        Param("predict", "predict ahead", PREDICT, 0, 150, 5, "px"),
        Param("target", "target ahead", TARGET_AHEAD, 0, 150, 5, "px"),
        Param("radius", "path radius", RADIUS, 2, 100, 2, "px"),
        *VEHICLE_PARAMS,
    )
    trail = 40

    def setup(self) -> AgentGroup:
        self.paths = [Path(flip(PATH), radius=self.p["radius"])]
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


SCENE = Path56
