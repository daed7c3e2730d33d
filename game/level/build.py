"""Build a Level from a decoded Tiled map: the map's own keys and properties, every object
(:mod:`game.level.objects`), then the checks across objects (one player, an exit, path names,
formations, the crowd that must fit, the flow cells).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from game.level.costs import cost_problem
from game.level.crowd import CrowdRoom
from game.level.errors import LevelError, Where
from game.level.model import (
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    LevelObject,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    WallData,
)
from game.level.objects import parse_object
from game.level.properties import UnknownTally, property_value
from game.level.schema import (
    CLASSES,
    MAP_PROPERTIES,
    MAX_AGENTS,
    MAX_FLOW_CELLS,
    MAX_WALL_POINTS,
    MAX_WORLD_PX,
)
from game.level.shipped import LEVELS_DIR
from game.level.tiled import MapInfo, iter_objects, object_identity, read_properties
from game.level.values import read_integer, suggest
from game.strict_json import describe

__all__ = ["parse_level"]


def parse_level(raw: dict[str, Any], source: str | os.PathLike[str] | None = None) -> Level:
    """Validate a decoded Tiled map and turn it into a Level.

    Args:
        raw: The decoded JSON (from :func:`read_raw`; must hold no NaN/Infinity).
        source: The file it came from: named in errors, and the folder relative image paths
            start from (the shipped levels folder when None).

    Returns:
        The level.

    Raises:
        LevelError: if anything is invalid.
    """
    file = Path(source) if source is not None else None
    where = Where(file)
    if not isinstance(raw, dict):
        raise where.error(f"not a Tiled map: expected a JSON object, got {describe(raw)}")
    kind = raw.get("type", "map")
    if kind != "map":
        raise where.error(f'not a Tiled map: type is {describe(kind)}, expected "map"', "type")
    orientation = raw.get("orientation", "orthogonal")
    if orientation != "orthogonal":
        raise where.error(
            f"only orthogonal maps are supported, got {describe(orientation)}", "orientation"
        )
    infinite = raw.get("infinite", False)
    if infinite not in (False, 0) or isinstance(infinite, float):
        raise where.error(f"infinite maps are not supported (got {describe(infinite)})", "infinite")
    tile_w = read_integer(raw, "tilewidth", where, 1, MAX_WORLD_PX)
    tile_h = read_integer(raw, "tileheight", where, 1, MAX_WORLD_PX)
    width = read_integer(raw, "width", where, 1, MAX_WORLD_PX)
    height = read_integer(raw, "height", where, 1, MAX_WORLD_PX)
    for key, tiles, size in (("width", width, tile_w), ("height", height, tile_h)):
        if tiles * size > MAX_WORLD_PX:
            raise where.error(
                f"the world is {tiles * size:,} px {'wide' if key == 'width' else 'high'} "
                f"({tiles} tiles x {size} px); at most {MAX_WORLD_PX:,}",
                key,
            )
    info = MapInfo(
        file=file,
        base_dir=Path(os.path.realpath(file)).parent if file is not None else LEVELS_DIR,
        width_px=float(width * tile_w),
        height_px=float(height * tile_h),
    )
    map_props = read_properties(raw, where)
    meta = {p.name: property_value(map_props, p, where) for p in MAP_PROPERTIES}

    found: dict[str, list[LevelObject]] = {name: [] for name in CLASSES}
    ids: dict[int, dict[str, Any]] = {}
    tally = UnknownTally()
    for obj, _holder, ox, oy in iter_objects(raw, where):
        here = object_identity(obj, where)
        assert here.object_id is not None
        if here.object_id in ids:
            raise here.error(f"object id {here.object_id} is used twice", "id")
        ids[here.object_id] = obj
        parsed = parse_object(obj, ox, oy, info, tally=tally)
        if parsed is not None:
            found[parsed[0]].append(parsed[1])
    tally.finish(where)
    return _assemble(found, meta, info, tile_w, tile_h)


def _where_of(item: LevelObject, info: MapInfo, cls: str) -> Where:
    """The error location of a parsed object."""
    return Where(info.file, item.id, item.name, cls)


def _assemble(
    found: dict[str, list[LevelObject]],
    meta: dict[str, float | int | bool | str | tuple[float, ...]],
    info: MapInfo,
    tile_w: int,
    tile_h: int,
) -> Level:
    """Cross-check the parsed objects and build the Level."""
    players = [p for p in found["player"] if isinstance(p, PlayerSpawn)]
    exits = tuple(e for e in found["exit"] if isinstance(e, ExitData))
    paths = tuple(p for p in found["path"] if isinstance(p, PathData))
    enemies = tuple(e for e in found["enemy"] if isinstance(e, EnemySpawn))
    npcs = tuple(n for n in found["npc"] if isinstance(n, NpcSpawn))
    flows = tuple(f for f in found["flow"] if isinstance(f, FlowRegion))
    obstacles = tuple(o for o in found["obstacle"] if isinstance(o, ObstacleData))
    walls = tuple(w for w in found["wall"] if isinstance(w, WallData))
    total = 0
    for wall in walls:
        total += len(wall.points)
        if total > MAX_WALL_POINTS:
            raise _where_of(wall, info, "wall").error(
                f"the walls so far have {total:,} points; at most {MAX_WALL_POINTS:,} in all "
                "walls together",
                "polyline" if wall.shape == "polyline" else "polygon",
            )
    if not players:
        raise LevelError('no player start: add one point object of class "player"', file=info.file)
    if len(players) > 1:
        first, second = players[0], players[1]
        raise _where_of(second, info, "player").error(
            f"a second player start (the first is object {first.id}); exactly one is allowed",
            "type",
        )
    player = players[0]
    if not exits:
        raise LevelError('no exit: add a rectangle object of class "exit"', file=info.file)
    for exit_ in exits:
        if exit_.rect.contains(player.x, player.y):
            raise _where_of(player, info, "player").error(
                f"the player starts inside exit object {exit_.id}", "x"
            )
    for wall in walls:
        gap = _distance_to_wall(player.x, player.y, wall) - wall.thickness / 2
        if gap < player.radius:
            raise _where_of(player, info, "player").error(
                f"the player starts inside wall object {wall.id} (its edge is {gap:g} px from "
                f"the start, closer than the player's radius {player.radius:g})",
                "x",
            )
    names: dict[str, int] = {}
    for path in paths:
        if path.name in names:
            raise _where_of(path, info, "path").error(
                f"path name {path.name!r} is already used by object {names[path.name]}", "name"
            )
        names[path.name] = path.id
    agents = 1
    crowd = CrowdRoom.around_player(info.width_px, info.height_px, player.radius)
    spawns: list[tuple[str, EnemySpawn | NpcSpawn]] = [("enemy", e) for e in enemies]
    spawns += [("npc", n) for n in npcs]
    for cls, spawn in spawns:
        if spawn.path and spawn.path not in names:
            listed = ", ".join(sorted(names)) or "none"
            raise _where_of(spawn, info, cls).error(
                f"no path named {spawn.path!r}{suggest(spawn.path, list(names))} (paths: {listed})",
                "path",
            )
        if isinstance(spawn, EnemySpawn) and spawn.formation != "none" and spawn.role != "patrol":
            raise _where_of(spawn, info, cls).error(
                f"a {spawn.role} cannot hold a formation; formations are for patrols",
                "formation",
            )
        if isinstance(spawn, EnemySpawn) and spawn.formation != "none" and spawn.count < 2:
            raise _where_of(spawn, info, cls).error(
                f"a {spawn.formation} formation needs count > 1 (a leader and followers), "
                f"got {spawn.count}",
                "formation",
            )
        agents += spawn.count
        if agents > MAX_AGENTS:
            raise _where_of(spawn, info, cls).error(
                f"the level would spawn {agents:,} agents or more; at most {MAX_AGENTS:,}",
                "count",
            )
        # Agents start apart (overlapping bodies would stall the physics for minutes): a
        # spawn that cannot fit in the world beside the ones before it is refused.
        if not crowd.take(spawn.count, spawn.radius):
            fits = crowd.fits(spawn.count, spawn.radius)
            raise _where_of(spawn, info, cls).error(
                f"{spawn.count:,} agents of radius {spawn.radius:g} do not fit in the "
                f"{info.width_px:g} x {info.height_px:g} px world beside the others; at most "
                f"{fits:,} here",
                "count",
            )
    cells = 0
    for flow in flows:
        cols, rows = flow.cells
        cells += cols * rows
        if cells > MAX_FLOW_CELLS:
            raise _where_of(flow, info, "flow").error(
                f"flow regions need {cells:,} cells or more; at most "
                f"{MAX_FLOW_CELLS:,} (make cell larger)",
                "cell",
            )
    over = cost_problem(paths, obstacles, walls, enemies, npcs)
    if over is not None:
        item, cls, field, reason = over
        raise _where_of(item, info, cls).error(reason, field)
    title, seed, hint = meta["title"], meta["seed"], meta["hint"]
    assert isinstance(title, str) and isinstance(hint, str) and isinstance(seed, int)
    return Level(
        title=title,
        seed=seed,
        hint=hint,
        width_px=info.width_px,
        height_px=info.height_px,
        player=player,
        exits=exits,
        paths=paths,
        obstacles=obstacles,
        walls=walls,
        enemies=enemies,
        npcs=npcs,
        flows=flows,
        tile_width=tile_w,
        tile_height=tile_h,
        source=info.file,
    )


def _distance_to_wall(x: float, y: float, wall: WallData) -> float:
    """Distance from (x, y) to the nearest segment's centre line of ``wall`` (px)."""
    best = math.inf
    for (ax, ay), (bx, by) in wall.segments:
        dx, dy = bx - ax, by - ay
        t = ((x - ax) * dx + (y - ay) * dy) / max(dx * dx + dy * dy, 1e-12)
        t = min(max(t, 0.0), 1.0)
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best
