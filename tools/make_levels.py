"""Generate the first versions of the shipped levels 1-5, 9 and 10 from the descriptions below.

The levels are ordinary Tiled maps: after generation, designers edit them in Tiled or in the
game's editor, and nobody needs to run this again. It exists so the first versions are
reproducible and reviewable as code. Rocks come from tools/make_rockfield.py (seed 002's
placement, fixed seeds). Rerunning it rewrites the files from scratch: run
``python -m tools.rework_levels`` after it for issue 15's walls and sentinels (and levels 6-8).

Usage: ``python -m tools.make_levels [--check]`` (``--check`` only reports layout problems).
"""

from __future__ import annotations

import argparse
import itertools
import logging
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from game.level import (
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    LevelError,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Point,
    Rect,
    save_level,
)
from tools.make_rockfield import add_rockfield, rock_obstacles

REPO = Path(__file__).resolve().parents[1]

logger = logging.getLogger("make_levels")

LEVELS = REPO / "levels"
GRADIENT = REPO / "resources" / "flow" / "gradient.png"


def ring(
    cx: float, cy: float, rx: float, ry: float, n: int, phase: float = 0.0
) -> tuple[Point, ...]:
    """``n`` whole-pixel points on an ellipse, counter-clockwise from ``phase`` degrees."""
    return tuple(
        (
            float(round(cx + rx * math.cos(math.radians(phase + 360 * i / n)))),
            float(round(cy + ry * math.sin(math.radians(phase + 360 * i / n)))),
        )
        for i in range(n)
    )


def pts(*values: float) -> tuple[Point, ...]:
    """Points from a flat list of coordinates: ``pts(0, 0, 10, 0)``."""
    return tuple((float(x), float(y)) for x, y in zip(values[::2], values[1::2], strict=True))


def rock(x: float, y: float, r: float, name: str = "") -> ObstacleData:
    """A fixed rock."""
    return ObstacleData(x=x, y=y, radius=r, name=name)


def patrol() -> Level:
    """1. Patrol: guards walk closed loops with sharp corners; pillars give cover."""
    paths = (
        PathData(name="square", points=pts(400, 250, 720, 250, 720, 560, 400, 560), closed=True),
        PathData(name="triangle", points=pts(900, 140, 1260, 140, 1080, 460), closed=True),
        PathData(
            name="hook",
            points=pts(980, 640, 1400, 640, 1400, 740, 1180, 720, 980, 880),
            closed=True,
        ),
        PathData(name="bowtie", points=pts(200, 700, 520, 900, 520, 700, 200, 900), closed=True),
    )
    enemies = (
        EnemySpawn(name="guard-square", x=400, y=250, path="square", sight=200, max_speed=150),
        EnemySpawn(name="guard-triangle", x=900, y=140, path="triangle", sight=220),
        EnemySpawn(name="guard-hook", x=980, y=640, path="hook", sight=180, max_speed=170),
        EnemySpawn(name="guard-bowtie", x=200, y=700, path="bowtie", sight=160, max_speed=140),
    )
    pillars = (
        rock(560, 405, 40, "pillar-1"),
        rock(250, 420, 32, "pillar-2"),
        rock(820, 420, 44, "pillar-3"),
        rock(1080, 260, 30, "pillar-4"),
        rock(1250, 540, 36, "pillar-5"),
        rock(660, 780, 40, "pillar-6"),
        rock(1340, 320, 30, "pillar-7"),
        rock(860, 640, 30, "pillar-8"),
        rock(1540, 560, 34, "pillar-9"),
    )
    return Level(
        title="Patrol",
        hint="Guards walk fixed loops and turn sharply at the corners. Slip past behind them.",
        seed=1,
        width_px=1600,
        height_px=960,
        player=PlayerSpawn(name="start", x=96, y=96),
        exits=(ExitData(name="exit", rect=Rect(1456, 800, 112, 112)),),
        paths=paths,
        obstacles=pillars,
        enemies=enemies,
    )


