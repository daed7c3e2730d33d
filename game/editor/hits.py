"""Hit testing: what of a level lies under the cursor, in world coordinates.

The pick radius is in world px, so a view divides its screen tolerance by the zoom.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace

import numpy as np

from game.level import EnemySpawn, FlowRegion, Level, NpcSpawn, PlayerSpawn, Point, Rect

from .geometry import nearest_on_polyline
from .objects import Ref, rect_of, refs
from .objects import get as get_object

__all__ = [
    "ARROW_SCALE",
    "OBJECT_KINDS",
    "PATH_KINDS",
    "ROCK_KINDS",
    "Hit",
    "HitKind",
    "corners",
    "flow_arrow",
    "followed",
    "hit_test",
]

#: A flow region's arrow is this many px long per px/s of strength.
ARROW_SCALE = 1.0


class HitKind(enum.Enum):
    """The kinds of thing the cursor can be over, from the most specific to the least."""

    NODE = "node"
    """A path node (a handle): drag it to move it."""
    SEGMENT = "segment"
    """The centre line of a path segment: click to insert a node there."""
    EDGE = "edge"
    """The edge of a path's tube: drag it to change the path's radius."""
    RIM = "rim"
    """The rim of a rock: drag it to resize the rock."""
    ROCK = "rock"
    """The inside of a rock: drag it to move the rock."""
    TUBE = "tube"
    """Inside a path's tube, away from its centre line and edge (the wheel changes the radius)."""
    SPAWN = "spawn"
    """A point object (the player start, an enemy or NPC spawn point): drag it to move it."""
    ARROW = "arrow"
    """The tip of a flow region's arrow: drag it to set the current's angle and strength."""
    CORNER = "corner"
    """A corner of a rectangle (exit, flow region, NPC area): drag it to resize."""
    AREA = "area"
    """Inside a rectangle (exit, flow region, NPC area): drag it to move it."""
    WALL = "wall"
    """On a wall, away from its corners: drag it to move the whole wall, double-click to
    insert a corner there."""


#: Kinds that belong to a path (``Hit.path`` names it).
PATH_KINDS = frozenset({HitKind.NODE, HitKind.SEGMENT, HitKind.EDGE, HitKind.TUBE})
#: Kinds that belong to a rock (``Hit.index`` is its index in ``Level.obstacles``).
ROCK_KINDS = frozenset({HitKind.RIM, HitKind.ROCK})
#: Kinds that belong to another object (``Hit.ref`` names it).
OBJECT_KINDS = frozenset({HitKind.SPAWN, HitKind.ARROW, HitKind.CORNER, HitKind.AREA, HitKind.WALL})


def corners(rect: Rect) -> tuple[Point, Point, Point, Point]:
    """A rectangle's corners, counter-clockwise from the bottom left (corner k is opposite
    corner ``(k + 2) % 4``)."""
    return (
        (rect.left, rect.bottom),
        (rect.right, rect.bottom),
        (rect.right, rect.top),
        (rect.left, rect.top),
    )


def flow_arrow(flow: FlowRegion) -> tuple[Point, Point]:
    """A flow region's arrow: from its centre along its angle, :data:`ARROW_SCALE` px per px/s
    of strength."""
    cx, cy = flow.rect.center
    a = math.radians(flow.angle)
    length = flow.strength * ARROW_SCALE
    return (cx, cy), (cx + length * math.cos(a), cy + length * math.sin(a))


@dataclass(frozen=True, slots=True)
class Hit:
    """One thing under the cursor."""

    kind: HitKind
    """What was hit."""
    index: int
    """Node index (NODE: a path's node or a wall's corner), segment index (SEGMENT, EDGE,
    TUBE, WALL: the nearest segment) or rock index in ``Level.obstacles`` (RIM, ROCK)."""
    point: Point
    """The node, the nearest point of the centre line (SEGMENT, EDGE, TUBE) or the rock's
    centre (RIM, ROCK)."""
    distance: float
    """Distance from the cursor to the feature that was hit (px): to the node, the centre
    line, the tube's edge, the rim; for ROCK and TUBE, to the centre / centre line."""
    path: str = ""
    """The path's name for path kinds, "" for rocks and walls."""
    ref: Ref | None = None
    """The object hit, for every kind but the path kinds (rocks too: ``Ref("obstacles", i)``;
    a wall's corner is a NODE with ``Ref("walls", i)``)."""

    @property
    def wall(self) -> int | None:
        """The index of the wall hit (its corner or its body), None for anything else."""
        return self.ref.index if self.ref is not None and self.ref.field == "walls" else None


def followed(level: Level, hit: Hit) -> Hit:
    """``hit`` with its point where its handle is in ``level`` now (a dragged path node, wall
    corner, spawn point or rectangle corner), so a hover ring follows the drag; any other hit,
    or one whose object is gone, as it was."""
    try:
        if hit.kind is HitKind.NODE and hit.wall is not None:
            point = level.walls[hit.wall].points[hit.index]
        elif hit.kind is HitKind.NODE:
            path = next(p for p in level.paths if p.name == hit.path)
            point = path.points[hit.index]
        elif hit.kind in (HitKind.SPAWN, HitKind.CORNER) and hit.ref is not None:
            item = get_object(level, hit.ref)
            rect = rect_of(item)
            if hit.kind is HitKind.CORNER and rect is not None:
                point = corners(rect)[hit.index]
            elif isinstance(item, PlayerSpawn | EnemySpawn | NpcSpawn):
                point = (item.x, item.y)
            else:
                return hit
        else:
            return hit
    except (IndexError, StopIteration):
        return hit
    return replace(hit, point=(float(point[0]), float(point[1])))


