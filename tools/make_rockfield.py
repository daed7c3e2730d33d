"""Scatter circular rocks over a level with Buckland's placement (seed 002), with a fixed seed.

Each rock gets a random whole-pixel radius and centre, at least ``border`` px from the world's
edge, and is kept only when it stays ``gap`` px clear of every rock placed before it (and of
keep-out circles around the player, the exits, the enemies and the paths). After 2000 failed
tries for one rock the placement stops, as in the seed. Because every gap is wider than an
agent, the free space stays connected: no rock wall can cut the start from the exit.

Usage: ``python -m tools.make_rockfield [LEVEL]`` (default ``levels/03_rockfield.tmj``). It
replaces the level's obstacles and keeps everything else; rerunning it gives the same file.
"""

from __future__ import annotations

import itertools
import logging
import math
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from game.level import Level, LevelError, ObstacleData, load_level, save_level

REPO = Path(__file__).resolve().parents[1]

logger = logging.getLogger("make_rockfield")

Circle = tuple[float, float, float]

#: The rock field's fixed seed.
ROCKFIELD_SEED = 2002
ROCKFIELD_PATH = REPO / "levels" / "03_rockfield.tmj"
#: Seed 002 gives up on one rock after this many tries.
MAX_TRIES = 2000
#: Rocks at most this big are pushable.
PUSHABLE_RADIUS = 24


def circles_overlap(a: Circle, b: Circle) -> bool:
    """Seed 002's TwoCirclesOverlapped: centres closer than the radii sum, or one inside.

    Args:
        a: (x, y, radius).
        b: (x, y, radius).

    Returns:
        True when the circles overlap.
    """
    dist = math.hypot(a[0] - b[0], a[1] - b[1])
    return dist < a[2] + b[2] or dist < abs(a[2] - b[2])


def overlapped(rock: Circle, others: Iterable[Circle], gap: float) -> bool:
    """Seed 002's Overlapped: does ``rock``, grown by ``gap``, overlap any of ``others``?

    Args:
        rock: The candidate (x, y, radius).
        others: Rocks already placed and keep-out circles.
        gap: The minimum gap between rocks (px).

    Returns:
        True when the candidate must be rejected.
    """
    grown = (rock[0], rock[1], rock[2] + gap)
    return any(circles_overlap(grown, other) for other in others)


def place_rocks(
    width: int,
    height: int,
    count: int,
    *,
    rng: random.Random,
    min_radius: int = 16,
    max_radius: int = 56,
    gap: int = 48,
    border: int = 40,
    keep_out: Sequence[Circle] = (),
) -> list[Circle]:
    """Place up to ``count`` non-overlapping rocks (seed 002's CreateObstacles).

    Args:
        width: World width (px).
        height: World height (px).
        count: How many rocks to try to place.
        rng: The random source (seeded by the caller).
        min_radius: Smallest radius (inclusive, px).
        max_radius: Largest radius (exclusive, as C#'s ``Random.Next``, px).
        gap: Minimum distance between two rocks' edges (px).
        border: Minimum distance between a rock and the world's edge (px).
        keep_out: Circles no rock may come within ``gap`` of.

    Returns:
        The rocks as (x, y, radius), in placement order; fewer than ``count`` when a rock
        found no place in MAX_TRIES tries.
    """
    rocks: list[Circle] = []
    for _ in range(count):
        for _try in range(MAX_TRIES):
            radius = rng.randrange(min_radius, max_radius)
            low_x, high_x = radius + border, width - radius - border
            low_y, high_y = radius + border, height - radius - border
            if high_x <= low_x or high_y <= low_y:
                continue
            x = rng.randrange(low_x, high_x)
            y = rng.randrange(low_y, high_y)
            rock = (float(x), float(y), float(radius))
            if not overlapped(rock, [*rocks, *keep_out], gap):
                rocks.append(rock)
                break
        else:
            return rocks
    return rocks


def keep_out_circles(level: Level, margin: float = 40.0) -> list[Circle]:
    """Circles around the player, exits, enemies and paths that rocks must leave free.

    Args:
        level: The level.
        margin: Extra clearance (px).

    Returns:
        (x, y, radius) circles.
    """
    circles: list[Circle] = []
    player = level.player
    circles.append((player.x, player.y, player.radius + 3 * margin))
    for exit_ in level.exits:
        cx, cy = exit_.rect.center
        circles.append((cx, cy, math.hypot(exit_.rect.width, exit_.rect.height) / 2 + margin))
    for enemy in level.enemies:
        circles.append((enemy.x, enemy.y, enemy.radius + margin))
    for npc in level.npcs:
        if npc.area is None:
            circles.append((npc.x, npc.y, npc.radius + margin))
        else:
            half = math.hypot(npc.area.width, npc.area.height) / 2
            circles.append((*npc.area.center, half))
    for path in level.paths:
        points = list(path.points) + ([path.points[0]] if path.closed else [])
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            steps = max(1, int(math.hypot(x1 - x0, y1 - y0) // 20))
            for i in range(steps + 1):
                t = i / steps
                circles.append(
                    (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, path.radius + path.drift + margin)
                )
    return circles


def rock_obstacles(
    level: Level, count: int, seed: int, reuse_ids: bool = True, **placement: int
) -> tuple[ObstacleData, ...]:
    """Place rocks over ``level`` and return them as obstacles (small ones pushable).

    Args:
        level: The level (its spawns and paths are kept free).
        count: How many rocks to try to place.
        seed: The fixed seed.
        reuse_ids: Give the new rocks the ids of the level's current obstacles, in order, so
            rerunning the tool changes nothing.
        **placement: min_radius, max_radius, gap, border for :func:`place_rocks`.

    Returns:
        The obstacles.
    """
    rocks = place_rocks(
        int(level.width_px),
        int(level.height_px),
        count,
        rng=random.Random(seed),
        keep_out=keep_out_circles(level),
        **placement,
    )
    ids = [o.id for o in level.obstacles] if reuse_ids else []
    result = []
    for index, (x, y, radius) in enumerate(rocks):
        dynamic = radius <= PUSHABLE_RADIUS
        result.append(
            ObstacleData(
                x=x,
                y=y,
                radius=radius,
                dynamic=dynamic,
                mass=round(radius * radius / 40, 1) if dynamic else 10.0,
                id=ids[index] if index < len(ids) else 0,
                name=f"rock-{index + 1}",
            )
        )
    return tuple(result)


def add_rockfield(level: Level) -> Level:
    """Return the rock field level with its rocks: 48 tries, radius 16..55, gap 48.

    Args:
        level: The level without (or with old) rocks.

    Returns:
        The level with the rocks.
    """
    rocks = rock_obstacles(level, 48, ROCKFIELD_SEED, min_radius=16, max_radius=56, gap=48)
    if len(rocks) < 30:
        raise LevelError(f"only {len(rocks)} rocks fit; the rock field needs 30", file=level.source)
    return replace(level, obstacles=rocks)


def main(argv: Sequence[str] | None = None) -> int:
    """Re-rock a level file; return the exit status (2 on a level error)."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    args = list(sys.argv[1:] if argv is None else argv)
    path = Path(args[0]) if args else ROCKFIELD_PATH
    try:
        level = add_rockfield(load_level(path))
        saved = save_level(level, path, backup=False)
    except LevelError as exc:
        print(f"make_rockfield: {exc}", file=sys.stderr)
        return 2
    logger.info("wrote %d rocks into %s", len(saved.obstacles), path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
