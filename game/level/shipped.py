"""Where the shipped levels and resources live, and finding a level by name or number."""

from __future__ import annotations

import os
import re
from pathlib import Path

from game.level.errors import LevelError

__all__ = [
    "IMAGE_ROOTS",
    "LEVELS_DIR",
    "REPO_ROOT",
    "RESOURCES_DIR",
    "level_key",
    "resolve_level",
    "shipped_levels",
]

#: The repository root (this file is game/level/shipped.py).
REPO_ROOT = Path(__file__).resolve().parents[2]
#: The shipped levels.
LEVELS_DIR = REPO_ROOT / "levels"
#: Images, sounds and other assets.
RESOURCES_DIR = REPO_ROOT / "resources"
#: Folders a level may take images from.
IMAGE_ROOTS = (RESOURCES_DIR, LEVELS_DIR)

_PREFIX = re.compile(r"^(\d+)[_\-\s]*(.*)$")


def level_key(path: Path) -> tuple[int, str]:
    """Sort key of a level file: its numeric prefix, then its name (no prefix sorts last).

    Args:
        path: A level file.

    Returns:
        (number, file name).
    """
    match = _PREFIX.match(path.stem)
    number = int(match.group(1)) if match else 1_000_000
    return (number, path.name)


def shipped_levels() -> list[Path]:
    """Return the shipped level files (``levels/*.tmj``), sorted by their numeric prefix.

    Returns:
        Absolute paths, ``01_...`` first.
    """
    if not LEVELS_DIR.is_dir():
        return []
    # The editor's NAME.autosave.tmj recovery files sit beside levels but are not levels.
    found = (p for p in LEVELS_DIR.glob("*.tmj") if p.is_file() and ".autosave." not in p.name)
    return sorted(found, key=level_key)


def _names(path: Path) -> set[str]:
    """All the ways a shipped level may be named: ``01_patrol.tmj``, ``01_patrol``, ``patrol``,
    ``1`` and ``01`` (lower case)."""
    names = {path.name.lower(), path.stem.lower()}
    match = _PREFIX.match(path.stem)
    if match:
        names.add(match.group(1))
        names.add(str(int(match.group(1))))
        if match.group(2):
            names.add(match.group(2).lower())
    return names


def _squash(name: str) -> str:
    """A name compared loosely: lower case, no spaces, dashes or underscores ("Rock Field",
    "rock-field" and "rockfield" are one)."""
    return re.sub(r"[\s_-]+", "", name.strip().lower())


def resolve_level(name_or_path: str | os.PathLike[str]) -> Path:
    """Find a level file from a path or a shipped level's name, stem or number.

    ``"levels/01_patrol.tmj"``, ``"01_patrol"``, ``"patrol"``, ``"1"`` and ``"01"`` all find
    the same shipped level.

    Args:
        name_or_path: A path to an existing file, or a shipped level's name.

    Returns:
        The level file.

    Raises:
        LevelError: if nothing matches; the message lists the shipped levels.
    """
    text = os.fspath(name_or_path)
    if not text.strip():
        raise LevelError(f"{text!r}: an empty level name; give a level file or a shipped level")
    candidate = Path(name_or_path)
    wanted = _squash(text)
    levels = shipped_levels()
    shipped = next((path for path in levels if wanted in {_squash(n) for n in _names(path)}), None)
    if os.path.lexists(candidate):
        # A folder that happens to be named like a shipped level ("1", "patrol" in the
        # working directory) is not what was meant: the shipped level wins.
        if shipped is not None and candidate.is_dir():
            return shipped
        # Also a directory, a FIFO or a symlink loop: the loader says which, in one line.
        return candidate
    if shipped is not None:
        return shipped
    known = ", ".join(p.stem for p in levels) or "none"
    raise LevelError(
        f"no such level file or shipped level; shipped levels: {known}", file=candidate
    )
