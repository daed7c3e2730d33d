"""The level's exits as a world uses them: their rectangles (the decide system's), their
centres, and the centre of the one nearest the player (the think system finds it each step;
sentinels guard it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from game.level import ExitData
from steering.vec import FloatArray

__all__ = ["Exits"]


@dataclass(eq=False)
class Exits:
    """The exits of a world.

    Attributes:
        rects: (X, 4) each exit's rectangle (left, bottom, right, top).
        centres: (X, 2) each exit's centre.
        nearest: (2,) the centre of the exit nearest the player, as of the last think system
            (zeros before it, or without exits).
    """

    rects: FloatArray
    centres: FloatArray
    nearest: FloatArray = field(default_factory=lambda: np.zeros(2))

    @classmethod
    def of(cls, exits: Sequence[ExitData]) -> Exits:
        """The exits ``exits`` of a level (none yet nearest)."""
        rects = np.array(
            [(e.rect.left, e.rect.bottom, e.rect.right, e.rect.top) for e in exits],
            dtype=np.float64,
        )
        centres = np.array([e.rect.center for e in exits], dtype=np.float64)
        return cls(rects.reshape(-1, 4), centres.reshape(-1, 2))

    def replace(self, exits: Sequence[ExitData]) -> None:
        """Take an edited level's exits (the nearest one stays until the next think)."""
        fresh = Exits.of(exits)
        self.rects, self.centres = fresh.rects, fresh.centres
