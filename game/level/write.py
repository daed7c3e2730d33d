"""A level file's bytes and their trip to disk: the text the loader accepts (indented as Tiled
writes it, or compact when that would be over the loader's size limit), and the atomic write
that keeps the previous file as ``NAME.tmj.bak`` only when the game accepts that file.

The saver (:mod:`game.level.saver`) builds the raw map; this module never writes what the
loader would refuse, and never replaces a good ``.bak`` with a bad file.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

from game.level.build import parse_level
from game.level.errors import LevelError
from game.level.model import Level
from game.level.schema import MAX_FILE_BYTES
from game.level.tiled import decode_map, located_error
from game.safe_io import InputError, OutputError, atomic_write, read_regular, real_target
from game.strict_json import JsonFileError, dumps_strict

__all__ = ["BACKUP_SUFFIX", "checked_level_bytes", "dumps_map", "write_level_file"]

logger = logging.getLogger(__name__)

#: What the previous version of a saved level file is kept as (``NAME.tmj.bak``).
BACKUP_SUFFIX = ".bak"


def dumps_map(raw: dict[str, Any], *, compact: bool = False) -> str:
    """Serialise a raw map the way Tiled does (``indent=1``), through the strict writer;
    ``compact``: on one line with no spaces (Tiled reads both; it writes the second when its
    "minimize output" option is on).

    Args:
        raw: The raw map.
        compact: Write the smallest text instead of the indented one.

    Returns:
        The JSON text, ending with a newline.

    Raises:
        JsonFileError: for a non-finite number, located in the map.
    """
    if compact:
        return dumps_strict(raw, indent=None, ensure_ascii=False, compact=True)
    return dumps_strict(raw, indent=1, ensure_ascii=False)


def checked_level_bytes(raw: dict[str, Any], target: Path) -> tuple[bytes, dict[str, Any], Level]:
    """The bytes of a level file for ``raw``, checked as the loader will check them.

    The map is written indented (as Tiled does, so a change is a small diff), or compact when
    the indented text would be over :data:`~game.level.schema.MAX_FILE_BYTES` (a level the
    loader accepted stays accepted after a save: indentation alone once turned a 32.4 MB level
    into 74 MB). Then the bytes are decoded and parsed again, as a later load does.

    Args:
        raw: The raw map to write.
        target: The file it is for (named in errors; relative images resolve from it).

    Returns:
        The bytes, the map decoded from them (what a later save can start from) and the level
        a later load gives.

    Raises:
        LevelError: one line naming ``target``: a non-finite number (located), more bytes
            than the loader reads even written compactly, or anything the loader refuses.
    """
    try:
        data = dumps_map(raw).encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            indented = len(data)
            data = dumps_map(raw, compact=True).encode("utf-8")
            if len(data) <= MAX_FILE_BYTES:
                logger.info(
                    "%s: written compactly (indented it would be %s bytes; a level file holds "
                    "at most %s)",
                    target,
                    f"{indented:,}",
                    f"{MAX_FILE_BYTES:,}",
                )
    except JsonFileError as exc:  # NaN or infinity in the level data: name its object
        raise located_error(raw, exc.at, target, f"cannot save: {exc.reason}") from exc
    if len(data) > MAX_FILE_BYTES:
        raise LevelError(
            f"cannot save: the level would be {len(data):,} bytes even written compactly; "
            f"the game reads a level file of at most {MAX_FILE_BYTES:,}",
            file=target,
        )
    # Decoded once: the level as a later load gives it, and the map a later save starts from
    # (every object layer already has its "objects" list, so parsing changes nothing in it).
    written = decode_map(data, target)
    return data, written, parse_level(written, target)


def accepted_level(path: Path, known_good: str = "") -> bytes | None:
    """The bytes of the level file at ``path`` when the game accepts it (a regular file within
    the size limit that loads); None when there is nothing there or the game refuses it (then
    the warning says why). Bytes whose sha256 is ``known_good`` (a file the caller loaded or
    wrote) are not parsed again. Never raises."""
    try:
        data = read_regular(path, max_bytes=MAX_FILE_BYTES, what="level file")
    except InputError as exc:
        if path.exists():
            logger.warning("%s", exc)
        return None
    if known_good and hashlib.sha256(data).hexdigest() == known_good:
        return data
    try:
        parse_level(decode_map(data, path), path)
    except LevelError as exc:
        logger.warning("%s", exc)
        return None
    return data


def write_level_file(
    target: Path, data: bytes, *, backup: bool = True, known_good: str = ""
) -> Path:
    """Replace ``target`` with ``data`` atomically (through a symlink, to the file it names).

    With ``backup``, the file replaced is kept as ``NAME.tmj.bak`` beside the real file, but
    only when the game accepts it: a ``.bak`` is never replaced by a file the game refuses
    (too large, not a regular file, not a level), so the last good copy survives.
    ``known_good``: the sha256 of a file the game accepted (the editor's last read or write),
    which is kept without parsing it again.

    Returns:
        The file written.

    Raises:
        LevelError: naming ``target`` when it cannot be written (the old file is untouched).
    """
    try:
        real = real_target(target)
        old = accepted_level(real, known_good) if backup else None
        if backup and old is None and real.exists():
            logger.warning(
                "%s: the game refuses the file being replaced; its %s is left as it was",
                target,
                BACKUP_SUFFIX,
            )
        bak = real.with_name(real.name + BACKUP_SUFFIX) if old is not None else None
        if bak is not None:
            try:
                real_target(bak)
            except OutputError as exc:  # a FIFO or a folder named NAME.tmj.bak: left alone
                logger.warning("%s; the old file is not kept", exc)
                bak = old = None
        return atomic_write(real, data, backup=bak, backup_data=old)
    except OutputError as exc:
        raise LevelError(f"cannot save: {exc.reason}", file=target) from exc
    except RuntimeError as exc:  # pathlib's own "symlink loop" on some Pythons
        raise LevelError(f"cannot save: {exc}", file=target) from exc