def currents() -> Level:
    """2. Currents: a slowly changing noise field, a river, two whirlpools and a bend."""
    flows = (
        FlowRegion(
            name="swell",
            rect=Rect(0, 0, 2400, 1344),
            kind="noise",
            strength=35,
            cell=64,
            scale=0.08,
            speed=0.15,
            seed=7,
        ),
        FlowRegion(
            name="river", rect=Rect(960, 0, 288, 1344), kind="uniform", angle=90, strength=150
        ),
        FlowRegion(
            name="bend", rect=Rect(240, 880, 480, 400), kind="image", image=GRADIENT, strength=60
        ),
        FlowRegion(name="whirlpool", rect=Rect(1560, 240, 480, 480), kind="vortex", strength=130),
        FlowRegion(
            name="eddy", rect=Rect(1560, 860, 360, 360), kind="vortex", strength=90, clockwise=True
        ),
    )
    npcs = (
        NpcSpawn(name="school-west", x=0, y=0, area=Rect(300, 200, 360, 280), count=24),
        NpcSpawn(name="school-river", x=0, y=0, area=Rect(1000, 300, 200, 400), count=20, radius=7),
        NpcSpawn(name="school-whirl", x=0, y=0, area=Rect(1650, 330, 300, 300), count=18),
        NpcSpawn(name="school-bend", x=480, y=1080, count=12),
        NpcSpawn(
            name="drifters", x=0, y=0, area=Rect(1400, 1000, 500, 250), count=16, wander=False
        ),
    )
    return Level(
        title="Currents",
        hint="Water pushes you and everyone else. "
        "The river runs up the screen and carries you: "
        "enter it below the spot where you want to come out.",
        seed=2,
        width_px=2400,
        height_px=1344,
        player=PlayerSpawn(name="start", x=120, y=672),
        exits=(ExitData(name="exit", rect=Rect(2240, 600, 128, 144)),),
        paths=(PathData(name="ferry", points=pts(760, 520, 1440, 520, 1440, 900, 760, 900)),),
        obstacles=(rock(1100, 1000, 30, "stone-north"), rock(1120, 180, 26, "stone-south")),
        enemies=(
            EnemySpawn(name="sentry-north", x=2000, y=1100, sight=220),
            EnemySpawn(name="sentry-south", x=2050, y=200, sight=220),
            EnemySpawn(name="ferry-guard", x=760, y=520, path="ferry", sight=200, max_speed=160),
        ),
        npcs=npcs,
        flows=flows,
    )


def rockfield() -> Level:
    """3. Rock field: seed 002's random rocks; hunters chase you through them."""
    base = Level(
        title="Rock Field",
        hint="Hunters see far and chase hard. Break their line of sight behind the rocks; "
        "small rocks can be pushed.",
        seed=3,
        width_px=2560,
        height_px=1440,
        player=PlayerSpawn(name="start", x=120, y=720),
        exits=(ExitData(name="exit", rect=Rect(2400, 640, 128, 160)),),
        paths=(
            PathData(
                name="sweep", points=pts(1200, 200, 1700, 200, 1700, 500, 1200, 500), closed=True
            ),
        ),
        enemies=(
            EnemySpawn(name="hunter-1", x=700, y=1100, sight=260, max_speed=190),
            EnemySpawn(name="hunter-2", x=900, y=350, sight=240, max_speed=190),
            EnemySpawn(name="hunter-3", x=1400, y=800, sight=260, max_speed=190),
            EnemySpawn(name="hunter-4", x=1900, y=1150, sight=260, max_speed=190),
            EnemySpawn(name="hunter-5", x=2000, y=350, sight=250, max_speed=190),
            EnemySpawn(name="sweeper", x=1200, y=200, path="sweep", sight=220),
        ),
    )
    return add_rockfield(base)


def swarm() -> Level:
    """4. Swarm: 250 fish keep their distance; sharks hide in the shoals."""
    migration = PathData(
        name="migration", points=ring(1200, 672, 800, 420, 16), closed=True, radius=60
    )
    npcs = (
        NpcSpawn(
            name="shoal-a", x=0, y=0, area=Rect(500, 400, 400, 300), count=60, path="migration"
        ),
        NpcSpawn(
            name="shoal-b", x=0, y=0, area=Rect(1500, 640, 400, 300), count=60, path="migration"
        ),
        NpcSpawn(name="shoal-c", x=0, y=0, area=Rect(900, 900, 500, 250), count=50),
        NpcSpawn(name="shoal-d", x=0, y=0, area=Rect(1100, 150, 500, 250), count=50),
        NpcSpawn(name="stray-1", x=300, y=1100, count=10),
        NpcSpawn(name="stray-2", x=2100, y=300, count=10),
        NpcSpawn(name="stray-3", x=1900, y=1000, count=10, separation=32),
    )
    return Level(
        title="Swarm",
        hint="Two hundred and fifty fish keep their distance from each other, and from you. "
        "Use them as cover.",
        seed=4,
        width_px=2400,
        height_px=1344,
        player=PlayerSpawn(name="start", x=120, y=120),
        exits=(ExitData(name="exit", rect=Rect(2256, 1184, 112, 112)),),
        paths=(migration,),
        enemies=(
            EnemySpawn(name="shark-1", x=2000, y=672, path="migration", sight=200),
            EnemySpawn(name="shark-2", x=2000, y=900, sight=180),
            EnemySpawn(name="shark-3", x=700, y=1150, sight=180),
        ),
        npcs=npcs,
    )


