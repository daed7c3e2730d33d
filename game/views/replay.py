"""The replay view: a recorded run played back from its keyframes, with pause, speed-up and the
F1 overlay, ending on a result panel."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from game.clock import DT
from game.level import load_level
from game.recording import MAX_REPLAY_SECONDS, InputScript, Recording
from game.render import theme
from game.render.hud import format_time
from game.render.stage import LevelStage
from game.world import World

from . import controls
from .level import END_DELAY
from .result import PANEL, result_lines
from .window import set_caption

if TYPE_CHECKING:
    from .app import GameApp

__all__ = ["REPLAY_CONTROLS", "SPEEDS", "ReplayView"]

#: Playback speeds, each on its number key.
SPEEDS = (1, 2, 4, 8)
REPLAY_CONTROLS = (
    "Space pause   1 / 2 / 4 / 8 speed   F1 debug   + / - zoom   0 fit   R again   Esc leave"
)
_SPEED_KEYS = {getattr(arcade.key, f"KEY_{s}"): s for s in SPEEDS} | {
    getattr(arcade.key, f"NUM_{s}"): s for s in SPEEDS
}


class ReplayView(arcade.View):
    """Plays ``recording`` on the level at ``path``: the world steps with the recorded thrust,
    ``speed`` steps per fixed update, until the outcome is decided or the recorded length ends.

    Args:
        app: Shared services.
        recording: The run.
        path: Its level file.
        debug: Start with the F1 overlay on.
        speed: Steps per fixed update (one of :data:`SPEEDS`).
        leave: Called on Esc (default: close the window).
    """

    def __init__(
        self,
        app: GameApp,
        recording: Recording,
        path: Path,
        *,
        debug: bool = False,
        speed: int = 1,
        leave: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app.window, background_color=theme.BACKGROUND)
        self.app = app
        self.recording = recording
        self.path = path
        self.level = load_level(path)
        self.world = World(self.level, recording.seed, debug=debug)
        self.script = InputScript(recording.keyframes)
        seconds = recording.seconds if recording.seconds is not None else MAX_REPLAY_SECONDS
        #: The step the recording ends at (the run was left there, or the outcome came first).
        self.end_frame = round(seconds / DT)
        self.speed = speed
        self.paused = False
        self.leave = leave if leave is not None else app.window.close
        self.stage = LevelStage(self.world, app.bank, app.window, debug=debug, zoom=app.zoom)
        self.stage.hud.controls.text = REPLAY_CONTROLS
        self._title = self.level.title or path.stem
        self._show_speed()
        self.end_timer: float | None = None
        font = theme.FONT
        self.heading = arcade.Text("", 0, 0, theme.HUD_TEXT, 36, anchor_x="center", font_name=font)
        self.detail = arcade.Text("", 0, 0, theme.HUD_TEXT, 16, anchor_x="center", font_name=font)
        self.keys = arcade.Text(
            "R watch again   Esc leave", 0, 0, theme.HUD_DIM, 14, anchor_x="center", font_name=font
        )
        self._place(*self.window.get_size())

    def _show_speed(self) -> None:
        """The HUD's title says this is a replay and at which speed (``REPLAY x2``)."""
        how = "paused" if self.paused else f"x{self.speed}"
        self.stage.hud.title.text = f"REPLAY {how}   {self._title}"

    @property
    def ended(self) -> bool:
        """The run is over: decided, or at the recorded length."""
        return self.world.outcome != "running" or self.world.frame >= self.end_frame

    @property
    def showing_result(self) -> bool:
        """The result panel is up."""
        return self.end_timer is not None and self.end_timer <= 0

    def on_fixed_update(self, delta_time: float) -> None:
        """Advance ``speed`` recorded steps (none while paused or after the end)."""
        if self.paused:
            return
        world = self.world
        for _ in range(self.speed):
            if self.ended:
                break
            thrust = self.script.thrust(world.frame)
            self.stage.clock.note(thrust, world.time)
            world.step(thrust)
        if self.ended and self.end_timer is None:
            self.end_timer = END_DELAY
            self._set_result()

    def _set_result(self) -> None:
        world = self.world
        seconds = self.stage.seconds
        if world.outcome == "running":
            heading, detail = "Run ended", f"left after {format_time(seconds)}"
        else:
            heading, detail, _keys = result_lines(world.outcome, seconds, None, False, False)
        self.heading.text = f"Replay: {heading}"
        self.heading.color = {"won": theme.HUD_GOOD, "caught": theme.HUD_WARN}.get(
            world.outcome, theme.HUD_TEXT
        )
        self.detail.text = detail

    def on_update(self, delta_time: float) -> None:
        """Camera and animations; the result panel after a moment's pause at the end."""
        self.stage.update(delta_time)
        if self.end_timer is not None and self.end_timer > 0:
            self.end_timer -= delta_time

    def on_draw(self) -> None:
        """The stage, and the result panel once the run is over. Changes nothing."""
        self.stage.draw()  # clears the window
        if self.showing_result:
            w, h = self.window.get_size()
            arcade.draw_lrbt_rectangle_filled(
                w / 2 - 330, w / 2 + 330, h / 2 - 85, h / 2 + 90, PANEL
            )
            self.heading.draw()
            self.detail.draw()
            self.keys.draw()

    def _place(self, width: int, height: int) -> None:
        self.heading.position = (width / 2, height / 2 + 30)
        self.detail.position = (width / 2, height / 2 - 15)
        self.keys.position = (width / 2, height / 2 - 55)

    def on_resize(self, width: int, height: int) -> None:
        """Keep cameras, HUD and panel fitted to the window."""
        self.stage.resize(width, height)
        self._place(width, height)

    def on_show_view(self) -> None:
        """Fit the stage to the window; the window's title names the replay."""
        self.stage.resize(*self.window.get_size())
        set_caption(self.window, f"replay: {self.world.level.title or self.path.stem}")

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Space pause, 1/2/4/8 speed, F1 overlay, +/- zoom, 0 fit, R from the start, Esc leave."""
        k = arcade.key
        hud = self.stage.hud
        if symbol == k.SPACE:
            self.paused = not self.paused
            hud.show_message("paused" if self.paused else f"playing {self.speed}x", theme.HUD_DIM)
            self._show_speed()
        elif symbol in _SPEED_KEYS:
            self.speed = _SPEED_KEYS[symbol]
            hud.show_message(f"speed {self.speed}x", theme.HUD_DIM)
            self._show_speed()
        elif symbol == k.F1:
            self.stage.set_debug(not self.stage.debug)
            hud.show_message(f"debug overlay {'on' if self.stage.debug else 'off'}", theme.HUD_DIM)
        elif symbol in controls.ZOOM_IN | controls.ZOOM_OUT | controls.ZOOM_FIT:
            controls.zoom_key(self.app, self.stage, symbol)
        elif symbol == k.R:
            self.restart()
        elif symbol == k.ESCAPE:
            self.leave()

    def restart(self) -> None:
        """Watch the recording again from its start, at the same speed and overlay."""
        again = ReplayView(
            self.app,
            self.recording,
            self.path,
            debug=self.stage.debug,
            speed=self.speed,
            leave=self.leave,
        )
        self.window.show_view(again)
