"""Seed 003, Exercise 5.8: a field from an image's brightness, pointing from dark to bright."""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param
from steering import AgentGroup, FlowField

from ._flow import FLOW_PARAMS, HEIGHT, RESOLUTION, WIDTH, FlowScene

#: The image: bright spots (Gaussian, ``spread`` px) on a dark ground, made here; a click
#: moves the brightest spot. Brightness r + g + b as in the seed.
SPOTS = ((160.0, 250.0), (470.0, 120.0))


def spots_image(spots: list[tuple[float, float]], spread: float) -> FloatArray:
    """A 360 x 640 brightness image (row 0 at the top, as an image file is read)."""
    y, x = np.mgrid[HEIGHT - 0.5 : 0 : -1, 0.5:WIDTH:1]
    img = np.zeros_like(x)
    for sx, sy in spots:
        img += np.exp(-((x - sx) ** 2 + (y - sy) ** 2) / (2 * spread**2))
    return img * 765.0 / max(float(img.max()), 1e-9)


class FlowEx58(FlowScene):
    title = "Flow field from an image"
    source = "Seed 003 · Nature of Code, Exercise 5.8"
    caption = "The arrows point from dark to bright pixels of an image with two bright spots"
    click_hint = "move a bright spot"
    PARAMS = (Param("spread", "spot size", 90.0, 20.0, 300.0, 10.0, "px"), *FLOW_PARAMS)

    def setup(self) -> AgentGroup:
        self.spots = list(SPOTS)
        self.made_with: tuple[float, list[tuple[float, float]]] | None = None
        return self.vehicles()

    def steer(self, dt: float, debug: dict[str, np.ndarray]) -> np.ndarray:
        key = (self.p["spread"], list(self.spots))
        if key != self.made_with:
            self.made_with = key
            image = spots_image(self.spots, self.p["spread"])
            self.field = FlowField.from_image(image, RESOLUTION)
        self.mark(np.array(self.spots), 8.0, (255, 240, 180, 200))
        return super().steer(dt, debug)

    def click(self, xy: object) -> bool:
        p = np.asarray(xy, dtype=float).reshape(2)
        self.spots[0] = (float(p[0]), float(p[1]))
        return True


SCENE = FlowEx58
