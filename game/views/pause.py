"""The pause view: the level frozen behind a dimmed panel; resume, restart or leave."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from game.render import theme

from . import controls
from .menu import Menu

if TYPE_CHECKING:
    from .app import GameApp
    from .level import LevelView

__all__ = ["PAUSE_ITEMS", "PauseView"]

PAUSE_ITEMS = ("Resume", "Restart", "Back to the menu")
DIM = (0, 0, 0, 150)


class PauseView(arcade.View):
    """Shown over a paused level; the world does not step (its view has no fixed update now).

    Args:
        app: Shared services.
        level_view: The paused level, shown again on resume.
    """

    def __init__(self, app: GameApp, level_view: LevelView) -> None:
        super().__init__(app.window)
        self.app = app
        self.level_view = level_view
        w, h = self.window.get_size()
        self.heading = arcade.Text(
            "Paused",
            w / 2,
            h / 2 + 110,
            theme.HUD_TEXT,
            32,
            anchor_x="center",
            font_name=theme.FONT,
            bold=True,
        )
        self.menu = Menu(PAUSE_ITEMS, w / 2 - 140, h / 2 + 30, width=300)
        self.keys_hint = arcade.Text(
            "Up / Down and Enter   Esc resume   R restart",
            w / 2,
            h / 2 - 110,
            theme.HUD_DIM,
            12,
            anchor_x="center",
            font_name=theme.FONT,
        )

    def on_resize(self, width: int, height: int) -> None:
        """Re-centre the panel; the level behind keeps its own layout."""
        self.level_view.on_resize(width, height)
        self.heading.position = (width / 2, height / 2 + 110)
        self.menu.place(width / 2 - 140, height / 2 + 30)
        self.keys_hint.position = (width / 2, height / 2 - 110)

    def on_draw(self) -> None:
        """The frozen level, a dim veil and the menu. Changes nothing."""
        self.level_view.stage.draw()  # clears the window
        w, h = self.window.get_size()
        arcade.draw_lrbt_rectangle_filled(0, w, 0, h, DIM)
        self.heading.draw()
        self.menu.draw()
        self.keys_hint.draw()

    def resume(self) -> None:
        """Back to the level where it stopped."""
        self.window.show_view(self.level_view)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Menu keys."""
        k = arcade.key
        if symbol == k.ESCAPE:
            self.resume()
        elif symbol in (k.UP, k.W):
            self.menu.move(-1)
        elif symbol in (k.DOWN, k.S):
            self.menu.move(1)
        elif symbol == k.R:
            self.level_view.restart()
        elif symbol == k.M:
            self.app.sounds.toggle_mute()
        elif symbol in controls.CONFIRM:
            choice = self.menu.selected
            if choice == 0:
                self.resume()
            elif choice == 1:
                self.level_view.restart()
            else:
                self.app.show_title(self.level_view.path)
