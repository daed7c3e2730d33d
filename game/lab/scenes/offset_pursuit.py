"""Offset pursuit and formations: followers hold slots in the leader's frame."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene
from game.lab.sketch import COLORS
from steering import AgentGroup, Arrive, Debug, Masked, OffsetPursuit, formation_offsets

LEADER = 0
FOLLOWERS = 7
KINDS = ("wedge", "line", "column", "circle")


class OffsetPursuitScene(Scene):
    title = "Offset pursuit, formations"
    caption = (
        "Offset pursuit: arrive at a slot given in the leader's frame (x ahead, y left), "
        "predicted; the leader arrives at the mouse"
    )
    PARAMS = (
        Param("kind", "formation", 0, 0, 0, 1, choices=KINDS),
        Param("spacing", "spacing", 30, 10, 80, 2, "px"),
        Param("leader_speed", "leader max speed", 90, 10, 300, 10, "px/s"),
        Param("max_speed", "follower max speed", 160, 20, 400, 10, "px/s"),
    )
    trail = 20
    agent_names = ("leader",)  # LEADER

    def setup(self) -> AgentGroup:
        n = FOLLOWERS + 1
        self.colors = np.array([COLORS["agent_alt"], *[COLORS["agent"]] * FOLLOWERS], np.uint8)
        pos = self.rng.uniform((60, 60), (300, 300), (n, 2))
        return AgentGroup.create(pos, max_force=500, radius=7)

    def apply_limits(self) -> None:
        self.agents.max_speed[:] = self.p["max_speed"]
        self.agents.max_speed[LEADER] = self.p["leader_speed"]

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        a = self.agents
        self.mark(self.target, 5, (255, 220, 90, 230))
        slots = formation_offsets(self.p.choice("kind"), FOLLOWERS, self.p["spacing"])
        # Masked hands the behaviour the followers only: one slot per follower
        follow = OffsetPursuit(a.pos[LEADER], a.vel[LEADER], a.heading[LEADER], slots)
        lead = np.arange(a.n) == LEADER
        return Masked(Arrive(self.target), lead)(a, dt, debug) + Masked(follow, ~lead)(a, dt, debug)


SCENE = OffsetPursuitScene
