"""Seed 000, Exercise 5.11: the path's nodes are vehicles themselves, bouncing up and down."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene, seed_force, seed_speed
from steering import AgentGroup, Contain, Debug, FollowPath, Path, integrate

from ._seed import (
    HEIGHT,
    VEHICLE_PARAMS,
    apply_vehicle_limits,
    flip,
    seed_vehicles,
    wrap_along_path,
)
from .seed_path_5_8 import POINTS, PREDICT, RADIUS, TARGET_AHEAD

#: Exercise 5.11: each node starts at (0, 5 * random) px/frame, max speed 0.5 px/frame, max
#: force 0.02 px/frame^2, and steers away only within 100 px of the top or bottom edge.
NODE_SPEED = seed_speed(0.5)
NODE_FORCE = seed_force(0.02)
NODE_START_SPEED = seed_speed(5.0)
OFFSET = 100.0


class PathEx511(Scene):
    title = "Path following: a moving path"
    source = "Seed 000 · Nature of Code, Exercise 5.11"
    caption = (
        "The path's nodes move ({node_speed}), turning back {offset} from top and bottom; "
        "the followers keep up"
    )
    PARAMS = (
        Param("node_speed", "node max speed", NODE_SPEED, 0, 200, 5, "px/s"),
        Param("offset", "node edge offset", OFFSET, 10, 170, 5, "px"),
        Param("predict", "predict ahead", PREDICT, 0, 150, 5, "px"),
        Param("radius", "path radius", RADIUS, 2, 100, 2, "px"),
        *VEHICLE_PARAMS,
    )
    trail = 40
    agent_noun = "vehicle"

    def setup(self) -> AgentGroup:
        nodes = flip(POINTS)
        start = np.zeros_like(nodes)
        start[:, 1] = -NODE_START_SPEED * self.rng.random(len(nodes))  # down the screen
        self.nodes = AgentGroup.create(
            nodes, start, max_speed=NODE_SPEED, max_force=NODE_FORCE, radius=0.0
        )
        self.paths = [Path(nodes, radius=self.p["radius"])]
        return seed_vehicles(self)

    def apply_limits(self) -> None:
        apply_vehicle_limits(self)
        self.nodes.max_speed[:] = self.p["node_speed"]

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        # the seed's boundaries(): only the top and bottom edges, at max speed away
        edges = Contain(-1e9, 0.0, 1e9, HEIGHT, margin=self.p["offset"], lookahead=0.0)
        integrate(self.nodes, edges(self.nodes, dt), dt)
        path = self.paths[0]
        path.drift_nodes(self.nodes.pos)  # followers keep their progress
        if path.radius != self.p["radius"]:
            path.set_radius(self.p["radius"])
        self.mark(self.nodes.pos, 4.0, (255, 220, 90, 230))
        follow = FollowPath(
            path,
            lookahead_distance=self.p["predict"],  # the seed: unit(velocity) x px
            target_ahead=TARGET_AHEAD,
            target_ahead_time=0.0,
            arrive_at_end=False,
            cruise_fraction=0.0,
        )
        return follow(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        wrap_along_path(self.agents, self.paths[0])


SCENE = PathEx511
