"""Seed 000, Example 5.6: simple path following along one segment."""

from __future__ import annotations

from ._seed import SeedPathScene


class Path56(SeedPathScene):
    title = "Path following: one segment"
    source = "Seed 000 · Nature of Code, Example 5.6"
    caption = (
        "Look {predict} ahead; when that point is off the road (radius {radius}), seek "
        "{target} further along it"
    )
    #: Example 5.6: path from (0, H/3) to (W, 2H/3), radius 20; predict 25 px, target 25 px on.
    POINTS = ((0.0, 120.0), (640.0, 240.0))
    RADIUS = 20.0
    PREDICT = 25.0
    TARGET_AHEAD = 25.0


SCENE = Path56