def moving_paths() -> Level:
    """5. Moving paths: every patrol route drifts by itself (seed 000, Exercise 5.11)."""
    paths = (
        PathData(
            name="drift-square",
            points=pts(400, 300, 760, 300, 760, 620, 400, 620),
            closed=True,
            drift=40,
            drift_speed=0.4,
        ),
        PathData(
            name="drift-hex",
            points=ring(1150, 560, 220, 220, 6),
            closed=True,
            drift=60,
            drift_speed=0.25,
        ),
        PathData(
            name="snake",
            points=pts(300, 900, 600, 760, 900, 980, 1200, 780, 1500, 1000),
            drift=50,
            drift_speed=0.6,
        ),
        PathData(
            name="wobble",
            points=pts(1600, 700, 1900, 700, 1750, 920),
            closed=True,
            drift=30,
            drift_speed=0.8,
        ),
        PathData(
            name="orbit",
            points=ring(1600, 300, 180, 180, 8),
            closed=True,
            drift=25,
            drift_speed=1.0,
        ),
    )
    base = Level(
        title="Moving Paths",
        hint="These patrol routes breathe: their corners wander. Wait for a gap to open.",
        seed=5,
        width_px=2048,
        height_px=1152,
        player=PlayerSpawn(name="start", x=112, y=96),
        exits=(ExitData(name="exit", rect=Rect(1904, 992, 112, 112)),),
        paths=paths,
        enemies=(
            EnemySpawn(name="square-guard", x=400, y=300, path="drift-square", sight=210),
            EnemySpawn(name="hex-guard", x=1370, y=560, path="drift-hex", sight=230),
            EnemySpawn(name="snakes", x=300, y=900, path="snake", count=2, sight=200),
            EnemySpawn(name="wobble-guard", x=1600, y=700, path="wobble", sight=200),
            EnemySpawn(name="orbit-guard", x=1780, y=300, path="orbit", sight=220),
        ),
    )
    rocks = rock_obstacles(base, 12, 5005, reuse_ids=False, min_radius=20, max_radius=44, gap=60)
    return replace(base, obstacles=rocks)


def finale() -> Level:
    """9. Finale: patrols, drifting routes, rocks, currents and shoals together."""
    paths = (
        PathData(
            name="gate", points=pts(2600, 1550, 2980, 1550, 2980, 1740, 2600, 1740), closed=True
        ),
        PathData(
            name="zigzag",
            points=pts(1200, 200, 1600, 500, 2000, 200, 2400, 500, 2400, 650, 1200, 650),
            closed=True,
        ),
        PathData(
            name="drifter",
            points=ring(1500, 1400, 240, 240, 6),
            closed=True,
            drift=50,
            drift_speed=0.35,
        ),
        PathData(
            name="tide",
            points=pts(300, 1080, 1000, 1120, 1700, 1080, 2400, 1130),
            drift=40,
            drift_speed=0.5,
        ),
        PathData(name="reef-loop", points=ring(850, 450, 250, 250, 8), closed=True, radius=40),
    )
    flows = (
        FlowRegion(
            name="swell",
            rect=Rect(0, 0, 3200, 1792),
            kind="noise",
            strength=30,
            cell=64,
            scale=0.06,
            speed=0.2,
            seed=11,
        ),
        FlowRegion(name="great-river", rect=Rect(0, 800, 3200, 224), kind="uniform", strength=130),
        FlowRegion(name="maelstrom", rect=Rect(2500, 1150, 440, 440), kind="vortex", strength=140),
        FlowRegion(
            name="bend",
            rect=Rect(400, 1200, 640, 480),
            kind="image",
            image=GRADIENT,
            angle=270,
            strength=60,
        ),
    )
    npcs = (
        NpcSpawn(
            name="reef-shoal", x=0, y=0, area=Rect(650, 250, 400, 400), count=50, path="reef-loop"
        ),
        NpcSpawn(name="north-shoal", x=0, y=0, area=Rect(1800, 1300, 400, 300), count=40),
        NpcSpawn(
            name="river-school", x=0, y=0, area=Rect(1000, 830, 600, 160), count=40, wander=False
        ),
        NpcSpawn(name="strays", x=2800, y=400, count=20),
    )
    enemies = (
        EnemySpawn(name="warden", x=2600, y=1550, path="gate", sight=220),
        EnemySpawn(name="zig-a", x=1200, y=200, path="zigzag", sight=220),
        EnemySpawn(name="zig-b", x=2400, y=500, path="zigzag", sight=220),
        EnemySpawn(name="drift-guard", x=1740, y=1400, path="drifter", sight=240),
        EnemySpawn(name="tide-pair", x=300, y=1080, path="tide", count=2, sight=200),
        EnemySpawn(name="sentinel", x=2000, y=1500, sight=280),
        EnemySpawn(name="sentinel-2", x=2900, y=700, sight=260),
    )
    base = Level(
        title="Finale",
        hint="Everything at once: patrols, drifting routes, rocks, currents and shoals.",
        seed=6,
        width_px=3200,
        height_px=1792,
        player=PlayerSpawn(name="start", x=120, y=120),
        exits=(ExitData(name="exit", rect=Rect(3040, 1632, 128, 128)),),
        paths=paths,
        enemies=enemies,
        npcs=npcs,
        flows=flows,
    )
    rocks = rock_obstacles(base, 40, 6006, reuse_ids=False, min_radius=18, max_radius=50, gap=48)
    return replace(base, obstacles=rocks)


