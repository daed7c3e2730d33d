"""The title view: the shipped levels in play order, each with what it teaches, chosen with
the arrows and Enter or by number (two digits for level 10: ``1`` then ``0``), over drifting
plankton."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import arcade
import numpy as np
from numpy.typing import NDArray

from game.level import LevelError
from game.render import theme
from game.render.batch import LineBatch
from game.render.hud import format_time
from game.render.particles import FlowParticles

from . import controls
from .entries import level_key
from .menu import Menu
from .window import set_caption

if TYPE_CHECKING:
    from .app import GameApp

__all__ = ["TitleView"]

ROW = 44.0
LIST_WIDTH = 700.0
#: Where a level's lesson starts, from the list's left edge (px).
LESSON_X = 262.0
FOOTER = (
    "Up / Down and Enter, or the level's number (1 then 0 for 10)   L the Lab   M mute   Esc quit"
)


def _drift(points: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """A slow meandering current for the background."""
    x, y = points[:, 0], points[:, 1]
    vel = np.stack((22.0 + 10.0 * np.sin(y / 140.0), 8.0 * np.cos(x / 180.0)), axis=1)
    return vel, np.ones(points.shape[0], dtype=bool)


class TitleView(arcade.View):
    """The level list.

    Args:
        app: Shared services.
        select: The level to highlight first (e.g. the one just played).
    """

    def __init__(self, app: GameApp, select: Path | None = None) -> None:
        super().__init__(app.window, background_color=theme.BACKGROUND)
        self.app = app
        font = theme.FONT
        self.banner = arcade.Text(
            "STEERING", 0, 0, theme.HUD_TEXT, 54, anchor_x="center", font_name=font, bold=True
        )
        self.subtitle = arcade.Text(
            "deep water: currents, hunters and fish",
            0,
            0,
            theme.HUD_DIM,
            16,
            anchor_x="center",
            font_name=font,
            italic=True,
        )
        self.menu = Menu(
            [f"{k + 1}   {e.title}" for k, e in enumerate(app.levels)], 0, 0, ROW, 20, LIST_WIDTH
        )
        self.lessons = [
            arcade.Text(e.lesson, 0, 0, theme.HUD_DIM, 13, font_name=font, italic=True)
            for e in app.levels
        ]
        self.status = [
            arcade.Text(self._status(k), 0, 0, theme.HUD_GOOD, 16, anchor_x="right", font_name=font)
            for k in range(len(app.levels))
        ]
        self.footer = arcade.Text(
            FOOTER,
            0,
            0,
            theme.HUD_DIM,
            12,
            anchor_x="center",
            font_name=font,
        )
        self.message = arcade.Text("", 0, 0, theme.HUD_WARN, 13, anchor_x="center", font_name=font)
        if select is not None:
            for k, e in enumerate(app.levels):
                if e.path.resolve() == select.resolve():
                    self.menu.selected = k
        w, h = self.window.get_size()
        self.plankton = FlowParticles(
            [(0.0, 0.0, float(w), float(h))], _drift, density=1 / 2500, seed=3
        )
        self.streaks = LineBatch(self.window.ctx, max(self.plankton.count, 16))
        self.camera = arcade.Camera2D(window=self.window)
        self.clock = 0.0
        #: Level numbers typed: ``1`` waits a moment for a ``0`` (level 10).
        self.digits = controls.DigitEntry(len(app.levels))
        self.on_resize(w, h)

    def on_show_view(self) -> None:
        """The window's title names this view."""
        set_caption(self.window)

    def _status(self, k: int) -> str:
        entry = self.app.levels[k]
        if entry.error:
            return "cannot load"
        rec = self.app.progress.record(level_key(entry.path))
        return f"best {format_time(rec.best_time)}" if rec.best_time is not None else ""

    def on_resize(self, width: int, height: int) -> None:
        """Lay the list out in the middle."""
        self.camera.match_window(position=True)
        cx = width / 2
        self.banner.position = (cx, height - 120)
        self.subtitle.position = (cx, height - 155)
        left = cx - LIST_WIDTH / 2 + 24
        top = height - 230
        self.menu.place(left, top)
        for k, t in enumerate(self.lessons):
            t.position = (left + LESSON_X, top - k * ROW + 2)
        for k, t in enumerate(self.status):
            t.position = (cx + LIST_WIDTH / 2 - 24, top - k * ROW)
        self.footer.position = (cx, 36)
        self.message.position = (cx, 66)

    def on_update(self, delta_time: float) -> None:
        """Drift the plankton and pulse the banner; play a lone digit once its wait is over."""
        self.clock += delta_time
        number = self.digits.poll(self.clock)
        if number is not None:
            self.start(number - 1)
            return
        p = self.plankton
        p.update(delta_time)
        colors = np.empty((p.count, 4), np.uint8)
        colors[:, :3] = theme.FLOW_PARTICLE[:3]
        colors[:, 3] = (p.fade() * 120).astype(np.uint8)
        self.streaks.set(p.streaks(0.25), colors, 2.0)
        glow = 0.85 + 0.15 * math.sin(self.clock * 2.0)
        self.banner.color = (int(225 * glow), int(240 * glow), int(250 * glow), 255)

    def on_draw(self) -> None:
        """The list. Changes nothing."""
        self.clear()
        self.camera.use()
        self.streaks.draw()
        self.banner.draw()
        self.subtitle.draw()
        self.menu.draw()
        for t in (*self.lessons, *self.status):
            t.draw()
        self.footer.draw()
        self.message.draw()

    def start(self, index: int) -> None:
        """Play the level at ``index`` of the list."""
        if not 0 <= index < len(self.app.levels):
            return
        entry = self.app.levels[index]
        try:
            self.app.play(entry.path)
        except LevelError as err:
            self.message.text = str(err)[:140]

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Arrows, Enter, digits, L (the Lab), M and Esc."""
        k = arcade.key
        number = controls.number_of_key(symbol)
        if number is not None:
            chosen = self.digits.press(number, self.clock)
            if chosen is not None:
                self.start(chosen - 1)
            elif self.digits.pending is not None:
                first = self.digits.pending[0]
                self.menu.selected = first - 1
                self.message.text = f"{first}_   a second digit, or Enter for level {first}"
            return
        waiting = self.digits.flush()
        self.message.text = ""
        if symbol in controls.CONFIRM and waiting is not None:
            self.start(waiting - 1)
        elif symbol in (k.UP, k.W):
            self.menu.move(-1)
        elif symbol in (k.DOWN, k.S):
            self.menu.move(1)
        elif symbol in controls.CONFIRM:
            self.start(self.menu.selected)
        elif symbol == k.L:
            self.app.show_lab()
        elif symbol == k.M:
            self.app.sounds.toggle_mute()
        elif symbol == k.ESCAPE:
            self.window.close()
