"""The window and what every view shares: textures, sounds, progress and the level list.

``GameApp`` is passed to each view (no module globals hold game state); it also knows how to
go from one screen to the next (title, a level, the next level).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import arcade

from game.clock import DT
from game.level import Level, LevelError, load_level, shipped_levels
from game.level.text import shown
from game.progress import ProgressStore
from game.recording import RunRecorder
from game.render.bank import TextureBank
from game.render.theme import BACKGROUND

from .sound import Sounds

__all__ = [
    "FIXED_RATE",
    "GameApp",
    "LevelEntry",
    "create_window",
    "level_entry",
    "level_key",
    "shipped_entries",
]

log = logging.getLogger(__name__)

#: The simulation's fixed step (s); the world itself also steps by exactly this.
FIXED_RATE = DT
#: Arcade runs at most this many fixed steps plus one per drawn frame. Without a cap an
#: overloaded machine steps to catch up and never draws (0-0.3 fps for up to a minute was
#: measured on Moving Paths): with it the game slows down but keeps drawing and answering.
FIXED_FRAME_CAP = 2
WINDOW_TITLE = "Steering: deep water"


def level_key(path: Path) -> str:
    """The key a level's progress is kept under: its file name without ``.tmj``."""
    return path.stem


@dataclass(frozen=True)
class LevelEntry:
    """A shipped level as the title list shows it.

    Attributes:
        path: The level file.
        title: Its title (the file stem when it has none).
        error: Why it cannot be played, or "".
    """

    path: Path
    title: str
    error: str = ""


def level_entry(path: Path) -> LevelEntry:
    """Load ``path`` for the list: its title, or why it cannot be played."""
    try:
        level = load_level(path)
    except LevelError as err:
        log.warning("level %s cannot be loaded: %s", shown(path.name), err)
        return LevelEntry(path, shown(path.stem), str(err))
    return LevelEntry(path, level.title or shown(path.stem))


def shipped_entries() -> list[LevelEntry]:
    """Every shipped level, in play order."""
    return [level_entry(p) for p in shipped_levels()]


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


@dataclass(eq=False)
class GameApp:
    """What the views share.

    Attributes:
        window: The window.
        progress: Wins and best times.
        sounds: Effects and mute.
        bank: Generated textures (made once, reused by every level view).
        levels: The shipped levels in play order.
        recorder: Keeps the player's latest run in a replay file (``play --record``), or None.
        run_times: This session's winning time (s) of each level won, by level key (the
            ending view shows them).
        zoom: The zoom the player chose with the zoom keys, kept for every level and run
            after; None (the start, and after the fit key) opens each level fitted.
    """

    window: arcade.Window
    progress: ProgressStore = field(default_factory=ProgressStore)
    sounds: Sounds = field(default_factory=Sounds)
    bank: TextureBank = field(default_factory=TextureBank)
    levels: list[LevelEntry] = field(default_factory=lambda: shipped_entries())
    recorder: RunRecorder | None = None
    run_times: dict[str, float] = field(default_factory=dict)
    zoom: float | None = None

    def next_level(self, path: Path) -> Path | None:
        """The shipped level after ``path`` in play order (None after the last)."""
        paths = [e.path.resolve() for e in self.levels]
        try:
            k = paths.index(path.resolve())
        except ValueError:
            return None
        return self.levels[k + 1].path if k + 1 < len(self.levels) else None

    def levels_left(self) -> list[Path]:
        """The shipped levels not won yet, in play order."""
        return [e.path for e in self.levels if self.progress.record(e.path.stem).wins == 0]

    def is_shipped(self, path: Path) -> bool:
        """Whether ``path`` is one of the shipped levels."""
        return any(e.path.resolve() == path.resolve() for e in self.levels)

    def is_last_level(self, path: Path) -> bool:
        """Whether ``path`` is the last shipped level."""
        return bool(self.levels) and self.levels[-1].path.resolve() == path.resolve()

    def show_ending(self) -> None:
        """Show the ending: this run's times, the total and the best times."""
        from .ending import EndingView

        self.window.show_view(EndingView(self))

    def show_title(self, select: Path | None = None) -> None:
        """Show the title view with the level list."""
        from .title import TitleView

        self.window.show_view(TitleView(self, select))

    def show_lab(self, scene: str | None = None) -> None:
        """Show the Lab: its scene list, or the scene called ``scene``; Esc returns here.

        Raises:
            SceneNotFoundError: when no scene has that name.
        """
        from game.lab.registry import find_scene
        from game.lab.view import LabView

        cls = find_scene(scene) if scene is not None else None
        self.window.show_view(LabView(self.window, cls, on_exit=self.show_title))

    def play(self, path: Path, *, debug: bool = False, level: Level | None = None) -> None:
        """Start (or restart) a level in a fresh view.

        Raises:
            LevelError: when the file cannot be loaded.
        """
        from .level import LevelView

        self.window.show_view(LevelView(self, path, debug=debug, level=level))
