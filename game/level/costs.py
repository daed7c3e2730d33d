"""The limits on what drives a level's running cost beyond plain counts: the products of counts
(hiders' threats x rocks squared, spawn objects x agents, spawned agents x wall segments),
overlapping pushable rocks and the nodes of all paths. Each check refuses in one line that names
the limit (docs/levels.md, "Limits"); counted, never timed, so a level is accepted or refused
the same on any machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.level.model import (
    EnemySpawn,
    LevelObject,
    NpcSpawn,
    ObstacleData,
    PathData,
    WallData,
)
from game.level.schema import (
    MAX_HIDE_WORK,
    MAX_PATH_NODES,
    MAX_ROCK_OVERLAPS,
    MAX_SPAWN_WALL_WORK,
    MAX_SPAWN_WORK,
)

__all__ = ["cost_problem", "rock_overlaps"]


def rock_overlaps(
    rocks: Sequence[ObstacleData], limit: int = MAX_ROCK_OVERLAPS
) -> tuple[int, ObstacleData | None]:
    """Pairs of overlapping rocks of which one at least is pushable, counted up to ``limit + 1``.

    A sweep along the axis the centres spread most on: each rock is compared with the rocks
    whose extent on that axis it meets, and fixed rocks only with pushable ones (two fixed
    rocks never collide), so a field of fixed rocks costs nothing and a pile stops counting
    as soon as it is over the limit.

    Args:
        rocks: The level's rocks.
        limit: Stop counting past this many.

    Returns:
        The number of pairs, or ``limit + 1`` when there are more, and the rock that took the
        count past ``limit`` (None when it stays within).
    """
    if not any(r.dynamic for r in rocks):
        return 0, None
    xs = [r.x for r in rocks]
    ys = [r.y for r in rocks]
    use_x = max(xs) - min(xs) >= max(ys) - min(ys)
    order = sorted(rocks, key=lambda r: (r.x if use_x else r.y) - r.radius)
    moving: list[ObstacleData] = []  # pushable rocks whose extent may still meet the next
    fixed: list[ObstacleData] = []
    found = 0
    for rock in order:
        low = (rock.x if use_x else rock.y) - rock.radius
        moving = [m for m in moving if (m.x if use_x else m.y) + m.radius > low]
        fixed = [f for f in fixed if (f.x if use_x else f.y) + f.radius > low]
        for other in moving + fixed if rock.dynamic else moving:
            reach = rock.radius + other.radius
            dx, dy = rock.x - other.x, rock.y - other.y
            if dx * dx + dy * dy < reach * reach:
                found += 1
                if found > limit:
                    return found, rock
        (moving if rock.dynamic else fixed).append(rock)
    return found, None


def cost_problem(
    paths: Sequence[PathData],
    rocks: Sequence[ObstacleData],
    walls: Sequence[WallData],
    enemies: Sequence[EnemySpawn],
    npcs: Sequence[NpcSpawn],
) -> tuple[LevelObject, str, str, str] | None:
    """The first limit on cost the level is over, or None.

    Returns:
        (the object to name, its class, the field, the reason naming the limit).
    """
    nodes = 0
    for path in paths:
        nodes += len(path.points)
        if nodes > MAX_PATH_NODES:
            return (
                path,
                "path",
                "polygon" if path.closed else "polyline",
                f"the paths so far have {nodes:,} nodes; at most {MAX_PATH_NODES:,} path nodes "
                "in all paths together",
            )
    _, rock = rock_overlaps(rocks, MAX_ROCK_OVERLAPS)
    if rock is not None:
        return (
            rock,
            "obstacle",
            "dynamic",
            f"more than {MAX_ROCK_OVERLAPS:,} pairs of overlapping rocks with a pushable one "
            "among them (rock overlap limit); move pushable rocks apart",
        )
    hiders = sum(n.count for n in npcs if n.role == "hider")
    if hiders and rocks:
        threats = min(hiders, 1 + sum(e.count for e in enemies))
        work = threats * len(rocks) ** 2
        if work > MAX_HIDE_WORK:
            hider = next(n for n in npcs if n.role == "hider")
            return (
                hider,
                "npc",
                "role",
                f"{hiders:,} hiders among {len(rocks):,} rocks with {threats:,} threats to hide "
                f"from: threats x rocks x rocks is {work:,}; at most {MAX_HIDE_WORK:,} "
                "(hiding limit)",
            )
    spawns: list[EnemySpawn | NpcSpawn] = [*enemies, *npcs]
    agents = sum(s.count for s in spawns)
    if len(spawns) * agents > MAX_SPAWN_WORK:
        last = spawns[-1]
        return (
            last,
            "enemy" if isinstance(last, EnemySpawn) else "npc",
            "count",
            f"{len(spawns):,} spawn objects placing {agents:,} agents: spawns x agents is "
            f"{len(spawns) * agents:,}; at most {MAX_SPAWN_WORK:,} (spawn limit); use fewer "
            "spawns with a larger count",
        )
    segments = sum(len(w.segments) for w in walls)
    if walls and segments * agents > MAX_SPAWN_WALL_WORK:
        return (
            walls[-1],
            "wall",
            "polyline" if walls[-1].shape == "polyline" else "polygon",
            f"{agents:,} spawned agents among {segments:,} wall segments: agents x wall "
            f"segments is {segments * agents:,}; at most {MAX_SPAWN_WALL_WORK:,} "
            "(spawn x wall limit)",
        )
    return None
