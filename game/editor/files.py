"""Where the editor keeps unsaved work, and the ids a level file already uses.

Unsaved edits are written to ``NAME.autosave.tmj`` next to ``NAME.tmj`` (a complete level
that also opens in Tiled); when the level is next opened, an autosave newer than the level
is offered.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

__all__ = ["AUTOSAVE_SUFFIX", "autosave_path_for", "is_autosave", "newer_autosave", "used_ids"]

#: What an autosave adds to the level's stem.
AUTOSAVE_SUFFIX = ".autosave"


def autosave_path_for(source: str | os.PathLike[str]) -> Path:
    """Return the autosave file of a level: ``levels/01_patrol.tmj`` ->
    ``levels/01_patrol.autosave.tmj``.

    Args:
        source: The level file.

    Returns:
        The autosave path (in the same folder).
    """
    path = Path(source)
    return path.with_name(f"{path.stem}{AUTOSAVE_SUFFIX}{path.suffix or '.tmj'}")


def is_autosave(path: str | os.PathLike[str]) -> bool:
    """Return True for an autosave file name (level lists should skip those).

    Args:
        path: A file name or path.

    Returns:
        Whether it names an autosave.
    """
    return Path(path).stem.endswith(AUTOSAVE_SUFFIX)


def newer_autosave(source: str | os.PathLike[str]) -> Path | None:
    """Return the level's autosave when there is one newer than the level file.

    An autosave older than the level (the level was saved since, perhaps in Tiled) is stale
    and not offered.

    Args:
        source: The level file.

    Returns:
        The autosave path, or None.
    """
    level = Path(source)
    autosave = autosave_path_for(level)
    try:
        info = autosave.stat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None  # a folder or a FIFO with that name is not an autosave
    saved = info.st_mtime_ns
    try:
        original = level.stat().st_mtime_ns
    except OSError:
        return autosave  # the level itself is gone: the autosave is all there is
    return autosave if saved > original else None


def used_ids(raw: dict[str, Any]) -> set[int]:
    """Return every object id in a raw Tiled map (all object layers, group layers too).

    Args:
        raw: A decoded map (anything malformed is skipped, not reported).

    Returns:
        The ids.
    """
    ids: set[int] = set()
    stack: list[Any] = [raw.get("layers")]
    while stack:
        layers = stack.pop()
        if not isinstance(layers, list):
            continue
        for layer in layers:
            if not isinstance(layer, dict):
                continue
            stack.append(layer.get("layers"))
            objects = layer.get("objects")
            if isinstance(objects, list):
                ids.update(
                    o["id"]
                    for o in objects
                    if isinstance(o, dict)
                    and isinstance(o.get("id"), int)
                    and not isinstance(o.get("id"), bool)
                )
    return ids
