"""Hide: the mouse is a hunter; agents run to the far side of the nearest rock."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene, place_obstacles
from steering import AgentGroup, Contain, Debug, Hide, Separate, TruncatedRunningSum


class HideScene(Scene):
    title = "Hide"
    caption = (
        "Hide (Buckland): a spot behind each rock as seen from the hunter (the mouse); "
        "arrive at the nearest"
    )
    PARAMS = (
        Param("boundary", "distance behind rock", 30, 0, 100, 2, "px"),
        Param("panic", "panic distance", 400, 20, 800, 20, "px"),
        Param("max_speed", "max speed", 150, 20, 400, 10, "px/s"),
        Param("max_force", "max force", 500, 20, 2000, 20, "px/s²"),
        Param("rock", "new rock radius", 26, 8, 60, 2, "px"),
    )
    obstacle_clicks = True
    trail = 20

    def setup(self) -> AgentGroup:
        self.obstacles = place_obstacles(self.rng, 6, self.size, 16, 36, gap=40)
        return AgentGroup.create(self.rng.uniform((40, 40), (600, 320), (6, 2)), radius=7)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        assert self.obstacles is not None
        self.mark(self.target, 8, (255, 90, 60, 240))
        hide = Hide(
            self.target,
            self.obstacles,
            distance_from_boundary=self.p["boundary"],
            panic_distance=self.p["panic"],
        )
        w, h = self.size
        return TruncatedRunningSum([Contain(0, 0, w, h), Separate(20), hide])(
            self.agents, dt, debug
        )


SCENE = HideScene
