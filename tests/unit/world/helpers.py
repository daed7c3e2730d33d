"""Small worlds for tests, drawn as ASCII maps (one character per 32 px cell, top row first).

Legend: ``.`` open water, ``P`` the player, ``E`` an exit cell, ``o`` a rock filling its cell
(radius 16), ``O`` a big rock (radius 40) centred in its cell, ``e`` an enemy (patrolling the
path ``beat`` when the map has one), ``n`` an NPC, ``~`` a current cell (the region is the
bounding box of all ``~``; give its direction to :func:`ascii_level`).
"""

from __future__ import annotations

from collections.abc import Sequence

from game.level import (
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Rect,
)

CELL = 32.0


def ascii_level(
    rows: Sequence[str],
    *,
    path: Sequence[tuple[float, float]] | None = None,
    closed: bool = True,
    sight: float = 250.0,
    current: tuple[float, float] = (0.0, 0.0),
    npc_props: dict[str, object] | None = None,
    seed: int = 0,
) -> Level:
    """A level from an ASCII map (see the module docstring).

    Args:
        rows: the map, top row first, all rows the same length.
        path: nodes (world px) of a path named ``beat`` that every enemy patrols.
        closed: whether that path is a loop.
        sight: the enemies' sight.
        current: (angle in degrees, strength px/s) of the ``~`` region.
        npc_props: extra keyword arguments for every NPC spawn.
        seed: the level's seed.
    """
    h = len(rows)
    w = len(rows[0])
    height = h * CELL
    player: PlayerSpawn | None = None
    exits: list[ExitData] = []
    rocks: list[ObstacleData] = []
    enemies: list[EnemySpawn] = []
    npcs: list[NpcSpawn] = []
    flow_cells: list[tuple[float, float]] = []
    oid = 100
    for r, line in enumerate(rows):
        assert len(line) == w, "ragged map"
        for c, ch in enumerate(line):
            x = (c + 0.5) * CELL
            y = height - (r + 0.5) * CELL
            oid += 1
            if ch == "P":
                player = PlayerSpawn(x=x, y=y, id=oid, name="player")
            elif ch == "E":
                exits.append(
                    ExitData(rect=Rect(c * CELL, height - (r + 1) * CELL, CELL, CELL), id=oid)
                )
            elif ch == "o":
                rocks.append(ObstacleData(x=x, y=y, radius=CELL / 2, id=oid))
            elif ch == "O":
                rocks.append(ObstacleData(x=x, y=y, radius=40.0, id=oid))
            elif ch == "e":
                enemies.append(
                    EnemySpawn(x=x, y=y, path="beat" if path else "", sight=sight, id=oid)
                )
            elif ch == "n":
                npcs.append(NpcSpawn(x=x, y=y, id=oid, **(npc_props or {})))  # type: ignore[arg-type]
            elif ch == "~":
                flow_cells.append((c * CELL, height - (r + 1) * CELL))
    assert player is not None, "the map needs a P"
    if not exits:  # somewhere harmless: the top-right cell
        exits.append(ExitData(rect=Rect((w - 1) * CELL, height - CELL, CELL, CELL), id=1))
    paths = (
        (PathData(points=tuple(path), closed=closed, radius=20.0, name="beat", id=2),)
        if path
        else ()
    )
    flows: tuple[FlowRegion, ...] = ()
    if flow_cells:
        xs = [p[0] for p in flow_cells]
        ys = [p[1] for p in flow_cells]
        region = Rect(min(xs), min(ys), max(xs) + CELL - min(xs), max(ys) + CELL - min(ys))
        flows = (
            FlowRegion(rect=region, kind="uniform", angle=current[0], strength=current[1], id=3),
        )
    return Level(
        width_px=w * CELL,
        height_px=height,
        player=player,
        exits=tuple(exits),
        paths=paths,
        obstacles=tuple(rocks),
        enemies=tuple(enemies),
        npcs=tuple(npcs),
        flows=flows,
        seed=seed,
    )
