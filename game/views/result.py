"""The result view after a run: escaped (time, best time, N for the next level, or the ending
once every level is won) or caught (R to retry), over the level's frozen last frame, with the
panel beside the spot where the run ended (ringed by the stage), never over it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import arcade

from game.render import theme
from game.render.hud import format_time, play_area

from . import controls
from .entries import level_key

if TYPE_CHECKING:
    from .app import GameApp
    from .level import LevelView

__all__ = ["KEY_DELAY", "ResultView", "panel_beside", "result_lines"]

#: Seconds the panel ignores keys after it shows (and before its keys line appears): a key
#: meant for the run (an Esc to pause, a swim key) that lands as the run ends never acts on
#: the panel.
KEY_DELAY = 0.5

PANEL = (4, 12, 22, 215)
#: The panel's size (screen px) when the window has room for it.
PANEL_SIZE = (600.0, 175.0)
#: Gap (screen px) between the ringed spot and the panel, and from the panel to the edges.
GAP = 16.0

Box = tuple[float, float, float, float]


def panel_beside(
    spot: tuple[float, float] | None, clear: float, size: tuple[float, float], area: Box
) -> Box:
    """Where the result panel goes: beside the spot where the run ended, on the side with
    more room, never over the spot's ring.

    Tries, in order, beside the spot on its roomier side, then on the other side, then above
    or below it (roomier first); each box is kept inside ``area``. The first that stays
    clear of the ring wins; if none does (a tiny window) the one farthest from the spot.

    Args:
        spot: the spot's screen position, or None (the panel is centred).
        clear: the ring's radius on screen (px), kept clear by :data:`GAP` more.
        size: the panel's (width, height), shrunk to fit ``area``.
        area: (left, bottom, width, height) of the screen the panel may use.

    Returns:
        (left, bottom, width, height) of the panel.
    """
    al, ab, aw, ah = area
    w = min(size[0], max(aw - 2 * GAP, 1.0))
    h = min(size[1], max(ah - 2 * GAP, 1.0))

    def fit(left: float, bottom: float) -> Box:
        left = min(max(left, al + GAP), al + aw - GAP - w)
        bottom = min(max(bottom, ab + GAP), ab + ah - GAP - h)
        return (left, bottom, w, h)

    if spot is None:
        return fit(al + (aw - w) / 2, ab + (ah - h) / 2)
    sx, sy = spot
    reach = clear + GAP
    right = fit(sx + reach, sy - h / 2)
    left = fit(sx - reach - w, sy - h / 2)
    above = fit(sx - w / 2, sy + reach)
    below = fit(sx - w / 2, sy - reach - h)
    sides = [right, left] if al + aw - sx >= sx - al else [left, right]
    ups = [above, below] if ab + ah - sy >= sy - ab else [below, above]

    def distance(box: Box) -> float:
        dx = max(box[0] - sx, 0.0, sx - (box[0] + box[2]))
        dy = max(box[1] - sy, 0.0, sy - (box[1] + box[3]))
        return math.hypot(dx, dy)

    candidates = sides + ups
    for box in candidates:
        if distance(box) >= clear:
            return box
    return max(candidates, key=distance)


def result_lines(
    outcome: str,
    seconds: float | None,
    best: float | None,
    new_best: bool,
    has_next: bool,
    has_ending: bool = False,
    left: int = 0,
    first_left: str = "",
) -> tuple[str, str, str]:
    """Heading, details and keys line for a finished run, in plain words.

    Args:
        outcome: ``won`` or ``caught``.
        seconds: The run's time (from the first move); None when the player never moved.
        best: The level's best time, or None.
        new_best: This run set it.
        has_next: N plays the next level.
        has_ending: Every level is won: Enter shows the ending.
        left: Shipped levels not won yet, said after a win of the last level when there is
            no next one (N plays the first of them); 0 for a level of your own.
        first_left: The title of the first of them.
    """
    if outcome == "won":
        detail = f"time {format_time(seconds or 0.0)}"
        if best is not None:
            detail += "   new best!" if new_best else f"   best {format_time(best)}"
        if has_ending:
            first = "Enter ending   " + ("N next level   " if has_next else "")
        elif has_next:
            first = "N next level   "
        elif left:
            detail += f"   {left} level{'s' if left != 1 else ''} still to win"
            first = f"N play {first_left or 'the first'}, not won yet   "
        else:
            first = ""
        return "Escaped!", detail, first + "R retry   Esc levels"
    detail = (
        "caught before your first move"
        if seconds is None
        else f"caught after {format_time(seconds)}"
    )
    if best is not None:
        detail += f"   best {format_time(best)}"
    return "Caught!", detail, "R retry   Esc levels"


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
            level_view.result[0]
            if level_view.result
            else app.progress.record(level_key(level_view.path))
        )
        new_best = bool(level_view.result and level_view.result[1])
        won = self.outcome == "won"
        shipped = app.is_shipped(level_view.path)
        # A level of your own says nothing of the shipped levels still to win.
        left = app.levels_left() if won and shipped else []
        #: Every shipped level is won, and this win was the last level's or the one that
        #: completed the set: Enter shows the ending.
        self.ending = (
            won
            and not left
            and (app.is_last_level(level_view.path) or record.wins == 1)
            and shipped
        )
        #: Where N goes after a win of the last level with levels left: the first of them.
        self.first_left = left[0] if left and self.next_path is None else None
        heading, detail, keys = result_lines(
            self.outcome,
            level_view.stage.seconds if level_view.stage.clock.started is not None else None,
            record.best_time,
            new_best,
            self.next_path is not None,
            self.ending,
            len(left) if self.first_left is not None else 0,
            app.title_of(self.first_left) if self.first_left is not None else "",
        )
        #: Seconds until the panel takes keys (:data:`KEY_DELAY`).
        self.wait = KEY_DELAY
        color = theme.HUD_GOOD if self.outcome == "won" else theme.HUD_WARN
        font = theme.FONT
        self.heading = arcade.Text(
            heading, 0, 0, color, 40, anchor_x="center", font_name=font, bold=True
        )
        self.detail = arcade.Text(
            detail, 0, 0, theme.HUD_TEXT, 18, anchor_x="center", font_name=font
        )
        self.keys = arcade.Text(keys, 0, 0, theme.HUD_DIM, 14, anchor_x="center", font_name=font)
        self.panel: Box = (0.0, 0.0, 1.0, 1.0)
        self.on_resize(*self.window.get_size())

    def on_resize(self, width: int, height: int) -> None:
        """Put the panel beside the ringed spot where the run ended."""
        self.level_view.on_resize(width, height)
        stage = self.level_view.stage
        spot = stage.end_mark.spot
        where: tuple[float, float] | None = None
        clear = 0.0
        if spot is not None:
            where = stage.project((spot.x, spot.y))
            clear = spot.radius * stage.rig.zoom * 1.6  # the swelling ring's widest
        self.panel = panel_beside(where, clear, PANEL_SIZE, play_area(width, height))
        left, bottom, w, h = self.panel
        cx, cy = left + w / 2, bottom + h / 2
        self.heading.position = (cx, cy + 30)
        self.detail.position = (cx, cy - 15)
        self.keys.position = (cx, cy - 55)

    @property
    def armed(self) -> bool:
        """Whether the panel takes keys (:data:`KEY_DELAY` after it showed)."""
        return self.wait <= 0.0

    def on_update(self, delta_time: float) -> None:
        """Keep the frozen frame's animations (plankton, the ring's pulse) going."""
        self.wait -= delta_time
        self.level_view.stage.update(delta_time)

    def on_draw(self) -> None:
        """The last frame of the run and the panel. Changes nothing."""
        self.level_view.stage.draw()  # clears the window
        arcade.draw_lbwh_rectangle_filled(*self.panel, PANEL)
        self.heading.draw()
        self.detail.draw()
        if self.armed:
            self.keys.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """N next level (after the last one with levels left: the first of them), R retry,
        Enter the obvious one (the ending once every level is won), Esc back one step: the
        level list. Keys in the panel's first :data:`KEY_DELAY` seconds do nothing."""
        if not self.armed:
            return
        k = arcade.key
        debug = self.level_view.stage.debug
        if symbol == k.R:
            self.level_view.restart()
        elif symbol == k.N and self.next_path is not None:
            self.app.play(self.next_path, debug=debug)
        elif symbol == k.N and self.first_left is not None:
            self.app.play(self.first_left, debug=debug)
        elif symbol in controls.CONFIRM or (symbol == k.N and self.ending):
            if self.ending:
                self.app.show_ending()
            elif self.next_path is not None:
                self.app.play(self.next_path, debug=debug)
            elif self.first_left is not None:
                self.app.play(self.first_left, debug=debug)
            else:
                self.level_view.restart()
        elif symbol == k.ESCAPE:
            self.app.show_title(self.next_path or self.level_view.path)
