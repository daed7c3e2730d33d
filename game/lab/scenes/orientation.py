"""Orientation apart from velocity: agents patrol a loop but face the mouse, turning at a
limited rate."""

from __future__ import annotations

import math

from game.lab import FloatArray, Param, Scene
from steering import (
    AgentGroup,
    Debug,
    Face,
    FollowPath,
    LookWhereYouAreGoing,
    Path,
)

LOOP = [(120, 80), (520, 80), (520, 280), (120, 280)]


class OrientationScene(Scene):
    title = "Orientation: face, look where going"
    caption = (
        "Face / LookWhereYouAreGoing (gdx-ai): steer the heading, not the velocity, at most "
        "max turn rate"
    )
    PARAMS = (
        Param("look", "look at", 0, 0, 0, 1, choices=("the mouse", "where going")),
        Param("turn", "max turn rate", 180, 10, 1080, 10, "deg/s"),
        Param("max_speed", "max speed", 60, 0, 300, 10, "px/s"),
    )
    trail = 30

    def setup(self) -> AgentGroup:
        self.paths = [Path(LOOP, closed=True, radius=20)]
        start = self.paths[0].point_at([k * 120.0 for k in range(10)])
        return AgentGroup.create(start, radius=9)

    def apply_limits(self) -> None:
        super().apply_limits()
        self.agents.max_turn_rate[:] = math.radians(self.p["turn"])

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        self.mark(self.target, 6, (255, 220, 90, 230))
        look = Face(self.target) if self.p["look"] == 0 else LookWhereYouAreGoing()
        # the patrol steers the velocity (its heading-free maths), the look steers the heading
        force = FollowPath(self.paths[0])(self.agents, dt, debug)
        look(self.agents, dt, debug)  # a zero force; the scene's integrate turns the heading
        return force


SCENE = OrientationScene
