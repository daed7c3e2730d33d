"""The editor's property panel, drawn with arcade.Text and rectangles (``arcade.gui`` does
not load headless): one line per row of :class:`game.editor.panel.Panel`, at the right edge
of the window. Texts are made once and updated."""

from __future__ import annotations

import arcade

from game.editor import EditModel
from game.editor.panel import Panel, Row
from game.render import theme

__all__ = ["PANEL_W", "ROW_H", "PanelLayer"]

#: Width of the panel (screen px) and height of one row.
PANEL_W, ROW_H = 330, 18
_TOP = 44
_ROWS = 24
_VALUE_X = 118
#: Screen px a value may take before it is cut with an ellipsis.
_VALUE_W = PANEL_W - _VALUE_X - 10
EDITING = (255, 220, 90, 255)


class PanelLayer:
    """Draws the panel and finds the row under a screen point."""

    def __init__(self) -> None:
        font = theme.FONT
        self.heading = arcade.Text("", 0, 0, theme.HUD_TEXT, 12, font_name=font, bold=True)
        self.names = [
            arcade.Text("", 0, 0, theme.HUD_DIM, 10, font_name=font) for _ in range(_ROWS)
        ]
        self.values = [
            arcade.Text("", 0, 0, theme.HUD_TEXT, 10, font_name=font) for _ in range(_ROWS)
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
        self._size = (0, 0)
        self._probe = arcade.Text("", 0, 0, font_size=10, font_name=font)  # measures values
        self._fitted: dict[tuple[str, bool], str] = {}

    def left(self) -> float:
        """The panel's left edge (screen px)."""
        return float(self._size[0] - PANEL_W)

    def update(self, model: EditModel, panel: Panel, size: tuple[int, int]) -> None:
        """Set the texts for the model's selection and the edit in progress."""
        self._size = size
        self.rows = Panel.rows(model)[:_ROWS]
        left, top = self.left(), size[1] - _TOP
        self.heading.text = Panel.title(model)
        self.heading.position = (left + 8, top - 14)
        self.hint.position = (left + 8, top - 16 - (len(self.rows) + 1) * ROW_H - 4)
        for k, (name, value) in enumerate(zip(self.names, self.values, strict=True)):
            y = top - 16 - (k + 1) * ROW_H
            name.position, value.position = (left + 8, y), (left + _VALUE_X, y)
            if k >= len(self.rows):
                name.text = value.text = ""
                continue
            row = self.rows[k]
            name.text = row.name
            typing = panel.editing == row.name
            shown = f"{panel.text}_" if typing else row.value or '""'
            unit = f" {row.unit}" if row.unit else ""
            text = f"{shown}{unit}   [{row.range}]" if row.range else f"{shown}{unit}"
            if typing and self._fit(text, True) != text:
                text = f"{shown}{unit}"  # room for what is typed before the range
            value.text = self._fit(text, typing)
            # The old value, dim, until the first key replaces it.
            value.color = (theme.HUD_DIM if panel.fresh else EDITING) if typing else theme.HUD_TEXT

    def _fit(self, text: str, keep_end: bool) -> str:
        """``text`` cut with an ellipsis to the value column (its end kept while typing,
        where the cursor is); a long hint ran off the window's edge."""
        key = (text, keep_end)
        if key not in self._fitted:
            if len(self._fitted) > 512:
                self._fitted.clear()
            self._fitted[key] = self._cut(text, keep_end)
        return self._fitted[key]

    def _cut(self, text: str, keep_end: bool) -> str:
        probe = self._probe

        def cut(n: int) -> str:
            return "\u2026" + text[len(text) - n :] if keep_end else text[:n] + "\u2026"

        probe.text = text
        if probe.content_width <= _VALUE_W:
            return text
        low, high = 0, len(text) - 1  # the most characters that fit with the ellipsis
        while low < high:
            mid = (low + high + 1) // 2
            probe.text = cut(mid)
            low, high = (mid, high) if probe.content_width <= _VALUE_W else (low, mid - 1)
        return cut(low)

    def row_at(self, x: float, y: float) -> Row | None:
        """The row whose value is under the screen point (x, y), or None."""
        if x < self.left() + _VALUE_X - 4 or x > self._size[0]:
            return None
        # Row k's text sits on y = top - (k + 1) * ROW_H; its band starts 4 px below that.
        top = self._size[1] - _TOP - 16
        k = int((top - 4 - y) // ROW_H)
        return self.rows[k] if 0 <= k < len(self.rows) else None

    def value_point(self, name: str) -> tuple[float, float] | None:
        """A screen point on the value of row ``name`` (for tests and scripted clicks)."""
        for k, row in enumerate(self.rows):
            if row.name == name:
                top = self._size[1] - _TOP - 16
                return (self.left() + _VALUE_X + 12, top - (k + 1) * ROW_H + 5)
        return None

    def contains(self, x: float, y: float) -> bool:
        """Whether the screen point is over the panel."""
        height = 32 + (len(self.rows) + 1) * ROW_H
        top = self._size[1] - _TOP
        return x >= self.left() and top - height <= y <= top

    def draw(self) -> None:
        """Draw the panel (under a screen camera). Changes nothing."""
        top = self._size[1] - _TOP
        height = 32 + (len(self.rows) + 1) * ROW_H
        arcade.draw_lrbt_rectangle_filled(
            self.left(), self._size[0], top - height, top, theme.HUD_PANEL
        )
        self.heading.draw()
        self.hint.draw()
        for name, value in zip(self.names, self.values, strict=True):
            if name.text:
                name.draw()
                value.draw()
