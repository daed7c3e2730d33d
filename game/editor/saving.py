"""File commands of the edit model: save, autosave, and recover or discard an autosave."""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path

from game.level import Level, LevelError, load_level, save_level

from .core import EditCore
from .files import autosave_path_for, newer_autosave

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

        The file the level was loaded from is the starting point, so everything the editor
        does not own survives; only the edited objects change. The level becomes clean, and
        its autosave is deleted.

        Args:
            path: Where to save; the level's own file when None (a different path also
                becomes the file later saves go to).

        Returns:
            The level as saved.

        Raises:
            LevelError: if it cannot be saved (the old file is then untouched).
        """
        self._finish_drag()
        target = Path(path) if path is not None else self._source
        if target is None:
            raise LevelError("nowhere to save: the level has no file; give a path")
        saved = save_level(replace(self._level, source=self._source), target)
        self._source = target
        if saved != self._level:
            # The saver assigned something the model did not (an id taken meanwhile).
            logger.info("saved level differs from the edited one; adopting the saved one")
            self._set(saved)
        else:
            self._level = replace(self._level, source=target)
        self._saved = self._level
        self._history.merge_open = False
        self.notice = f"saved {target.name}"
        self.discard_autosave()  # its failure is the notice, after the save's own
        return saved

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
        save_level(replace(self._level, source=self._source), target, backup=False)
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
        try:
            target.unlink()
        except FileNotFoundError:
            return True
        except OSError as exc:
            self.notice = f"cannot delete {target.name}: {exc.strerror or exc}"
            logger.warning("cannot delete %s: %s", target, exc)
            return False
        return True
