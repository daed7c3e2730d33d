"""Flocking: separation, alignment and cohesion, each with its distance, weight and field of
view (Reynolds' boids)."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from steering import AgentGroup, Align, Cohere, Debug, Separate, Weighted, WeightedSum


class FlockScene(Scene):
    title = "Flocking"
    caption = (
        "Flocking: separation + alignment + cohesion over the neighbours in range and in the "
        "field of view (Reynolds 1987)"
    )
    size = (800.0, 450.0)
    PARAMS = (
        Param("sep", "separation distance", 24, 0, 100, 2, "px"),
        Param("w_sep", "separation weight", 1.5, 0, 5, 0.1),
        Param("ali", "alignment distance", 50, 0, 200, 5, "px"),
        Param("w_ali", "alignment weight", 1.0, 0, 5, 0.1),
        Param("coh", "cohesion distance", 50, 0, 200, 5, "px"),
        Param("w_coh", "cohesion weight", 1.0, 0, 5, 0.1),
        Param("fov", "field of view", 270, 10, 360, 10, "deg"),
        Param("max_speed", "max speed", 120, 10, 400, 10, "px/s"),
        Param("max_force", "max force", 200, 10, 2000, 10, "px/s²"),
    )

    def setup(self) -> AgentGroup:
        pos = self.rng.uniform((0, 0), self.size, (150, 2))
        return AgentGroup.create(pos, self.rng.normal(0, 80, (150, 2)), radius=5)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        p, fov = self.p, self.p["fov"]
        flock = WeightedSum(
            [
                Weighted(Separate(p["sep"], fov=fov), p["w_sep"]),
                Weighted(Align(p["ali"], fov=fov), p["w_ali"]),
                Weighted(Cohere(p["coh"], fov=fov), p["w_coh"]),
            ]
        )
        return flock(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        self.wrap_edges()


SCENE = FlockScene
