"""The in-level HUD: level title, hint, time, state and a controls line, as ``arcade.Text``
objects created once; :meth:`Hud.update` changes their strings only when they change.

The HUD sits in two bars outside the world: the top bar (title, hint, time, state) and the
bottom bar (controls, flashed messages). The world is drawn only in :func:`play_area`, the
screen between them, so the HUD never hides the player or an exit (issue 15).
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade
import pyglet

from . import theme

__all__ = [
    "BOTTOM_BAR",
    "CONTROLS",
    "CONTROLS_SECONDS",
    "TOP_BAR",
    "Hud",
    "format_time",
    "play_area",
]

CONTROLS = (
    "WASD / arrows swim   H hint   Esc pause   R restart   F1 debug   Tab editor"
    "   + / - zoom   0 fit   M mute"
)
#: What the bottom bar says until the player's first move starts the clock.
WAITING = "the clock starts when you swim"
#: Seconds the level hint and flashed messages stay on screen.
HINT_SECONDS = 8.0
FLASH_SECONDS = 2.5
#: Seconds the controls line stays before it fades out.
CONTROLS_SECONDS = 6.0
MARGIN = 14
#: The hint line's font size (pt), and the smallest it is made to fit beside the state.
HINT_SIZE = 12.0
HINT_MIN_SIZE = 9.5
#: Heights (screen px) of the top and bottom bars.
TOP_BAR = 64
BOTTOM_BAR = 26

Box = tuple[float, float, float, float]


def play_area(width: float, height: float) -> Box:
    """(left, bottom, width, height) of the screen between the HUD's bars, where the world is
    drawn (at least one pixel high)."""
    return (0.0, float(BOTTOM_BAR), float(width), float(max(height - TOP_BAR - BOTTOM_BAR, 1)))


def format_time(seconds: float) -> str:
    """``m:ss.s`` for a run time."""
    minutes, rest = divmod(max(seconds, 0.0), 60.0)
    return f"{int(minutes)}:{rest:04.1f}"


class Hud:
    """Text over the level, in screen coordinates (draw it under a screen-space camera).

    Args:
        title: The level's title.
        hint: The level's hint sentence ("" for none).
        width: Window width (px).
        height: Window height (px).
    """

    def __init__(self, title: str, hint: str, width: int, height: int) -> None:
        font = theme.FONT
        # one pyglet batch: all the HUD's text in a single draw
        self._batch = pyglet.graphics.Batch()
        b = self._batch
        self.title = arcade.Text(
            title, 0, 0, theme.HUD_TEXT, 18, font_name=font, bold=True, batch=b
        )
        self.hint = arcade.Text(
            hint, 0, 0, theme.HUD_DIM, HINT_SIZE, font_name=font, italic=True, batch=b
        )
        self.time = arcade.Text(
            "0:00.0", 0, 0, theme.HUD_TEXT, 18, font_name=font, anchor_x="right", bold=True, batch=b
        )
        self.state = arcade.Text(
            "", 0, 0, theme.HUD_DIM, 12, font_name=font, anchor_x="right", batch=b
        )
        self.controls = arcade.Text(CONTROLS, 0, 0, theme.HUD_DIM, 11, font_name=font, batch=b)
        self.flash = arcade.Text(
            "", 0, 0, theme.HUD_WARN, 13, font_name=font, anchor_x="right", bold=True, batch=b
        )
        #: The hint as the level says it (:attr:`hint` may show it smaller or cut to fit).
        self.hint_text = hint
        # The widest state the HUD shows ("hunted by 10!" and a full meter), measured once: the
        # hint line stops short of it.
        widest = arcade.Text(f"hunted by 10! [{'#' * 10}]", 0, 0, font_size=12, font_name=font)
        self._state_width = float(widest.content_width)
        self._hint_left = HINT_SECONDS if hint else 0.0
        self._controls_left = CONTROLS_SECONDS
        self._flash_left = 0.0
        self._width = width
        self._height = height
        self.layout(width, height)

    def layout(self, width: int, height: int) -> None:
        """Place the texts for a window of this size."""
        self._width, self._height = width, height
        top = height - MARGIN
        self.title.position = (MARGIN, top - 18)
        self.hint.position = (MARGIN, top - 40)
        self._fit_hint(width - 3 * MARGIN - self._state_width)
        self.time.position = (width - MARGIN, top - 18)
        self.state.position = (width - MARGIN, top - 40)
        self.controls.position = (MARGIN, 8)
        self.flash.position = (width - MARGIN, 7)

    def _fit_hint(self, room: float) -> None:
        """Make the hint line fit in ``room`` px left of the state: a smaller font down to
        :data:`HINT_MIN_SIZE` pt, then the sentence cut at a word with an ellipsis (H shows it
        again; the level file keeps it whole)."""
        hint, text = self.hint, self.hint_text
        if hint.text != text:
            hint.text = text
        size = HINT_SIZE
        hint.font_size = size
        while hint.content_width > room and size > HINT_MIN_SIZE:
            size -= 0.5
            hint.font_size = size
        words = text.split()
        while hint.content_width > room and len(words) > 1:
            words.pop()
            hint.text = " ".join(words) + "\u2026"

    def bars(self) -> tuple[Box, Box]:
        """(left, bottom, width, height) of the top and the bottom bar, screen px."""
        w, h = self._width, self._height
        return (0.0, float(h - TOP_BAR), float(w), float(TOP_BAR)), (0.0, 0.0, float(w), BOTTOM_BAR)

    def show_hint(self) -> bool:
        """Bring the level's hint line back for :data:`HINT_SECONDS` (the H key); False when
        the level has no hint."""
        if not self.hint.text:
            return False
        self._hint_left = HINT_SECONDS
        return True

    @property
    def hint_showing(self) -> bool:
        """Whether the hint line is on screen."""
        return self._hint_left > 0

    def show_message(self, message: str, color: theme.Rgba = theme.HUD_WARN) -> None:
        """Flash ``message`` at the right of the bottom bar for a few seconds."""
        self.flash.text = message
        self.flash.color = color
        self.flash.visible = True
        self._flash_left = FLASH_SECONDS

    @property
    def message(self) -> str:
        """The message being flashed ("" when none)."""
        return self.flash.text if self._flash_left > 0 else ""

    def update(
        self,
        dt: float,
        seconds: float,
        state: str,
        state_color: theme.Rgba,
        waiting: bool = False,
    ) -> None:
        """Advance timers and set the time and state strings.

        Args:
            dt: Seconds since the last update.
            seconds: The run's time (from the first move).
            state: A word or two about the run ("sneaking", "hunted!", "caught", ...).
            state_color: Its colour.
            waiting: The clock waits for the first move: the bottom bar says so (:data:`WAITING`)
                when no message is flashing.
        """
        self._hint_left = max(self._hint_left - dt, 0.0)
        self._flash_left = max(self._flash_left - dt, 0.0)
        self._controls_left = max(self._controls_left - dt, 0.0)
        clock = format_time(seconds)
        if self.time.text != clock:  # setting a text lays it out again
            self.time.text = clock
        if self.state.text != state:
            self.state.text = state
        if tuple(self.state.color) != tuple(state_color):
            self.state.color = state_color
        fade = min(self._hint_left, 1.0)
        _fade(self.hint, fade, theme.HUD_DIM)
        _fade(self.controls, min(self._controls_left, 1.0), theme.HUD_DIM)
        if waiting and self._flash_left <= 0:
            self.flash.text = WAITING  # a no-op when unchanged
            _fade(self.flash, 1.0, theme.HUD_DIM)
        else:
            _fade(self.flash, min(self._flash_left, 1.0), self.flash.color)

    def draw(self) -> None:
        """Draw the bars and texts. Changes nothing."""
        for left, bottom, width, height in self.bars():
            arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, theme.HUD_BAR)
        self._batch.draw()


def _fade(text: arcade.Text, fade: float, color: Sequence[int]) -> None:
    """Show ``text`` in ``color`` at opacity ``fade`` (hidden at 0); a colour is set only when
    it changes (setting one restyles the whole layout, a third of a millisecond)."""
    text.visible = fade > 0
    if fade > 0:
        want = (int(color[0]), int(color[1]), int(color[2]), int(255 * fade))
        if tuple(text.color) != want:
            text.color = want
