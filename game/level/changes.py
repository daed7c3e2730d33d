"""Change events: what an edit did to the level, for whoever mirrors it (the live world).

:func:`diff_levels` compares two levels and lists what changed in paths and rocks; the edit
model sends that list to its listeners after every change (an edit, each step of a drag, an
undo, a redo), so a world can keep its steering paths and rock bodies in step while its
agents keep moving.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.level import Level, Point

__all__ = [
    "Change",
    "Listener",
    "ObjectsChanged",
    "PathChanged",
    "PathRemoved",
    "RockChanged",
    "RockRemoved",
    "diff_levels",
]


@dataclass(frozen=True)
class PathChanged:
    """A path was added or its nodes, closed flag or radii changed.

    Attributes:
        name: The path's name (paths are known by name: spawns refer to them by it). A name
            the listener does not know yet is a new path.
        nodes: All its nodes now (a mirror updates itself with the fewest node edits, see
            :func:`game.level.sync.sync_path`).
        closed: Whether it loops.
        radius: Its radius (px).
        radii: One radius per segment (px), or empty when ``radius`` holds for every one.
    """

    name: str
    nodes: tuple[Point, ...]
    closed: bool
    radius: float
    radii: tuple[float, ...] = ()


@dataclass(frozen=True)
class PathRemoved:
    """A path is gone (the undo of a new path).

    Attributes:
        name: Its name.
    """

    name: str


@dataclass(frozen=True)
class RockChanged:
    """A rock moved or changed size (or is new, when ``index`` is past the known rocks).

    Attributes:
        index: Its index in ``Level.obstacles`` (the editor never reorders rocks).
        id: Its object id in the map file.
        x: Centre x (px).
        y: Centre y (px).
        radius: Radius (px).
        dynamic: Whether it is pushable.
        mass: Its mass (pushable rocks).
    """

    index: int
    id: int
    x: float
    y: float
    radius: float
    dynamic: bool = False
    mass: float = 10.0


@dataclass(frozen=True)
class RockRemoved:
    """A rock is gone (rocks only ever go from the end of ``Level.obstacles``).

    Attributes:
        index: Its index in the old ``Level.obstacles``.
        id: Its object id.
    """

    index: int
    id: int


@dataclass(frozen=True)
class ObjectsChanged:
    """Objects of one other field of the level changed (added, removed, moved or edited); a
    mirror reads them from the new level.

    Attributes:
        field: ``player``, ``exits``, ``enemies``, ``npcs``, ``flows``, ``walls``, or ``map``
            for the world's size.
    """

    field: str


#: The level fields that :class:`ObjectsChanged` reports.
OBJECT_FIELDS = ("player", "exits", "enemies", "npcs", "flows", "walls")

Change = PathChanged | PathRemoved | RockChanged | RockRemoved | ObjectsChanged
#: Called with the changes of one update of the level, in order.
Listener = Callable[[Sequence[Change]], object]


def diff_levels(old: Level, new: Level) -> list[Change]:
    """List what changed in paths and rocks from ``old`` to ``new``.

    Paths are matched by name, rocks by index. For paths and rocks only what a mirror uses
    counts (nodes, closed, radii; centre, radius, pushable, mass): a changed object id or
    drift setting alone is no change to mirror. Other fields are reported whole.

    Args:
        old: The level before.
        new: The level after.

    Returns:
        Path changes (in ``new``'s order), removed paths, rock changes and removals, then
        the other fields that changed.
    """
    changes: list[Change] = []
    if old.paths is not new.paths:
        before = {p.name: p for p in old.paths}
        names = set()
        for path in new.paths:
            names.add(path.name)
            was = before.get(path.name)
            if was is path:
                continue
            if was is None or (was.points, was.closed, was.radius, was.radii) != (
                path.points,
                path.closed,
                path.radius,
                path.radii,
            ):
                changes.append(
                    PathChanged(path.name, path.points, path.closed, path.radius, path.radii)
                )
        changes.extend(PathRemoved(p.name) for p in old.paths if p.name not in names)
    if old.obstacles is not new.obstacles:
        for i, rock in enumerate(new.obstacles):
            was_rock = old.obstacles[i] if i < len(old.obstacles) else None
            if was_rock is rock:
                continue
            shape = (rock.x, rock.y, rock.radius, rock.dynamic, rock.mass)
            if (
                was_rock is None
                or (
                    was_rock.x,
                    was_rock.y,
                    was_rock.radius,
                    was_rock.dynamic,
                    was_rock.mass,
                )
                != shape
            ):
                changes.append(RockChanged(i, rock.id, *shape))
        changes.extend(
            RockRemoved(i, old.obstacles[i].id)
            for i in range(len(new.obstacles), len(old.obstacles))
        )
    changes.extend(
        ObjectsChanged(name)
        for name in OBJECT_FIELDS
        if getattr(old, name) is not getattr(new, name) and getattr(old, name) != getattr(new, name)
    )
    if (old.width_px, old.height_px) != (new.width_px, new.height_px):
        changes.append(ObjectsChanged("map"))
    return changes
