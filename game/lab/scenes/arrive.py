"""Arrive: seek that slows down inside the slowing radius and stops on the mouse."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene
from steering import AgentGroup, Arrive, Debug, Separate, WeightedSum


class ArriveScene(Scene):
    title = "Arrive"
    caption = (
        "Arrive: desired speed falls inside the slowing radius (and to what max force can "
        "brake); no overshoot"
    )
    PARAMS = (
        Param("slowing", "slowing radius", 100, 5, 300, 5, "px"),
        Param("max_speed", "max speed", 180, 20, 400, 10, "px/s"),
        Param("max_force", "max force", 400, 20, 2000, 20, "px/s²"),
        Param("separation", "separation", 24, 0, 60, 2, "px"),
    )
    trail = 30

    def setup(self) -> AgentGroup:
        pos = self.rng.uniform((40, 40), (600, 320), (5, 2))
        return AgentGroup.create(pos, np.zeros((5, 2)), radius=8)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        self.mark(self.target, 6, (255, 220, 90, 230))
        self.mark(self.target, self.p["slowing"], (255, 220, 90, 90), ring=True)
        blend = WeightedSum(
            [Arrive(self.target, slowing_radius=self.p["slowing"]), Separate(self.p["separation"])]
        )
        return blend(self.agents, dt, debug)


SCENE = ArriveScene
