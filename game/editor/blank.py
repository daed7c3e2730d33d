"""A new level from nothing: the smallest level that loads and plays (a player start, an
exit and one path), written atomically to a file that does not exist yet."""

from __future__ import annotations

import os
import re
from pathlib import Path

from game.level import (
    ExitData,
    Level,
    LevelError,
    PathData,
    PlayerSpawn,
    Rect,
    save_level,
)
from game.level.schema import MAX_WORLD_PX
from game.level.text import printable_title

__all__ = [
    "DEFAULT_SIZE",
    "MIN_TILES",
    "TILE",
    "blank_level",
    "check_new_path",
    "create_level_file",
    "parse_size",
]

#: Tile size of a new level (px).
TILE = 32
#: A new level's size in tiles when none is given.
DEFAULT_SIZE = (40, 24)
#: The smallest new level, in tiles on each side (room for a start, a path and an exit).
MIN_TILES = 8


def parse_size(text: str) -> tuple[int, int]:
    """Read ``WxH`` (tiles of 32 px), each side from :data:`MIN_TILES` to the largest world.

    Raises:
        ValueError: with a one-line reason.
    """
    match = re.fullmatch(r"\s*(\d{1,6})\s*[xX]\s*(\d{1,6})\s*", text, re.ASCII)
    most = MAX_WORLD_PX // TILE
    if match is None:
        raise ValueError(f"expected WIDTHxHEIGHT in tiles, like 40x24, got {text!r}")
    w, h = int(match[1]), int(match[2])
    if not (MIN_TILES <= w <= most and MIN_TILES <= h <= most):
        raise ValueError(f"each side must be {MIN_TILES} to {most} tiles, got {w}x{h}")
    return w, h


def blank_level(width_tiles: int, height_tiles: int, title: str = "") -> Level:
    """The smallest playable level of that size: the player at the left, an exit at the
    right and an open path across the middle third.

    Args:
        width_tiles: Width in tiles of :data:`TILE` px.
        height_tiles: Height in tiles.
        title: The map's title.

    Returns:
        The level (ids 1 to 3).
    """
    w, h = float(width_tiles * TILE), float(height_tiles * TILE)
    cy = round(h / 2, 2)
    path = PathData(
        points=((round(w / 3, 2), cy), (round(2 * w / 3, 2), cy)), radius=24.0, id=3, name="path-1"
    )
    return Level(
        width_px=w,
        height_px=h,
        player=PlayerSpawn(x=2.0 * TILE, y=cy, id=1, name="start"),
        exits=(ExitData(rect=Rect(w - 3.0 * TILE, cy - TILE, 2.0 * TILE, 2.0 * TILE), id=2),),
        paths=(path,),
        title=title,
        tile_width=TILE,
        tile_height=TILE,
    )


def check_new_path(path: str | os.PathLike[str]) -> Path:
    """Refuse a path a new level cannot be made at (it exists, or is not a ``.tmj``).

    Raises:
        LevelError: naming the file.
    """
    target = Path(path)
    if os.path.lexists(target):
        raise LevelError(
            "already exists; --new makes a new level (open it without --new)", file=target
        )
    if target.suffix.lower() not in (".tmj", ".json"):
        raise LevelError("a new level is a Tiled JSON map: name it NAME.tmj", file=target)
    return target


def create_level_file(path: str | os.PathLike[str], size: tuple[int, int] = DEFAULT_SIZE) -> Level:
    """Write :func:`blank_level` to ``path`` (atomically), refusing a file that exists.

    Raises:
        LevelError: when ``path`` exists (or is a dangling link), or cannot be written.
    """
    target = Path(path)
    if os.path.lexists(target):
        raise LevelError(
            "already exists; --new makes a new level (open it without --new)", file=target
        )
    if target.suffix.lower() not in (".tmj", ".json"):
        raise LevelError("a new level is a Tiled JSON map: name it NAME.tmj", file=target)
    level = blank_level(*size, title=printable_title(target.stem))
    return save_level(level, target, backup=False)
