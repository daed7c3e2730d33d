"""The result view after a run: escaped (time, best time, N for the next level) or caught
(R to retry), over the level's last frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from game.render import theme
from game.render.hud import format_time

from . import controls

if TYPE_CHECKING:
    from .app import GameApp
    from .level import LevelView

__all__ = ["ResultView", "result_lines"]

PANEL = (4, 12, 22, 215)


def result_lines(
    outcome: str, seconds: float, best: float | None, new_best: bool, has_next: bool
) -> tuple[str, str, str]:
    """Heading, details and keys line for a finished run."""
    if outcome == "won":
        detail = f"time {format_time(seconds)}"
        if best is not None:
            detail += "   new best!" if new_best else f"   best {format_time(best)}"
        keys = ("N next level   " if has_next else "") + "R retry   Esc menu"
        return "Escaped!", detail, keys
    detail = f"caught after {format_time(seconds)}"
    if best is not None:
        detail += f"   best {format_time(best)}"
    return "Caught!", detail, "R retry   Esc menu"


class ResultView(arcade.View):
    """Shown when a run ends.

    Args:
        app: Shared services.
        level_view: The finished level (drawn behind, restarted by R).
    """

    def __init__(self, app: GameApp, level_view: LevelView) -> None:
        super().__init__(app.window)
        self.app = app
        self.level_view = level_view
        world = level_view.world
        self.outcome = world.outcome
        self.next_path = app.next_level(level_view.path) if self.outcome == "won" else None
        record = (
            level_view.result[0] if level_view.result else app.progress.record(level_view.path.stem)
        )
        new_best = bool(level_view.result and level_view.result[1])
        heading, detail, keys = result_lines(
            self.outcome, world.time, record.best_time, new_best, self.next_path is not None
        )
        color = theme.HUD_GOOD if self.outcome == "won" else theme.HUD_WARN
        font = theme.FONT
        self.heading = arcade.Text(
            heading, 0, 0, color, 40, anchor_x="center", font_name=font, bold=True
        )
        self.detail = arcade.Text(
            detail, 0, 0, theme.HUD_TEXT, 18, anchor_x="center", font_name=font
        )
        self.keys = arcade.Text(keys, 0, 0, theme.HUD_DIM, 14, anchor_x="center", font_name=font)
        self.on_resize(*self.window.get_size())

    def on_resize(self, width: int, height: int) -> None:
        """Centre the panel."""
        self.level_view.on_resize(width, height)
        self.heading.position = (width / 2, height / 2 + 30)
        self.detail.position = (width / 2, height / 2 - 15)
        self.keys.position = (width / 2, height / 2 - 55)

    def on_draw(self) -> None:
        """The last frame of the run and the panel. Changes nothing."""
        self.clear()
        self.level_view.stage.draw()
        w, h = self.window.get_size()
        arcade.draw_lrbt_rectangle_filled(w / 2 - 330, w / 2 + 330, h / 2 - 85, h / 2 + 90, PANEL)
        self.heading.draw()
        self.detail.draw()
        self.keys.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """N next level, R retry, Enter the obvious one, Esc the menu."""
        k = arcade.key
        if symbol == k.R:
            self.level_view.restart()
        elif symbol == k.N and self.next_path is not None:
            self.app.play(self.next_path, debug=self.level_view.stage.debug)
        elif symbol in controls.CONFIRM:
            if self.next_path is not None:
                self.app.play(self.next_path, debug=self.level_view.stage.debug)
            else:
                self.level_view.restart()
        elif symbol == k.ESCAPE:
            self.app.show_title(self.next_path or self.level_view.path)
