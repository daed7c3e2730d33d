"""Frozen level data in world coordinates (x right, y up, pixels, origin bottom-left).

Every object keeps the ``id`` and ``name`` of the Tiled object it came from; ``id`` 0 marks an
object that is not in a file yet (the saver gives it the map's ``nextobjectid``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "EnemySpawn",
    "ExitData",
    "FlowRegion",
    "Level",
    "LevelObject",
    "NpcSpawn",
    "ObstacleData",
    "PathData",
    "PlayerSpawn",
    "Point",
    "Rect",
    "WallData",
]

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in world coordinates.

    Attributes:
        left: Smallest x (px).
        bottom: Smallest y (px).
        width: Extent along x (px, > 0).
        height: Extent along y (px, > 0).
    """

    left: float
    bottom: float
    width: float
    height: float

    @property
    def right(self) -> float:
        """Largest x (px)."""
        return self.left + self.width

    @property
    def top(self) -> float:
        """Largest y (px)."""
        return self.bottom + self.height

    @property
    def center(self) -> Point:
        """The centre point (px)."""
        return (self.left + self.width / 2, self.bottom + self.height / 2)

    def contains(self, x: float, y: float) -> bool:
        """Return True when (x, y) lies inside or on the border.

        Args:
            x: World x (px).
            y: World y (px).

        Returns:
            Whether the point is in the rectangle.
        """
        return self.left <= x <= self.right and self.bottom <= y <= self.top


@dataclass(frozen=True, kw_only=True)
class PathData:
    """A named route (Tiled polyline = open, polygon = closed).

    Attributes:
        points: The nodes in world coordinates, at least two distinct ones; a closed path does
            not repeat its first node at the end.
        closed: True for a loop (the last node joins the first).
        radius: Half width of the corridor agents keep to (px).
        radii: One half width per segment (px), overriding ``radius``; empty for one width
            everywhere. Segment i runs from node i to node i + 1 (the last of a closed path
            back to node 0), so there are ``len(points) - 1`` (open) or ``len(points)``
            (closed) of them.
        drift: How far each node wanders around its place by itself (px); 0 keeps nodes fixed.
        drift_speed: How fast drifting nodes move (noise time units per second).
    """

    points: tuple[Point, ...]
    closed: bool = False
    radius: float = 20.0
    radii: tuple[float, ...] = ()
    drift: float = 0.0
    drift_speed: float = 0.5
    id: int = 0
    name: str = ""

    @property
    def segment_count(self) -> int:
        """How many segments the path has: one per node when closed, one fewer when open."""
        return len(self.points) if self.closed else max(len(self.points) - 1, 0)

    @property
    def segment_radii(self) -> tuple[float, ...]:
        """Each segment's half width (px): ``radii``, or ``radius`` for every segment."""
        return self.radii or (self.radius,) * self.segment_count


@dataclass(frozen=True, kw_only=True)
class ObstacleData:
    """A circular rock.

    Attributes:
        x: Centre x (px).
        y: Centre y (px).
        radius: Radius (px, > 0).
        dynamic: True for a pushable rock, False for a fixed one.
        mass: Mass of a pushable rock.
    """

    x: float
    y: float
    radius: float
    dynamic: bool = False
    mass: float = 10.0
    id: int = 0
    name: str = ""


@dataclass(frozen=True, kw_only=True)
class WallData:
    """A solid wall: a chain of straight segments with a thickness.

    Attributes:
        points: The corners in world coordinates, at least two distinct ones (three for a
            closed wall); a closed wall does not repeat its first corner at the end.
        shape: ``polyline`` (open), ``polygon`` (closed) or ``rect`` (closed, the four
            corners of an axis-aligned rectangle counter-clockwise from its bottom-left).
        thickness: How thick the wall is (px); agents keep their radius plus half of it from
            each segment's centre line.
    """

    points: tuple[Point, ...]
    shape: str = "polyline"
    thickness: float = 12.0
    id: int = 0
    name: str = ""

    @property
    def closed(self) -> bool:
        """True for a polygon or rectangle (the last corner joins the first)."""
        return self.shape != "polyline"

    @property
    def segments(self) -> tuple[tuple[Point, Point], ...]:
        """The wall's straight pieces, ``(start, end)`` each."""
        pts = self.points
        ends = pts[1:] + (pts[:1] if self.closed else ())
        return tuple(zip(pts, ends, strict=False))


