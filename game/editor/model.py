"""The edit model: a level being edited, its commands, drags, undo history and files.

Pure Python (no arcade, no pymunk): the editor view turns mouse and keys into calls here and
draws :attr:`EditModel.level`; a live world mirrors each change through
:meth:`EditModel.subscribe` (see :mod:`game.editor.changes` and :mod:`game.editor.sync`).

Rules every edit keeps, so that the level always saves and loads back equal:

* a path has at least two nodes, no node on the same spot as its neighbour (nor, on a closed
  path, the last on the first), and every node inside the world;
* path names are unique; a new path is called ``path-N``;
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

import logging
import math
import os
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.level import (
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    LevelError,
    LevelObject,
    NpcSpawn,
    ObstacleData,
    PathData,
    Point,
    PropSpec,
    load_level,
    save_level,
)
from game.level.loader import read_raw
from game.level.schema import MAX_WORLD_PX
from game.steering.path import radii_after_close, radii_after_delete, radii_after_insert

from .changes import Listener, diff_levels
from .files import autosave_path_for, newer_autosave, used_ids
from .geometry import (
    clamp_point,
    max_free_radius,
    nearest_on_polyline,
    overlapping_rocks,
    place_rock,
    round_radius,
    snap_point,
)
from .hits import ARROW_SCALE, Hit, HitKind, corners, hit_test
from .objects import (
    NEW_RECT,
    Ref,
    RefusedError,
    add,
    anchor,
    moved,
    parse_text,
    put,
    rect_of,
    remove,
    span,
    validate,
    with_property,
    with_rect,
)
from .objects import get as get_object

__all__ = [
    "HISTORY_LIMIT",
    "MAX_PATH_RADIUS",
    "MIN_PATH_RADIUS",
    "MIN_ROCK_RADIUS",
    "NEW_PATH_LENGTH",
    "WHEEL_FACTOR",
    "EditModel",
    "Step",
]

logger = logging.getLogger(__name__)

#: The smallest path radius an edit makes (px).
MIN_PATH_RADIUS = 2.0
#: The largest path radius the level format allows (px).
MAX_PATH_RADIUS = 10_000.0
#: The smallest rock radius an edit makes (px).
MIN_ROCK_RADIUS = 4.0
#: Radius factor per wheel notch.
WHEEL_FACTOR = 1.1
#: Length of the first segment of a new path (px).
NEW_PATH_LENGTH = 96.0
#: How many undo steps are kept.
HISTORY_LIMIT = 500
#: The radius of a rock made by a click without a drag (px).
NEW_ROCK_RADIUS = 24.0
#: A creating drag shorter than this keeps the new object's default size (px).
FRESH_PX = 6.0
#: The fields a creating tool adds to, and the label of its undo step.
CREATABLE = {
    "obstacles": "new rock",
    "enemies": "new enemy",
    "npcs": "new NPC",
    "exits": "new exit",
    "flows": "new flow region",
}


_RefusedError = RefusedError


@dataclass(frozen=True)
class Step:
    """One undoable step: the whole level before and after it.

    Levels are frozen and share every object an edit did not touch, so a step costs little
    more than the objects it changed; undo and redo restore exactly the level they saved.

    Attributes:
        label: What the step did, for the HUD ("move node", ...).
        before: The level before the step.
        after: The level after it.
        merge_key: Consecutive steps with the same key (wheel notches on one path) merge.
    """

    label: str
    before: Level
    after: Level
    merge_key: Hashable | None = None


@dataclass
class _Drag:
    """A drag in progress: what is dragged and where it all started."""

    kind: HitKind
    path: str
    index: int
    start: Point
    origin: Point
    grab: float
    before: Level
    base: Level
    label: str
    ref: Ref | None = None
    anchor: Point = (0.0, 0.0)
    fresh: bool = False


def _replace_path(level: Level, name: str, new: PathData) -> Level:
    """``level`` with the path called ``name`` replaced by ``new``."""
    return replace(level, paths=tuple(new if p.name == name else p for p in level.paths))


def _replace_rock(level: Level, index: int, new: ObstacleData) -> Level:
    """``level`` with rock ``index`` replaced by ``new``."""
    rocks = list(level.obstacles)
    rocks[index] = new
    return replace(level, obstacles=tuple(rocks))


def _check_nodes(points: tuple[Point, ...], closed: bool) -> None:
    """Refuse nodes that break the path rules (two nodes, no neighbours on one spot)."""
    if len(points) < 2:
        raise _RefusedError("a path keeps at least two nodes")
    pairs = zip(points, points[1:] + (points[:1] if closed else ()), strict=False)
    if any(a == b for a, b in pairs):
        raise _RefusedError("two neighbouring nodes would be on the same spot")


def _index(index: int, count: int, what: str) -> int:
    """A non-negative index into ``count`` items (negative counts from the end)."""
    i = index + count if index < 0 else index
    if not 0 <= i < count:
        raise IndexError(f"{what} {index} out of range for {count}")
    return i


class EditModel:
    """A level being edited: hit testing, commands, drags, undo/redo, saving and autosave.

    Every command is one undo step; a drag (:meth:`begin_drag`, :meth:`update_drag`,
    :meth:`end_drag`) is one step however long it lasts, and consecutive wheel notches on the
    same path or rock merge into one. The model is "dirty" while its level differs from the
    last one loaded or saved, so undoing back to the saved level makes it clean again.

    Args:
        level: The level to edit (``level.source`` is where it saves).
        grid: Grid cell for snapping (px); half a tile when None.
        history_limit: How many undo steps to keep.
        next_id: The smallest object id new objects may take (the map's ``nextobjectid``);
            one more than the level's largest id when None.
    """

    def __init__(
        self,
        level: Level,
        *,
        grid: float | None = None,
        history_limit: int = HISTORY_LIMIT,
        next_id: int | None = None,
    ) -> None:
        self._level = level
        self._saved = level
        self._source: Path | None = level.source
        self._undo: list[Step] = []
        self._redo: list[Step] = []
        self._merge_open = False
        self._drag: _Drag | None = None
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
        #: The last message for the HUD: why an edit was refused, what was saved, ...
        self.notice = ""
        # An autosave found at opening was recovered or discarded (or this model wrote the
        # autosave itself): it is not offered again.
        self._autosave_settled = False
        self.history_limit = max(int(history_limit), 1)

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
        level = load_level(path)
        raw = read_raw(path)
        next_id = raw.get("nextobjectid")
        if not isinstance(next_id, int) or isinstance(next_id, bool):
            next_id = 1
        next_id = max([next_id, *(i + 1 for i in used_ids(raw))])
        return cls(level, grid=grid, history_limit=history_limit, next_id=next_id)

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
    def can_undo(self) -> bool:
        """Whether there is a step to undo (a drag in progress counts)."""
        return bool(self._undo) or (self._drag is not None and self._drag.before != self._level)

    @property
    def can_redo(self) -> bool:
        """Whether there is a step to redo."""
        return bool(self._redo)

    @property
    def undo_labels(self) -> tuple[str, ...]:
        """Labels of the undo steps, oldest first."""
        return tuple(step.label for step in self._undo)

    @property
    def redo_labels(self) -> tuple[str, ...]:
        """Labels of the redo steps, next first."""
        return tuple(step.label for step in reversed(self._redo))

    @property
    def dragging(self) -> HitKind | None:
        """The kind of thing being dragged, or None."""
        return None if self._drag is None else self._drag.kind

    @property
    def autosave_path(self) -> Path | None:
        """Where unsaved work is written (``NAME.autosave.tmj``), or None without a file."""
        return None if self._source is None else autosave_path_for(self._source)

    def path(self, name: str) -> PathData:
        """Return the path called ``name``.

        Raises:
            KeyError: if there is none.
        """
        found = self._level.path_named(name)
        if found is None:
            raise KeyError(f"no path named {name!r}")
        return found

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with the changes of every update of the level.

        Updates are edits, every step of a drag, undo, redo and recovering an autosave. The
        listener gets the list from :func:`~game.editor.changes.diff_levels`.

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

    def place(self, x: float, y: float) -> Point:
        """Where a node or rock asked to go to (x, y) is put: snapped to the grid when
        snapping is on, rounded, and inside the world."""
        if self.snap:
            x, y = snap_point(x, y, self.grid)
        return clamp_point(x, y, self._level.width_px, self._level.height_px)

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

    # -- commands -------------------------------------------------------------------------

    def move_node(self, name: str, index: int, x: float, y: float) -> bool:
        """Move node ``index`` of path ``name`` to (x, y).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        i = _index(index, len(path.points), "node")
        return self._edit("move node", lambda: self._with_node(self._level, path, i, x, y))

    def insert_node(self, name: str, segment: int, x: float, y: float) -> bool:
        """Insert a node at (x, y) into segment ``segment`` of path ``name`` (between node
        ``segment`` and the next one; it becomes node ``segment + 1``).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        count = len(path.points) if path.closed else len(path.points) - 1
        seg = _index(segment, count, "segment")
        return self._edit("insert node", lambda: self._with_insert(path, seg + 1, x, y))

    def append_node(self, name: str, x: float, y: float) -> bool:
        """Add a node at (x, y) after the last node of path ``name``.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        self.select(name)
        return self._edit("append node", lambda: self._with_insert(path, len(path.points), x, y))

    def delete_node(self, name: str, index: int) -> bool:
        """Delete node ``index`` of path ``name`` (a path keeps at least two nodes).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        i = _index(index, len(path.points), "node")

        def build() -> Level:
            if len(path.points) <= 2:
                raise _RefusedError("a path keeps at least two nodes")
            points = path.points[:i] + path.points[i + 1 :]
            _check_nodes(points, path.closed)
            radii = _radii(radii_after_delete, path.radii, i, path.closed)
            return _replace_path(self._level, name, replace(path, points=points, radii=radii))

        return self._edit("delete node", build)

    def set_path_radius(self, name: str, radius: float) -> bool:
        """Set the radius of path ``name`` (rounded to 0.1 px, kept within the allowed range)
        for every segment (a path with one radius per segment gets one for all).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        return self._edit("path radius", lambda: self._with_path_radius(self._level, path, radius))

    def scale_path_radius(self, name: str, notches: float) -> bool:
        """Grow (positive ``notches``) or shrink the radius of path ``name`` by
        :data:`WHEEL_FACTOR` per notch (each segment's, on a path with one per segment);
        consecutive calls on one path are one undo step.

        Returns:
            True when the level changed.
        """
        self._finish_drag(keep_merge=True)
        path = self.path(name)
        radius = _scaled(path.radius, notches)
        if not path.radii:
            return self._edit(
                "path radius",
                lambda: self._with_path_radius(self._level, path, radius),
                merge_key=("path radius", name),
            )
        radii = tuple(_path_radius(_scaled(r, notches)) for r in path.radii)
        scaled = replace(path, radius=_path_radius(radius), radii=radii)
        return self._edit(
            "path radius",
            lambda: _replace_path(self._level, name, scaled),
            merge_key=("path radius", name),
        )

    def toggle_closed(self, name: str) -> bool:
        """Close an open path (its last node joins the first) or open a closed one.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)

        def build() -> Level:
            _check_nodes(path.points, not path.closed)
            radii: tuple[float, ...] = ()
            if path.radii:
                radii = tuple(float(r) for r in radii_after_close(path.radii, not path.closed))
            closed = replace(path, closed=not path.closed, radii=radii)
            return _replace_path(self._level, name, closed)

        return self._edit("open path" if path.closed else "close path", build)

    def new_path(self, x: float, y: float) -> str | None:
        """Start a new two-node path at (x, y), select it and return its name.

        Its second node is :data:`NEW_PATH_LENGTH` to the right (to the left near the right
        edge of the world); double-click (:meth:`append_node`) to extend it.

        Returns:
            The new path's name (``path-N``), or None when refused.
        """
        self._finish_drag()
        level = self._level
        first = self.place(x, y)
        step = NEW_PATH_LENGTH if first[0] + NEW_PATH_LENGTH <= level.width_px else -NEW_PATH_LENGTH
        second = self.place(first[0] + step, first[1])
        names = {p.name for p in level.paths}
        name = next(f"path-{k}" for k in range(1, len(names) + 2) if f"path-{k}" not in names)

        def build() -> Level:
            _check_nodes((first, second), False)
            path = PathData(points=(first, second), id=self._next_id, name=name)
            return replace(level, paths=(*level.paths, path))

        if not self._edit("new path", build):
            return None
        self._next_id += 1
        self.selected = name
        return name

    def move_rock(self, index: int, x: float, y: float) -> bool:
        """Move rock ``index`` to (x, y), pushed out of any rock it would overlap.

        Returns:
            True when the level changed; False when there is no room near (x, y).
        """
        self._finish_drag()
        i = _index(index, len(self._level.obstacles), "rock")
        return self._edit("move rock", lambda: self._with_rock_at(self._level, i, x, y))

    def resize_rock(self, index: int, radius: float) -> bool:
        """Set the radius of rock ``index``; it grows at most until it touches another rock.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        i = _index(index, len(self._level.obstacles), "rock")
        return self._edit("resize rock", lambda: self._with_rock_radius(self._level, i, radius))

    def scale_rock_radius(self, index: int, notches: float) -> bool:
        """Grow or shrink rock ``index`` by :data:`WHEEL_FACTOR` per notch; consecutive calls
        on one rock are one undo step.

        Returns:
            True when the level changed.
        """
        self._finish_drag(keep_merge=True)
        i = _index(index, len(self._level.obstacles), "rock")
        radius = _scaled(self._level.obstacles[i].radius, notches)
        return self._edit(
            "resize rock",
            lambda: self._with_rock_radius(self._level, i, radius),
            merge_key=("rock radius", i),
        )

    # -- every object ---------------------------------------------------------------------

    def _checked(self, level: Level) -> Level:
        """``level`` when the loader would load it once saved; else the loader's refusal."""
        try:
            return validate(level)
        except LevelError as err:
            raise _RefusedError(str(err)) from err

    def _new_object(self, field: str, x: float, y: float) -> LevelObject:
        """A new object of ``field`` at (x, y) with the schema's defaults, default size and
        the next free id (an enemy or NPC takes the selected path)."""
        px, py = self.place(x, y)
        w, h = self._level.width_px, self._level.height_px
        oid, path = self._next_id, self.selected
        if field == "obstacles":
            return ObstacleData(x=px, y=py, radius=NEW_ROCK_RADIUS, id=oid)
        if field == "enemies":
            return EnemySpawn(x=px, y=py, path=path, id=oid)
        if field == "npcs":
            return NpcSpawn(x=px, y=py, path=path, id=oid)
        half = NEW_RECT / 2
        rect = span((px - half, py - half), (px + half, py + half), w, h)
        if field == "exits":
            return ExitData(rect=rect, id=oid)
        if field == "flows":
            return FlowRegion(rect=rect, id=oid)
        raise _RefusedError(f"cannot create objects of {field}")

    def _with_new(self, field: str, x: float, y: float) -> tuple[Level, Ref]:
        """The level with a new object of ``field`` at (x, y), refused when it breaks a rule."""
        item = self._new_object(field, x, y)
        level = self._level
        if isinstance(item, ObstacleData):
            index = len(level.obstacles)
            probe, ref = add(level, field, item)
            free = place_rock(
                probe.obstacles,
                index,
                item.x,
                item.y,
                item.radius,
                level.width_px,
                level.height_px,
            )
            if free is None:
                raise _RefusedError("no room for a rock there")
            return put(probe, ref, replace(item, x=free[0], y=free[1])), ref
        new, ref = add(level, field, item)
        return self._checked(new), ref

    def create(self, field: str, x: float, y: float) -> Ref | None:
        """Add a new object to ``field`` (see :data:`CREATABLE`) at (x, y) with its default
        size and properties, and select it.

        Returns:
            Its reference, or None when refused (the notice says why).
        """
        self._finish_drag()
        made: list[Ref] = []

        def build() -> Level:
            level, ref = self._with_new(field, x, y)
            made.append(ref)
            return level

        if not self._edit(CREATABLE.get(field, "new object"), build):
            return None
        self._next_id += 1
        self.select_object(made[0])
        return made[0]

    def begin_create(self, field: str, x: float, y: float) -> bool:
        """Start a new object at (x, y) that the drag then shapes: a rock's radius, a
        rectangle's opposite corner, a spawn point's place. A click without a drag leaves the
        default size. The creation and its drag are one undo step.

        Returns:
            True when the object was made (a drag is in progress).
        """
        self._finish_drag()
        before = self._level
        try:
            base, ref = self._with_new(field, x, y)
        except _RefusedError as refusal:
            self.notice = str(refusal)
            return False
        self._next_id += 1
        self._set(base)
        self.select_object(ref)
        item = get_object(base, ref)
        label = CREATABLE.get(field, "new object")
        rect = rect_of(item)
        if isinstance(item, ObstacleData):
            kind, start = HitKind.RIM, (item.x, item.y)
        elif rect is not None:
            kind, start = HitKind.CORNER, self.place(x, y)
        else:
            kind, start = HitKind.SPAWN, anchor(item)
        self._drag = _Drag(
            kind, "", ref.index, start, start, 0.0, before, base, label, ref, start, True
        )
        return True

    def delete(self, ref: Ref) -> bool:
        """Delete the object ``ref`` names (a path also leaves the spawns that followed it).

        Returns:
            True when the level changed; False for the player start and the last exit.
        """
        self._finish_drag()
        item = get_object(self._level, ref)
        cls = ref.cls
        changed = self._edit(f"delete {cls}", lambda: remove(self._level, ref))
        if changed:
            self.selection, self.selected = None, ""
            if isinstance(item, PathData):
                self.notice = f"deleted path {item.name}"
        return changed

    def move_object(self, ref: Ref, x: float, y: float) -> bool:
        """Put the object ``ref`` names at (x, y) (its point, a rectangle's centre, a rock's
        centre, a path's first node: the rest of the path follows).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        if ref.field == "obstacles":
            return self.move_rock(ref.index, x, y)
        return self._edit(f"move {ref.cls}", lambda: self._with_moved(self._level, ref, x, y))

    def set_rect(self, ref: Ref, a: Point, b: Point) -> bool:
        """Give an exit, flow region or NPC spawn the rectangle with corners ``a`` and ``b``.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        return self._edit(f"resize {ref.cls}", lambda: self._with_span(self._level, ref, a, b))

    def toggle_area(self, ref: Ref) -> bool:
        """Turn an NPC spawn point into a rectangle around it, or a rectangle into its centre.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        item = get_object(self._level, ref)
        if not isinstance(item, NpcSpawn):
            self.notice = "only NPC spawns are a point or a rectangle"
            return False
        level = self._level
        if item.area is None:
            half = NEW_RECT / 2
            rect = span(
                (item.x - half, item.y - half),
                (item.x + half, item.y + half),
                level.width_px,
                level.height_px,
            )
            new: LevelObject = with_rect(item, rect)
        else:
            new = replace(item, area=None)
        return self._edit("NPC area", lambda: self._checked(put(level, ref, new)))

    def set_property(
        self, ref: Ref | None, spec: PropSpec, value: object, *, merge: bool = False
    ) -> bool:
        """Set one property of an object (of the map when ``ref`` is None), checked by the
        loader: an out-of-range or mistyped value is refused with the loader's own message.

        Args:
            ref: The object, or None for the map.
            spec: The property (from ``game.level.schema``).
            value: Typed text (parsed as the property's kind) or a value as a file holds it.
            merge: Merge into the last step when it set the same property (a drag on the
                value is one undo step).

        Returns:
            True when the level changed.
        """
        self._finish_drag(keep_merge=merge)

        def build() -> Level:
            raw = parse_text(spec, value) if isinstance(value, str) else value
            try:
                return self._checked(with_property(self._level, ref, spec, raw))
            except LevelError as err:
                raise _RefusedError(str(err)) from err

        key = ("property", ref, spec.name) if merge else None
        changed = self._edit(f"set {spec.name}", build, merge_key=key)
        if not changed:
            self._merge_open = False  # a refused or idle value ends the merging
        return changed

    def set_map_size(self, width_tiles: int, height_tiles: int) -> bool:
        """Make the world ``width_tiles`` x ``height_tiles`` tiles; refused (with the loader's
        message) when an object would be left outside.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        level = self._level
        if min(width_tiles, height_tiles) < 1:
            self.notice = "the map is at least one tile on each side"
            return False
        w, h = float(width_tiles * level.tile_width), float(height_tiles * level.tile_height)
        if max(w, h) > MAX_WORLD_PX:
            self.notice = f"the world is at most {MAX_WORLD_PX:,} px on a side"
            return False
        return self._edit(
            "map size", lambda: self._checked(replace(level, width_px=w, height_px=h))
        )

    def _with_moved(self, level: Level, ref: Ref, x: float, y: float) -> Level:
        item = get_object(level, ref)
        if self.snap:
            x, y = snap_point(x, y, self.grid)
        new = moved(item, x, y, level.width_px, level.height_px)
        return self._checked(put(level, ref, new))

    def _with_span(self, level: Level, ref: Ref, a: Point, b: Point) -> Level:
        item = get_object(level, ref)
        rect = span(self.place(*a), self.place(*b), level.width_px, level.height_px)
        return self._checked(put(level, ref, with_rect(item, rect)))

    def _with_arrow(self, level: Level, ref: Ref, x: float, y: float) -> Level:
        item = get_object(level, ref)
        assert isinstance(item, FlowRegion)
        cx, cy = item.rect.center
        angle = round(math.degrees(math.atan2(y - cy, x - cx)), 1) + 0.0
        strength = round(math.hypot(x - cx, y - cy) / ARROW_SCALE, 1)
        return self._checked(put(level, ref, replace(item, angle=angle, strength=strength)))

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
        level = self._level
        before, base = level, level
        if hit.path:
            self.select(hit.path)
        kind, index, origin, grab, label = hit.kind, hit.index, hit.point, 0.0, ""
        if kind is HitKind.NODE:
            origin, label = self.path(hit.path).points[index], "move node"
        elif kind is HitKind.SEGMENT:
            path = self.path(hit.path)
            try:
                base = self._with_insert(path, index + 1, *hit.point)
            except _RefusedError as refusal:
                self.notice = str(refusal)
                return False
            self._set(base)
            kind, index, label = HitKind.NODE, index + 1, "insert node"
            origin = _named(base, hit.path).points[index]
        elif kind is HitKind.EDGE:
            path = self.path(hit.path)
            near = nearest_on_polyline(path.points, path.closed, x, y)
            edge = path.segment_radii[near.segment] if near else path.radius
            grab = edge - (near.distance if near else 0.0)
            label = "path radius"
        elif kind in (HitKind.ROCK, HitKind.RIM):
            # The rock's centre as the hit saw it: a pushable rock's live place while the
            # world runs (its handle follows it), else its place in the level.
            rock = level.obstacles[index]
            origin = hit.point
            grab = rock.radius - math.hypot(x - origin[0], y - origin[1])
            label = "move rock" if kind is HitKind.ROCK else "resize rock"
            self.select_object(Ref("obstacles", index))
            self._drag = _Drag(kind, "", index, (x, y), origin, grab, before, base, label)
            self._drag.anchor = origin
            return True
        elif kind in (HitKind.SPAWN, HitKind.AREA, HitKind.CORNER, HitKind.ARROW):
            ref = hit.ref
            assert ref is not None
            self.select_object(ref)
            item = get_object(level, ref)
            rect = rect_of(item)
            origin, far = anchor(item), origin
            if kind is HitKind.CORNER and rect is not None:
                origin, far = corners(rect)[index], corners(rect)[(index + 2) % 4]
            if kind is HitKind.ARROW:
                origin = hit.point
            label = {
                HitKind.SPAWN: f"move {ref.cls}",
                HitKind.AREA: f"move {ref.cls}",
                HitKind.CORNER: f"resize {ref.cls}",
                HitKind.ARROW: "flow direction",
            }[kind]
            self._drag = _Drag(kind, "", index, (x, y), origin, 0.0, before, base, label, ref, far)
            return True
        else:
            return False
        self._drag = _Drag(kind, hit.path, index, (x, y), origin, grab, before, base, label)
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
        base = drag.base
        tx = drag.origin[0] + x - drag.start[0]
        ty = drag.origin[1] + y - drag.start[1]
        try:
            if drag.kind is HitKind.NODE:
                path = _named(base, drag.path)
                new = self._with_node(base, path, drag.index, tx, ty)
            elif drag.kind is HitKind.EDGE:
                path = _named(base, drag.path)
                near = nearest_on_polyline(path.points, path.closed, x, y)
                radius = (near.distance if near else 0.0) + drag.grab
                new = self._with_path_radius(base, path, radius)
            elif drag.kind is HitKind.ROCK:
                new = self._with_rock_at(base, drag.index, tx, ty)
            elif drag.kind is HitKind.RIM:
                cx, cy = drag.anchor
                reach = math.hypot(x - cx, y - cy)
                if drag.fresh and reach < FRESH_PX:
                    new = base
                else:
                    new = self._with_rock_radius(base, drag.index, reach + drag.grab)
            else:
                ref = drag.ref
                assert ref is not None
                moved_far = math.hypot(x - drag.start[0], y - drag.start[1]) >= FRESH_PX
                if drag.fresh and not moved_far:
                    new = base
                elif drag.kind is HitKind.CORNER:
                    new = self._with_span(base, ref, drag.anchor, (tx, ty))
                elif drag.kind is HitKind.ARROW:
                    new = self._with_arrow(base, ref, tx, ty)
                else:
                    new = self._with_moved(base, ref, tx, ty)
        except _RefusedError as refusal:
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
        self._merge_open = False
        return self._commit(drag.label, drag.before, self._level)

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
        if not self._undo:
            self.notice = "nothing to undo"
            return False
        step = self._undo.pop()
        self._redo.append(step)
        self._set(step.before)
        self.notice = f"undid {step.label}"
        return True

    def redo(self) -> bool:
        """Redo the last undone step.

        Returns:
            True when something was redone.
        """
        self._finish_drag()
        if not self._redo:
            self.notice = "nothing to redo"
            return False
        step = self._redo.pop()
        self._undo.append(step)
        self._set(step.after)
        self.notice = f"redid {step.label}"
        return True

    # -- files ----------------------------------------------------------------------------

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
        self._merge_open = False
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

    def _commit(
        self, label: str, before: Level, after: Level, merge_key: Hashable | None = None
    ) -> bool:
        """Record a step from ``before`` to ``after``; a step with the same merge key as the
        last one, with nothing in between, merges into it (and a merged step that comes back
        to where it began disappears)."""
        if (
            merge_key is not None
            and self._merge_open
            and self._undo
            and self._undo[-1].merge_key == merge_key
        ):
            before = self._undo.pop().before
        self._merge_open = merge_key is not None
        if after == before:
            # Nothing to record; a merge that came back to its start closes the merging, so
            # the next notch cannot merge into an older, unrelated step.
            self._merge_open = False
            return False
        self._undo.append(Step(label, before, after, merge_key))
        del self._undo[: max(len(self._undo) - self.history_limit, 0)]
        self._redo.clear()
        return True

    def _edit(
        self, label: str, build: Callable[[], Level], merge_key: Hashable | None = None
    ) -> bool:
        """Build a new level; make it current and record it, or note why it was refused."""
        before = self._level
        try:
            after = build()
        except _RefusedError as refusal:
            self.notice = str(refusal)
            self._merge_open = False
            logger.debug("%s refused: %s", label, refusal)
            return False
        if after == before:
            return False
        self._set(after)
        self._commit(label, before, after, merge_key)
        self.notice = ""
        return True

    def _finish_drag(self, keep_merge: bool = False) -> None:
        """End a drag in progress before another command, and close wheel merging."""
        if self._drag is not None:
            self.end_drag()
        if not keep_merge:
            self._merge_open = False

    def _with_node(self, level: Level, path: PathData, index: int, x: float, y: float) -> Level:
        points = list(path.points)
        points[index] = self.place(x, y)
        new = tuple(points)
        _check_nodes(new, path.closed)
        return _replace_path(level, path.name, replace(path, points=new))

    def _with_insert(self, path: PathData, index: int, x: float, y: float) -> Level:
        new = (*path.points[:index], self.place(x, y), *path.points[index:])
        _check_nodes(new, path.closed)
        radii = _radii(radii_after_insert, path.radii, index, path.closed)
        return _replace_path(self._level, path.name, replace(path, points=new, radii=radii))

    @staticmethod
    def _with_path_radius(level: Level, path: PathData, radius: float) -> Level:
        r = _path_radius(radius)
        return _replace_path(level, path.name, replace(path, radius=r, radii=()))

    def _with_rock_at(self, level: Level, index: int, x: float, y: float) -> Level:
        rock = level.obstacles[index]
        tx, ty = self.place(x, y)
        free = place_rock(
            level.obstacles,
            index,
            tx,
            ty,
            rock.radius,
            level.width_px,
            level.height_px,
            away_from=(rock.x, rock.y),
        )
        if free is None:
            raise _RefusedError("no room for the rock there")
        return _replace_rock(level, index, replace(rock, x=free[0], y=free[1]))

    @staticmethod
    def _with_rock_radius(level: Level, index: int, radius: float) -> Level:
        rock = level.obstacles[index]
        limit = max(level.width_px, level.height_px)
        r = min(max(round_radius(radius), MIN_ROCK_RADIUS), limit)
        if r > rock.radius:
            free = max_free_radius(level.obstacles, index)  # infinite for a lone rock
            room = math.floor(free * 10.0 + 1e-6) / 10.0 if math.isfinite(free) else limit
            r = max(min(r, room), rock.radius)
            # Rounding may leave it a hair inside its neighbour: then 0.1 px less.
            while r > rock.radius and overlapping_rocks(
                _replace_rock(level, index, replace(rock, radius=r)).obstacles, index
            ):
                r = max(round_radius(r - 0.1), rock.radius)
        return _replace_rock(level, index, replace(rock, radius=r))


def _named(level: Level, name: str) -> PathData:
    """The path called ``name`` (it exists: drags only name paths of their base level)."""
    path = level.path_named(name)
    assert path is not None
    return path


def _path_radius(radius: float) -> float:
    """A path radius as edits make it: rounded to 0.1 px, within the allowed range."""
    return min(max(round_radius(radius), MIN_PATH_RADIUS), MAX_PATH_RADIUS)


def _radii(
    rule: Callable[[ArrayLike, int, bool], NDArray[np.float64]],
    radii: tuple[float, ...],
    index: int,
    closed: bool,
) -> tuple[float, ...]:
    """A path's per-segment radii after a node edit (``rule`` from game.steering.path, the
    rules the live path follows); empty stays empty (one radius for the whole path)."""
    return tuple(float(r) for r in rule(radii, index, closed)) if radii else ()


def _scaled(radius: float, notches: float) -> float:
    """A radius after ``notches`` wheel notches: at least 0.1 px of change per notch."""
    scaled = radius * WHEEL_FACTOR**notches
    if notches and round_radius(scaled) == round_radius(radius):
        scaled = radius + math.copysign(0.1, notches)
    return scaled
