"""The ending, after the last level is won: this run's time for each level, the run's total,
and the best times on record; any of Enter, Space or Esc goes back to the title."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import arcade

from game.render import theme
from game.render.hud import format_time

from . import controls
from .entries import LevelEntry, level_key
from .window import set_caption

if TYPE_CHECKING:
    from .app import GameApp

__all__ = ["EndingView", "ending_table"]

#: Shown where a level has no time (not won this run, or never).
NO_TIME = "-"
#: Column centres as fractions of the window width: level, this run, best.
COLUMNS = (0.36, 0.6, 0.75)

Row = tuple[str, str, str]


def _total(times: Sequence[float | None]) -> str:
    """The sum of the times there are, and how many of the levels that covers when not all."""
    known = [t for t in times if t is not None]
    if not known:
        return NO_TIME
    text = format_time(sum(known))
    return text if len(known) == len(times) else f"{text} ({len(known)}/{len(times)})"


def ending_table(
    entries: Sequence[LevelEntry],
    run_times: Mapping[str, float],
    best_times: Mapping[str, float | None],
) -> tuple[list[Row], Row]:
    """The ending's table: one (title, this run, best) row per level in play order, and the
    totals row.

    Args:
        entries: the shipped levels in play order.
        run_times: this session's winning times by level key.
        best_times: the best times on record by level key (None: never won).
    """
    rows: list[Row] = []
    run: list[float | None] = []
    best: list[float | None] = []
    for e in entries:
        key = level_key(e.path)
        r, b = run_times.get(key), best_times.get(key)
        run.append(r)
        best.append(b)
        rows.append(
            (
                e.title,
                NO_TIME if r is None else format_time(r),
                NO_TIME if b is None else format_time(b),
            )
        )
    return rows, ("total", _total(run), _total(best))


class EndingView(arcade.View):
    """The end of the game: the table of :func:`ending_table` under a heading.

    Args:
        app: Shared services (the levels, this run's times, progress).
    """

    def __init__(self, app: GameApp) -> None:
        super().__init__(app.window, background_color=theme.BACKGROUND)
        self.app = app
        keys = [level_key(e.path) for e in app.levels]
        bests = {k: app.progress.record(k).best_time for k in keys}
        self.rows, self.total = ending_table(app.levels, app.run_times, bests)
        font = theme.FONT
        self.heading = arcade.Text(
            "The end", 0, 0, theme.HUD_GOOD, 44, anchor_x="center", font_name=font, bold=True
        )
        self.subtitle = arcade.Text(
            "You slipped past every hunter in the deep.",
            0,
            0,
            theme.HUD_TEXT,
            16,
            anchor_x="center",
            font_name=font,
            italic=True,
        )
        header: Row = ("level", "this run", "best")
        self.cells: list[list[arcade.Text]] = []
        for k, row in enumerate([header, *self.rows, self.total]):
            color = theme.HUD_DIM if k == 0 else theme.HUD_TEXT
            bold = k == len(self.rows) + 1
            self.cells.append(
                [
                    arcade.Text(text, 0, 0, color, 15, anchor_x="center", font_name=font, bold=bold)
                    for text in row
                ]
            )
        self.keys = arcade.Text(
            "Enter or Esc: back to the title",
            0,
            0,
            theme.HUD_DIM,
            13,
            anchor_x="center",
            font_name=font,
        )
        self.on_resize(*self.window.get_size())

    def on_show_view(self) -> None:
        """The window's title names this view."""
        set_caption(self.window, "the end")

    def on_resize(self, width: int, height: int) -> None:
        """Lay the table out for this window size."""
        self.heading.position = (width / 2, height - 90)
        self.subtitle.position = (width / 2, height - 125)
        top = height - 175
        step = min(30.0, max((top - 70) / max(len(self.cells), 1), 12.0))
        for k, cells in enumerate(self.cells):
            y = top - k * step - (8 if k == len(self.cells) - 1 else 0)
            for cell, frac in zip(cells, COLUMNS, strict=True):
                cell.position = (width * frac, y)
        self.keys.position = (width / 2, 36)

    def on_draw(self) -> None:
        """Draw the heading, the table and the keys. Changes nothing."""
        self.clear()
        self.heading.draw()
        self.subtitle.draw()
        for cells in self.cells:
            for cell in cells:
                cell.draw()
        self.keys.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Enter, Space or Esc: back to the title, the last level selected."""
        if symbol in controls.CONFIRM or symbol == arcade.key.ESCAPE:
            last = self.app.levels[-1].path if self.app.levels else None
            self.app.show_title(last)
