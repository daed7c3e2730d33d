"""Where the editor keeps unsaved work, and the ids a level file already uses.

Unsaved edits are written to ``NAME.autosave.tmj`` next to ``NAME.tmj`` (a complete level
that also opens in Tiled); when the level is next opened, an autosave newer than the level
is offered.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from game.level import Level, LevelError
from game.level.build import parse_level
from game.level.schema import MAX_FILE_BYTES
from game.level.tiled import decode_map
from game.safe_io import InputError, read_regular

__all__ = [
    "AUTOSAVE_SUFFIX",
    "EDITED_SUFFIX",
    "FileStamp",
    "autosave_path_for",
    "changed_on_disk",
    "edited_copy_path",
    "is_autosave",
    "newer_autosave",
    "read_level_file",
    "stamp_file",
    "used_ids",
]

#: What an autosave adds to the level's stem.
AUTOSAVE_SUFFIX = ".autosave"
#: What the copy a save writes instead of a file changed on disk adds to the level's stem.
EDITED_SUFFIX = ".edited"


class FileStamp(NamedTuple):
    """What a level file was when the editor read or wrote it: enough to tell later whether
    someone else changed it (size, modification and change times and inode: a rewrite that
    keeps the modification time still changes the change time; its bytes' digest when they
    could be read, "" otherwise)."""

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    digest: str


def _digest(path: Path) -> tuple[str, str]:
    """The sha256 of the file's bytes, and "", when it is a regular file the game would read
    (at most :data:`~game.level.schema.MAX_FILE_BYTES`); else "" and why not. Never reads a
    FIFO, socket or device (a symlink to ``/dev/zero`` would fill memory, a FIFO block)."""
    try:
        data = read_regular(path, max_bytes=MAX_FILE_BYTES, what="level file")
    except InputError as exc:
        return "", exc.reason
    return hashlib.sha256(data).hexdigest(), ""


def stamp_file(path: str | os.PathLike[str]) -> FileStamp | None:
    """The stamp of ``path`` now; None when there is no such file (or it cannot be looked at).
    Never raises."""
    file = Path(path)
    try:
        info = file.stat()
    except (OSError, RuntimeError):
        return None
    digest = _digest(file)[0]
    return FileStamp(info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, digest)


def read_level_file(path: str | os.PathLike[str]) -> tuple[Level, dict[str, Any], FileStamp]:
    """Read a level file once for editing: the level, the raw map it was parsed from (what
    saves start from) and the file's stamp, all from the same bytes.

    The file is read as the loader reads it (:func:`game.safe_io.read_regular`): a FIFO,
    socket or device (``/dev/zero``, a symlink to it) or a file over the size limit is refused
    before a byte is read, so nothing blocks and nothing fills memory.

    Raises:
        LevelError: one line naming the file, as :func:`~game.level.load_level` says it.
    """
    file = Path(path)
    try:
        info: os.stat_result | None = file.stat()  # before reading: a later change shows
    except (OSError, RuntimeError):
        info = None  # read_regular says why in the loader's words
    try:
        data = read_regular(file, max_bytes=MAX_FILE_BYTES, what="level file")
    except InputError as exc:
        raise LevelError(exc.reason, file=file) from exc
    raw = decode_map(data, file)
    # Parsing only adds the empty "objects" list a layer lacks: the map stays what was read.
    level = parse_level(raw, file)
    size, mtime, ctime, inode = (
        (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        if info is not None
        else (len(data), 0, 0, 0)
    )
    digest = hashlib.sha256(data).hexdigest()
    return level, raw, FileStamp(size, mtime, ctime, inode, digest)


def changed_on_disk(path: str | os.PathLike[str], known: FileStamp | None) -> str:
    """Why saving over ``path`` could lose someone else's work, in a few words; "" when it is
    as the editor last read or wrote it (``known``), or gone (saving only puts it back).

    A file whose size, time and inode are unchanged is taken as unchanged; otherwise its bytes
    decide (a file merely touched is unchanged). Never raises.
    """
    file = Path(path)
    try:
        info = file.stat()
    except FileNotFoundError:
        return ""
    except OSError as exc:  # a symlink loop, a name too long, no permission on the folder
        return f"cannot be checked ({exc.strerror or exc})"
    except RuntimeError:
        return "cannot be checked (symbolic link loop)"
    if known is None:
        return "appeared on disk since the level was opened"
    if (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino) == known[:4]:
        return ""
    digest, why = _digest(file)
    if not digest:
        return f"changed on disk and cannot be read ({why})"
    if digest == known.digest:
        return ""
    return "changed on disk since it was opened"


def edited_copy_path(source: str | os.PathLike[str]) -> Path:
    """Where a save goes when the level's own file changed on disk: ``NAME.edited.tmj`` beside
    it, or ``NAME.edited-2.tmj`` and so on when that name is taken by something else."""
    path = Path(source)
    suffix = path.suffix or ".tmj"
    stem = path.stem
    for k in range(1, 10_000):
        tail = EDITED_SUFFIX if k == 1 else f"{EDITED_SUFFIX}-{k}"
        candidate = path.with_name(f"{stem}{tail}{suffix}")
        if not os.path.lexists(candidate):
            return candidate
    return path.with_name(f"{stem}{EDITED_SUFFIX}-{os.getpid()}{suffix}")


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
