"""The game's one window and its caption: made here, shown by every view.

Views set the caption for what they show (:func:`set_caption`); nothing here imports a view.
"""

from __future__ import annotations

import arcade

from game.clock import DT
from game.render.theme import BACKGROUND

__all__ = ["FIXED_FRAME_CAP", "FIXED_RATE", "WINDOW_TITLE", "create_window", "set_caption"]

#: The simulation's fixed step (s); the world itself also steps by exactly this.
FIXED_RATE = DT
#: Arcade runs at most this many fixed steps plus one per drawn frame. Without a cap an
#: overloaded machine steps to catch up and never draws (0-0.3 fps for up to a minute was
#: measured on Moving Paths): with it the game slows down but keeps drawing and answering.
FIXED_FRAME_CAP = 2
WINDOW_TITLE = "Steering: deep water"


def create_window(
    width: int = 1280, height: int = 720, *, visible: bool = True, title: str = WINDOW_TITLE
) -> arcade.Window:
    """The game's one window: resizable, fixed update every 1/60 s.

    Multisampling is off: on a software renderer (llvmpipe) it costs ~6 ms a frame, and the
    game's own line and disc shaders antialias their edges.
    """
    window = arcade.Window(
        width,
        height,
        title,
        resizable=True,
        visible=visible,
        antialiasing=False,
        update_rate=FIXED_RATE,
        draw_rate=FIXED_RATE,
        fixed_rate=FIXED_RATE,
        fixed_frame_cap=FIXED_FRAME_CAP,
    )
    window.background_color = BACKGROUND
    return window


def set_caption(window: arcade.Window, what: str | None = None) -> None:
    """The window's title for the view now showing: ``what`` (a level's title, "Lab") before
    the game's name, or the game's name alone."""
    window.set_caption(f"{what} - {WINDOW_TITLE}" if what else WINDOW_TITLE)
