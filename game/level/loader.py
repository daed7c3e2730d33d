"""Load a level: read a Tiled JSON map (``.tmj``) and build frozen level data from it,
refusing a bad file with one line naming the file, the object (id and name) and the field.

The work is split by reason to change: the raw map (:mod:`game.level.tiled`), one object's
checks (:mod:`game.level.objects`, :mod:`game.level.properties`, :mod:`game.level.images`),
building the level and its checks across objects (:mod:`game.level.build`), and the
crowd-fit rule (:mod:`game.level.crowd`).
"""

from __future__ import annotations

import os
from pathlib import Path

from game.level.build import parse_level
from game.level.model import Level
from game.level.tiled import decode_map, read_raw

__all__ = ["load_level", "loads_level", "parse_level", "read_raw"]


def loads_level(text: str, source: str | os.PathLike[str] | None = None) -> Level:
    """Parse a level from JSON text.

    Args:
        text: The ``.tmj`` contents.
        source: The file name to report and to resolve relative image paths from.

    Returns:
        The level.

    Raises:
        LevelError: if the text is not a valid level.
    """
    file = Path(source) if source is not None else None
    return parse_level(decode_map(text, file), file)


def load_level(path: str | os.PathLike[str]) -> Level:
    """Load and validate a level file.

    Args:
        path: A ``.tmj`` file.

    Returns:
        The level, in world coordinates, with ``source`` set to ``path``.

    Raises:
        LevelError: if the file cannot be read or is not a valid level.
    """
    file = Path(path)
    return parse_level(read_raw(file), file)
