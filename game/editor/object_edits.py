"""Object commands of the edit model: rocks, creating, deleting, moving and resizing any
object, its properties and the map's size."""

from __future__ import annotations

from dataclasses import replace

from game.level import Level, LevelError, NpcSpawn, PathData, Point, PropSpec
from game.level.schema import MAX_WORLD_PX

from .core import EditCore
from .drags import creating_drag
from .objects import Ref, RefusedError, parse_text, remove, with_property
from .objects import get as get_object
from .transforms import (
    checked,
    checked_index,
    new_object,
    scaled,
    with_area_toggled,
    with_moved,
    with_new,
    with_rock_at,
    with_rock_radius,
    with_span,
)

__all__ = ["CREATABLE", "ObjectEdits"]

#: The fields a creating tool adds to, and the label of its undo step.
CREATABLE = {
    "obstacles": "new rock",
    "enemies": "new enemy",
    "npcs": "new NPC",
    "exits": "new exit",
    "flows": "new flow region",
}


class ObjectEdits(EditCore):
    """The commands on rocks and every other object; each is one undo step."""

    # -- rocks ----------------------------------------------------------------------------

    def move_rock(self, index: int, x: float, y: float) -> bool:
        """Move rock ``index`` to (x, y), pushed out of any rock it would overlap.

        Returns:
            True when the level changed; False when there is no room near (x, y).
        """
        self._finish_drag()
        i = checked_index(index, len(self._level.obstacles), "rock")
        return self._edit("move rock", lambda: with_rock_at(self._level, i, self.place(x, y)))

    def resize_rock(self, index: int, radius: float) -> bool:
        """Set the radius of rock ``index``; it grows at most until it touches another rock.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        i = checked_index(index, len(self._level.obstacles), "rock")
        return self._edit("resize rock", lambda: with_rock_radius(self._level, i, radius))

    def scale_rock_radius(self, index: int, notches: float) -> bool:
        """Grow or shrink rock ``index`` by :data:`~game.editor.transforms.WHEEL_FACTOR` per
        notch; consecutive calls on one rock are one undo step.

        Returns:
            True when the level changed.
        """
        self._finish_drag(keep_merge=True)
        i = checked_index(index, len(self._level.obstacles), "rock")
        radius = scaled(self._level.obstacles[i].radius, notches)
        return self._edit(
            "resize rock",
            lambda: with_rock_radius(self._level, i, radius),
            merge_key=("rock radius", i),
        )

    # -- every object ---------------------------------------------------------------------

    def _with_new(self, field: str, x: float, y: float) -> tuple[Level, Ref]:
        """The level with a new object of ``field`` at (x, y) with the next free id (an enemy
        or NPC takes the selected path), refused when it breaks a rule."""
        level = self._level
        item = new_object(level, field, self.place(x, y), self._next_id, self.selected)
        return with_new(level, field, item)

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
        label = CREATABLE.get(field, "new object")
        return self._begin_creating(
            lambda: self._with_new(field, x, y),
            lambda before, base, ref: creating_drag(before, base, ref, self.place(x, y), label),
        )

    def delete(self, ref: Ref) -> bool:
        """Delete the object ``ref`` names (a path also leaves the spawns that followed it).

        Returns:
            True when the level changed; False for the player start and the last exit.
        """
        self._finish_drag()
        item = get_object(self._level, ref)
        changed = self._edit(f"delete {ref.cls}", lambda: remove(self._level, ref))
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
        return self._edit(
            f"move {ref.cls}",
            lambda: with_moved(self._level, ref, self._placing.snapped(x, y)),
        )

    def set_rect(self, ref: Ref, a: Point, b: Point) -> bool:
        """Give an exit, flow region or NPC spawn the rectangle with corners ``a`` and ``b``.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        return self._edit(
            f"resize {ref.cls}",
            lambda: with_span(self._level, ref, self.place(*a), self.place(*b)),
        )

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
        return self._edit("NPC area", lambda: with_area_toggled(self._level, ref, item))

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
                return checked(with_property(self._level, ref, spec, raw))
            except LevelError as err:
                raise RefusedError(str(err)) from err

        key = ("property", ref, spec.name) if merge else None
        changed = self._edit(f"set {spec.name}", build, merge_key=key)
        if not changed:
            self._history.merge_open = False  # a refused or idle value ends the merging
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
        return self._edit("map size", lambda: checked(replace(level, width_px=w, height_px=h)))