@dataclass(frozen=True, kw_only=True)
class PlayerSpawn:
    """Where the player starts.

    Attributes:
        x: World x (px).
        y: World y (px).
        max_speed: Top speed (px/s).
        radius: Collision radius (px).
    """

    x: float
    y: float
    max_speed: float = 220.0
    radius: float = 14.0
    id: int = 0
    name: str = ""


@dataclass(frozen=True, kw_only=True)
class ExitData:
    """A rectangle that wins the level when the player reaches it.

    Attributes:
        rect: The area in world coordinates.
    """

    rect: Rect
    id: int = 0
    name: str = ""


@dataclass(frozen=True, kw_only=True)
class EnemySpawn:
    """Where ``count`` enemies start.

    Attributes:
        x: World x (px).
        y: World y (px).
        path: Name of the path they patrol; "" keeps them at their post.
        count: How many enemies spawn here.
        max_speed: Top speed (px/s).
        max_force: Top steering acceleration (px/s²).
        radius: Collision radius (px).
        sight: How far they see the player (px); 0 never chases.
        separation: Distance kept from other enemies (px).
        role: ``patrol`` (its path or post) or ``sentinel`` (between the player and the
            nearest exit).
        formation: ``none``, or the shape (``line``, ``column``, ``wedge``, ``circle``) the
            ``count`` enemies hold around the first, which leads.
        spacing: Distance between neighbouring formation slots (px).
        scatter: The start and post are drawn for each world seed uniformly within this
            radius of (x, y) (px), again (up to 16 draws) while on a rock or a wall or across a
            wall from (x, y); 0 starts exactly there. A blind route past a guard that
            always stands in one place is a route a script can learn; a scattered post is not.
        phase: With a path: the start moves along the path from the point nearest (x, y) by
            a seeded uniform part of this fraction of the path's length (0: no move; 1:
            anywhere on a closed path), so a patrol's timing differs from seed to seed. On an
            open path the start lies ahead of the nearest point, reflected at the far end,
            walking forward (not yet anywhere on its way back). Without a path: nothing.
    """

    x: float
    y: float
    path: str = ""
    count: int = 1
    max_speed: float = 180.0
    max_force: float = 400.0
    radius: float = 14.0
    sight: float = 250.0
    separation: float = 40.0
    role: str = "patrol"
    formation: str = "none"
    spacing: float = 50.0
    scatter: float = 0.0
    phase: float = 0.0
    id: int = 0
    name: str = ""


@dataclass(frozen=True, kw_only=True)
class NpcSpawn:
    """Where ``count`` harmless agents start: at a point, or spread over an area.

    Attributes:
        x: World x of the point, or the area's centre when ``area`` is set (px).
        y: World y of the point, or the area's centre when ``area`` is set (px).
        area: The spawn rectangle, or None for a point spawn. The saver writes the area when
            it is set and ``x``, ``y`` otherwise.
        count: How many agents spawn here.
        max_speed: Top speed (px/s).
        max_force: Top steering acceleration (px/s²).
        radius: Collision radius (px).
        separation: Distance kept from neighbours (px).
        path: Name of a path they follow; "" for none.
        wander: Whether they add a random wander to their steering.
        role: ``fish`` (school, follow, flee) or ``hider`` (hide behind rocks from the
            player and the enemies).
        queue: Whether they wait behind slower agents ahead (Reynolds' queueing).
        avoid: Whether they sidestep agents on a collision course (unaligned avoidance).
    """

    x: float
    y: float
    area: Rect | None = None
    count: int = 1
    max_speed: float = 120.0
    max_force: float = 300.0
    radius: float = 8.0
    separation: float = 24.0
    path: str = ""
    wander: bool = True
    role: str = "fish"
    queue: bool = False
    avoid: bool = False
    id: int = 0
    name: str = ""


