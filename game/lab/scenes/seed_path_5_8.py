"""Seed 000, Example 5.8: path following on a path of several segments."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from game.steering import AgentGroup, Debug, FollowPath, Path

from ._seed import VEHICLE_PARAMS, apply_vehicle_limits, flip, seed_vehicles, wrap_along_path

#: Example 5.8's points (y down), radius 50; the multi-segment follow predicts 50 px ahead and
#: puts the target 25 px past the normal point on the nearest segment.
POINTS = [(0.0, 80.0), (150.0, 150.0), (450.0, 170.0), (640.0, 230.0)]
RADIUS = 50.0
PREDICT = 50.0
TARGET_AHEAD = 25.0


class Path58(Scene):
    title = "Path 5.8: several segments"
    caption = (
        "Seed 000, NoC Example 5.8: nearest normal point over all segments, predict 50 px, "
        "target 25 px on, radius 50"
    )
    PARAMS = (
        Param("predict", "predict ahead", PREDICT, 0, 150, 5, "px"),
        Param("target", "target ahead", TARGET_AHEAD, 0, 150, 5, "px"),
        Param("radius", "path radius", RADIUS, 2, 100, 2, "px"),
        *VEHICLE_PARAMS,
    )
    trail = 40

    def setup(self) -> AgentGroup:
        self.paths = [Path(flip(POINTS), radius=self.p["radius"])]
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
            cruise_fraction=0.0,
        )
        return follow(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        wrap_along_path(self.agents, self.paths[0])


SCENE = Path58
