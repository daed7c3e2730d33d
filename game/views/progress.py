"""Which levels the player has won and their best times, kept in the user's data folder.

Pure Python (no arcade). The file is JSON, written atomically (a temporary file in the same
folder, flushed and fsynced, then renamed over the old one). A missing file is a first run; a
corrupt one is logged as a warning, set aside as ``progress.json.corrupt`` (so nothing in it is
lost for good) and replaced on the next save. Before every save the file is read again and
merged, so two running games never lose each other's best times.

Location: ``$STEERING_GAME_PROGRESS`` (a file path, for tests) or
``$XDG_DATA_HOME/steering-game/progress.json`` (default ``~/.local/share/...``).
"""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ENV_VAR", "LevelRecord", "Progress", "ProgressStore", "default_progress_path"]

log = logging.getLogger(__name__)

#: Environment variable naming the progress file (overrides the data folder).
ENV_VAR = "STEERING_GAME_PROGRESS"
FORMAT_VERSION = 1


def default_progress_path() -> Path:
    """Where progress is kept: ``$STEERING_GAME_PROGRESS``, else the XDG data folder."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "steering-game" / "progress.json"


@dataclass
class LevelRecord:
    """One level's results.

    Attributes:
        wins: How many times it was won.
        best_time: The fastest win in seconds, or None before the first win.
    """

    wins: int = 0
    best_time: float | None = None

    def merged(self, other: LevelRecord) -> LevelRecord:
        """The better of both: most wins, fastest time."""
        times = [t for t in (self.best_time, other.best_time) if t is not None]
        return LevelRecord(max(self.wins, other.wins), min(times) if times else None)


@dataclass
class Progress:
    """Results by level key (a level file's stem, e.g. ``01_patrol``)."""

    levels: dict[str, LevelRecord] = field(default_factory=dict)

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
    def from_json(cls, data: object) -> Progress:
        """Read a file's content; bad entries are skipped (with a warning), good ones kept.

        Raises:
            ValueError: when the content is not a progress object at all.
        """
        if not isinstance(data, dict) or not isinstance(data.get("levels"), dict):
            raise ValueError("not a progress file (no 'levels' object)")
        levels: dict[str, LevelRecord] = {}
        for key, entry in data["levels"].items():
            try:
                levels[str(key)] = _record(entry)
            except ValueError as err:
                log.warning("progress: skipping level %r: %s", key, err)
        return cls(levels)


def _record(entry: object) -> LevelRecord:
    if not isinstance(entry, dict):
        raise ValueError("entry is not an object")
    wins = entry.get("wins", 0)
    best = entry.get("best_time")
    if isinstance(wins, bool) or not isinstance(wins, int) or wins < 0:
        raise ValueError(f"bad wins {wins!r}")
    if best is not None:
        if isinstance(best, bool) or not isinstance(best, int | float):
            raise ValueError(f"bad best_time {best!r}")
        best = float(best)
        if not math.isfinite(best) or best <= 0:
            raise ValueError(f"bad best_time {best!r}")
    return LevelRecord(wins, best)


class ProgressStore:
    """Loads and saves :class:`Progress`; never raises for file problems (they are logged).

    Args:
        path: The progress file (default :func:`default_progress_path`).
        persist: False keeps progress in memory only (never reads or writes a file).
    """

    def __init__(self, path: Path | None = None, *, persist: bool = True) -> None:
        self.path = path if path is not None else default_progress_path()
        self.persist = persist
        self.progress = self._read() if persist else Progress()

    def _read(self) -> Progress:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            log.info("progress: no file at %s yet (first run)", self.path)
            return Progress()
        except OSError as err:
            log.warning("progress: cannot read %s (%s); starting without it", self.path, err)
            return Progress()
        try:
            return Progress.from_json(json.loads(text, parse_constant=_refuse_constant))
        except (ValueError, RecursionError) as err:
            log.warning("progress: %s is corrupt (%s); it is ignored", self.path, err)
            self._set_aside()
            return Progress()

    def _set_aside(self) -> None:
        """Keep a corrupt file next to the new one rather than overwrite it."""
        try:
            os.replace(self.path, self.path.with_name(self.path.name + ".corrupt"))
        except OSError as err:
            log.warning("progress: cannot set aside %s: %s", self.path, err)

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
        rec = LevelRecord(old.wins + 1, seconds if new_best else old.best_time)
        self.progress.levels[key] = rec
        self.save()
        return self.progress.record(key), new_best

    def save(self) -> bool:
        """Merge with what is on disk now and write atomically. Returns False on failure."""
        if not self.persist:
            return True
        if self.path.exists():
            on_disk = self._read()
            self.progress = self.progress.merged(on_disk)
        text = json.dumps(self.progress.to_json(), indent=2, allow_nan=False) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".progress-", suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as err:
            log.warning("progress: cannot save %s: %s", self.path, err)
            return False
        return True


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not allowed")