def sandbox() -> Level:
    """10. Sandbox: an open field for stress tests and benchmarks."""
    base = Level(
        title="Sandbox",
        hint="An open field for experiments: rocks, a current, a ring path and a crowd.",
        seed=7,
        width_px=1920,
        height_px=1088,
        player=PlayerSpawn(name="start", x=96, y=544),
        exits=(ExitData(name="exit", rect=Rect(1792, 480, 96, 128)),),
        paths=(PathData(name="ring", points=ring(960, 544, 300, 300, 12), closed=True),),
        enemies=(EnemySpawn(name="patroller", x=1260, y=544, path="ring", sight=150),),
        npcs=(NpcSpawn(name="crowd", x=0, y=0, area=Rect(720, 304, 480, 480), count=200),),
        flows=(
            FlowRegion(
                name="current", rect=Rect(640, 160, 640, 768), kind="uniform", angle=45, strength=70
            ),
        ),
    )
    rocks = rock_obstacles(base, 24, 7007, reuse_ids=False, min_radius=14, max_radius=40, gap=40)
    return replace(base, obstacles=rocks)


BUILDERS: dict[str, Callable[[], Level]] = {
    "01_patrol.tmj": patrol,
    "02_currents.tmj": currents,
    "03_rockfield.tmj": rockfield,
    "04_swarm.tmj": swarm,
    "05_moving_paths.tmj": moving_paths,
    "09_finale.tmj": finale,
    "10_sandbox.tmj": sandbox,
}


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``ab``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length_sq = dx * dx + dy * dy
    t = (
        0.0
        if length_sq == 0
        else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length_sq))
    )
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def layout_problems(level: Level) -> list[str]:
    """Rocks that block a path corridor or sit on a spawn, and exits too near the start.

    Args:
        level: The level.

    Returns:
        One line per problem.
    """
    problems = []
    for obstacle in level.obstacles:
        centre = (obstacle.x, obstacle.y)
        for path in level.paths:
            nodes = list(path.points) + ([path.points[0]] if path.closed else [])
            clearance = min(_segment_distance(centre, a, b) for a, b in itertools.pairwise(nodes))
            if clearance < obstacle.radius + path.radius + path.drift:
                problems.append(f"rock {obstacle.name} blocks path {path.name}")
        spawns = [(level.player.x, level.player.y, level.player.radius)]
        spawns += [(e.x, e.y, e.radius) for e in level.enemies]
        for x, y, r in spawns:
            if math.hypot(x - obstacle.x, y - obstacle.y) < obstacle.radius + r + 10:
                problems.append(f"rock {obstacle.name} covers a spawn at ({x:g}, {y:g})")
    start = (level.player.x, level.player.y)
    for exit_ in level.exits:
        gap = math.dist(start, exit_.rect.center)
        if gap < 0.6 * math.hypot(level.width_px, level.height_px):
            problems.append(f"exit {exit_.name} is only {gap:.0f} px from the start")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with --check, only check) the shipped levels; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report layout problems")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    status = 0
    for name, build in BUILDERS.items():
        try:
            level = build()
            for problem in layout_problems(level):
                logger.warning("%s: %s", name, problem)
                status = 1
            if not args.check:
                saved = save_level(level, LEVELS / name, backup=False)
                logger.info(
                    "%s: %s, %d objects, %d agents",
                    name,
                    saved.title,
                    sum(1 for _ in saved.objects()),
                    saved.agent_count,
                )
        except LevelError as exc:
            print(f"make_levels: {exc}", file=sys.stderr)
            return 2
    return status


if __name__ == "__main__":
    raise SystemExit(main())
