"""Queueing at a gap: a crowd funnels through a doorway; each waits for the slower one ahead."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene
from steering import (
    AgentGroup,
    AvoidWalls,
    Debug,
    Queue,
    Seek,
    Separate,
    TruncatedRunningSum,
    Walls,
    Weighted,
)

CROWD = 24
WALL_X = 380.0


class QueueScene(Scene):
    title = "Queueing at a gap"
    caption = (
        "Queueing (Reynolds): brake while a slower one is close ahead in the cone; with "
        "separation, a line forms at the door"
    )
    PARAMS = (
        Param("door", "door width", 40, 16, 160, 4, "px"),
        Param("distance", "queue distance", 40, 0, 120, 4, "px"),
        Param("brake", "brake", 0.8, 0, 3, 0.1),
        Param("fov", "queue cone", 90, 10, 360, 10, "deg"),
        Param("max_speed", "max speed", 90, 20, 300, 10, "px/s"),
    )
    trail = 10

    def setup(self) -> AgentGroup:
        self.door = -1.0
        pos = np.column_stack((self.rng.uniform(20, 260, CROWD), self.rng.uniform(40, 320, CROWD)))
        return AgentGroup.create(pos, max_force=400, radius=7)

    def make_walls(self) -> Walls:
        if self.door != self.p["door"] or self.walls is None:
            self.door = self.p["door"]
            h = self.size[1]
            gap = (h - self.door) / 2
            self.walls = Walls.create(
                [[(WALL_X, 0), (WALL_X, gap)], [(WALL_X, h - gap), (WALL_X, h)]]
            )
        return self.walls

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        walls = self.make_walls()
        h = self.size[1]
        # beyond the door: straight on; before it: at the door
        goal = np.where(
            self.agents.pos[:, :1] > WALL_X, (self.size[0] + 100, h / 2), (WALL_X + 40, h / 2)
        )
        queue = Queue(self.p["distance"], self.p["brake"], self.p["fov"])
        blend = TruncatedRunningSum(
            [AvoidWalls(walls), Separate(18), queue, Weighted(Seek(goal), 0.6)]
        )
        return blend(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        out = self.agents.pos[:, 0] > self.size[0] + 10
        if out.any():  # back to the crowd
            self.agents.pos[out] = np.column_stack(
                (np.full(out.sum(), 20.0), self.rng.uniform(40, 320, out.sum()))
            )


SCENE = QueueScene
