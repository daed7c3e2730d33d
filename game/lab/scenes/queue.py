"""Queueing at a gap: a crowd walks a line through a doorway; each brakes for the one ahead."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene
from steering import (
    AgentGroup,
    AvoidWalls,
    Debug,
    FollowPath,
    Path,
    Queue,
    Separate,
    TruncatedRunningSum,
    Walls,
)

CROWD = 24
WALL_X = 380.0
#: The line the crowd walks: its corridor's half-width (px), a little over an agent's radius.
LANE = 8.0
#: Wall feelers' length at rest (px): short, so that an agent on the line walks through the
#: door without its side feelers touching the jambs and braking it (the default 60 px
#: feels a 40 px door's jambs from an agent a few px off the line, and a queue jams there).
FEELER = 20.0
#: Braking behind a slower one: a blocked agent creeps on at max force / (2 x brake x gain),
#: 12 px/s here (the core's default 0.8 lets it creep at 31 px/s and press the line behind a
#: narrow door into a wedge).
BRAKE = 2.0


class QueueScene(Scene):
    title = "Queueing at a gap"
    caption = (
        "Queueing (Reynolds): follow the line to the door, brake while a slower one is close "
        "ahead; with separation, a queue"
    )
    PARAMS = (
        Param("door", "door width", 40, 16, 160, 4, "px"),
        Param("distance", "queue distance", 40, 0, 120, 4, "px"),
        Param("brake", "brake", BRAKE, 0, 3, 0.1),
        Param("fov", "queue cone", 90, 10, 360, 10, "deg"),
        Param("separation", "separation", 18, 0, 60, 2, "px"),
        Param("max_speed", "max speed", 90, 20, 300, 10, "px/s"),
    )
    trail = 10

    def setup(self) -> AgentGroup:
        self.door = -1.0
        w, h = self.size
        # the approach: straight at the door along the middle, and on through it
        self.paths = [Path([(0.0, h / 2), (WALL_X, h / 2), (w + 100.0, h / 2)], radius=LANE)]
        self.follow = FollowPath(self.paths[0], arrive_at_end=False)
        pos = np.column_stack((self.rng.uniform(20, 260, CROWD), self.rng.uniform(40, 320, CROWD)))
        return AgentGroup.create(pos, max_force=400, radius=7)

    def make_walls(self) -> Walls:
        """The wall with its door, remade when the door's width changes."""
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
        queue = Queue(self.p["distance"], self.p["brake"], self.p["fov"])
        blend = TruncatedRunningSum(
            [
                AvoidWalls(walls, feeler_length=FEELER),
                Separate(self.p["separation"]),
                queue,
                self.follow,
            ]
        )
        return blend(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        out = self.agents.pos[:, 0] > self.size[0] + 10
        if out.any():  # back to the crowd, to find the line afresh
            self.agents.pos[out] = np.column_stack(
                (np.full(out.sum(), 20.0), self.rng.uniform(40, 320, out.sum()))
            )
            self.follow.forget(self.agents, out)


SCENE = QueueScene
