"""The edit model's core: the level being edited, its listeners, selection, drags and history.

:class:`EditCore` is the state every group of commands works on; :class:`~game.editor.model.
EditModel` adds the commands (paths, objects, files) to it as mixins.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any

from game.level import Level, LevelObject, PathData, Point
from game.level.changes import Listener, diff_levels

from .drags import Drag, dragged, start_drag
from .files import FileStamp
from .history import HISTORY_LIMIT, History, Step
from .hits import OBJECT_KINDS, ROCK_KINDS, Hit, HitKind, hit_test
from .objects import Ref, RefusedError
from .objects import get as get_object
from .transforms import Placing, find_path

logger = logging.getLogger(__name__)


class EditCore:
    """The state of an edit: level, listeners, selection, snapping, drag and undo history.

    Args:
        level: The level to edit (``level.source`` is where it saves).
        grid: Grid cell for snapping (px); half a tile when None.
        history_limit: How many undo steps to keep.
        next_id: The smallest object id new objects may take (the map's ``nextobjectid``);
            one more than the level's largest id when None.
        base: The raw map the level was read from (what saves start from); read from
            ``level.source`` at the first save when None.
        stamp: What the level's file was when it was read (see
            :func:`~game.editor.files.changed_on_disk`).
    """

    def __init__(
        self,
        level: Level,
        *,
        grid: float | None = None,
        history_limit: int = HISTORY_LIMIT,
        next_id: int | None = None,
        base: dict[str, Any] | None = None,
        stamp: FileStamp | None = None,
    ) -> None:
        self._level = level
        self._saved = level
        self._source: Path | None = level.source
        # The map the level was read from (saves start from it, never from the file on disk)
        # and what that file was then (a save over a file changed since goes beside it).
        self._base = base
        self._stamp = stamp
        self._history = History(history_limit)
        self._drag: Drag | None = None
        self._listeners: list[Listener] = []
        self._next_id = max([next_id or 1, *(o.id + 1 for o in level.objects())])
        #: Grid cell for snapping (px).
        self.grid = (
            float(grid) if grid is not None else min(level.tile_width, level.tile_height) / 2
        )
        #: Whether placed positions snap to the grid.
        self.snap = False
        #: The selected path's name, or "".
        self.selected = ""
        #: The selected object (a path, rock, spawn, exit, flow region), or None.
        self.selection: Ref | None = None
        #: Where the path tool's first click began a new path (no edit until the second
        #: click makes it), or None.
        self.path_start: Point | None = None
        #: The last message for the HUD: why an edit was refused, what was saved, ...
        self.notice = ""
        # An autosave found at opening was recovered or discarded (or this model wrote the
        # autosave itself): it is not offered again.
        self._autosave_settled = False

    # -- state ----------------------------------------------------------------------------

    @property
    def level(self) -> Level:
        """The level as edited (unsaved edits included)."""
        return self._level

    @property
    def source(self) -> Path | None:
        """The file the level saves to."""
        return self._source

    @property
    def dirty(self) -> bool:
        """Whether the level differs from the saved one (unsaved changes)."""
        return self._level != self._saved

    @property
    def history_limit(self) -> int:
        """How many undo steps are kept."""
        return self._history.limit

    @history_limit.setter
    def history_limit(self, limit: int) -> None:
        self._history.limit = limit

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to undo (a drag in progress counts)."""
        drag = self._drag
        return bool(self._history.undo_steps) or (drag is not None and drag.before != self._level)

    @property
    def can_redo(self) -> bool:
        """Whether there is a step to redo."""
        return bool(self._history.redo_steps)

    @property
    def undo_labels(self) -> tuple[str, ...]:
        """Labels of the undo steps, oldest first."""
        return self._history.undo_labels

    @property
    def redo_labels(self) -> tuple[str, ...]:
        """Labels of the redo steps, next first."""
        return self._history.redo_labels

    @property
    def dragging(self) -> HitKind | None:
        """The kind of thing being dragged, or None."""
        return None if self._drag is None else self._drag.kind

    def path(self, name: str) -> PathData:
        """Return the path called ``name``.

        Raises:
            KeyError: if there is none.
        """
        return find_path(self._level, name)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with the changes of every update of the level.

        Updates are edits, every step of a drag, undo, redo and recovering an autosave. The
        listener gets the list from :func:`~game.level.changes.diff_levels`.

        Args:
            listener: Called as ``listener(changes)``.

        Returns:
            A function that unsubscribes it.
        """
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    # -- queries --------------------------------------------------------------------------

    def hit_test(self, x: float, y: float, pick: float) -> Hit | None:
        """What lies under (x, y), the selected path preferred (see :func:`hit_test`).

        Args:
            x: World x (px).
            y: World y (px).
            pick: Tolerance in world px (a view divides its screen tolerance by the zoom).

        Returns:
            The hit, or None over empty space.
        """
        return hit_test(self._level, x, y, pick, self.selected)

    @property
    def _placing(self) -> Placing:
        return Placing(self.grid, self.snap)

    def place(self, x: float, y: float) -> Point:
        """Where a node or rock asked to go to (x, y) is put: snapped to the grid when
        snapping is on, rounded, and inside the world."""
        return self._placing.place(self._level, x, y)

    # -- selection and modes --------------------------------------------------------------

    def select(self, name: str) -> None:
        """Select the path ``name`` ("" or an unknown name selects nothing)."""
        self.selected = name if self._level.path_named(name) is not None else ""
        names = [p.name for p in self._level.paths]
        self.selection = Ref("paths", names.index(name)) if self.selected else None

    def select_object(self, ref: Ref | None) -> None:
        """Select the object ``ref`` names (None, or a reference to nothing, selects nothing);
        a path is selected by name as with :meth:`select`."""
        try:
            item = None if ref is None else get_object(self._level, ref)
        except IndexError:
            item = None
        if isinstance(item, PathData):
            self.select(item.name)
            return
        self.selected = ""
        self.selection = ref if item is not None else None

    @property
    def selected_object(self) -> LevelObject | None:
        """The selected object, or None."""
        ref = self.selection
        try:
            return None if ref is None else get_object(self._level, ref)
        except IndexError:
            return None

    def toggle_snap(self) -> bool:
        """Turn grid snapping on or off; return the new setting."""
        self.snap = not self.snap
        self.notice = f"snap to {self.grid:g} px grid" if self.snap else "snap off"
        return self.snap

    # -- drags ----------------------------------------------------------------------------

    def begin_drag(self, hit: Hit, x: float, y: float) -> bool:
        """Start dragging what ``hit`` names from the cursor at (x, y).

        A node moves; a segment gets a new node at the hit point, which then moves (a click
        on a segment inserts a node); a tube's edge sets the path's radius; a rock moves; a
        rim resizes its rock. The whole drag is one undo step.

        Args:
            hit: From :meth:`hit_test`.
            x: Cursor world x (px).
            y: Cursor world y (px).

        Returns:
            True when a drag started (nothing to drag inside a tube, or a refused insert).
        """
        self._finish_drag()
        if hit.path:
            self.select(hit.path)
        if hit.kind in OBJECT_KINDS or hit.wall is not None:
            assert hit.ref is not None
            self.select_object(hit.ref)
        try:
            drag = start_drag(self._level, hit, x, y, self._placing)
        except RefusedError as refusal:
            self.notice = str(refusal)
            return False
        if drag is None:
            return False
        if hit.kind in ROCK_KINDS:
            self.select_object(Ref("obstacles", hit.index))
        if drag.base is not drag.before:
            self._set(drag.base)
        self._drag = drag
        return True

    def update_drag(self, x: float, y: float) -> bool:
        """Move the drag in progress to the cursor at (x, y).

        Each update starts again from the level at the start of the drag, so nothing
        accumulates; an update that would break a rule is skipped (the dragged thing stays
        where it last was allowed).

        Returns:
            True when the level changed.
        """
        drag = self._drag
        if drag is None:
            return False
        try:
            new = dragged(drag, x, y, self._placing)
        except RefusedError as refusal:
            self.notice = str(refusal)
            return False
        changed = new != self._level
        self._set(new)
        if changed:
            self.notice = ""
        return changed

    def end_drag(self) -> bool:
        """Finish the drag in progress as one undo step.

        Returns:
            True when the drag changed the level (and a step was recorded).
        """
        drag = self._drag
        if drag is None:
            return False
        self._drag = None
        self._history.merge_open = False
        return self._history.commit(drag.label, drag.before, self._level)

    def cancel_drag(self) -> bool:
        """Abandon the drag in progress, putting everything back as it was before it.

        Returns:
            True when a drag was cancelled.
        """
        drag = self._drag
        if drag is None:
            return False
        self._drag = None
        self._set(drag.before)
        return True

    # -- history --------------------------------------------------------------------------

    def undo(self) -> bool:
        """Undo the last step (a drag in progress is finished first).

        Returns:
            True when something was undone.
        """
        self._finish_drag()
        return self._restore(self._history.undo(), undone=True)

    def redo(self) -> bool:
        """Redo the last undone step.

        Returns:
            True when something was redone.
        """
        self._finish_drag()
        return self._restore(self._history.redo(), undone=False)

    def _restore(self, step: Step | None, *, undone: bool) -> bool:
        """Make the level the one before (undone) or after ``step``, and say so."""
        if step is None:
            self.notice = f"nothing to {'undo' if undone else 'redo'}"
            return False
        self._set(step.before if undone else step.after)
        self.notice = f"{'undid' if undone else 'redid'} {step.label}"
        return True

    # -- internals ------------------------------------------------------------------------

    def _set(self, new: Level) -> None:
        """Make ``new`` the current level and tell the listeners what changed."""
        if new.source != self._source:
            new = replace(new, source=self._source)
        old = self._level
        self._level = new
        if self.selected and new.path_named(self.selected) is None:
            self.selected = ""
        if self.selection is not None and self.selected_object is None:
            self.selection = None
        elif self.selected:
            self.select(self.selected)
        changes = diff_levels(old, new)
        if changes:
            for listener in list(self._listeners):
                listener(changes)

    def _edit(
        self, label: str, build: Callable[[], Level], merge_key: Hashable | None = None
    ) -> bool:
        """Build a new level; make it current and record it, or note why it was refused."""
        before = self._level
        try:
            after = build()
        except RefusedError as refusal:
            self.notice = str(refusal)
            self._history.merge_open = False
            logger.debug("%s refused: %s", label, refusal)
            return False
        if after == before:
            return False
        self._set(after)
        self._history.commit(label, before, after, merge_key)
        self.notice = ""
        return True

    def _begin_creating(
        self,
        make: Callable[[], tuple[Level, Ref]],
        drag_for: Callable[[Level, Level, Ref], Drag],
    ) -> bool:
        """Make a new object (``make`` gives the level with it, and its reference; it may
        refuse), select it and start the drag that shapes it (``drag_for(before, base,
        ref)``). The creation and its drag are one undo step.

        Returns:
            True when the object was made (a drag is in progress).
        """
        self._finish_drag()
        before = self._level
        try:
            base, ref = make()
        except RefusedError as refusal:
            self.notice = str(refusal)
            return False
        self._next_id += 1
        self._set(base)
        self.select_object(ref)
        self._drag = drag_for(before, base, ref)
        return True

    def _finish_drag(self, keep_merge: bool = False) -> None:
        """End a drag in progress before another command, and close wheel merging."""
        if self._drag is not None:
            self.end_drag()
        if not keep_merge:
            self._history.merge_open = False
