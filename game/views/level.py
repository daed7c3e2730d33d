"""The view of one level: keys in, world stepped in ``on_fixed_update``, stage drawn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import arcade
import numpy as np

from game.level import Level, load_level
from game.level.schema import MAX_SEED
from game.progress import LevelRecord
from game.render import theme
from game.render.stage import LevelStage
from game.safe_io import raise_if_terminated
from game.world import Autopilot, World

from . import controls
from .entries import level_key
from .window import set_caption

if TYPE_CHECKING:
    from .app import GameApp

__all__ = ["END_DELAY", "LevelView"]

#: Seconds the last moment stays on screen before the result view.
END_DELAY = 0.9


class LevelView(arcade.View):
    """One level being played.

    Args:
        app: Shared services.
        path: The level file.
        debug: Start with the F1 overlay on.
        autopilot: Let the world's autopilot play (screenshots, demos).
        show_result: Go to the result view when the run ends (off for screenshots).
        level: Already loaded level data for ``path`` (loaded from ``path`` when None).
        extra_npcs: Fish added to the level's own agents (the frame benchmark's crowds); a
            run with extra fish is not recorded, as its replay could not bring them back.
        attempt: How many times this level was restarted before this try; the world's seed
            is the level's plus this (so each try differs, and its replay file records it).
    """

    def __init__(
        self,
        app: GameApp,
        path: Path,
        *,
        debug: bool = False,
        autopilot: bool = False,
        show_result: bool = True,
        level: Level | None = None,
        extra_npcs: int = 0,
        attempt: int = 0,
    ) -> None:
        super().__init__(app.window, background_color=theme.BACKGROUND)
        self.app = app
        self.path = path
        self.level = level if level is not None else load_level(path)
        self.extra_npcs = extra_npcs
        self.attempt = attempt
        seed = (self.level.seed + attempt) % (MAX_SEED + 1)
        self.world = World(self.level, seed, extra_npcs=extra_npcs, debug=debug)
        self.pilot = Autopilot(self.world) if autopilot else None
        self.show_result = show_result
        self.stage = LevelStage(self.world, app.bank, app.window, debug=debug, zoom=app.zoom)
        self.keys: set[int] = set()
        #: Keys pressed since the last step: a tap shorter than a frame still counts once.
        self.tapped: set[int] = set()
        self.end_timer: float | None = None
        self.result: tuple[LevelRecord, bool] | None = None
        if app.recorder is not None and self.pilot is None and not extra_npcs:
            app.recorder.start(path, self.world)

    # -- simulation --------------------------------------------------------------------------

    def thrust(self) -> tuple[float, float]:
        """This step's input: the autopilot's, or the keys held."""
        if self.pilot is not None:
            u = np.asarray(self.pilot(self.world), dtype=np.float64)
            return (float(u[0]), float(u[1]))
        return controls.thrust_from_keys(self.keys | self.tapped)

    def on_fixed_update(self, delta_time: float) -> None:
        """Advance the world one fixed step while the run is undecided."""
        raise_if_terminated()  # SIGTERM's exception can be lost in a physics callback
        if self.world.outcome != "running":
            return
        thrust = self.thrust()
        self.stage.clock.note(thrust, self.world.time)
        outcome = self.world.step(thrust)
        self.tapped.clear()
        if outcome != "running":
            self._finish(outcome)

    def _finish(self, outcome: str) -> None:
        self.end_timer = END_DELAY
        if self.pilot is not None:
            return  # the autopilot's runs are not the player's: no sound, no record
        self.app.sounds.play(outcome)
        if self.app.recorder is not None:
            self.app.recorder.save()
        if outcome == "won":
            key = level_key(self.path)
            self.result = self.app.progress.record_win(key, self.stage.seconds)
            self.app.run_times[key] = self.stage.seconds

    # -- frame -------------------------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        """Camera, animations, and the hand-over to the result view."""
        self.stage.update(delta_time)
        if self.end_timer is not None and self.show_result:
            self.end_timer -= delta_time
            if self.end_timer <= 0:
                self.app.show_result(self)

    def on_draw(self) -> None:
        """Draw the stage. Changes nothing."""
        self.stage.draw()  # clears the window

    def on_resize(self, width: int, height: int) -> None:
        """Keep cameras and HUD fitted to the window."""
        self.stage.resize(width, height)

    def on_hide_view(self) -> None:
        """Keep the run so far in the replay file (pause, restart, leave, editor)."""
        if self.app.recorder is not None and self.pilot is None:
            self.app.recorder.save()

    def on_show_view(self) -> None:
        """Forget keys held while another view was showing; the window's title names the
        level."""
        self.keys.clear()
        self.tapped.clear()
        self.stage.resize(*self.window.get_size())
        set_caption(self.window, self.level.title or self.path.stem)

    # -- keys --------------------------------------------------------------------------------

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Map a key to an action (swimming keys are read each fixed step; H brings the hint
        line back)."""
        self.keys.add(symbol)
        self.tapped.add(symbol)
        k = arcade.key
        if symbol == k.ESCAPE:
            self.app.show_pause(self)
        elif symbol == k.R:
            self.restart()
        elif symbol == k.F1:
            self.stage.set_debug(not self.stage.debug)
            self.stage.hud.show_message(
                "debug overlay on" if self.stage.debug else "debug overlay off", theme.HUD_DIM
            )
        elif symbol == k.TAB:
            message = self.app.open_editor(self.path, self.world)
            if message:
                self.stage.hud.show_message(message)
        elif symbol == k.H and not self.stage.hud.show_hint():
            self.stage.hud.show_message("this level has no hint", theme.HUD_DIM)
        elif symbol == k.M:
            muted = self.app.sounds.toggle_mute()
            self.stage.hud.show_message("sound off" if muted else "sound on", theme.HUD_DIM)
        elif symbol in controls.ZOOM_IN | controls.ZOOM_OUT | controls.ZOOM_FIT:
            controls.zoom_key(self.app, self.stage, symbol)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """Stop swimming that way."""
        self.keys.discard(symbol)

    def restart(self) -> None:
        """Start this level again in a fresh view (the overlay stays as it was, and the zoom
        the player chose), on the next world seed: enemies whose spawn has ``scatter`` or
        ``phase`` stand and walk differently on each try (a timetable learnt blind does not
        carry over); the first try from the level list is always the level's own seed."""
        view = LevelView(
            self.app,
            self.path,
            debug=self.stage.debug,
            autopilot=self.pilot is not None,
            show_result=self.show_result,
            level=self.level,
            extra_npcs=self.extra_npcs,
            attempt=self.attempt + 1,
        )
        self.window.show_view(view)
