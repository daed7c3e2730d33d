"""Seed 002 (Buckland): random non-overlapping obstacles, wanderers with detection boxes, in a
world that wraps round (Buckland's vehicles ``WrapAround`` the client area: leaving one edge
they come in at the opposite one; there are no walls to be contained by)."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene, place_obstacles
from steering import (
    AgentGroup,
    AvoidObstacles,
    Debug,
    TruncatedRunningSum,
    Wander,
)

#: Seed 002: obstacles at least 10 px from the border and 20 px apart (radius + gap), the
#: bottom 40 px kept free; braking weight 0.6; box length = min + speed / max speed x min.
BORDER = 10.0
MIN_GAP = 20.0
STATUS_BAND = 40.0
BRAKING_WEIGHT = 0.6
#: Not in the seed (its Global parameters): Buckland's demo has 7 obstacles of radius 10-30;
#: the minimum box length is the core's default.
OBSTACLES = 7
MIN_RADIUS, MAX_RADIUS = 10.0, 30.0
MIN_BOX = 50.0


class AvoidBuckland(Scene):
    title = "Avoiding rocks: the detection box"
    source = "Seed 002 · Buckland, Programming Game AI by Example"
    caption = (
        "A box ahead grows with speed; the nearest rock inside it pushes the vehicle "
        "sideways and brakes it"
    )
    PARAMS = (
        Param("box", "min box length", MIN_BOX, 10, 200, 5, "px"),
        Param("braking", "braking weight", BRAKING_WEIGHT, 0, 2, 0.1),
        Param("max_speed", "max speed", 110, 20, 300, 10, "px/s"),
        Param("max_force", "max force", 400, 50, 2000, 50, "px/s²"),
        Param("rock", "new rock radius", 24, 8, 60, 2, "px"),
    )
    obstacle_clicks = True
    agent_noun = "vehicle"
    trail = 20

    def setup(self) -> AgentGroup:
        self.obstacles = place_obstacles(
            self.rng,
            OBSTACLES,
            self.size,
            MIN_RADIUS,
            MAX_RADIUS,
            border=BORDER,
            gap=MIN_GAP,
            status_band=STATUS_BAND,
        )
        pos = [(30.0, 20.0 + 40.0 * k) for k in range(6)]
        # a torus: integrate wraps the positions, neighbour search measures across the edges
        return AgentGroup.create(pos, [(60.0, 0.0)] * len(pos), radius=7.0, world_size=self.size)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        assert self.obstacles is not None
        avoid = AvoidObstacles(
            self.obstacles, min_box_length=self.p["box"], braking_weight=self.p["braking"]
        )
        blend = TruncatedRunningSum([avoid, Wander(self.rng, jitter=2.0)])
        return blend(self.agents, dt, debug)


SCENE = AvoidBuckland
