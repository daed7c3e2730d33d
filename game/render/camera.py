"""Where the camera looks: smooth follow, zoom steps and staying inside the level (pure math).

The view applies :attr:`CameraRig.center` and :attr:`CameraRig.zoom` to an ``arcade.Camera2D``
(whose ``position`` is the view centre); keeping the rule here makes it testable without a
window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.level import Level

__all__ = [
    "ZOOM_MAX",
    "ZOOM_MIN",
    "ZOOM_STEP",
    "CameraRig",
    "clamp_axis",
    "level_opening_zoom",
    "nearest",
    "opening_zoom",
]

ZOOM_MIN = 0.35
ZOOM_MAX = 3.0
ZOOM_STEP = 1.25
#: Room kept round the player and the exit when a level opens on them (world px).
OPENING_MARGIN = 160.0


def clamp_axis(center: float, half_view: float, size: float) -> float:
    """Keep a view of half-extent ``half_view`` inside ``[0, size]`` along one axis; a level
    narrower than the view is centred instead.

    Args:
        center: Wanted centre (px).
        half_view: Half the visible extent in world px (window size / zoom / 2).
        size: Level extent (px).

    Returns:
        The centre to use.
    """
    if 2.0 * half_view >= size:
        return size / 2.0
    return min(max(center, half_view), size - half_view)


def nearest(points: list[tuple[float, float]], p: tuple[float, float]) -> tuple[float, float]:
    """The point of ``points`` nearest ``p`` (``p`` itself when there is none): the exit a
    level opens on."""
    return min(points, key=lambda c: (c[0] - p[0]) ** 2 + (c[1] - p[1]) ** 2, default=p)


def opening_zoom(
    level_size: tuple[float, float],
    view_size: tuple[float, float],
    player: tuple[float, float],
    goal: tuple[float, float],
) -> float:
    """The zoom a level opens at: the whole map when it fits at a zoom the keys allow
    (:data:`ZOOM_MIN` and up), else the closest zoom that shows ``goal`` (the exit) from
    ``player`` with the camera centred on the player, with :data:`OPENING_MARGIN` round both
    (never closer than 1, never farther than :data:`ZOOM_MIN`).

    Args:
        level_size: the map's width and height (world px).
        view_size: the screen area the world is drawn in (screen px).
        player: where the player starts; goal: the exit to show.
    """
    vw, vh = view_size
    whole = min(vw / max(level_size[0], 1.0), vh / max(level_size[1], 1.0))
    if whole >= ZOOM_MIN:
        return min(whole, ZOOM_MAX)
    span_x = 2.0 * (abs(goal[0] - player[0]) + OPENING_MARGIN)
    span_y = 2.0 * (abs(goal[1] - player[1]) + OPENING_MARGIN)
    return min(max(min(vw / span_x, vh / span_y), ZOOM_MIN), 1.0)


def level_opening_zoom(
    level: Level, view_size: tuple[float, float], player: tuple[float, float]
) -> float:
    """:func:`opening_zoom` for ``level`` seen from ``player``, its nearest exit the goal: the
    one rule for the level view and for the curve's bots, which see what a player sees."""
    goal = nearest([e.rect.center for e in level.exits], player)
    return opening_zoom((level.width_px, level.height_px), view_size, player, goal)


@dataclass
class CameraRig:
    """A camera that follows a target smoothly inside a level.

    Attributes:
        level_size: Level width and height (px).
        view_size: Window width and height (screen px).
        center: The view centre in world px.
        zoom: Screen px per world px.
        stiffness: How fast the camera closes the gap to its target (1/s): after ``1/stiffness``
            seconds about 63 % of it is closed, whatever the frame rate.
    """

    level_size: tuple[float, float]
    view_size: tuple[float, float]
    center: tuple[float, float] = (0.0, 0.0)
    zoom: float = 1.0
    stiffness: float = 5.0

    def half_view(self) -> tuple[float, float]:
        """Half the visible world extent (px) at the current zoom."""
        return (self.view_size[0] / self.zoom / 2.0, self.view_size[1] / self.zoom / 2.0)

    def clamped(self, target: tuple[float, float]) -> tuple[float, float]:
        """``target`` moved so the view stays inside the level."""
        hw, hh = self.half_view()
        return (
            clamp_axis(target[0], hw, self.level_size[0]),
            clamp_axis(target[1], hh, self.level_size[1]),
        )

    def snap(self, target: tuple[float, float]) -> None:
        """Jump to ``target`` (clamped)."""
        self.center = self.clamped(target)

    def follow(self, target: tuple[float, float], dt: float) -> None:
        """Move part of the way toward ``target`` (clamped), frame-rate independent."""
        goal = self.clamped(target)
        k = 1.0 - math.exp(-self.stiffness * max(dt, 0.0))
        cx, cy = self.center
        self.center = self.clamped((cx + (goal[0] - cx) * k, cy + (goal[1] - cy) * k))

    def zoom_by(self, steps: int) -> None:
        """Zoom in (positive) or out (negative) by whole steps, within the limits."""
        self.zoom = min(max(self.zoom * ZOOM_STEP**steps, ZOOM_MIN), ZOOM_MAX)
        self.center = self.clamped(self.center)

    def resize(self, width: float, height: float) -> None:
        """The window changed size."""
        self.view_size = (float(width), float(height))
        self.center = self.clamped(self.center)

    def visible_rect(self, margin: float = 0.0) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the visible world, grown by ``margin`` px."""
        hw, hh = self.half_view()
        cx, cy = self.center
        return (cx - hw - margin, cy - hh - margin, cx + hw + margin, cy + hh + margin)
