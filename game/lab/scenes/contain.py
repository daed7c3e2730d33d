"""Containment: wanderers turn back before their predicted position leaves a rectangle."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from steering import AgentGroup, Contain, Debug, TruncatedRunningSum, Walls, Wander

BOX = (120.0, 60.0, 520.0, 300.0)


class ContainScene(Scene):
    title = "Containment"
    caption = (
        "Contain: predict lookahead seconds ahead; past an edge (with margin), desired points"
        " straight back in"
    )
    PARAMS = (
        Param("lookahead", "lookahead", 0.5, 0, 2, 0.05, "s"),
        Param("margin", "margin", 16, 0, 80, 2, "px"),
        Param("max_speed", "max speed", 140, 20, 400, 10, "px/s"),
        Param("max_force", "max force", 500, 20, 2000, 20, "px/s²"),
    )
    trail = 40

    def setup(self) -> AgentGroup:
        left, bottom, right, top = BOX
        # drawn only: containment needs no walls, it reads the rectangle
        corners = [(left, bottom), (right, bottom), (right, top), (left, top)]
        self.walls = Walls.from_polylines([corners], closed=True)
        pos = self.rng.uniform((left + 20, bottom + 20), (right - 20, top - 20), (10, 2))
        return AgentGroup.create(pos, self.rng.normal(0, 80, (10, 2)), radius=7)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        contain = Contain(*BOX, margin=self.p["margin"], lookahead=self.p["lookahead"])
        return TruncatedRunningSum([contain, Wander(self.rng)])(self.agents, dt, debug)


SCENE = ContainScene
