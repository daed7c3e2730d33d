"""A keyboard menu drawn with ``arcade.Text`` (``arcade.gui`` cannot be imported headless)."""

from __future__ import annotations

from collections.abc import Sequence

import arcade

from game.render import theme

__all__ = ["Menu"]

HIGHLIGHT = (60, 140, 180, 120)


class Menu:
    """A vertical list of lines with one selected; the Text objects are made once.

    Args:
        items: The lines.
        x: Left edge of the text (px).
        top: Baseline of the first line (px).
        spacing: Distance between lines (px).
        font_size: Text size.
        width: Width of the selection bar (px).
    """

    def __init__(
        self,
        items: Sequence[str],
        x: float,
        top: float,
        spacing: float = 40.0,
        font_size: float = 18.0,
        width: float = 520.0,
    ) -> None:
        self.texts = [
            arcade.Text(item, x, top - k * spacing, theme.HUD_TEXT, font_size, font_name=theme.FONT)
            for k, item in enumerate(items)
        ]
        self.x = x
        self.top = top
        self.spacing = spacing
        self.font_size = font_size
        self.width = width
        self.selected = 0

    def __len__(self) -> int:
        return len(self.texts)

    def move(self, delta: int) -> None:
        """Select the line ``delta`` below (negative: above), wrapping round."""
        if self.texts:
            self.selected = (self.selected + delta) % len(self.texts)

    def place(self, x: float, top: float) -> None:
        """Move the menu (after a resize)."""
        self.x, self.top = x, top
        for k, t in enumerate(self.texts):
            t.position = (x, top - k * self.spacing)

    def draw(self) -> None:
        """Draw the selection bar and the lines. Changes nothing."""
        if self.texts:
            y = self.top - self.selected * self.spacing
            pad = self.font_size * 0.6
            arcade.draw_lrbt_rectangle_filled(
                self.x - 16, self.x + self.width, y - pad, y + self.font_size + pad, HIGHLIGHT
            )
        for t in self.texts:
            t.draw()
