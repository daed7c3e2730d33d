"""File commands of the edit model: save, autosave, and recover or discard an autosave."""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from game.level import Level, LevelError, load_level, save_level
from game.level.saver import save_level_and_map
from game.level.tiled import read_raw
from game.safe_io import set_aside

from .core import EditCore
from .files import (
    autosave_path_for,
    changed_on_disk,
    edited_copy_path,
    newer_autosave,
    stamp_file,
)

__all__ = ["SavingEdits"]

logger = logging.getLogger(__name__)


class SavingEdits(EditCore):
    """Saving through the level saver, and the autosave that keeps unsaved work."""

    @property
    def autosave_path(self) -> Path | None:
        """Where unsaved work is written (``NAME.autosave.tmj``), or None without a file."""
        return None if self._source is None else autosave_path_for(self._source)

    def save(self, path: str | os.PathLike[str] | None = None) -> Level:
        """Save through the level saver (atomic; the old file is kept as ``.bak``).

        The map the level was opened from is the starting point, so everything the editor
        does not own survives; only the edited objects change. The file on disk is not read
        again: a save works when it has become unreadable. The level becomes clean, and its
        autosave is deleted.

        Saving over the level's own file when that file changed on disk since it was opened
        or last saved (a ``git checkout``, another editor) would lose the other change, so
        the edits go to the autosave and to a copy beside it instead
        (:func:`~game.editor.files.edited_copy_path`, ``NAME.edited.tmj``), which becomes the
        file later saves go to; the notice says so. The changed file is left as it is.

        Args:
            path: Where to save; the level's own file when None (a different path also
                becomes the file later saves go to).

        Returns:
            The level as saved.

        Raises:
            LevelError: if it cannot be saved (the old file is then untouched, and the edits
                are still here).
        """
        self._finish_drag()
        target = Path(path) if path is not None else self._source
        if target is None:
            raise LevelError("nowhere to save: the level has no file; give a path")
        if self._source is not None and _same_file(target, self._source):
            why = changed_on_disk(target, self._stamp)
            if why:
                return self._save_beside(target, why)
        self._keep_unrecovered()
        saved = self._write(target)
        self.notice = f"saved {target.name}"
        self.discard_autosave()  # its failure is the notice, after the save's own
        return saved

    def _write(self, target: Path, *, note: bool = True) -> Level:
        """Write the level to ``target`` from the map it was opened from; ``target`` becomes
        its file and the level clean."""
        base = self._base_map()
        known = self._stamp.digest if self._stamp is not None else ""
        saved, written = save_level_and_map(
            replace(self._level, source=self._source), target, base=base, known_good=known
        )
        self._source = target
        self._stamp = stamp_file(target)
        self._base = written  # later saves start from the map written, not the file read back
        if saved != self._level:
            # The saver assigned something the model did not (an id taken meanwhile).
            logger.info("saved level differs from the edited one; adopting the saved one")
            self._set(saved)
        else:
            self._level = replace(self._level, source=target)
        self._saved = self._level
        self._history.merge_open = False
        return saved

    def _save_beside(self, target: Path, why: str) -> Level:
        """The save of :meth:`save` when ``target`` changed on disk: the autosave, then a
        copy beside the file, which becomes the level's file."""
        copy = edited_copy_path(target)
        try:
            self.autosave()
        except LevelError as err:
            logger.warning("%s", err)
        saved = self._write(copy)
        self._autosave_settled = True
        self.notice = (
            f"{target.name} {why}: saved your level as {copy.name}, {target.name} left as it is"
        )
        logger.warning("%s", self.notice)
        return saved

    def _keep_unrecovered(self) -> None:
        """An autosave from an earlier session that was offered and neither recovered nor
        discarded holds someone's work: before this model writes or deletes that file, it is
        set aside (``NAME.autosave.tmj.unrecovered``) and the notice says so."""
        offered = self.autosave_offered
        if offered is None:
            return
        self._autosave_settled = True
        try:
            kept = set_aside(offered, ".unrecovered")
        except OSError as exc:
            logger.warning("cannot set aside the unrecovered %s: %s", offered, exc)
            raise LevelError(
                f"an unrecovered autosave is in the way and cannot be set aside: {exc}",
                file=offered,
            ) from exc
        logger.warning("an unrecovered autosave was set aside as %s", kept)

    def _base_map(self) -> dict[str, Any] | None:
        """The raw map saves start from: the one the level was opened from, or (a model made
        from a level without one) its file as it is now, or None for a new map."""
        if self._base is None and self._source is not None and self._source.is_file():
            self._base = read_raw(self._source)
        return self._base

    def autosave(self) -> Path | None:
        """Write unsaved work to ``NAME.autosave.tmj`` (the level file is not touched).

        With nothing unsaved, an autosave this model recovered or wrote before is deleted.

        Returns:
            The autosave file, or None when there is nothing unsaved or no level file.

        Raises:
            LevelError: if it cannot be written.
        """
        target = self.autosave_path
        if target is not None and not self.dirty and self._autosave_settled:
            # Recovered (or discarded) and then undone back to the file: the old autosave
            # holds nothing the file does not, and must not be offered at the next opening.
            self.discard_autosave()
        if target is None or not self.dirty:
            return None
        self._keep_unrecovered()
        save_level(
            replace(self._level, source=self._source),
            target,
            backup=False,
            base=self._base_map(),
        )
        self._autosave_settled = True
        logger.info("autosaved %s", target)
        return target

    def newer_autosave(self) -> Path | None:
        """The level's autosave when it is newer than the level file, else None."""
        return None if self._source is None else newer_autosave(self._source)

    @property
    def autosave_offered(self) -> Path | None:
        """The newer autosave to offer (recover or discard), or None once it was recovered,
        discarded, or written by this model itself."""
        return None if self._autosave_settled else self.newer_autosave()

    def recover_autosave(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Take the level from an autosave, as one undoable step (the level is then dirty:
        the file on disk is still the old one until saved).

        Args:
            path: The autosave; the level's own newer autosave when None.

        Returns:
            True when the level changed.

        Raises:
            LevelError: if the autosave cannot be loaded.
        """
        found = Path(path) if path is not None else self.newer_autosave()
        if found is None:
            self.notice = "no newer autosave"
            return False
        recovered = replace(load_level(found), source=self._source)
        self._finish_drag()
        self._next_id = max([self._next_id, *(o.id + 1 for o in recovered.objects())])
        changed = self._edit("recover autosave", lambda: recovered)
        self._autosave_settled = True
        if changed:
            self.notice = f"recovered {found.name}"
        return changed

    def discard_autosave(self) -> bool:
        """Delete the level's autosave file, if any; never raises.

        Returns:
            False when an autosave is there and stays (not a file, or it cannot be deleted:
            the notice says why).
        """
        target = self.autosave_path
        self._autosave_settled = True
        if target is None or not os.path.lexists(target):
            return True
        if target.is_dir() and not target.is_symlink():
            self.notice = f"{target.name} is a folder, not an autosave; left as it is"
            logger.warning("%s is a folder, not an autosave; left as it is", target)
            return False
        if not target.is_symlink() and not target.is_file():  # a FIFO, socket or device
            self.notice = f"{target.name} is not a regular file, not an autosave; left as it is"
            logger.warning("%s is not a regular file, not an autosave; left as it is", target)
            return False
        try:
            target.unlink()
        except FileNotFoundError:
            return True
        except OSError as exc:
            self.notice = f"cannot delete {target.name}: {exc.strerror or exc}"
            logger.warning("cannot delete %s: %s", target, exc)
            return False
        return True


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name the same level file: the same file on disk when both exist
    (through symlinks, on a case-insensitive disk), else the same real path. Never raises."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b)
