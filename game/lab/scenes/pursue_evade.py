"""Pursue and evade: a hunter leads its prey; the prey runs from where the hunter will be."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene
from game.lab.sketch import COLORS
from steering import (
    AgentGroup,
    Arrive,
    Contain,
    Debug,
    Evade,
    Masked,
    Pursue,
    TruncatedRunningSum,
)

HUNTER, PREY = 0, 1


class PursueEvadeScene(Scene):
    title = "Pursue and evade"
    caption = (
        "Pursue / evade: seek or flee the other's position + velocity x prediction time; prey"
        " heads for the mouse"
    )
    PARAMS = (
        Param("prediction", "max prediction", 1.5, 0, 4, 0.1, "s"),
        Param("panic", "prey panic distance", 160, 20, 500, 10, "px"),
        Param("hunter_speed", "hunter max speed", 130, 20, 400, 10, "px/s"),
        Param("prey_speed", "prey max speed", 150, 20, 400, 10, "px/s"),
    )
    trail = 40
    agent_names = ("hunter", "prey")  # HUNTER, PREY

    def setup(self) -> AgentGroup:
        self.colors = np.array([COLORS["agent_alt"], COLORS["agent"]], dtype=np.uint8)
        return AgentGroup.create([(80, 80), (400, 250)], max_force=500, radius=9)

    def apply_limits(self) -> None:
        self.agents.max_speed[:] = (self.p["hunter_speed"], self.p["prey_speed"])

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        a, t = self.agents, self.p["prediction"]
        self.mark(self.target, 5, (255, 220, 90, 230))
        hunter = Pursue(a.pos[PREY], a.vel[PREY], max_prediction=t)
        w, h = self.size
        prey = TruncatedRunningSum(
            [
                Contain(0, 0, w, h),
                Evade(
                    a.pos[HUNTER], a.vel[HUNTER], max_prediction=t, panic_distance=self.p["panic"]
                ),
                Arrive(self.target),
            ]
        )
        is_hunter = np.arange(a.n) == HUNTER
        return Masked(hunter, is_hunter)(a, dt, debug) + Masked(prey, ~is_hunter)(a, dt, debug)


SCENE = PursueEvadeScene
