"""Flee: agents wander in a box and run from the mouse when it comes within panic distance."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from steering import AgentGroup, Contain, Debug, Flee, TruncatedRunningSum, Wander


class FleeScene(Scene):
    title = "Flee"
    caption = (
        "Flee: full speed away from the mouse inside the panic distance, else wander "
        "(Reynolds 1999)"
    )
    PARAMS = (
        Param("panic", "panic distance", 120, 10, 400, 10, "px"),
        Param("max_speed", "max speed", 140, 20, 400, 10, "px/s"),
        Param("max_force", "max force", 500, 20, 2000, 20, "px/s²"),
    )
    trail = 20

    def setup(self) -> AgentGroup:
        return AgentGroup.create(self.rng.uniform((40, 40), (600, 320), (16, 2)), radius=7)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        self.mark(self.target, 6, (255, 90, 60, 230))
        self.mark(self.target, self.p["panic"], (255, 90, 60, 120), ring=True)
        w, h = self.size
        blend = TruncatedRunningSum(
            [
                Contain(0, 0, w, h),
                Flee(self.target, panic_distance=self.p["panic"]),
                Wander(self.rng),
            ]
        )
        return blend(self.agents, dt, debug)


SCENE = FleeScene
