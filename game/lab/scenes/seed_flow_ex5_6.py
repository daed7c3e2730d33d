"""Seed 003, Exercise 5.6: a designed field that turns round the centre."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param
from steering import AgentGroup, FlowField

from ._flow import COLS, FLOW_PARAMS, HEIGHT, RESOLUTION, ROWS, WIDTH, FlowScene


def designed(points: FloatArray, twist: float) -> FloatArray:
    """The exercise's field: ``(0.5 - j / cols, 0.5 - i / rows)`` (toward the centre) turned a
    quarter turn (the seed's ``rotate(-90)`` on its y-down screen: clockwise as seen);
    ``twist`` turns it further (0: the seed's, negative: spirals in, positive: out)."""
    corner = points - RESOLUTION / 2.0  # cell centre -> the seed's j * resolution
    to_centre = np.stack((0.5 - corner[:, 0] / WIDTH, 0.5 - corner[:, 1] / HEIGHT), axis=1)
    a = np.radians(90.0 + twist)
    c, s = np.cos(a), np.sin(a)
    x, y = to_centre[:, 0], to_centre[:, 1]
    return np.stack((c * x - s * y, s * x + c * y), axis=1)


class FlowEx56(FlowScene):
    title = "Flow field: a designed whirlpool"
    source = "Seed 003 · Nature of Code, Exercise 5.6"
    caption = (
        "Each cell's arrow is turned 90 degrees from the centre: a whirlpool; twist makes it spiral"
    )
    PARAMS = (Param("twist", "twist", 0.0, -90.0, 90.0, 5.0, "deg"), *FLOW_PARAMS)

    def setup(self) -> AgentGroup:
        self.made_with = float("nan")
        return self.vehicles()

    def steer(self, dt: float, debug: dict[str, np.ndarray]) -> np.ndarray:
        twist = self.p["twist"]
        if twist != self.made_with:
            self.made_with = twist
            self.field = FlowField.from_function(
                lambda p: designed(p, twist), ROWS, COLS, RESOLUTION
            )
        return super().steer(dt, debug)


SCENE = FlowEx56
