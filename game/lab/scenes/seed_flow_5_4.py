"""Seed 003, Example 5.4: follow a Perlin-noise flow field; a click makes a new field."""

from __future__ import annotations

import numpy as np

from game.lab import Param
from steering import AgentGroup, FlowField

from ._flow import COLS, FLOW_PARAMS, RESOLUTION, ROWS, FlowScene

#: The seed steps its noise offsets by 0.05 per cell and maps noise n to 180 * (n + 1) degrees.
NOISE_STEP = 0.05


class Flow54(FlowScene):
    title = "Flow field: following noise"
    source = "Seed 003 · Nature of Code, Example 5.4"
    caption = "120 vehicles steer along a noise field (20 px cells, noise step {noise})"
    click_hint = "a new field"
    PARAMS = (Param("noise", "noise step / cell", NOISE_STEP, 0.01, 0.5, 0.01), *FLOW_PARAMS)

    def setup(self) -> AgentGroup:
        self.field_seed = 0
        self.made_with = -1.0
        return self.vehicles()

    def make_field(self) -> None:
        if self.made_with != self.p["noise"] or self.field is None:
            self.made_with = self.p["noise"]
            self.field = FlowField.noise(
                ROWS, COLS, RESOLUTION, scale=self.p["noise"], seed=self.field_seed
            )

    def steer(self, dt: float, debug: dict[str, np.ndarray]) -> np.ndarray:
        self.make_field()
        return super().steer(dt, debug)

    def click(self, xy: object) -> bool:
        self.field_seed += 1  # the seed's mouse press: flow_field.init() again
        self.field = None
        self.make_field()
        return True


SCENE = Flow54
