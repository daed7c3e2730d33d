"""Seed 001: the Processing sketch, a closed loop followed by 12 vehicles with trails."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene, seed_force, seed_speed
from steering import AgentGroup, Debug, FollowPath, Path

#: size(800, 400); offset 30; points (offset, offset), (w - offset, offset), (w - offset,
#: h - offset), (w / 2, h - 3 offset), (offset, h - offset), closed (index modulo); radius 20.
WIDTH, HEIGHT, OFFSET = 800.0, 400.0, 30.0
SCREEN_POINTS = [
    (OFFSET, OFFSET),
    (WIDTH - OFFSET, OFFSET),
    (WIDTH - OFFSET, HEIGHT - OFFSET),
    (WIDTH / 2, HEIGHT - OFFSET * 3),
    (OFFSET, HEIGHT - OFFSET),
]
RADIUS = 20.0
#: 12 vehicles at random places, velocity (2, 0), r = 6, maxspeed 4, maxforce 1 (per frame).
VEHICLES = 12
MAX_SPEED = seed_speed(4)
MAX_FORCE = seed_force(1)
PREDICT = 25.0
TARGET_AHEAD = 25.0


class PathLoop(Scene):
    title = "Path following: a closed loop"
    source = "Seed 001 · path following in Processing"
    caption = (
        "12 vehicles at {max_speed} go round a loop: look {predict} ahead, seek {target} "
        "on; trails show where they went"
    )
    size = (WIDTH, HEIGHT)
    PARAMS = (
        Param("max_speed", "max speed", MAX_SPEED, 20, 600, 10, "px/s"),
        Param("max_force", "max force", MAX_FORCE, 20, 5000, 20, "px/s²"),
        Param("predict", "predict ahead", PREDICT, 0, 150, 5, "px"),
        Param("target", "target ahead", TARGET_AHEAD, 0, 150, 5, "px"),
        Param("radius", "path radius", RADIUS, 2, 80, 2, "px"),
    )
    agent_noun = "vehicle"
    trail = 50  # the sketch keeps 100 positions; one sample every 2 frames here

    def setup(self) -> AgentGroup:
        nodes = [(x, HEIGHT - y) for x, y in SCREEN_POINTS]
        self.paths = [Path(nodes, closed=True, radius=self.p["radius"])]
        pos = self.rng.uniform((0, 0), (WIDTH, HEIGHT), (VEHICLES, 2))
        return AgentGroup.create(pos, [(seed_speed(2), 0.0)] * VEHICLES, radius=6.0)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        path = self.paths[0]
        if path.radius != self.p["radius"]:
            path.set_radius(self.p["radius"])
        follow = FollowPath(
            path,
            lookahead_distance=self.p["predict"],  # the seed: unit(velocity) x px
            target_ahead=self.p["target"],
            target_ahead_time=0.0,
            cruise_fraction=0.0,
        )
        return follow(self.agents, dt, debug)


SCENE = PathLoop
