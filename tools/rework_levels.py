"""Issue 15's difficulty curve: rework levels 3-5, the finale and the sandbox, and build 6-8.

From level 3 on no blind strategy (holding one key toward the exit, following the map's
edges) may win (see ``tools/curve.py``). The reworks add what a straight runner cannot get
past: reefs (walls) jutting from the map's edges, breakwaters in front of exits, a sentinel,
and patrols at the gaps. Each rework starts from the level as it is on disk and replaces
only the walls and the named enemies it owns, so rerunning it changes nothing and edits made
elsewhere (in Tiled or the game's editor) survive. The three new levels (6 gate, 7 squadron,
8 sentries) are written from scratch, like ``tools/make_levels.py`` does for the others' first
versions.

Issue 25's curve, measured by the human-like bot (``tools/curve.py``): levels 1 and 2 get
gentler guards (1: slower, shorter-sighted; 2: no ferry guard), 3 gentler hunters; 6 a second
gatekeeper, 7 and 8 keener enemies, and 10 two sentinels at a narrower gap between its reefs
(each setting below is the one measured).

Usage: ``python -m tools.rework_levels [FILE ...]`` (default: every file it knows; each is
validated before it is written).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from game.level import (
    EnemySpawn,
    ExitData,
    Level,
    LevelError,
    NpcSpawn,
    PathData,
    PlayerSpawn,
    Rect,
    WallData,
    load_level,
    read_raw,
    save_level,
)
from game.level.saver import dumps_map
from game.safe_io import atomic_write
from tools.make_levels import pts, rock

REPO = Path(__file__).resolve().parents[1]

logger = logging.getLogger("rework_levels")

LEVELS = REPO / "levels"
REEF = 16.0
"""Thickness of the reefs (px)."""


def reef(name: str, *values: float, thickness: float = REEF) -> WallData:
    """An open wall through the points ``values`` (a flat list of coordinates)."""
    return WallData(name=name, points=pts(*values), thickness=thickness)


T = TypeVar("T", EnemySpawn, NpcSpawn, PathData, WallData)


def _merged(old: tuple[T, ...], new: Sequence[T], keep_others: bool = True) -> tuple[T, ...]:
    """``old`` with the objects of ``new`` in place of those of the same name (which keep
    their ids, so an unchanged object is saved unchanged); others kept if ``keep_others``."""
    ids = {x.name: x.id for x in old}
    names = {x.name for x in new}
    kept = tuple(x for x in old if x.name not in names) if keep_others else ()
    return kept + tuple(replace(x, id=ids.get(x.name, 0)) for x in new)


def with_owned(
    level: Level,
    walls: Sequence[WallData] = (),
    enemies: Sequence[EnemySpawn] = (),
    npcs: Sequence[NpcSpawn] = (),
    paths: Sequence[PathData] = (),
    **changes: Any,
) -> Level:
    """``level`` with exactly these walls, and these enemies, NPCs and paths in place of
    those of the same names (the others kept)."""
    return replace(
        level,
        walls=_merged(level.walls, walls, keep_others=False),
        enemies=_merged(level.enemies, enemies),
        npcs=_merged(level.npcs, npcs),
        paths=_merged(level.paths, paths),
        **changes,
    )


def check_enemy_names(level: Level, names: Iterable[str], verb: str) -> None:
    """Raise a :class:`LevelError` naming every one of ``names`` no enemy of ``level`` has
    (an edit by a misspelt name would change nothing)."""
    unknown = sorted(set(names) - {e.name for e in level.enemies})
    if unknown:
        listed = ", ".join(map(repr, unknown))
        raise LevelError(f"no enemy named {listed} to {verb}", file=level.source)


def run_edits(
    tool: str,
    edits: dict[str, Callable[[Level], Level]],
    describe: Callable[[Level], str],
    argv: Sequence[str] | None,
) -> int:
    """A level tool's main: apply ``edits`` (file name -> edit) to the shipped levels named on
    the command line (default: all), log ``describe`` of each saved level; the exit status (2
    on a level error, in one line)."""
    parser = argparse.ArgumentParser(prog=f"python -m tools.{tool}")
    parser.add_argument("only", nargs="*", help="file names to write (default: all)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        for name, edit in edits.items():
            if args.only and name not in args.only:
                continue
            saved = save_level(edit(load_level(LEVELS / name)), LEVELS / name, backup=False)
            logger.info("%s: %s", name, describe(saved))
    except LevelError as exc:
        print(f"{tool}: {exc}", file=sys.stderr)
        return 2
    return 0


def with_enemy_settings(level: Level, **settings: tuple[float, float]) -> Level:
    """``level`` with each named enemy's (max_speed, sight) set as given.

    Raises:
        LevelError: for a name no enemy of the level has (a typo would change nothing).
    """
    check_enemy_names(level, settings, "rework")
    enemies = tuple(
        replace(e, max_speed=settings[e.name][0], sight=settings[e.name][1])
        if e.name in settings
        else e
        for e in level.enemies
    )
    return replace(level, enemies=enemies)


# --- reworks of the shipped levels --------------------------------------------------------------


def patrol(level: Level) -> Level:
    """1. Patrol (issue 25's curve): the guards walk slower and see less far, so a first
    level is won nine times in ten by the person-like bot."""
    return with_enemy_settings(
        level,
        **{
            "guard-square": (120.0, 160.0),
            "guard-triangle": (144.0, 176.0),
            "guard-hook": (136.0, 144.0),
            "guard-bowtie": (112.0, 128.0),
        },
    )


def currents(level: Level) -> Level:
    """2. Currents (issue 25's curve): the level is about the water; the guard on the ferry
    route goes (the two sentries by the exit stay)."""
    return replace(level, enemies=tuple(e for e in level.enemies if e.name != "ferry-guard"))


def rockfield(level: Level) -> Level:
    """3. Rock Field: a reef closes the east end but for one channel in the middle, and a
    breakwater stands in front of the exit, so running straight east or along the edges ends
    against a wall while the hunters close in. (Issue 25's curve: the hunters swim at 170 px/s
    and see nine tenths as far as they did.)"""
    level = with_enemy_settings(
        level,
        **{
            "hunter-1": (170.0, 234.0),
            "hunter-2": (170.0, 216.0),
            "hunter-3": (170.0, 234.0),
            "hunter-4": (170.0, 234.0),
            "hunter-5": (170.0, 225.0),
            "sweeper": (161.0, 198.0),
        },
    )
    return with_owned(
        level,
        walls=(
            reef("north-reef", 2200, 1440, 2230, 1260, 2180, 1120, 2200, 1010),
            reef("south-reef", 2200, 0, 2170, 170, 2220, 320, 2200, 430),
            reef("breakwater", 2330, 560, 2320, 720, 2330, 880),
        ),
        hint=(
            "Hunters see far and chase hard. Break their sight behind rocks. A reef "
            "closes the east: find its channel, round the breakwater."
        ),
    )


def swarm(level: Level) -> Level:
    """4. Swarm: reefs wall off the exit's corner; the way in is a mouth to the south-west,
    where the sharks hunt among the shoals."""
    return with_owned(
        level,
        walls=(
            reef("west-reef", 1960, 1344, 1990, 1180, 1950, 1060, 1970, 960),
            reef("south-reef", 2400, 1000, 2280, 1020, 2200, 990, 2110, 1010),
        ),
        hint=(
            "Fish keep their distance from each other and from you: use them as cover. Reefs "
            "close the exit's corner; go in from the south-west."
        ),
    )


def moving_paths(level: Level) -> Level:
    """5. Moving Paths: two reefs cut off the exit's corner, leaving a gap where the
    wobbling triangle patrol drifts."""
    return with_owned(
        level,
        walls=(
            reef("north-reef", 1540, 1152, 1600, 1060, 1700, 990),
            reef("east-reef", 2048, 760, 1960, 800, 1880, 900),
        ),
        hint=(
            "Patrol routes breathe: their corners wander. Reefs close the exit's corner; wait "
            "for the wobbling guard to leave the gap."
        ),
    )


def finale(level: Level) -> Level:
    """9. Finale: reefs close the exit's corner round the maelstrom; the northern sentinel
    really is one now, keeping between you and the exit."""
    sentinel = next(e for e in level.enemies if e.name == "sentinel")
    return with_owned(
        level,
        walls=(
            reef("north-reef", 2440, 1792, 2470, 1680, 2450, 1580),
            reef("east-reef", 3200, 1400, 3080, 1430, 2960, 1420),
        ),
        enemies=(replace(sentinel, role="sentinel"),),
        hint=(
            "Everything at once: patrols, drifting routes, rocks, currents, shoals, a sentinel,"
            " and reefs round the exit's corner."
        ),
    )


def sandbox(level: Level) -> Level:
    """10. Sandbox: two reefs jut from the top and bottom edges before the exit, leaving a gap
    of 310 px that two sentinels keep between you and the exit, so the open field is not won
    by hugging its edges, nor by running straight (issue 25's curve: the last level is the
    hardest; seed 12, where the autopilot gets through)."""
    return with_owned(
        level,
        walls=(
            reef("north-reef", 1600, 1088, 1620, 900, 1600, 700),
            reef("south-reef", 1600, 0, 1580, 190, 1600, 390),
        ),
        enemies=(
            EnemySpawn(
                name="sentinel-north", x=1500, y=700, role="sentinel", max_speed=170, sight=260
            ),
            EnemySpawn(
                name="sentinel-south", x=1500, y=390, role="sentinel", max_speed=170, sight=260
            ),
        ),
        seed=12,
        hint=(
            "An open field for experiments: rocks, a current, a ring path, a crowd, and two"
            " sentinels at the gap between the reefs before the exit."
        ),
    )


REWORKS: dict[str, Callable[[Level], Level]] = {
    "01_patrol.tmj": patrol,
    "02_currents.tmj": currents,
    "03_rockfield.tmj": rockfield,
    "04_swarm.tmj": swarm,
    "05_moving_paths.tmj": moving_paths,
    "09_finale.tmj": finale,
    "10_sandbox.tmj": sandbox,
}

# --- new levels ---------------------------------------------------------------------------------


def gate() -> Level:
    """6. Gate: a reef crosses the sea with two gates near its ends that a school queues
    through on its loop; a second reef before the exit has one gate, and a guard walks
    between the two."""
    ferry = PathData(
        name="ferry",
        points=pts(500, 1090, 1600, 1090, 1600, 250, 500, 250),
        closed=True,
        radius=30,
    )
    beat = PathData(name="beat", points=pts(1880, 1200, 1880, 140), radius=24)
    return Level(
        title="Gate",
        hint=(
            "Reefs cross the sea. The fish queue through the first reef's two gates; a guard walks"
            " before the last gate. Slip through behind the school."
        ),
        seed=6,
        width_px=2400,
        height_px=1344,
        player=PlayerSpawn(name="start", x=120, y=672),
        exits=(ExitData(name="exit", rect=Rect(2256, 608, 112, 128)),),
        paths=(ferry, beat),
        walls=(
            reef("north-reef", 1100, 1344, 1075, 1250, 1110, 1180, 1100, 1140),
            reef("mid-reef", 1100, 1040, 1125, 900, 1075, 672, 1120, 440, 1100, 300),
            reef("south-reef", 1100, 200, 1080, 100, 1100, 0),
            reef("inner-north", 2020, 1344, 2040, 1100, 2000, 900, 2020, 730),
            reef("inner-south", 2020, 614, 2000, 450, 2040, 250, 2020, 0),
        ),
        obstacles=(
            rock(1730, 900, 36, "post-north"),
            rock(1730, 440, 40, "post-south"),
            rock(700, 700, 40),
            rock(1400, 672, 34),
            rock(1350, 1000, 30),
        ),
        enemies=(  # issue 25's curve: two gatekeepers on the beat, keener
            EnemySpawn(name="gatekeeper", x=1880, y=1200, path="beat", max_speed=165, sight=228),
            EnemySpawn(name="gatekeeper-2", x=1880, y=140, path="beat", max_speed=165, sight=230),
        ),
        npcs=(
            NpcSpawn(
                name="school",
                x=0,
                y=0,
                area=Rect(540, 1050, 400, 80),
                count=36,
                path="ferry",
                wander=False,
                queue=True,
            ),
            NpcSpawn(
                name="return-school",
                x=0,
                y=0,
                area=Rect(1150, 210, 300, 80),
                count=24,
                path="ferry",
                wander=False,
                queue=True,
            ),
        ),
    )


def sentries() -> Level:
    """8. Sentries: two sentinels keep between you and the exit; a long reef splits the way
    to the exit, and a sentinel on one side of it cannot follow you to the other quickly. A
    guard circles on the north side."""
    watch = PathData(
        name="watch", points=pts(1520, 840, 1880, 840, 1880, 1060, 1520, 1060), closed=True
    )
    return Level(
        title="Sentries",
        hint=(
            "Two sentinels keep themselves between you and the exit. A long reef splits the"
            " approach: lead them to one side of it, then come in from the other."
        ),
        seed=7,
        width_px=2240,
        height_px=1280,
        player=PlayerSpawn(name="start", x=120, y=240),
        exits=(ExitData(name="exit", rect=Rect(2096, 576, 112, 128)),),
        paths=(watch,),
        walls=(
            reef("divider", 2096, 640, 1900, 660, 1700, 625, 1480, 650),
            reef("north-reef", 1980, 1280, 1960, 1110, 1990, 940),
            reef("south-reef", 1980, 0, 2000, 160, 1970, 340),
        ),
        obstacles=(
            rock(650, 350, 44, "pillar-1"),
            rock(750, 940, 40, "pillar-2"),
            rock(1120, 630, 48, "pillar-3"),
            rock(1400, 280, 40, "pillar-4"),
            rock(1380, 1020, 44, "pillar-5"),
            rock(1780, 1180, 30, "pillar-6"),
        ),
        enemies=(
            # issue 25's curve: keener than the first version (150 px/s; sight 240, 180)
            EnemySpawn(
                name="sentry-east", x=1820, y=470, role="sentinel", max_speed=172.5, sight=300
            ),
            EnemySpawn(
                name="sentry-west", x=1620, y=490, role="sentinel", max_speed=172.5, sight=300
            ),
            EnemySpawn(name="watchman", x=1520, y=840, path="watch", max_speed=172.5, sight=225),
        ),
    )


def squadron() -> Level:
    """7. Squadron: formations sweep the middle; hiders scatter behind the rocks."""
    sweep = PathData(
        name="sweep",
        points=pts(560, 360, 1640, 360, 1640, 980, 560, 980),
        closed=True,
        radius=30,
    )
    picket = PathData(name="picket", points=pts(1560, 1160, 2000, 760), radius=24)
    rocks = (
        rock(420, 620, 40),
        rock(820, 700, 44),
        rock(1000, 560, 36),
        rock(1220, 760, 48),
        rock(1380, 560, 40),
        rock(900, 180, 36),
        rock(1860, 420, 40),
        rock(300, 1000, 36),
        rock(1180, 1120, 40),
    )
    return Level(
        title="Squadron",
        hint=(
            "A formation sweeps the middle; when one sees you, they all come. Small fish hide "
            "behind rocks as anyone nears."
        ),
        seed=8,
        width_px=2240,
        height_px=1280,
        player=PlayerSpawn(name="start", x=120, y=120),
        exits=(ExitData(name="exit", rect=Rect(2080, 1120, 128, 128)),),
        paths=(sweep, picket),
        obstacles=rocks,
        walls=(
            reef("north-reef", 1880, 1280, 1900, 1150, 1870, 1040),
            reef("south-reef", 1400, 0, 1420, 140, 1400, 280),
        ),
        enemies=(
            EnemySpawn(
                name="wedge",
                x=560,
                y=360,
                path="sweep",
                count=4,
                formation="wedge",
                spacing=50,
                sight=297,  # issue 25's curve: 220 and 170 before
                max_speed=195.5,
            ),
            EnemySpawn(
                name="line",
                x=1560,
                y=1160,
                path="picket",
                count=3,
                formation="line",
                spacing=50,
                sight=270,  # issue 25's curve: 200 and 160 before
                max_speed=184,
            ),
        ),
        npcs=(
            NpcSpawn(
                name="hiders-west", x=0, y=0, area=Rect(700, 500, 400, 300), count=24, role="hider"
            ),
            NpcSpawn(
                name="hiders-east", x=0, y=0, area=Rect(1150, 600, 350, 300), count=24, role="hider"
            ),
        ),
    )


NEW: dict[str, Callable[[], Level]] = {
    "06_gate.tmj": gate,
    "07_squadron.tmj": squadron,
    "08_sentries.tmj": sentries,
}


def ensure_walls_layer(path: Path) -> None:
    """Give the map at ``path`` an empty ``walls`` object layer (after ``rocks``) if it has
    none, so that the saver puts new walls there rather than into the first layer."""
    raw = read_raw(path)
    names = [layer.get("name") for layer in raw["layers"]]
    if "walls" in names:
        return
    layer_id = int(raw.get("nextlayerid", len(names) + 1))
    layer = {
        "draworder": "topdown",
        "id": layer_id,
        "name": "walls",
        "objects": [],
        "opacity": 1,
        "type": "objectgroup",
        "visible": True,
        "x": 0,
        "y": 0,
    }
    at = names.index("rocks") + 1 if "rocks" in names else len(names)
    raw["layers"].insert(at, layer)
    raw["nextlayerid"] = layer_id + 1
    atomic_write(path, dumps_map(raw).encode("utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    """Rework and build the levels; return the exit status (2 on a level error)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("only", nargs="*", help="file names to write (default: all)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        for name, rework in REWORKS.items():
            if args.only and name not in args.only:
                continue
            ensure_walls_layer(LEVELS / name)
            saved = save_level(rework(load_level(LEVELS / name)), LEVELS / name, backup=False)
            logger.info(
                "%s: %s, %d walls, %d agents",
                name,
                saved.title,
                len(saved.walls),
                saved.agent_count,
            )
        for name, build in NEW.items():
            if args.only and name not in args.only:
                continue
            saved = save_level(build(), LEVELS / name, backup=False)
            logger.info(
                "%s: %s, %d walls, %d agents",
                name,
                saved.title,
                len(saved.walls),
                saved.agent_count,
            )
    except LevelError as exc:
        print(f"rework_levels: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
