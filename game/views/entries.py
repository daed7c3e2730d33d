"""The shipped levels as the title list and the ending show them: each level's title, or why
it cannot be played, and the key its progress is kept under."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from game.level import LevelError, load_level, shipped_levels
from game.level.text import shown

__all__ = ["LevelEntry", "level_entry", "level_key", "shipped_entries"]

log = logging.getLogger(__name__)


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
