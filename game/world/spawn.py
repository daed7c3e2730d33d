"""Who is in a world and where they start: the roster of agents built from a level's spawns.

Row 0 is the player, then every enemy (spawn by spawn, in level order), then every NPC (the
level's own, then the extra NPCs of a stress run). All placement is vectorised and seeded.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from game.level import EnemySpawn, Level, NpcSpawn, Rect
from game.level.crowd import SPAWN_GAP, agent_cell
from steering import formation_offsets
from steering.vec import FloatArray

from .extra_npcs import ExtraGroup, extra_npc_plan, grown
from .posts import enemy_post

log = logging.getLogger(__name__)

__all__ = [
    "ARCHETYPE_NAMES",
    "ENEMY",
    "KIND_NAMES",
    "NPC",
    "PLAYER",
    "PLAYER_ACCEL",
    "Archetype",
    "ExtraGroup",
    "Kind",
    "Roster",
    "Solids",
    "agent_mass",
    "build_roster",
    "extra_npc_plan",
    "scatter",
    "spiral",
]


class Kind(IntEnum):
    """Agent kinds (``World.kind`` holds their values)."""

    PLAYER = 0
    ENEMY = 1
    NPC = 2


PLAYER, ENEMY, NPC = Kind.PLAYER, Kind.ENEMY, Kind.NPC
#: The kinds' names, by value.
KIND_NAMES = tuple(k.name.lower() for k in Kind)


class Archetype(IntEnum):
    """What tuning an agent takes (``Roster.archetype``; names as in the tuning file)."""

    PLAYER = 0
    PATROL = 1
    SENTINEL = 2
    FORMATION = 3
    FISH = 4
    HIDER = 5


#: The archetypes' names, by value.
ARCHETYPE_NAMES = tuple(a.name.lower() for a in Archetype)


IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


class Solids(NamedTuple):
    """What agents must not spawn on: rocks and walls."""

    centres: FloatArray
    """(M, 2) rock centres."""
    radii: FloatArray
    """(M,) rock radii."""
    walls: FloatArray = np.zeros((0, 2, 2))
    """(W, 2, 2) wall segments (start, end)."""
    wall_half: FloatArray = np.zeros(0)
    """(W,) half thickness of each wall segment."""

    @classmethod
    def of(cls, level: Level) -> Solids:
        """The rocks and walls of ``level``."""
        segs = [(seg, w.thickness / 2) for w in level.walls for seg in w.segments]
        return cls(
            np.array([(o.x, o.y) for o in level.obstacles], dtype=np.float64).reshape(-1, 2),
            np.array([o.radius for o in level.obstacles], dtype=np.float64),
            np.array([s for s, _ in segs], dtype=np.float64).reshape(-1, 2, 2),
            np.array([h for _, h in segs], dtype=np.float64),
        )


def wall_distance(points: FloatArray, segments: FloatArray) -> FloatArray:
    """(K, W) distance from each point to each segment (px)."""
    a = segments[None, :, 0, :]
    d = segments[None, :, 1, :] - a
    rel = points[:, None, :] - a
    dd = np.maximum((d * d).sum(axis=2), 1e-12)
    t = np.clip((rel * d).sum(axis=2) / dd, 0.0, 1.0)
    return np.asarray(np.hypot(*(rel - t[..., None] * d).transpose(2, 0, 1)))


def agent_mass(radius: FloatArray) -> FloatArray:
    """Mass of an agent body: proportional to its area, 1 for the default 8 px NPC."""
    return np.asarray((radius / 8.0) ** 2, dtype=np.float64)


@dataclass
class Roster:
    """Every agent's fixed data, one row per agent (row 0: the player): who is who.

    ``pos``, the limits, ``radius``, ``separation`` and ``sight`` are what the spawns gave, read
    once to build a world; the running values are the state's, the crowd's and the minds'.

    Attributes:
        kind: (N,) :data:`PLAYER`, :data:`ENEMY` or :data:`NPC`.
        pos: (N, 2) start positions (px, world coordinates).
        max_speed: (N,) px/s.
        max_force: (N,) px/s^2 (the player's is the world's thrust acceleration).
        radius: (N,) px.
        separation: (N,) px kept from neighbours (0 for the player).
        sight: (N,) px an enemy sees the player (0 for others and blind enemies).
        path: (N,) index into the level's paths, -1 for none.
        wander: (N,) whether an NPC adds wander to its steering (enemies: True).
        spawn_id: (N,) Tiled id of the object that spawned the agent (0: a generated area).
        post: (N, 2) the spawn point (enemies without a path wander around it).
        archetype: (N,) :class:`Archetype` codes (which tuning applies).
        squad: (N,) formation number of formation members (leader and followers), -1 else.
        leader: (N,) agent row of a follower's leader, -1 for everyone else.
        slot: (N, 2) a follower's slot in its leader's frame (x ahead, y left), px.
        queue: (N,) NPCs that queue behind slower agents ahead.
        avoid: (N,) NPCs that sidestep agents on a collision course.
    """

    kind: NDArray[np.int8]
    pos: FloatArray
    max_speed: FloatArray
    max_force: FloatArray
    radius: FloatArray
    separation: FloatArray
    sight: FloatArray
    path: IntArray
    wander: BoolArray
    spawn_id: NDArray[np.int64]
    post: FloatArray
    archetype: NDArray[np.int8]
    squad: IntArray
    leader: IntArray
    slot: FloatArray
    queue: BoolArray
    avoid: BoolArray

    @cached_property
    def n(self) -> int:
        """Number of agents, the player included (the rows never change: read once)."""
        return int(self.kind.shape[0])


def _blocked_mask(
    points: FloatArray,
    radius: float,
    rocks: Solids,
    world: tuple[float, float],
    taken: cKDTree | None,
    taken_reach: float,
) -> BoolArray:
    """Points too close to a rock, a wall or an already placed agent."""
    w, h = world
    pad = radius + SPAWN_GAP
    x, y = points[:, 0], points[:, 1]
    bad = (x < pad) | (x > w - pad) | (y < pad) | (y > h - pad)
    centres, radii = rocks.centres, rocks.radii
    if rocks.walls.shape[0] and points.shape[0]:
        wall_reach = rocks.wall_half[None, :] + pad
        step = max(16, (1 << 18) // rocks.walls.shape[0])  # (chunk, W) of 2 MiB at a time
        for k in range(0, points.shape[0], step):
            near = wall_distance(points[k : k + step], rocks.walls) < wall_reach
            bad[k : k + step] |= near.any(axis=1)
    if centres.shape[0] and points.shape[0]:
        reach = float(radii.max()) + pad
        pairs = cKDTree(centres).sparse_distance_matrix(
            cKDTree(points), reach, output_type="ndarray"
        )
        close = pairs["v"] < radii[pairs["i"]] + pad
        bad[pairs["j"][close]] = True
    if taken is not None and points.shape[0]:
        d, _ = taken.query(points, k=1, distance_upper_bound=taken_reach)
        bad |= d < taken_reach
    return bad


def scatter(
    rng: np.random.Generator,
    rect: Rect,
    count: int,
    radius: float,
    rocks: Solids,
    world: tuple[float, float],
    taken: FloatArray | None = None,
    taken_radius: float = 0.0,
) -> FloatArray:
    """``count`` random points in ``rect``, off rocks and walls and not overlapping each other.

    A jittered grid: the rectangle is cut into square cells at least ``2 * radius + gap`` wide,
    a random free cell is chosen for each agent and the agent is placed at a random spot inside
    it, so agents never overlap. Cells whose spot is on a rock, a wall or an agent in ``taken``
    are skipped; when too few cells are free the cells shrink and the area grows to the world;
    when rocks and walls fill it, agents go apart from each other on them (the physics pushes
    them off); only a world without room for them apart would overlap them.

    Args:
        rng: the seeded generator.
        rect: the spawn area.
        count: how many points.
        radius: the agents' radius.
        rocks: the rocks and walls to keep off.
        world: (width, height) of the world.
        taken: (K, 2) agents already placed, to keep clear of.
        taken_radius: the largest radius among ``taken``.

    Returns:
        (count, 2) points.
    """
    if count <= 0:
        return np.zeros((0, 2))
    tree = cKDTree(taken) if taken is not None and taken.shape[0] else None
    reach = radius + taken_radius + SPAWN_GAP
    # Too small an area (a 1 x 1 px rectangle holding thousands) grows about its centre, then
    # to the whole world: agents never start on top of each other while there is room.
    need = 2.0 * count * agent_cell(radius)
    w, h = world
    whole, bare = Rect(0.0, 0.0, w, h), Solids(np.zeros((0, 2)), np.zeros(0))
    for area in (rect, grown(rect, need, world), whole):
        pts = _grid_points(rng, area, count, radius, rocks, world, tree, reach)
        if pts is not None:
            return pts
    # Rocks and walls fill the world: apart from each other, on them (issue 43: stacked).
    pts = _grid_points(rng, whole, count, radius, bare, world, tree, reach)
    if pts is not None:
        return pts
    log.warning("spawn: no room for %d agents apart; they start overlapping", count)
    return np.column_stack((rng.uniform(0, w, count), rng.uniform(0, h, count)))


def _grid_points(
    rng: np.random.Generator,
    rect: Rect,
    count: int,
    radius: float,
    rocks: Solids,
    world: tuple[float, float],
    tree: cKDTree | None,
    reach: float,
) -> FloatArray | None:
    """``count`` spots of a jittered grid over ``rect`` that are free, or None."""
    area = max(rect.width * rect.height, 1e-9)
    cell = max(math.sqrt(area / count), 1e-3)
    min_cell = 2.0 * radius  # touching at most: bodies never start inside each other
    for _ in range(12):
        cols = max(int(rect.width // cell), 1)
        rows = max(int(rect.height // cell), 1)
        cw, ch = rect.width / cols, rect.height / rows
        if rows * cols > 1 and min(cw, ch) < min_cell:
            return None  # cells this small would overlap: the area is full
        idx = np.arange(rows * cols)
        corner = np.stack((rect.left + (idx % cols) * cw, rect.bottom + (idx // cols) * ch), 1)
        slack = np.maximum(np.array([cw, ch]) - 2.0 * (radius + SPAWN_GAP / 2), 0.0)
        spot = corner + (np.array([cw, ch]) - slack) / 2 + rng.uniform(0, 1, (idx.size, 2)) * slack
        free = np.flatnonzero(~_blocked_mask(spot, radius, rocks, world, tree, reach))
        if free.size >= count:
            return spot[rng.choice(free, size=count, replace=False)]
        cell *= 0.8
    return None


def spiral(
    centre: tuple[float, float],
    count: int,
    spacing: float,
    radius: float,
    rocks: Solids,
    world: tuple[float, float],
    taken: FloatArray | None = None,
    taken_radius: float = 0.0,
    seed: int = 0,
) -> FloatArray:
    """``count`` points around ``centre`` on a sunflower (Vogel) spiral ``spacing`` apart.

    One agent stands on the centre itself; several circle it (the first within
    ``spacing / 2``). Points on rocks, walls or agents in ``taken`` are skipped (the spiral
    continues outward), so the result overlaps none of them when there is room; else they are
    scattered (:func:`scatter`) from ``seed`` (the spawn's id).
    """
    if count <= 0:
        return np.zeros((0, 2))
    tree = cKDTree(taken) if taken is not None and taken.shape[0] else None
    reach = radius + taken_radius + SPAWN_GAP
    here = np.array([centre], dtype=np.float64)
    if count == 1 and not _blocked_mask(here, radius, rocks, world, tree, reach)[0]:
        return here
    golden = math.pi * (3.0 - math.sqrt(5.0))
    crowd = 0 if taken is None else taken.shape[0]  # the last round reaches past them all
    for size in (count * 3, count * 10, count * 40, (count + crowd) * 4):
        k = np.arange(size + 8)
        # r = 0.65 * spacing * sqrt(k + 1/2): neighbours at least ``spacing`` apart (checked
        # numerically up to 500 points; plain sqrt(k) puts the first two too close).
        r = 0.65 * spacing * np.sqrt(k + 0.5)
        pts = np.column_stack(
            (centre[0] + r * np.cos(k * golden), centre[1] + r * np.sin(k * golden))
        )
        ok = ~_blocked_mask(pts, radius, rocks, world, tree, reach)
        if int(ok.sum()) >= count:
            return pts[ok][:count]
    # No room on the spiral (rocks, the world's edge): the free spots nearest the centre.
    side = 2.0 * math.sqrt(2.0 * count) * spacing
    area = Rect(centre[0] - side / 2, centre[1] - side / 2, side, side)
    rng = np.random.default_rng([seed, count])  # not the count alone: spawns stacked
    return scatter(rng, area, count, radius, rocks, world, taken, taken_radius)


#: The player's thrust: top acceleration (px/s^2) with which it reaches its input velocity.
PLAYER_ACCEL = 900.0

_COLUMNS = (
    "kind",
    "pos",
    "max_speed",
    "max_force",
    "radius",
    "separation",
    "sight",
    "path",
    "wander",
    "spawn_id",
    "post",
    "archetype",
    "squad",
    "leader",
    "slot",
    "queue",
    "avoid",
)


class _RosterBuilder:
    """Collects the roster's columns block by block (one block per spawn)."""

    def __init__(self, path_index: dict[str, int]) -> None:
        self.path_index = path_index
        self.squads = 0
        self.cols: dict[str, list[NDArray[np.generic]]] = {k: [] for k in _COLUMNS}

    def add(
        self,
        kind: int,
        pos: FloatArray,
        *,
        max_speed: float,
        max_force: float,
        radius: float,
        separation: float,
        sight: float,
        path: str,
        wander: bool,
        spawn_id: int,
        post: tuple[float, float],
        archetype: Archetype,
        formation: str = "none",
        spacing: float = 0.0,
        queue: bool = False,
        avoid: bool = False,
    ) -> None:
        n = pos.shape[0]
        c = self.cols
        first = sum(a.shape[0] for a in c["kind"])  # the agent row of this block's first
        squad = np.full(n, -1, dtype=np.intp)
        leader = np.full(n, -1, dtype=np.intp)
        slot = np.zeros((n, 2))
        if formation != "none" and n > 1:
            squad[:] = self.squads
            self.squads += 1
            leader[1:] = first
            slot[1:] = formation_offsets(formation, n - 1, spacing)
        c["archetype"].append(np.full(n, archetype, dtype=np.int8))
        c["squad"].append(squad)
        c["leader"].append(leader)
        c["slot"].append(slot)
        c["queue"].append(np.full(n, queue, dtype=bool))
        c["avoid"].append(np.full(n, avoid, dtype=bool))
        c["kind"].append(np.full(n, kind, dtype=np.int8))
        c["pos"].append(pos.reshape(-1, 2))
        c["max_speed"].append(np.full(n, max_speed))
        c["max_force"].append(np.full(n, max_force))
        c["radius"].append(np.full(n, radius))
        c["separation"].append(np.full(n, separation))
        c["sight"].append(np.full(n, sight))
        c["path"].append(np.full(n, self.path_index.get(path, -1), dtype=np.intp))
        c["wander"].append(np.full(n, wander, dtype=bool))
        c["spawn_id"].append(np.full(n, spawn_id, dtype=np.int64))
        c["post"].append(np.broadcast_to(np.asarray(post, dtype=np.float64), (n, 2)))

    def add_npcs(self, s: NpcSpawn, pts: FloatArray, radius: float, separation: float) -> None:
        self.add(
            NPC,
            pts,
            max_speed=s.max_speed,
            max_force=s.max_force,
            radius=radius,
            separation=separation,
            sight=0.0,
            path=s.path,
            wander=s.wander,
            spawn_id=s.id,
            post=(s.x, s.y),
            archetype=Archetype.HIDER if s.role == "hider" else Archetype.FISH,
            queue=s.queue,
            avoid=s.avoid,
        )

    def placed(self) -> tuple[FloatArray, float]:
        """Positions placed so far and their largest radius."""
        return np.concatenate(self.cols["pos"]), float(np.concatenate(self.cols["radius"]).max())

    def build(self) -> Roster:
        c = {k: np.concatenate(v) for k, v in self.cols.items()}
        return Roster(
            kind=c["kind"].astype(np.int8),
            pos=c["pos"].astype(np.float64),
            max_speed=c["max_speed"].astype(np.float64),
            max_force=c["max_force"].astype(np.float64),
            radius=c["radius"].astype(np.float64),
            separation=c["separation"].astype(np.float64),
            sight=c["sight"].astype(np.float64),
            path=c["path"].astype(np.intp),
            wander=c["wander"].astype(bool),
            spawn_id=c["spawn_id"].astype(np.int64),
            post=c["post"].astype(np.float64),
            archetype=c["archetype"].astype(np.int8),
            squad=c["squad"].astype(np.intp),
            leader=c["leader"].astype(np.intp),
            slot=c["slot"].astype(np.float64),
            queue=c["queue"].astype(bool),
            avoid=c["avoid"].astype(bool),
        )


def _enemy_archetype(e: EnemySpawn) -> Archetype:
    """Which tuning the enemies of a spawn take: a sentinel's, a formation's, a patrol's."""
    if e.role == "sentinel":
        return Archetype.SENTINEL
    if e.formation != "none" and e.count > 1:
        return Archetype.FORMATION
    return Archetype.PATROL


def build_roster(
    level: Level, rng: np.random.Generator, extra_npcs: int = 0, seed: int = 0
) -> Roster:
    """Place every agent of ``level`` (and ``extra_npcs`` more NPCs) and collect their data.

    Enemies and point-spawned NPCs stand on a spiral around their spawn point, ``separation``
    apart; area-spawned NPCs are scattered over their area (:func:`scatter`), all off rocks,
    walls and each other. The player's ``max_force`` is its thrust, :data:`PLAYER_ACCEL`.

    Args:
        level: the level.
        rng: the seeded generator for the scatter.
        extra_npcs: NPCs added for a stress run (see :func:`extra_npc_plan`).
        seed: the world seed, which draws scattered and phased enemy starts
            (:func:`~game.world.posts.enemy_post`).
    """
    world = (level.width_px, level.height_px)
    rocks = Solids.of(level)
    b = _RosterBuilder({p.name: i for i, p in enumerate(level.paths)})
    p = level.player
    b.add(
        PLAYER,
        np.array([[p.x, p.y]]),
        max_speed=p.max_speed,
        max_force=PLAYER_ACCEL,
        radius=p.radius,
        separation=0.0,
        sight=0.0,
        path="",
        wander=False,
        spawn_id=p.id,
        post=(p.x, p.y),
        archetype=Archetype.PLAYER,
    )
    for e in level.enemies:
        spacing = max(e.separation, 2 * e.radius + 2)
        taken, taken_r = b.placed()
        post = enemy_post(e, level, seed)
        b.add(
            ENEMY,
            spiral(post, e.count, spacing, e.radius, rocks, world, taken, taken_r, e.id),
            max_speed=e.max_speed,
            max_force=e.max_force,
            radius=e.radius,
            separation=e.separation,
            sight=e.sight,
            path=e.path,
            wander=True,
            spawn_id=e.id,
            post=post,
            archetype=_enemy_archetype(e),
            formation=e.formation,
            spacing=e.spacing,
        )
    for s in level.npcs:
        if s.area is not None:
            taken, taken_r = b.placed()
            pts = scatter(rng, s.area, s.count, s.radius, rocks, world, taken, taken_r)
        else:
            spacing = max(s.separation, 2 * s.radius + 2)
            taken, taken_r = b.placed()
            pts = spiral((s.x, s.y), s.count, spacing, s.radius, rocks, world, taken, taken_r, s.id)
        b.add_npcs(s, pts, s.radius, s.separation)
    for g in extra_npc_plan(level, extra_npcs):
        taken, taken_r = b.placed()
        pts = scatter(rng, g.area, g.count, g.radius, rocks, world, taken, taken_r)
        b.add_npcs(g.spawn, pts, g.radius, g.separation)
    return b.build()
