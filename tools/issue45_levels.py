"""Issue 45's level edits: enemies whose place and timing a blind script cannot learn.

The exploit finder (``python -m game exploit``) found open-loop scripts that won levels from the
third on at least a quarter of the time (docs/env.md, "A larger search"): every seed put each
guard on the same post and each patrol at the same point of its loop at the same second, so a
script that never looks could time a run past them. Each edit below gives named enemies a
seeded ``scatter`` (their post is drawn per world seed within that radius) or ``phase`` (a
patrol starts a seeded way round its path), and, where that was not enough, changes the level;
each is measured in docs/env.md ("Seeded enemies").

Each edit starts from the level on disk and sets only what it owns, so rerunning it changes
nothing.

Usage: ``python -m tools.issue45_levels [FILE ...]`` (default: every file it knows).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace

from game.level import EnemySpawn, Level, LevelError, PathData
from tools.make_levels import pts
from tools.rework_levels import check_enemy_names, run_edits, with_owned

__all__ = ["EDITS", "edge_patrols", "main", "with_seeded_enemies"]

logger = logging.getLogger("issue45_levels")


def with_seeded_enemies(level: Level, **settings: tuple[float, float]) -> Level:
    """``level`` with each named enemy's (scatter, phase) set as given.

    Raises:
        LevelError: for a name no enemy of the level has (a typo would change nothing), or a
            phase given to an enemy without a path (it would do nothing).
    """
    check_enemy_names(level, settings, "seed")
    names = {e.name: e for e in level.enemies}
    pathless = sorted(n for n, (_, phase) in settings.items() if phase > 0 and not names[n].path)
    if pathless:
        listed = ", ".join(map(repr, pathless))
        raise LevelError(f"enemy {listed} has no path to phase", file=level.source)
    enemies = tuple(
        replace(e, scatter=settings[e.name][0], phase=settings[e.name][1])
        if e.name in settings
        else e
        for e in level.enemies
    )
    return replace(level, enemies=enemies)


def rockfield(level: Level) -> Level:
    """3. Rock Field: a script holding right, then waiting, then down-left won 5 of 8 seeds
    past the five hunters, who always stood on the same posts. Their posts are now drawn
    within 250 px of their spawn points (drawn again off rocks and walls and never across
    the reef), and the sweeper and the channel's watcher start anywhere on their loops: the
    best of 128 open-loop scripts wins 1 seed of 8, and the bot still wins 17 of 20 (as
    before)."""
    seeded = {f"hunter-{k}": (250.0, 0.0) for k in range(1, 6)}
    seeded |= {"sweeper": (0.0, 1.0), "channel-watcher": (0.0, 1.0)}
    return with_seeded_enemies(level, **seeded)


def edge_patrols(
    level: Level, *guards: tuple[str, str, tuple[float, float], tuple[float, ...], float]
) -> Level:
    """``level`` with a guard per (name, path name, spawn point, points, sight) walking an open
    path of those points (x0, y0, x1, y1, ...) back and forth at 180 px/s, phased (it starts
    a seeded way along it from the point nearest its spawn), in place of the guard and path of
    those names."""
    paths, enemies = [], []
    for name, path, (x, y), points, sight in guards:
        paths.append(PathData(name=path, points=pts(*points), closed=False, radius=20.0))
        enemies.append(
            EnemySpawn(name=name, x=x, y=y, path=path, max_speed=180.0, sight=sight, phase=1.0)
        )
    return with_owned(level, level.walls, enemies=enemies, paths=paths)


def moving_paths(level: Level) -> Level:
    """5. Moving Paths: a script that swam up the west edge, along the north edge, down the
    north reef into the gap and waited in the exit's pocket won 7 of 8 seeds (14 of 20), seen
    by no one: the map's edges were nobody's beat. With every patrol phased alone it still
    won 8 of 8 (the edges, not the timing, were the hole); two guards now walk the north and
    east edges, and every patrol starts a seeded way round its loop. 128 scripts then win no
    seed of 8 (the closest ends 730 px from the exit), and the bot wins 11 of 20 (14
    before)."""
    phased = with_seeded_enemies(level, **{e.name: (0.0, 1.0) for e in level.enemies if e.path})
    return edge_patrols(
        phased,
        ("edge-guard", "north-edge", (800.0, 1105.0), (200, 1105, 1480, 1105), 150.0),
        ("east-guard", "east-edge", (2010.0, 400.0), (2010, 80, 2010, 720), 150.0),
    )


def swarm(level: Level) -> Level:
    """4. Swarm: a script along the south edge, up the east edge and along the east reef's
    underside into the exit's pocket won 3 of 8 seeds (9 of 20), and with the sharks phased
    alone 5 of 8: the south and east edges were nobody's beat. Two guards now walk them, and
    every shark on a path starts a seeded way round it. 128 scripts then win no seed of 8
    (the closest ends 420 px from the exit), and the bot wins 13 of 20 (15 before)."""
    phased = with_seeded_enemies(level, **{e.name: (0.0, 1.0) for e in level.enemies if e.path})
    return edge_patrols(
        phased,
        ("south-guard", "south-edge", (1100.0, 90.0), (300, 90, 2000, 90), 180.0),
        ("east-guard", "east-edge", (2310.0, 400.0), (2310, 90, 2310, 900), 180.0),
    )


def finale(level: Level) -> Level:
    """9. Finale: a script up the west edge, along the north edge and down past the warden
    into the exit won 4 of 8 seeds (11 of 20). Phasing the patrols made it no better (3 of 8,
    with a guard on the east edge too), so the patrols keep their timing and a guard walks the
    north edge, phased: 128 scripts then win 1 seed of 8, and the bot wins 4 of 20 (as
    before). A second guard on the east edge left no seed won but caught the autopilot on the
    level's own seed (it won 5 of 20 seeds there, 7 of 20 with the north guard alone)."""
    return edge_patrols(
        level, ("north-guard", "north-edge", (1400.0, 1730.0), (300, 1730, 2500, 1730), 150.0)
    )


EDITS: dict[str, Callable[[Level], Level]] = {
    "03_rockfield.tmj": rockfield,
    "04_swarm.tmj": swarm,
    "05_moving_paths.tmj": moving_paths,
    "09_finale.tmj": finale,
}


def _seeded(level: Level) -> str:
    return "seeded " + ", ".join(e.name for e in level.enemies if e.scatter or e.phase)


def main(argv: Sequence[str] | None = None) -> int:
    """Apply the edits; return the exit status (2 on a level error)."""
    return run_edits("issue45_levels", EDITS, _seeded, argv)


if __name__ == "__main__":
    raise SystemExit(main())
