"""Pure level transforms behind the edit commands: a level in, a new level out, or a refusal.

Each function keeps the rules listed in :mod:`game.editor.model` and raises
:class:`~game.editor.objects.RefusedError` (with the reason for the HUD) when the result would
break one; the model turns that into its notice. Nothing here holds state.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

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
)
from steering.path import radii_after_close, radii_after_delete, radii_after_insert

from .geometry import (
    clamp_point,
    max_free_radius,
    overlapping_rocks,
    place_rock,
    round_radius,
    snap_point,
)
from .hits import ARROW_SCALE
from .objects import (
    NEW_RECT,
    Ref,
    RefusedError,
    add,
    get,
    moved,
    put,
    span,
    validate,
    with_rect,
)

#: The smallest path radius an edit makes (px).
MIN_PATH_RADIUS = 2.0
#: The largest path radius the level format allows (px).
MAX_PATH_RADIUS = 10_000.0
#: The smallest rock radius an edit makes (px).
MIN_ROCK_RADIUS = 4.0
#: Radius factor per wheel notch.
WHEEL_FACTOR = 1.1
#: The radius of a rock made by a click without a drag (px).
NEW_ROCK_RADIUS = 24.0


@dataclass(frozen=True)
class Placing:
    """How an edit puts a point the cursor asked for: on the grid when snapping is on.

    Attributes:
        grid: Grid cell (px).
        snap: Whether points snap to the grid.
    """

    grid: float
    snap: bool

    def snapped(self, x: float, y: float) -> Point:
        """(x, y) on the grid when snapping is on, else as it is."""
        return snap_point(x, y, self.grid) if self.snap else (x, y)

    def place(self, level: Level, x: float, y: float) -> Point:
        """(x, y) snapped, rounded and inside the world of ``level``."""
        return clamp_point(*self.snapped(x, y), level.width_px, level.height_px)


# -- helpers -----------------------------------------------------------------------------


def replace_path(level: Level, name: str, new: PathData) -> Level:
    """``level`` with the path called ``name`` replaced by ``new``."""
    return replace(level, paths=tuple(new if p.name == name else p for p in level.paths))


def replace_rock(level: Level, index: int, new: ObstacleData) -> Level:
    """``level`` with rock ``index`` replaced by ``new``."""
    rocks = list(level.obstacles)
    rocks[index] = new
    return replace(level, obstacles=tuple(rocks))


def check_nodes(points: tuple[Point, ...], closed: bool) -> None:
    """Refuse nodes that break the path rules (two nodes, no neighbours on one spot)."""
    if len(points) < 2:
        raise RefusedError("a path keeps at least two nodes")
    pairs = zip(points, points[1:] + (points[:1] if closed else ()), strict=False)
    if any(a == b for a, b in pairs):
        raise RefusedError("two neighbouring nodes would be on the same spot")


def checked_index(index: int, count: int, what: str) -> int:
    """A non-negative index into ``count`` items (negative counts from the end)."""
    i = index + count if index < 0 else index
    if not 0 <= i < count:
        raise IndexError(f"{what} {index} out of range for {count}")
    return i


def find_path(level: Level, name: str) -> PathData:
    """Return the path called ``name``.

    Raises:
        KeyError: if there is none.
    """
    found = level.path_named(name)
    if found is None:
        raise KeyError(f"no path named {name!r}")
    return found


def path_radius(radius: float) -> float:
    """A path radius as edits make it: rounded to 0.1 px, within the allowed range."""
    return min(max(round_radius(radius), MIN_PATH_RADIUS), MAX_PATH_RADIUS)


def _radii(
    rule: Callable[[ArrayLike, int, bool], NDArray[np.float64]],
    radii: tuple[float, ...],
    index: int,
    closed: bool,
) -> tuple[float, ...]:
    """A path's per-segment radii after a node edit (``rule`` from steering.path, the
    rules the live path follows); empty stays empty (one radius for the whole path)."""
    return tuple(float(r) for r in rule(radii, index, closed)) if radii else ()


def scaled(radius: float, notches: float) -> float:
    """A radius after ``notches`` wheel notches: at least 0.1 px of change per notch."""
    new = radius * WHEEL_FACTOR**notches
    if notches and round_radius(new) == round_radius(radius):
        new = radius + math.copysign(0.1, notches)
    return new


def checked(level: Level) -> Level:
    """``level`` when the loader would load it once saved; else the loader's refusal."""
    try:
        return validate(level)
    except LevelError as err:
        raise RefusedError(str(err)) from err


# -- paths -------------------------------------------------------------------------------


def with_node(level: Level, path: PathData, index: int, point: Point) -> Level:
    """Node ``index`` of ``path`` moved to ``point`` (already placed)."""
    points = list(path.points)
    points[index] = point
    new = tuple(points)
    check_nodes(new, path.closed)
    return replace_path(level, path.name, replace(path, points=new))


def with_insert(level: Level, path: PathData, index: int, point: Point) -> Level:
    """A node at ``point`` (already placed) inserted into ``path`` as node ``index``."""
    new = (*path.points[:index], point, *path.points[index:])
    check_nodes(new, path.closed)
    radii = _radii(radii_after_insert, path.radii, index, path.closed)
    return replace_path(level, path.name, replace(path, points=new, radii=radii))


def without_node(level: Level, path: PathData, index: int) -> Level:
    """Node ``index`` deleted from ``path`` (a path keeps at least two nodes)."""
    if len(path.points) <= 2:
        raise RefusedError("a path keeps at least two nodes")
    points = path.points[:index] + path.points[index + 1 :]
    check_nodes(points, path.closed)
    radii = _radii(radii_after_delete, path.radii, index, path.closed)
    return replace_path(level, path.name, replace(path, points=points, radii=radii))


