"""Path commands of the edit model: move, insert, append and delete nodes, radius, close."""

from __future__ import annotations

from dataclasses import replace

from game.level import Level, PathData

from .core import EditCore
from .transforms import (
    check_nodes,
    checked_index,
    with_closed,
    with_insert,
    with_node,
    with_path_radius,
    with_scaled_radii,
    without_node,
)

__all__ = ["NEW_PATH_LENGTH", "PathEdits"]

#: Length of the first segment of a new path (px).
NEW_PATH_LENGTH = 96.0


class PathEdits(EditCore):
    """The commands on paths; each is one undo step (wheel notches on one path merge)."""

    def move_node(self, name: str, index: int, x: float, y: float) -> bool:
        """Move node ``index`` of path ``name`` to (x, y).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        i = checked_index(index, len(path.points), "node")
        return self._edit("move node", lambda: with_node(self._level, path, i, self.place(x, y)))

    def insert_node(self, name: str, segment: int, x: float, y: float) -> bool:
        """Insert a node at (x, y) into segment ``segment`` of path ``name`` (between node
        ``segment`` and the next one; it becomes node ``segment + 1``).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        count = len(path.points) if path.closed else len(path.points) - 1
        seg = checked_index(segment, count, "segment")
        return self._edit(
            "insert node", lambda: with_insert(self._level, path, seg + 1, self.place(x, y))
        )

    def append_node(self, name: str, x: float, y: float) -> bool:
        """Add a node at (x, y) after the last node of path ``name``.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        self.select(name)
        end = len(path.points)
        return self._edit(
            "append node", lambda: with_insert(self._level, path, end, self.place(x, y))
        )

    def delete_node(self, name: str, index: int) -> bool:
        """Delete node ``index`` of path ``name`` (a path keeps at least two nodes).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        i = checked_index(index, len(path.points), "node")
        return self._edit("delete node", lambda: without_node(self._level, path, i))

    def set_path_radius(self, name: str, radius: float) -> bool:
        """Set the radius of path ``name`` (rounded to 0.1 px, kept within the allowed range)
        for every segment (a path with one radius per segment gets one for all).

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        return self._edit("path radius", lambda: with_path_radius(self._level, path, radius))

    def scale_path_radius(self, name: str, notches: float) -> bool:
        """Grow (positive ``notches``) or shrink the radius of path ``name`` by
        :data:`~game.editor.transforms.WHEEL_FACTOR` per notch (each segment's, on a path
        with one per segment); consecutive calls on one path are one undo step.

        Returns:
            True when the level changed.
        """
        self._finish_drag(keep_merge=True)
        path = self.path(name)
        return self._edit(
            "path radius",
            lambda: with_scaled_radii(self._level, path, notches),
            merge_key=("path radius", name),
        )

    def toggle_closed(self, name: str) -> bool:
        """Close an open path (its last node joins the first) or open a closed one.

        Returns:
            True when the level changed.
        """
        self._finish_drag()
        path = self.path(name)
        label = "open path" if path.closed else "close path"
        return self._edit(label, lambda: with_closed(self._level, path))

    def click_path(self, x: float, y: float) -> str | None:
        """The path tool's click on water with no path selected: one click, one node.

        The first click marks where a new path begins (:attr:`path_start`, drawn as a node;
        no edit yet, as a path keeps two nodes); the second makes the path from there to
        (x, y) and selects it, so later clicks append (:meth:`append_node`): four clicks,
        four nodes. A second click on the first spot keeps waiting.

        Returns:
            The new path's name after the second click, else None.
        """
        start = self.path_start
        here = self.place(x, y)
        if start is None:
            self._finish_drag()
            self.select_object(None)
            self.path_start = here
            return None
        if here == start:
            return None
        self.path_start = None
        return self.new_path(*start, to=here)

    def new_path(self, x: float, y: float, to: tuple[float, float] | None = None) -> str | None:
        """Start a new two-node path at (x, y), select it and return its name.

        Its second node is ``to``, or else :data:`NEW_PATH_LENGTH` to the right (to the left
        near the right edge of the world); double-click (:meth:`append_node`) to extend it.

        Returns:
            The new path's name (``path-N``), or None when refused.
        """
        self._finish_drag()
        self.path_start = None
        level = self._level
        first = self.place(x, y)
        step = NEW_PATH_LENGTH if first[0] + NEW_PATH_LENGTH <= level.width_px else -NEW_PATH_LENGTH
        second = self.place(*to) if to is not None else self.place(first[0] + step, first[1])
        names = {p.name for p in level.paths}
        name = next(f"path-{k}" for k in range(1, len(names) + 2) if f"path-{k}" not in names)

        def build() -> Level:
            check_nodes((first, second), False)
            path = PathData(points=(first, second), id=self._next_id, name=name)
            return replace(level, paths=(*level.paths, path))

        if not self._edit("new path", build):
            return None
        self._next_id += 1
        self.select(name)  # the panel shows the new path, not the map
        return name
