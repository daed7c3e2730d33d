"""Seek: every agent steers at full speed toward the mouse."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from steering import AgentGroup, Debug, Seek

PARAMS = (
    Param("max_speed", "max speed", 150, 20, 400, 10, "px/s"),
    Param("max_force", "max force", 300, 20, 2000, 20, "px/s²"),
    Param("gain", "gain", 8, 1, 30, 1, "1/s"),
)


class SeekScene(Scene):
    title = "Seek"
    caption = (
        "Seek: desired = max speed toward the mouse; steer = desired - velocity (Reynolds 1999)"
    )
    PARAMS = PARAMS
    trail = 30

    def setup(self) -> AgentGroup:
        pos = self.rng.uniform((40, 40), (600, 320), (12, 2))
        return AgentGroup.create(pos, self.rng.normal(0, 60, (12, 2)), radius=7)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        self.mark(self.target, 6, (255, 220, 90, 230))
        return Seek(self.target, gain=self.p["gain"])(self.agents, dt, debug)


SCENE = SeekScene
