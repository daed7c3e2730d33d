"""Which levels the player has won and their best times, kept in the user's data folder.

Pure Python (no arcade). The file is JSON, written atomically (a temporary file in the same
folder, flushed and fsynced, then renamed over the old one). A missing file is a first run; a
corrupt one is logged as a warning and set aside under a name no earlier one has
(``progress.json.corrupt``, ``.corrupt.1``, ...), so nothing in it is lost for good.
Before every save the file is read again and merged, so two running games never lose each
other's best times.

Location: ``$STEERING_GAME_PROGRESS`` (a file path, for tests), else ``progress.json`` in the
user's data folder as platformdirs names it: ``$XDG_DATA_HOME/steering-game`` on Linux
(``~/.local/share/steering-game`` without it), ``~/Library/Application Support/steering-game``
on macOS, ``%LOCALAPPDATA%\\steering-game`` on Windows.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import platformdirs

from game.file_schema import ValidationError, finite, first_problem, integer, validate
from game.safe_io import atomic_write, set_aside, unique_sibling
from game.strict_json import (
    JsonFileError,
    format_path,
    loads_with_problems,
    write_json_file,
)

__all__ = ["ENV_VAR", "LevelRecord", "Progress", "ProgressStore", "default_progress_path"]

log = logging.getLogger(__name__)

#: The folder name under the user's data folder.
APP_NAME = "steering-game"
#: Environment variable naming the progress file (overrides the data folder).
ENV_VAR = "STEERING_GAME_PROGRESS"
FORMAT_VERSION = 1
#: A progress file larger than this is corrupt (a real one is a few kB).
MAX_FILE_BYTES = 1 << 20
#: The most wins a record holds (a larger count in a file is a bad entry).
MAX_WINS = 10**9


def default_progress_path() -> Path:
    """Where progress is kept: ``$STEERING_GAME_PROGRESS``, else ``progress.json`` in the
    user's data folder (platformdirs' ``user_data_path``; on Linux it honours
    ``$XDG_DATA_HOME``)."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    path = platformdirs.user_data_path(APP_NAME, appauthor=False) / "progress.json"
    # Before platformdirs the folder was the XDG one on every system: a player on macOS or
    # Windows with progress only there keeps it (and it is saved there on).
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    legacy = Path(base) / APP_NAME / "progress.json"
    if legacy != path and not os.path.lexists(path) and os.path.lexists(legacy):
        return legacy
    return path


@dataclass
class LevelRecord:
    """One level's results; also the schema of one entry of the file (other keys in an entry
    are ignored).

    Attributes:
        wins: How many times it was won.
        best_time: The fastest win in seconds, or None before the first win.
    """

    wins: Annotated[int, integer(0, MAX_WINS)] = 0
    best_time: Annotated[float, finite(0.0, None, "s", open_low=True)] | None = None

    def merged(self, other: LevelRecord) -> LevelRecord:
        """The better of both: most wins, fastest time."""
        times = [t for t in (self.best_time, other.best_time) if t is not None]
        return LevelRecord(max(self.wins, other.wins), min(times) if times else None)


@dataclass
class Progress:
    """Results by level key (a level file's stem, e.g. ``01_patrol``)."""

    levels: dict[str, LevelRecord] = field(default_factory=dict)
    #: Keys of entries skipped while reading (kept in a ``.corrupt`` copy of the file).
    skipped: list[str] = field(default_factory=list, compare=False)

    def record(self, key: str) -> LevelRecord:
        """The record of ``key`` (an empty one when never won)."""
        return self.levels.get(key, LevelRecord())

    def merged(self, other: Progress) -> Progress:
        """Both progresses combined, level by level."""
        out = dict(self.levels)
        for key, rec in other.levels.items():
            out[key] = out[key].merged(rec) if key in out else rec
        return Progress(out)

    def to_json(self) -> dict[str, object]:
        """The file's content."""
        return {
            "version": FORMAT_VERSION,
            "levels": {
                k: {"wins": r.wins, "best_time": r.best_time}
                for k, r in sorted(self.levels.items())
            },
        }

    @classmethod
    def from_json(cls, data: object, refused: Mapping[str, str] | None = None) -> Progress:
        """Read a file's content; bad entries are skipped (with a warning), good ones kept.

        Args:
            data: The decoded file.
            refused: Entries the JSON reader refused (a NaN, a key given twice), by level key,
                with the reason.

        Raises:
            ValueError: when the content is not a progress object at all.
        """
        if not isinstance(data, dict) or not isinstance(data.get("levels"), dict):
            raise ValueError("not a progress file (no 'levels' object)")
        levels: dict[str, LevelRecord] = {}
        skipped: list[str] = []
        for key, entry in data["levels"].items():
            try:
                if refused and key in refused:
                    raise ValueError(refused[key])
                levels[str(key)] = _record(entry)
            except ValueError as err:
                log.warning("progress: skipping level %r: %s", key, err)
                skipped.append(str(key))
        return cls(levels, skipped)


