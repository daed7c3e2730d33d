"""The edit model: a level being edited, its commands, drags, undo history and files.

Pure Python (no arcade, no pymunk): the editor view turns mouse and keys into calls here and
draws :attr:`EditModel.level`; a live world mirrors each change through
:meth:`EditModel.subscribe` (see :mod:`game.level.changes` and :mod:`game.level.sync`).

:class:`EditModel` is put together from parts, one module each: the state, selection, drags
and undo/redo (:mod:`~game.editor.core`, with :mod:`~game.editor.drags` and
:mod:`~game.editor.history`), the path commands (:mod:`~game.editor.path_edits`), the wall
commands (:mod:`~game.editor.wall_edits`, transforms in :mod:`~game.editor.walls`), the object
commands (:mod:`~game.editor.object_edits`) and the files (:mod:`~game.editor.saving`); the
pure level transforms behind the commands are in :mod:`~game.editor.transforms`.

Rules every edit keeps, so that the level always saves and loads back equal:

* a path has at least two nodes, no node on the same spot as its neighbour (nor, on a closed
  path, the last on the first), and every node inside the world;
* path names are unique; a new path is called ``path-N``;
* a wall keeps two distinct corners (three when closed), every corner inside the world, and
  a rectangle wall stays an axis-aligned rectangle while its corners are dragged;
* rocks never overlap after an edit: a moved rock is pushed out of the rocks it would overlap
  (the others never move) and the move is refused when there is no room near the target; a
  growing rock stops where it touches another;
* positions are rounded to 0.01 px and radii to 0.1 px (with snapping on, positions go to the
  grid instead).

A command that would break a rule changes nothing, returns False and says why in
:attr:`EditModel.notice`. Unknown path names and out-of-range indices are programming errors
and raise ``KeyError`` / ``IndexError``.
"""

from __future__ import annotations

import os

from .files import read_level_file, used_ids
from .history import HISTORY_LIMIT, Step
from .object_edits import CREATABLE, ObjectEdits
from .path_edits import NEW_PATH_LENGTH, PathEdits
from .saving import SavingEdits
from .transforms import MAX_PATH_RADIUS, MIN_PATH_RADIUS, MIN_ROCK_RADIUS, WHEEL_FACTOR
from .wall_edits import WallEdits

__all__ = [
    "CREATABLE",
    "HISTORY_LIMIT",
    "MAX_PATH_RADIUS",
    "MIN_PATH_RADIUS",
    "MIN_ROCK_RADIUS",
    "NEW_PATH_LENGTH",
    "WHEEL_FACTOR",
    "EditModel",
    "Step",
]


class EditModel(PathEdits, WallEdits, ObjectEdits, SavingEdits):
    """A level being edited: hit testing, commands, drags, undo/redo, saving and autosave.

    Every command is one undo step; a drag (:meth:`begin_drag`, :meth:`update_drag`,
    :meth:`end_drag`) is one step however long it lasts, and consecutive wheel notches on the
    same path or rock merge into one. The model is "dirty" while its level differs from the
    last one loaded or saved, so undoing back to the saved level makes it clean again.

    It takes the arguments of :class:`~game.editor.core.EditCore` (the level, grid, history
    limit and next object id); :meth:`open` loads a file.
    """

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        grid: float | None = None,
        history_limit: int = HISTORY_LIMIT,
    ) -> EditModel:
        """Load a level file for editing.

        Args:
            path: The level file.
            grid: Grid cell for snapping (px); half a tile when None.
            history_limit: How many undo steps to keep.

        Returns:
            The model. New objects take ids the file does not use yet.

        Raises:
            LevelError: if the file cannot be loaded.
        """
        level, raw, stamp = read_level_file(path)  # once: no FIFO, device or huge file
        next_id = raw.get("nextobjectid")
        if not isinstance(next_id, int) or isinstance(next_id, bool):
            next_id = 1
        next_id = max([next_id, *(i + 1 for i in used_ids(raw))])
        return cls(
            level,
            grid=grid,
            history_limit=history_limit,
            next_id=next_id,
            base=raw,
            stamp=stamp,
        )