@dataclass(frozen=True, kw_only=True)
class FlowRegion:
    """A rectangle of moving water (see docs/levels.md for what each kind does).

    Attributes:
        rect: The region in world coordinates.
        kind: ``uniform``, ``noise``, ``vortex`` or ``image``.
        angle: Direction of the current in degrees, 0 = +x, counter-clockwise.
        strength: Speed of the current (px/s).
        cell: Size of one grid cell (px).
        scale: Noise frequency per cell.
        speed: How fast the noise changes (per second); 0 keeps it static.
        seed: Noise seed.
        clockwise: Whether a vortex turns clockwise.
        image: The absolute path of the image of an ``image`` region, or None.
    """

    rect: Rect
    kind: str = "uniform"
    angle: float = 0.0
    strength: float = 80.0
    cell: float = 32.0
    scale: float = 0.05
    speed: float = 0.0
    seed: int = 0
    clockwise: bool = False
    image: Path | None = None
    id: int = 0
    name: str = ""

    @property
    def cells(self) -> tuple[int, int]:
        """The grid size (columns, rows) that covers the region."""
        cols = -int(-self.rect.width // self.cell)
        rows = -int(-self.rect.height // self.cell)
        return (max(cols, 1), max(rows, 1))


LevelObject = (
    PathData | ObstacleData | WallData | PlayerSpawn | ExitData | EnemySpawn | NpcSpawn | FlowRegion
)


@dataclass(frozen=True, kw_only=True)
class Level:
    """One level, in world coordinates.

    Attributes:
        title: The map's ``title`` property.
        seed: The map's ``seed`` property.
        hint: The map's ``hint`` property.
        width_px: World width (map width × tile width, px).
        height_px: World height (map height × tile height, px).
        player: The player's start.
        exits: At least one exit.
        paths: Named routes.
        obstacles: Rocks.
        walls: Walls.
        enemies: Enemy spawns.
        npcs: NPC spawns.
        flows: Flow regions.
        tile_width: Tile width (px).
        tile_height: Tile height (px).
        source: The file it was loaded from or saved to; not compared by ``==``.
    """

    width_px: float
    height_px: float
    player: PlayerSpawn
    exits: tuple[ExitData, ...] = ()
    paths: tuple[PathData, ...] = ()
    obstacles: tuple[ObstacleData, ...] = ()
    walls: tuple[WallData, ...] = ()
    enemies: tuple[EnemySpawn, ...] = ()
    npcs: tuple[NpcSpawn, ...] = ()
    flows: tuple[FlowRegion, ...] = ()
    title: str = ""
    seed: int = 0
    hint: str = ""
    tile_width: int = 32
    tile_height: int = 32
    source: Path | None = field(default=None, compare=False)

    def path_named(self, name: str) -> PathData | None:
        """Return the path called ``name``, or None.

        Args:
            name: A path name.

        Returns:
            The path, or None when there is none of that name.
        """
        for path in self.paths:
            if path.name == name:
                return path
        return None

    @property
    def agent_count(self) -> int:
        """How many agents the level spawns, the player included."""
        return 1 + sum(e.count for e in self.enemies) + sum(n.count for n in self.npcs)

    def objects(self) -> Iterator[LevelObject]:
        """Yield every object, class by class (flows, paths, obstacles, walls, player, ...)."""
        yield from self.flows
        yield from self.paths
        yield from self.obstacles
        yield from self.walls
        yield self.player
        yield from self.exits
        yield from self.enemies
        yield from self.npcs
