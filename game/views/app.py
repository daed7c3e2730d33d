"""The router: what every view shares (textures, sounds, progress, the level list) and the one
place that goes from one screen to the next.

``GameApp`` is passed to each view (no module globals hold game state). A view asks the app for
the next screen (:meth:`GameApp.play`, :meth:`GameApp.show_pause`, ...) and imports no other
view: only this module makes views, so the views never import each other in a circle. The
window itself is :mod:`game.views.window`'s, the level list :mod:`game.views.entries`'.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from game.level import Level, LevelError
from game.level.text import shown
from game.progress import ProgressStore
from game.recording import RunRecorder
from game.render.bank import TextureBank

from .entries import LevelEntry, level_entry, level_key, shipped_entries
from .sound import Sounds
from .window import FIXED_FRAME_CAP, FIXED_RATE, WINDOW_TITLE, create_window, set_caption

if TYPE_CHECKING:
    from game.world import World

    from .level import LevelView

__all__ = [
    "FIXED_FRAME_CAP",
    "FIXED_RATE",
    "WINDOW_TITLE",
    "GameApp",
    "LevelEntry",
    "create_window",
    "level_entry",
    "level_key",
    "run_editor",
    "set_caption",
    "shipped_entries",
]

log = logging.getLogger(__name__)


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
        return [e.path for e in self.levels if self.progress.record(level_key(e.path)).wins == 0]

    def title_of(self, path: Path) -> str:
        """The list's title of level ``path`` (its file stem when not in the list)."""
        for e in self.levels:
            if e.path.resolve() == path.resolve():
                return e.title
        return shown(path.stem)

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

        from .lab import LabView

        cls = find_scene(scene) if scene is not None else None
        self.window.show_view(LabView(self.window, cls, on_exit=self.show_title))

    def play(self, path: Path, *, debug: bool = False, level: Level | None = None) -> None:
        """Start (or restart) a level in a fresh view.

        Raises:
            LevelError: when the file cannot be loaded.
        """
        from .level import LevelView

        self.window.show_view(LevelView(self, path, debug=debug, level=level))

    def show_pause(self, level_view: LevelView) -> None:
        """Pause ``level_view`` (its menu can resume it)."""
        from .pause import PauseView

        self.window.show_view(PauseView(self, level_view))

    def show_result(self, level_view: LevelView) -> None:
        """Show how ``level_view``'s run ended, over its last frame."""
        from .result import ResultView

        self.window.show_view(ResultView(self, level_view))

    def show_editor(self, level_path: Path, world: World | None = None) -> None:
        """Open the editor on ``level_path``, keeping ``world`` (a running world of that level)
        under it.

        Raises:
            LevelError: if the level cannot be loaded.
        """
        from game.editor import EditModel

        from .editor import EditorView

        self.window.show_view(EditorView(self, EditModel.open(level_path), world))

    def open_editor(self, level_path: Path, world: World) -> str | None:
        """The level view's Tab: :meth:`show_editor`, or why it could not open.

        Returns:
            None when the editor opened, else a message for the HUD.
        """
        try:
            from .editor import EditorView  # noqa: F401  (a broken editor is a message)
        except ImportError:
            log.warning("the editor is not available", exc_info=True)
            return "editor not available"
        except Exception:
            log.exception("the editor failed to load")
            return "editor failed to load (see the log)"
        try:
            self.show_editor(level_path, world)
        except LevelError as err:  # the file changed on disk since the level started
            log.warning("cannot edit %s: %s", level_path, err)
            return f"cannot edit {shown(level_path.name)}: {err.reason}"
        return None


def run_editor(level_path: Path) -> int:
    """Open the game window on the editor (for ``python -m game edit LEVEL``).

    Raises:
        LevelError: if the level cannot be loaded (before any window opens).
    """
    from game.editor import EditModel

    from .editor import EditorView, rescue_on_exit

    model = EditModel.open(level_path)
    try:
        window = create_window()
    except Exception as exc:  # pyglet's display errors have no common base class
        print(f"error: cannot open the editor window: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    window.show_view(EditorView(GameApp(window), model))
    with rescue_on_exit(window):
        arcade.run()
    return 0
