"""Wall commands of the edit model: draw a wall (a straight one or a rectangle), move, insert,
append and delete its corners, close or open it, its thickness on the wheel.

A wall's corners edit like a path's nodes (the transforms are in :mod:`game.editor.walls`);
every result is checked by the loader, so a wall never leaves the world nor covers the player
start.
"""

from __future__ import annotations

from dataclasses import replace

from game.level import CLASSES, Level, Point, WallData

from .core import EditCore
from .drags import Drag
from .hits import HitKind
from .objects import NEW_RECT, Ref
from .transforms import checked, checked_index, scaled
from .walls import (
    rect_corners,
    wall_closed_toggled,
    wall_node_deleted,
    wall_node_inserted,
    wall_node_moved,
    with_wall,
)

__all__ = ["NEW_WALL_LENGTH", "WallEdits"]

#: Length of a straight wall made by a click without a drag (px).
NEW_WALL_LENGTH = 96.0
#: The thinnest wall the wheel makes (px).
MIN_WALL_THICKNESS = 2.0


class WallEdits(EditCore):
    """The commands on walls; each is one undo step (wheel notches on one wall merge)."""

    def _wall(self, index: int) -> int:
        return checked_index(index, len(self._level.walls), "wall")

    def move_wall_node(self, index: int, node: int, x: float, y: float) -> bool:
        """Move corner ``node`` of wall ``index`` to (x, y) (a rectangle stays one: its
        opposite corner stays put).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        i = self._wall(index)
        k = checked_index(node, len(self._level.walls[i].points), "corner")
        return self._edit(
            "move wall corner",
            lambda: checked(wall_node_moved(self._level, i, k, self.place(x, y))),
        )

    def insert_wall_node(self, index: int, segment: int, x: float, y: float) -> bool:
        """Insert a corner at (x, y) into segment ``segment`` of wall ``index`` (it becomes
        corner ``segment + 1``; a rectangle becomes a polygon).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        i = self._wall(index)
        wall = self._level.walls[i]
        count = len(wall.points) if wall.closed else len(wall.points) - 1
        seg = checked_index(segment, count, "segment")
        self.select_object(Ref("walls", i))
        return self._edit(
            "insert wall corner",
            lambda: checked(wall_node_inserted(self._level, i, seg + 1, self.place(x, y))),
        )

    def append_wall_node(self, index: int, x: float, y: float) -> bool:
        """Add a corner at (x, y) after the last corner of wall ``index``.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        i = self._wall(index)
        end = len(self._level.walls[i].points)
        self.select_object(Ref("walls", i))
        return self._edit(
            "append wall corner",
            lambda: checked(wall_node_inserted(self._level, i, end, self.place(x, y))),
        )

    def delete_wall_node(self, index: int, node: int) -> bool:
        """Delete corner ``node`` of wall ``index`` (an open wall keeps two, a closed one
        three).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        i = self._wall(index)
        k = checked_index(node, len(self._level.walls[i].points), "corner")
        return self._edit(
            "delete wall corner", lambda: checked(wall_node_deleted(self._level, i, k))
        )

    def toggle_wall_closed(self, index: int) -> bool:
        """Close an open wall or open a closed one.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        i = self._wall(index)
        label = "open wall" if self._level.walls[i].closed else "close wall"
        return self._edit(label, lambda: checked(wall_closed_toggled(self._level, i)))

    def scale_wall_thickness(self, index: int, notches: float) -> bool:
        """Thicken (positive ``notches``) or thin wall ``index`` by the wheel factor per notch,
        within the level format's range; consecutive notches on one wall are one step.

        Returns:
            True when the level changed.
        """
        self._finish_drag(keep_merge=True)
        i = self._wall(index)
        wall = self._level.walls[i]
        spec = CLASSES["wall"].prop("thickness")
        low = MIN_WALL_THICKNESS if spec.minimum is None else max(spec.minimum, MIN_WALL_THICKNESS)
        thickness = max(round(scaled(wall.thickness, notches), 1), low)
        if spec.maximum is not None:
            thickness = min(thickness, spec.maximum)
        return self._edit(
            "wall thickness",
            lambda: checked(with_wall(self._level, i, replace(wall, thickness=thickness))),
            merge_key=("wall thickness", i),
        )

    def _new_wall(self, x: float, y: float, rect: bool) -> tuple[Level, Ref]:
        """The level with a new wall at (x, y): a :data:`NEW_WALL_LENGTH` straight wall
        going right (left near the right edge), or a square rectangle wall."""
        level = self._level
        first = self.place(x, y)
        if rect:
            half = NEW_RECT / 2
            a, b = (first[0] - half, first[1] - half), (first[0] + half, first[1] + half)
            points = rect_corners(a, b, level.width_px, level.height_px)
            wall = WallData(points=points, shape="rect", id=self._next_id)
        else:
            fits = first[0] + NEW_WALL_LENGTH <= level.width_px
            second = self.place(
                first[0] + (NEW_WALL_LENGTH if fits else -NEW_WALL_LENGTH), first[1]
            )
            wall = WallData(points=(first, second), id=self._next_id)
        new = replace(level, walls=(*level.walls, wall))
        return checked(new), Ref("walls", len(level.walls))

    def new_wall(self, x: float, y: float, *, rect: bool = False) -> Ref | None:
        """Add a wall at (x, y) (see :meth:`begin_wall`) with its default size; select it.

        Returns:
            Its reference, or None when refused (the notice says why).
        """
        if not self.begin_wall(x, y, rect=rect):
            return None
        self.end_drag()
        return Ref("walls", len(self._level.walls) - 1)

    def begin_wall(self, x: float, y: float, *, rect: bool = False) -> bool:
        """Start a new wall at (x, y) that the drag then shapes: a straight wall from the press
        to the cursor, or a rectangle wall with corners at the press and the cursor. A click
        without a drag leaves the default size. The creation and its drag are one undo step.

        Returns:
            True when the wall was made (a drag is in progress).
        """
        # A fresh drag on a wall's corner: the second corner of a straight wall follows the
        # cursor; a rectangle spans the press and the cursor (drags.dragged).
        start: Point = self.place(x, y)

        def drag_for(before: Level, base: Level, ref: Ref) -> Drag:
            return Drag(
                HitKind.NODE, "", 1, start, start, 0.0, before, base, "new wall", ref, start, True
            )

        return self._begin_creating(lambda: self._new_wall(x, y, rect), drag_for)
