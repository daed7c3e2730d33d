"""Seed 000, Example 5.8: path following on a path of several segments."""

from __future__ import annotations

from ._seed import SeedPathScene

#: Example 5.8's points (y down), radius 50; the multi-segment follow predicts 50 px ahead and
#: puts the target 25 px past the normal point on the nearest segment (Exercise 5.11 moves
#: these same nodes).
POINTS = ((0.0, 80.0), (150.0, 150.0), (450.0, 170.0), (640.0, 230.0))
RADIUS = 50.0
PREDICT = 50.0
TARGET_AHEAD = 25.0


class Path58(SeedPathScene):
    title = "Path following: many segments"
    source = "Seed 000 · Nature of Code, Example 5.8"
    caption = (
        "Look {predict} ahead, take the nearest point on any segment; off the road "
        "(radius {radius}), seek {target} on"
    )
    POINTS = POINTS
    RADIUS = RADIUS
    PREDICT = PREDICT
    TARGET_AHEAD = TARGET_AHEAD


SCENE = Path58