def with_path_radius(level: Level, path: PathData, radius: float) -> Level:
    """``path`` with one radius for every segment (rounded, within the allowed range)."""
    return replace_path(level, path.name, replace(path, radius=path_radius(radius), radii=()))


def with_scaled_radii(level: Level, path: PathData, notches: float) -> Level:
    """``path`` with its radius and each segment's scaled by ``notches`` wheel notches."""
    if not path.radii:
        return with_path_radius(level, path, scaled(path.radius, notches))
    radii = tuple(path_radius(scaled(r, notches)) for r in path.radii)
    new = replace(path, radius=path_radius(scaled(path.radius, notches)), radii=radii)
    return replace_path(level, path.name, new)


def with_closed(level: Level, path: PathData) -> Level:
    """``path`` closed when open, opened when closed."""
    check_nodes(path.points, not path.closed)
    radii: tuple[float, ...] = ()
    if path.radii:
        radii = tuple(float(r) for r in radii_after_close(path.radii, not path.closed))
    return replace_path(level, path.name, replace(path, closed=not path.closed, radii=radii))


# -- rocks -------------------------------------------------------------------------------


def with_rock_at(level: Level, index: int, point: Point) -> Level:
    """Rock ``index`` moved to ``point`` (already placed), pushed out of the rocks it would
    overlap; refused when there is no room near it."""
    rock = level.obstacles[index]
    free = place_rock(
        level.obstacles,
        index,
        point[0],
        point[1],
        rock.radius,
        level.width_px,
        level.height_px,
        away_from=(rock.x, rock.y),
    )
    if free is None:
        raise RefusedError("no room for the rock there")
    return replace_rock(level, index, replace(rock, x=free[0], y=free[1]))


def with_rock_radius(level: Level, index: int, radius: float) -> Level:
    """Rock ``index`` with ``radius``, grown at most until it touches another rock."""
    rock = level.obstacles[index]
    limit = max(level.width_px, level.height_px)
    r = min(max(round_radius(radius), MIN_ROCK_RADIUS), limit)
    if r > rock.radius:
        free = max_free_radius(level.obstacles, index)  # infinite for a lone rock
        room = math.floor(free * 10.0 + 1e-6) / 10.0 if math.isfinite(free) else limit
        r = max(min(r, room), rock.radius)
        # Rounding may leave it a hair inside its neighbour: then 0.1 px less.
        while r > rock.radius and overlapping_rocks(
            replace_rock(level, index, replace(rock, radius=r)).obstacles, index
        ):
            r = max(round_radius(r - 0.1), rock.radius)
    return replace_rock(level, index, replace(rock, radius=r))


# -- every object ------------------------------------------------------------------------


def new_object(level: Level, field: str, point: Point, oid: int, path: str) -> LevelObject:
    """A new object of ``field`` at ``point`` (already placed) with the schema's defaults,
    default size and id ``oid`` (an enemy or NPC follows ``path``)."""
    px, py = point
    if field == "obstacles":
        return ObstacleData(x=px, y=py, radius=NEW_ROCK_RADIUS, id=oid)
    if field == "enemies":
        return EnemySpawn(x=px, y=py, path=path, id=oid)
    if field == "npcs":
        return NpcSpawn(x=px, y=py, path=path, id=oid)
    half = NEW_RECT / 2
    rect = span((px - half, py - half), (px + half, py + half), level.width_px, level.height_px)
    if field == "exits":
        return ExitData(rect=rect, id=oid)
    if field == "flows":
        return FlowRegion(rect=rect, id=oid)
    raise RefusedError(f"cannot create objects of {field}")


def with_new(level: Level, field: str, item: LevelObject) -> tuple[Level, Ref]:
    """The level with ``item`` added to ``field``, refused when it breaks a rule (a new rock
    is pushed out of the rocks it would overlap)."""
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
            raise RefusedError("no room for a rock there")
        return put(probe, ref, replace(item, x=free[0], y=free[1])), ref
    new, ref = add(level, field, item)
    return checked(new), ref


def with_moved(level: Level, ref: Ref, point: Point) -> Level:
    """The object ``ref`` names put at ``point`` (snapped, not yet clamped)."""
    new = moved(get(level, ref), *point, level.width_px, level.height_px)
    return checked(put(level, ref, new))


def with_span(level: Level, ref: Ref, a: Point, b: Point) -> Level:
    """The object ``ref`` names with the rectangle between ``a`` and ``b`` (already placed)."""
    rect = span(a, b, level.width_px, level.height_px)
    return checked(put(level, ref, with_rect(get(level, ref), rect)))


def with_arrow(level: Level, ref: Ref, x: float, y: float) -> Level:
    """The flow region ``ref`` names with its arrow's head at (x, y): angle and strength."""
    item = get(level, ref)
    assert isinstance(item, FlowRegion)
    cx, cy = item.rect.center
    angle = round(math.degrees(math.atan2(y - cy, x - cx)), 1) + 0.0
    strength = round(math.hypot(x - cx, y - cy) / ARROW_SCALE, 1)
    return checked(put(level, ref, replace(item, angle=angle, strength=strength)))


def with_area_toggled(level: Level, ref: Ref, item: NpcSpawn) -> Level:
    """The NPC spawn ``item`` (at ``ref``) as a rectangle around its point, or a rectangle
    as its centre point."""
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
    return checked(put(level, ref, new))
