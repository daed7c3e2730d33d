"""Seed 003, Exercise 5.7: a field that changes over time (3-D noise, z moves with time)."""

from __future__ import annotations

import numpy as np

from game.lab import Param
from steering import AgentGroup, NoiseFlow

from ._flow import COLS, FLOW_PARAMS, RESOLUTION, ROWS, FlowScene
from .seed_flow_5_4 import NOISE_STEP

#: The seed re-makes its field every ``time_window = 2`` s at ``zoff = seconds / 10``.
TIME_WINDOW = 2.0
Z_PER_SECOND = 0.1


class FlowEx57(FlowScene):
    title = "Flow field that changes over time"
    source = "Seed 003 · Nature of Code, Exercise 5.7"
    caption = (
        "3D noise with time as its depth (z = t x {z_speed}); the field is made again "
        "every {window} (zero: every step)"
    )
    PARAMS = (
        Param("window", "re-make every", TIME_WINDOW, 0.0, 5.0, 0.25, "s"),
        Param("z_speed", "z per second", Z_PER_SECOND, 0.0, 1.0, 0.02),
        *FLOW_PARAMS,
    )

    def setup(self) -> AgentGroup:
        self.noise = NoiseFlow(ROWS, COLS, RESOLUTION, scale=NOISE_STEP, speed=Z_PER_SECOND)
        self.field = self.noise.update(0.0)
        self.last = 0.0
        return self.vehicles()

    def steer(self, dt: float, debug: dict[str, np.ndarray]) -> np.ndarray:
        self.noise.speed = self.p["z_speed"]
        if self.time - self.last >= self.p["window"]:
            self.last = self.time
            self.field = self.noise.update(self.time)
        return super().steer(dt, debug)


SCENE = FlowEx57
