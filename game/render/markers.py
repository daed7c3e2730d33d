"""Screen-space marks over a running level that stay readable at every zoom: an ``EXIT``
label by each exit and a halo round the player (zoomed out on Currents or the Finale the fish
is a few pixels wide; these keep their size on screen)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import arcade

from game.level.model import ExitData

from . import theme

__all__ = ["HALO_MIN_PX", "Markers"]

#: The halo's smallest radius on screen (px), whatever the zoom.
HALO_MIN_PX = 14.0
#: Screen px between the halo and the player's body when zoomed in.
HALO_GAP_PX = 6.0
EXIT_LABEL = "EXIT"
#: Screen px between an exit and its label, and the label's height.
LABEL_GAP, LABEL_HEIGHT = 4.0, 16.0
HALO = (255, 220, 90, 220)

Project = Callable[[tuple[float, float]], tuple[float, float]]


class Markers:
    """The exit labels (``arcade.Text``, made once) and the player's halo, placed in screen
    coordinates by :meth:`update` and drawn under a screen camera.

    Args:
        exits: The level's exits.
    """

    def __init__(self, exits: Sequence[ExitData]) -> None:
        self.exits = tuple(exits)
        self.labels = [
            arcade.Text(
                EXIT_LABEL,
                0,
                0,
                theme.EXIT_EDGE,
                12,
                font_name=theme.FONT,
                bold=True,
                anchor_x="center",
                anchor_y="bottom",
            )
            for _ in self.exits
        ]
        #: The halo's centre and radius on screen (px), or None when hidden.
        self.halo: tuple[float, float, float] | None = None
        self.clock = 0.0

    def update(
        self,
        project: Project,
        zoom: float,
        player: tuple[float, float],
        player_radius: float,
        dt: float,
        show_halo: bool = True,
        area_top: float = float("inf"),
    ) -> None:
        """Place the labels above their exits and the halo round the player.

        Args:
            project: World point to screen pixel.
            zoom: Screen px per world px.
            player: The player's world position.
            player_radius: The player's body radius (world px).
            dt: Seconds since the last update (the halo's slow pulse).
            show_halo: False hides the halo (a decided run).
            area_top: The top of the screen the world is drawn in (px): a label that would
                go above it (under the HUD's bar) goes below its exit instead.
        """
        self.clock += dt
        for text, exit_ in zip(self.labels, self.exits, strict=True):
            rect = exit_.rect
            x, top = project((rect.left + rect.width / 2, rect.top))
            y = top + LABEL_GAP
            if y + LABEL_HEIGHT > area_top:
                _, bottom = project((rect.left, rect.bottom))
                y = bottom - LABEL_GAP - LABEL_HEIGHT
            position = (round(x), round(y))
            if text.position != position:
                text.position = position
        if not show_halo:
            self.halo = None
            return
        sx, sy = project(player)
        pulse = 1.0 + 0.08 * math.sin(self.clock * 3.0)
        radius = max(player_radius * zoom + HALO_GAP_PX, HALO_MIN_PX) * pulse
        self.halo = (sx, sy, radius)

    def draw(self) -> None:
        """Draw the halo and the labels (under a screen camera). Changes nothing."""
        if self.halo is not None:
            x, y, r = self.halo
            arcade.draw_circle_outline(x, y, r, HALO, 2.0)
        for text in self.labels:
            text.draw()
