"""The shipped levels as the title list and the ending show them: each level's title and what
it teaches, or why it cannot be played, and the key a level's progress is kept under."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from game.level import LevelError, load_level, shipped_levels
from game.level.shipped import LEVELS_DIR
from game.level.text import shown

__all__ = ["CUSTOM_PREFIX", "LESSONS", "LevelEntry", "level_entry", "level_key", "shipped_entries"]

log = logging.getLogger(__name__)

#: What each shipped level teaches, in a few words, by file stem (the title list shows it).
LESSONS: dict[str, str] = {
    "01_patrol": "guards walk fixed loops",
    "02_currents": "currents carry everyone",
    "03_rockfield": "break sight behind rocks",
    "04_swarm": "fish as cover",
    "05_moving_paths": "routes that wander",
    "06_gate": "fish queue at gates",
    "07_squadron": "a formation hunts as one",
    "08_sentries": "sentinels guard the exit",
    "09_finale": "everything at once",
    "10_sandbox": "an open field to try things",
}
#: Progress keys of levels that are not shipped begin with this, then the file's full path.
CUSTOM_PREFIX = "custom:"


def level_key(path: Path) -> str:
    """The key a level's progress is kept under: a shipped level's file name without
    ``.tmj`` (``01_patrol``); any other file's full path after :data:`CUSTOM_PREFIX`, so a
    custom ``01_patrol.tmj`` elsewhere keeps its own best time."""
    resolved = path.resolve()
    if resolved.parent == LEVELS_DIR.resolve() and ".autosave." not in path.name:
        return path.stem
    return f"{CUSTOM_PREFIX}{resolved}"


@dataclass(frozen=True)
class LevelEntry:
    """A shipped level as the title list shows it.

    Attributes:
        path: The level file.
        title: Its title (the file stem when it has none).
        error: Why it cannot be played, or "".
        lesson: What it teaches, in a few words ("" when not known).
    """

    path: Path
    title: str
    error: str = ""
    lesson: str = ""


def level_entry(path: Path) -> LevelEntry:
    """Load ``path`` for the list: its title, or why it cannot be played."""
    try:
        level = load_level(path)
    except LevelError as err:
        log.warning("level %s cannot be loaded: %s", shown(path.name), err)
        return LevelEntry(path, shown(path.stem), str(err), LESSONS.get(path.stem, ""))
    return LevelEntry(path, level.title or shown(path.stem), lesson=LESSONS.get(path.stem, ""))


def shipped_entries() -> list[LevelEntry]:
    """Every shipped level, in play order."""
    return [level_entry(p) for p in shipped_levels()]
