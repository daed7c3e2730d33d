"""The game's arcade views: title (level list), one view per level, pause, result and the
ending.

Views are thin: they turn keys into input for the world and draw through ``game.render``.
``import arcade.gui`` fails headless in arcade 3.3.3, so menus are drawn with ``arcade.Text``.
"""

from __future__ import annotations

from game.progress import LevelRecord, Progress, ProgressStore, default_progress_path

from .app import FIXED_RATE, GameApp, LevelEntry, create_window, level_key
from .level import LevelView
from .pause import PauseView
from .result import ResultView
from .title import TitleView

__all__ = [
    "FIXED_RATE",
    "GameApp",
    "LevelEntry",
    "LevelRecord",
    "LevelView",
    "PauseView",
    "Progress",
    "ProgressStore",
    "ResultView",
    "TitleView",
    "create_window",
    "default_progress_path",
    "level_key",
]
