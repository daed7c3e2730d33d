"""Hide: the mouse is a hunter; agents run to the far side of the nearest rock. Every rock's
hiding spot is ringed, always (the scene is about them), and each hiding agent's spot is
the one it swims to."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene, place_obstacles
from steering import AgentGroup, Contain, Debug, Hide, Separate, TruncatedRunningSum
from steering.debug import HideDebug, read

#: The rings at the hiding spots (the overlay's hiding-spot blue, brighter).
SPOT = (150, 210, 255, 230)


class HideScene(Scene):
    title = "Hide"
    caption = (
        "Hide (Buckland): rings mark each rock's far side from the hunter (the mouse); each "
        "fish swims to the nearest ring"
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
        force = TruncatedRunningSum([Contain(0, 0, w, h), Separate(20), hide])(
            self.agents, dt, debug
        )
        self.mark(self.hiding_spots(debug), 9, SPOT, ring=True)
        return force

    def hiding_spots(self, debug: Debug) -> FloatArray:
        """Every rock's hiding spot from the hunter, inside the world (the behaviour's debug
        record; none when it wrote none)."""
        rec = read(HideDebug, debug)
        spots = None if rec is None else rec.spots
        if spots is None or np.ndim(spots) != 2:
            return np.zeros((0, 2))
        s = np.asarray(spots, dtype=np.float64).reshape(-1, 2)
        w, h = self.size
        inside = np.isfinite(s).all(axis=1) & (s[:, 0] >= 0) & (s[:, 0] <= w)
        inside &= (s[:, 1] >= 0) & (s[:, 1] <= h)
        return s[inside]


SCENE = HideScene