def _record(entry: object) -> LevelRecord:
    """One entry of the file, checked against :class:`LevelRecord`.

    Raises:
        ValueError: what is wrong, naming the field.
    """
    try:
        return validate(LevelRecord, entry)
    except ValidationError as err:
        problem = first_problem(err, LevelRecord)
    field = format_path(problem.at)
    raise ValueError(f'field "{field}": {problem.reason}' if field else problem.reason)


def _refused_entries(problems: list[JsonFileError]) -> dict[str, str]:
    """The level entries holding a value the JSON reader refused, with the first reason each.

    Raises:
        JsonFileError: for a refused value outside the level entries (the file is corrupt).
    """
    refused: dict[str, str] = {}
    for problem in problems:
        at = problem.at
        if len(at) < 2 or at[0] != "levels":
            raise problem
        where = format_path(at[2:])
        said = f'field "{where}": {problem.reason}' if where else problem.reason
        refused.setdefault(str(at[1]), said)
    return refused


class ProgressStore:
    """Loads and saves :class:`Progress`; never raises for file problems (they are logged).

    A corrupt file is set aside under a name no earlier one has (``progress.json.corrupt``,
    then ``.corrupt.1``, ...); a file with some bad entries keeps its good ones and a copy of
    it is set aside the same way before the next save rewrites it. A progress path that is
    not a regular file (a FIFO, a device, a directory) is never read, renamed or replaced:
    progress is then kept in memory only. A symlink is written through to its target.

    Args:
        path: The progress file (default :func:`default_progress_path`).
        persist: False keeps progress in memory only (never reads or writes a file).
    """

    def __init__(self, path: Path | None = None, *, persist: bool = True) -> None:
        self.path = path if path is not None else default_progress_path()
        self.persist = persist
        #: Why the file is left alone (not a regular file), or None.
        self.blocked: str | None = None
        #: The bytes last kept in a ``.corrupt`` copy (a save re-reads the same file).
        self._kept: bytes | None = None
        self.progress = self._read() if persist else Progress()

    def _read(self) -> Progress:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            log.info("progress: no file at %s yet (first run)", self.path)
            return Progress()
        except OSError as err:
            log.warning("progress: cannot read %s (%s); starting without it", self.path, err)
            return Progress()
        if not stat.S_ISREG(info.st_mode):
            self.blocked = "not a regular file"
            log.warning(
                "progress: %s is not a regular file; progress is kept in memory only", self.path
            )
            return Progress()
        if info.st_size > MAX_FILE_BYTES:
            log.warning(
                "progress: %s is corrupt (%d bytes, at most %d); it is set aside",
                self.path,
                info.st_size,
                MAX_FILE_BYTES,
            )
            self._set_aside()
            return Progress()
        try:
            raw = self.path.read_bytes()
        except OSError as err:
            log.warning("progress: cannot read %s (%s); starting without it", self.path, err)
            return Progress()
        try:
            data, problems = loads_with_problems(raw)
            progress = Progress.from_json(data, _refused_entries(problems))
        except ValueError as err:  # JsonFileError is one
            log.warning("progress: %s is corrupt (%s); it is set aside", self.path, err)
            self._set_aside()
            return Progress()
        if progress.skipped:
            self._keep_copy(raw)
        return progress

    def _set_aside(self) -> None:
        """Move a corrupt file out of the way under a new name (never over an earlier one)."""
        try:
            moved = set_aside(self.path)
        except OSError as err:
            log.warning("progress: cannot set aside %s: %s", self.path, err)
            return
        log.warning("progress: the corrupt file is kept as %s", moved)

    def _keep_copy(self, raw: bytes) -> None:
        """Keep the file's bytes (some entries were skipped) under a new ``.corrupt`` name,
        once per content."""
        if raw == self._kept:
            return
        dest = unique_sibling(self.path, ".corrupt")
        try:
            atomic_write(dest, raw)
        except OSError as err:
            log.warning("progress: cannot keep a copy of %s: %s", self.path, err)
            return
        self._kept = raw
        log.warning("progress: skipped entries of %s are kept in %s", self.path, dest)

    def record(self, key: str) -> LevelRecord:
        """The results of level ``key``."""
        return self.progress.record(key)

    def record_win(self, key: str, seconds: float) -> tuple[LevelRecord, bool]:
        """Count a win of ``key`` in ``seconds`` and save.

        Returns:
            The level's record after the win and whether this was a new best time.
        """
        old = self.progress.record(key)
        new_best = old.best_time is None or seconds < old.best_time
        rec = LevelRecord(min(old.wins + 1, MAX_WINS), seconds if new_best else old.best_time)
        self.progress.levels[key] = rec
        self.save()
        return self.progress.record(key), new_best

    def save(self) -> bool:
        """Merge with what is on disk now and write atomically. Returns False on failure."""
        if not self.persist:
            return True
        if self.blocked is not None:
            log.warning("progress: %s is %s; not saved", self.path, self.blocked)
            return False
        if os.path.lexists(self.path):
            on_disk = self._read()
            if self.blocked is not None:
                return False
            self.progress = self.progress.merged(on_disk)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_json_file(self.path, self.progress.to_json())
        except (OSError, JsonFileError) as err:
            log.warning("progress: cannot save %s: %s", self.path, err)
            return False
        return True