def _node_hit(level: Level, x: float, y: float, pick: float, prefer: str) -> Hit | None:
    """The nearest path node or wall corner within ``pick``; nodes of the path ``prefer``
    win ties and overlaps."""
    best: tuple[bool, float, Hit] | None = None
    owners: list[tuple[tuple[Point, ...], str, Ref | None]]
    owners = [(p.points, p.name, None) for p in level.paths]
    owners += [(w.points, "", Ref("walls", i)) for i, w in enumerate(level.walls)]
    for points, name, ref in owners:
        nodes = np.asarray(points, dtype=np.float64)
        dist = np.hypot(nodes[:, 0] - x, nodes[:, 1] - y)
        k = int(np.argmin(dist))
        d = float(dist[k])
        if d > pick:
            continue
        key = (not name or name != prefer, d)
        if best is None or key < best[:2]:
            hit = Hit(HitKind.NODE, k, points[k], d, name, ref)
            best = (key[0], d, hit)
    return None if best is None else best[2]


def hit_test(level: Level, x: float, y: float, pick: float, prefer: str = "") -> Hit | None:
    """Return what lies under the cursor at (x, y).

    Order of precedence: a node within ``pick`` (the nearest; the preferred path's nodes
    first), or a nearer handle of another object (a spawn point, a flow arrow's tip, a
    rectangle's corner); then the nearest of the line-like features within ``pick``: a
    segment's centre line, a rock's rim, a wall (within its thickness), a tube's edge (ties
    in that order); then the inside
    of a rock; then
    the inside of a path's tube; then the smallest rectangle (exit, flow region, NPC area)
    holding the cursor. Among paths, ``prefer`` (the selected path) wins a tie.

    Args:
        level: The level.
        x: Cursor x in world coordinates (px).
        y: Cursor y in world coordinates (px).
        pick: How far from a feature still counts as on it (world px).
        prefer: Name of the path to prefer (the selected one), or "".

    Returns:
        The hit, or None over empty space.
    """
    node = _node_hit(level, x, y, pick, prefer)
    handle = _object_hit(level, x, y, pick)
    if node is not None and (handle is None or node.distance <= handle.distance):
        return node
    if handle is not None:
        return handle
    # (distance, tie rank, hit) for the line-like features within pick.
    lines: list[tuple[float, int, Hit]] = []
    tubes: list[tuple[float, int, Hit]] = []
    for path in level.paths:
        near = nearest_on_polyline(path.points, path.closed, x, y)
        if near is None:
            continue
        rank = 0 if path.name == prefer else 1
        if near.distance <= pick:
            lines.append(
                (
                    near.distance,
                    rank,
                    Hit(HitKind.SEGMENT, near.segment, near.point, near.distance, path.name),
                )
            )
        radius = path.radii[near.segment] if path.radii else path.radius
        edge = abs(near.distance - radius)
        if edge <= pick:
            lines.append(
                (edge, 4 + rank, Hit(HitKind.EDGE, near.segment, near.point, edge, path.name))
            )
        if near.distance <= radius:
            tubes.append(
                (
                    near.distance,
                    rank,
                    Hit(HitKind.TUBE, near.segment, near.point, near.distance, path.name),
                )
            )
    inside: list[tuple[float, int, Hit]] = []
    for i, rock in enumerate(level.obstacles):
        d = math.hypot(x - rock.x, y - rock.y)
        rim = abs(d - rock.radius)
        if rim <= pick:
            ref = Ref("obstacles", i)
            lines.append((rim, 2, Hit(HitKind.RIM, i, (rock.x, rock.y), rim, ref=ref)))
        elif d < rock.radius:
            ref = Ref("obstacles", i)
            hit = Hit(HitKind.ROCK, i, (rock.x, rock.y), d, ref=ref)
            inside.append((d - rock.radius, 0, hit))
    for i, wall in enumerate(level.walls):
        near = nearest_on_polyline(wall.points, wall.closed, x, y)
        if near is not None and near.distance <= max(pick, wall.thickness / 2):
            hit = Hit(HitKind.WALL, near.segment, near.point, near.distance, ref=Ref("walls", i))
            lines.append((near.distance, 3, hit))
    for group in (lines, inside, tubes):
        if group:
            return min(group, key=lambda item: item[:2])[2]
    return _area_hit(level, x, y)


def _object_hit(level: Level, x: float, y: float, pick: float) -> Hit | None:
    """The nearest spawn point, flow arrow tip or rectangle corner within ``pick``."""
    best: Hit | None = None
    for ref in refs(level):
        if ref.field in ("paths", "obstacles", "walls"):
            continue
        item = get_object(level, ref)
        rect = rect_of(item)
        found: list[tuple[HitKind, int, Point]] = []
        if isinstance(item, FlowRegion):
            found.append((HitKind.ARROW, 0, flow_arrow(item)[1]))
        if rect is not None:
            found += [(HitKind.CORNER, k, c) for k, c in enumerate(corners(rect))]
        else:
            found.append((HitKind.SPAWN, 0, (getattr(item, "x", 0.0), getattr(item, "y", 0.0))))
        for kind, k, (px, py) in found:
            d = math.hypot(x - px, y - py)
            if d <= pick and (best is None or d < best.distance):
                best = Hit(kind, k, (px, py), d, ref=ref)
    return best


def _area_hit(level: Level, x: float, y: float) -> Hit | None:
    """The smallest rectangle (exit, flow region, NPC area) holding (x, y)."""
    best: tuple[float, Hit] | None = None
    for ref in refs(level):
        rect = rect_of(get_object(level, ref))
        if rect is None or not rect.contains(x, y):
            continue
        area = rect.width * rect.height
        if best is None or area < best[0]:
            best = (area, Hit(HitKind.AREA, 0, rect.center, 0.0, ref=ref))
    return None if best is None else best[1]
