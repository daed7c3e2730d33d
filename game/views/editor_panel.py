"""The editor's property panel, drawn with arcade.Text and rectangles (``arcade.gui`` does
not load headless): one row per row of :class:`game.editor.panel.Panel`, at the right edge
of the window. A value too long for its column wraps onto more lines (a choice list breaks
between its choices), so every value and choice reads whole at 1280 x 720. Texts are made
once and updated."""

from __future__ import annotations

import arcade

from game.editor import EditModel
from game.editor.panel import Panel, Row
from game.render import theme

__all__ = ["PANEL_W", "ROW_H", "PanelLayer", "shown_value"]

#: Width of the panel (screen px) and height of a one-line row.
PANEL_W, ROW_H = 400, 18
_TOP = 44
_ROWS = 24
_VALUE_X = 108
#: Screen px a value's lines may take before they wrap.
_VALUE_W = PANEL_W - _VALUE_X - 10
EDITING = (255, 220, 90, 255)

Band = tuple[float, float]


def shown_value(row: Row, typing: str | None) -> str:
    """A row's value as the panel shows it: the value (or what is being typed, with a
    cursor), its unit, and its range or choices with spaces round each ``|`` so a long list
    wraps between choices."""
    shown = f"{typing}_" if typing is not None else row.value or '""'
    unit = f" {row.unit}" if row.unit else ""
    allowed = row.range.replace("|", " | ")
    return f"{shown}{unit}   [{allowed}]" if allowed else f"{shown}{unit}"


class PanelLayer:
    """Draws the panel and finds the row under a screen point."""

    def __init__(self) -> None:
        font = theme.FONT
        self.heading = arcade.Text("", 0, 0, theme.HUD_TEXT, 12, font_name=font, bold=True)
        self.names = [
            arcade.Text("", 0, 0, theme.HUD_DIM, 10, font_name=font, anchor_y="top")
            for _ in range(_ROWS)
        ]
        self.values = [
            arcade.Text(
                "",
                0,
                0,
                theme.HUD_TEXT,
                10,
                font_name=font,
                anchor_y="top",
                multiline=True,
                width=_VALUE_W,
            )
            for _ in range(_ROWS)
        ]
        self.hint = arcade.Text(
            "click: type a value or step a choice; drag: change",
            0,
            0,
            theme.HUD_DIM,
            9,
            font_name=font,
        )
        self.rows: list[Row] = []
        #: Each row's (bottom, top) on screen, in the order of :attr:`rows`.
        self.bands: list[Band] = []
        self._size = (0, 0)
        self._bottom = 0.0

    def left(self) -> float:
        """The panel's left edge (screen px)."""
        return float(self._size[0] - PANEL_W)

    def update(self, model: EditModel, panel: Panel, size: tuple[int, int]) -> None:
        """Set the texts for the model's selection and the edit in progress, each row as
        tall as its wrapped value."""
        self._size = size
        self.rows = Panel.rows(model)[:_ROWS]
        left, top = self.left(), size[1] - _TOP
        title = Panel.title(model)
        if self.heading.text != title:
            self.heading.text = title
        self.heading.position = (left + 8, top - 14)
        self.bands = []
        y = top - 22.0  # the first row's top
        for k, (name, value) in enumerate(zip(self.names, self.values, strict=True)):
            if k >= len(self.rows):
                name.text = value.text = ""
                continue
            row = self.rows[k]
            typing = panel.editing == row.name
            text = shown_value(row, panel.text if typing else None)
            if name.text != row.name:
                name.text = row.name
            if value.text != text:
                value.text = text
            name.position, value.position = (left + 8, y), (left + _VALUE_X, y)
            height = max(float(ROW_H), value.content_height + 2.0)
            self.bands.append((y - height, y))
            y -= height
            # The old value, dim, until the first key replaces it.
            color = (theme.HUD_DIM if panel.fresh else EDITING) if typing else theme.HUD_TEXT
            if tuple(value.color) != tuple(color):
                value.color = color
        self._bottom = y - 26
        self.hint.position = (left + 8, y - 14)

    def row_at(self, x: float, y: float) -> Row | None:
        """The row whose value is under the screen point (x, y), or None."""
        if x < self.left() + _VALUE_X - 4 or x > self._size[0]:
            return None
        for row, (bottom, top) in zip(self.rows, self.bands, strict=False):
            if bottom <= y <= top:
                return row
        return None

    def value_point(self, name: str) -> tuple[float, float] | None:
        """A screen point on the value of row ``name`` (for tests and scripted clicks)."""
        for row, (_bottom, top) in zip(self.rows, self.bands, strict=False):
            if row.name == name:
                return (self.left() + _VALUE_X + 12, top - ROW_H / 2)
        return None

    def contains(self, x: float, y: float) -> bool:
        """Whether the screen point is over the panel."""
        top = self._size[1] - _TOP
        return x >= self.left() and self._bottom <= y <= top

    def draw(self) -> None:
        """Draw the panel (under a screen camera). Changes nothing."""
        top = self._size[1] - _TOP
        arcade.draw_lrbt_rectangle_filled(
            self.left(), self._size[0], self._bottom, top, theme.HUD_PANEL
        )
        self.heading.draw()
        self.hint.draw()
        for name, value in zip(self.names, self.values, strict=True):
            if name.text:
                name.draw()
                value.draw()
