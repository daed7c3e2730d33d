"""Seed 004, NoC 6.11: separation combined with seeking the mouse."""

from __future__ import annotations

from game.lab import FloatArray, Param
from steering import Debug, Seek, Separate, Weighted, WeightedSum

from .seed_separate_6_7 import Separate67

#: The Nature of Code weighs the two: separation x 1.5, seek x 0.5 (not in the seed).
SEPARATE_WEIGHT = 1.5
SEEK_WEIGHT = 0.5


class Separate611(Separate67):
    title = "Separation and seek: a crowd"
    source = "Seed 004 · Nature of Code, Example 6.11"
    caption = (
        "Keep {separation} apart (x {w_separate}) while seeking the mouse (x {w_seek}): a "
        "crowd that follows without overlapping"
    )
    PARAMS = (
        *Separate67.PARAMS,
        Param("w_separate", "separation weight", SEPARATE_WEIGHT, 0, 5, 0.1),
        Param("w_seek", "seek weight", SEEK_WEIGHT, 0, 5, 0.1),
    )

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        self.mark(self.target, 5.0, (255, 220, 90, 230))
        blend = WeightedSum(
            [
                Weighted(Separate(self.p["separation"], fov=self.p["fov"]), self.p["w_separate"]),
                Weighted(Seek(self.target), self.p["w_seek"]),
            ]
        )
        return blend(self.agents, dt, debug)


SCENE = Separate611
