"""Agent avoidance: two crowds cross at right angles and sidestep each other."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene
from game.lab.sketch import COLORS
from steering import AgentGroup, AvoidAgents, Debug, Seek, TruncatedRunningSum, Weighted

PER_CROWD = 14


class AvoidAgentsScene(Scene):
    title = "Agent avoidance: crossing crowds"
    caption = (
        "Unaligned collision avoidance (OpenSteer): time of closest approach, sidestep the "
        "most imminent threat"
    )
    PARAMS = (
        Param("horizon", "time horizon", 1.5, 0.1, 5, 0.1, "s"),
        Param("weight", "avoidance weight", 1.0, 0, 3, 0.1),
        Param("max_speed", "max speed", 100, 20, 300, 10, "px/s"),
        Param("max_force", "max force", 300, 20, 2000, 20, "px/s²"),
    )
    trail = 20

    def setup(self) -> AgentGroup:
        east = np.column_stack(
            (self.rng.uniform(0, 200, PER_CROWD), self.rng.uniform(110, 250, PER_CROWD))
        )
        north = np.column_stack(
            (self.rng.uniform(250, 390, PER_CROWD), self.rng.uniform(-140, 60, PER_CROWD))
        )
        self.goal_dir = np.vstack(
            (np.tile([1.0, 0.0], (PER_CROWD, 1)), np.tile([0.0, 1.0], (PER_CROWD, 1)))
        )
        self.colors = np.array(
            [COLORS["agent"]] * PER_CROWD + [COLORS["agent_alt"]] * PER_CROWD, np.uint8
        )
        return AgentGroup.create(np.vstack((east, north)), self.goal_dir * 80, radius=7)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        goals = self.agents.pos + self.goal_dir * 200.0  # each crowd straight on
        avoid = AvoidAgents(time_horizon=self.p["horizon"])
        blend = TruncatedRunningSum([Weighted(avoid, self.p["weight"]), Seek(goals)])
        return blend(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        w, h = self.size
        p = self.agents.pos
        p[:, 0] = np.where(p[:, 0] > w + 20, p[:, 0] - w - 40, p[:, 0])
        p[:, 1] = np.where(p[:, 1] > h + 20, p[:, 1] - h - 40, p[:, 1])


SCENE = AvoidAgentsScene
