"""Interpose: bodyguards get between a wandering VIP and the mouse."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene
from game.lab.sketch import COLORS
from steering import (
    AgentGroup,
    Contain,
    Debug,
    Interpose,
    Masked,
    Separate,
    TruncatedRunningSum,
    Wander,
)

VIP = 0


class InterposeScene(Scene):
    title = "Interpose"
    caption = (
        "Interpose: arrive at the point ratio of the way from the VIP (orange) to the mouse, "
        "both predicted (Buckland)"
    )
    PARAMS = (
        Param("ratio", "ratio", 0.5, 0, 1, 0.05),
        Param("max_speed", "max speed", 160, 20, 400, 10, "px/s"),
        Param("vip_speed", "VIP max speed", 60, 10, 300, 10, "px/s"),
    )
    trail = 30
    agent_names = ("VIP",)  # VIP

    def setup(self) -> AgentGroup:
        self.colors = np.array([COLORS["agent_alt"], *[COLORS["agent"]] * 3], dtype=np.uint8)
        pos = self.rng.uniform((100, 100), (540, 260), (4, 2))
        return AgentGroup.create(pos, max_force=500, radius=8)

    def apply_limits(self) -> None:
        self.agents.max_speed[:] = self.p["max_speed"]
        self.agents.max_speed[VIP] = self.p["vip_speed"]

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        a = self.agents
        self.mark(self.target, 7, (255, 90, 60, 240))
        guard = TruncatedRunningSum(
            [Separate(30), Interpose(a.pos[VIP], self.target, a.vel[VIP], ratio=self.p["ratio"])]
        )
        w, h = self.size
        vip = TruncatedRunningSum([Contain(40, 40, w - 40, h - 40), Wander(self.rng)])
        is_vip = np.arange(a.n) == VIP
        return Masked(vip, is_vip)(a, dt, debug) + Masked(guard, ~is_vip)(a, dt, debug)


SCENE = InterposeScene
