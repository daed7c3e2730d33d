"""Wander: seek a point on a circle ahead whose angle takes a random walk."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from steering import AgentGroup, Debug, Wander


class WanderScene(Scene):
    title = "Wander"
    caption = (
        "Wander: the target drifts on a circle ahead of each agent; jitter is the angle's "
        "random walk (Reynolds 1999)"
    )
    PARAMS = (
        Param("distance", "circle distance", 40, 0, 200, 5, "px"),
        Param("radius", "circle radius", 20, 1, 100, 1, "px"),
        Param("jitter", "jitter", 3.0, 0, 15, 0.5, "rad/√s"),
        Param("max_speed", "max speed", 90, 10, 300, 10, "px/s"),
        Param("max_force", "max force", 300, 20, 2000, 20, "px/s²"),
    )
    trail = 60

    def setup(self) -> AgentGroup:
        pos = self.rng.uniform((40, 40), (600, 320), (12, 2))
        return AgentGroup.create(pos, self.rng.normal(0, 60, (12, 2)), radius=7)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        wander = Wander(self.rng, self.p["distance"], self.p["radius"], self.p["jitter"])
        return wander(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        self.wrap_edges()


SCENE = WanderScene
