"""Issue 44's level edits: every hint and title true, and the curve's tuning as data.

Each edit starts from the level as it is on disk and sets only what it owns (a hint, a path,
named enemies), so rerunning it changes nothing. Each claim a hint makes is checked in a
simulation by ``tests/integration/test_hints.py``.

Usage: ``python -m tools.issue44_levels [FILE ...]`` (default: every file it knows).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace

from game.level import Level, PathData
from tools.make_levels import pts
from tools.rework_levels import run_edits, with_enemy_settings, with_owned

__all__ = ["EDITS", "HINTS", "main"]

logger = logging.getLogger("issue44_levels")

HINTS = {
    "01_patrol.tmj": "Guards walk fixed loops and see all round but their backs. Slip past behind"
    " them, and break their sight behind a pillar before the meter fills.",
    "03_rockfield.tmj": "Hunters see far and chase hard. Break their sight behind rocks. A"
    " watcher walks the channel; round the breakwater.",
    "04_swarm.tmj": "Fish keep their distance, but only rocks and reefs block sight. Reefs"
    " close the exit's corner; go in from the south-west.",
    "06_gate.tmj": "Fish queue through the first reef's gates; a warden walks the middle, two"
    " gatekeepers loop before the last gate.",
    "10_sandbox.tmj": "Outside the story: an open field for experiments. Rocks, a current, a ring"
    " path, a crowd, and two sentinels at the gap between the reefs before the exit.",
}


def _hint(name: str) -> Callable[[Level], Level]:
    def edit(level: Level) -> Level:
        return replace(level, hint=HINTS[name])

    return edit


def currents(level: Level) -> Level:
    """2. Currents: the "ferry" path no one walks (its guard left in issue 25) goes."""
    return replace(level, paths=tuple(p for p in level.paths if p.name != "ferry"))


def gate(level: Level) -> Level:
    """6. Gate: the two gatekeepers walked one open path from its two ends and met in the
    gate's mouth, where they stood still from about 6 s on; now they walk one loop the same
    way round from opposite sides, so the gate opens and closes. A warden walks a loop in the
    middle (the bot won nine times in ten and a 3 s zig-zag won without it; the gatekeepers
    see 380 px)."""
    beat = PathData(
        name="beat", points=pts(1850, 1200, 1850, 140, 1940, 140, 1940, 1200), closed=True,
        radius=24.0,
    )  # fmt: skip
    keepers = {e.name: e for e in level.enemies}
    enemies = [
        replace(keepers["gatekeeper"], x=1940.0, y=1200.0, path="beat"),
        replace(keepers["gatekeeper-2"], x=1850.0, y=140.0, path="beat"),
        replace(keepers["gatekeeper"], name="warden", x=1450.0, y=1050.0, path="middle", id=0),
    ]
    middle = PathData(
        name="middle", points=pts(1450, 1050, 1450, 300, 1550, 300, 1550, 1050), closed=True,
        radius=24.0,
    )  # fmt: skip
    walked = with_owned(level, level.walls, enemies=enemies, paths=[beat, middle])
    return _sights("06_gate.tmj")(_hint("06_gate.tmj")(walked))


def rockfield(level: Level) -> Level:
    """3. Rock Field: the straight dash swam the channel's south side and won with its meter at
    0.89; a watcher now walks a short beat across that side (the careful way goes by the
    north side, out of its sight), and the hunters in the open see a little less far. Run
    ``python -m tools.make_rockfield`` after it: the rocks keep clear of the watcher's beat."""
    watch = PathData(
        name="channel-watch", points=pts(2110, 470, 2110, 580, 2160, 580, 2160, 470),
        closed=True, radius=16.0,
    )  # fmt: skip
    base = next(e for e in level.enemies if e.name == "hunter-5")
    watcher = replace(base, name="channel-watcher", x=2110.0, y=470.0, path="channel-watch", id=0)
    walked = with_owned(level, level.walls, enemies=[watcher], paths=[watch])
    return _sights("03_rockfield.tmj")(_hint("03_rockfield.tmj")(walked))


def swarm(level: Level) -> Level:
    """4. Swarm: the shark posted at the exit's mouth (2000, 900) wandered into it and caught
    even the autopilot there; it now keeps its post south-east of the mouth, and a fourth
    shark circles a small beat on the straight way in from the west (the straight dash
    swam it and won), so the way in is from the south-west, as the hint says."""
    beat = PathData(
        name="west-watch", points=pts(1740, 870, 1800, 870, 1800, 940, 1740, 940),
        closed=True, radius=16.0,
    )  # fmt: skip
    sharks = {e.name: e for e in level.enemies}
    posted = replace(sharks["shark-2"], x=2300.0, y=660.0, max_speed=150.0)
    watcher = replace(sharks["shark-3"], name="shark-4", x=1740.0, y=870.0, path="west-watch", id=0)
    walked = with_owned(level, level.walls, enemies=[posted, watcher], paths=[beat])
    return _hint("04_swarm.tmj")(walked)


def squadron(level: Level) -> Level:
    """7. Squadron: the straight dash swam the sweep's north side and in past the north reef,
    seen only in its last 1.5 s; a lookout circles a small beat on that way in. The wedge
    chases a little slower and sees less far (it caught 17 careful runs in 20)."""
    beat = PathData(
        name="lookout-beat", points=pts(1720, 950, 1790, 950, 1790, 1010, 1720, 1010),
        closed=True, radius=16.0,
    )  # fmt: skip
    line = next(e for e in level.enemies if e.name == "line")
    lookout = replace(
        line, name="lookout", x=1720.0, y=950.0, path="lookout-beat", count=1,
        formation="none", id=0,
    )  # fmt: skip
    walked = with_owned(level, level.walls, enemies=[lookout], paths=[beat])
    return _sights("07_squadron.tmj")(walked)


#: Issue 44's curve: being seen now fills a detection meter, so a long sight makes a long chase
#: in view; the far-sighted enemies of levels 5, 7, 8 and 9 see less far (max_speed, sight).
SIGHTS: dict[str, dict[str, tuple[float, float]]] = {
    "03_rockfield.tmj": {
        "hunter-1": (130.0, 180.0),
        "hunter-2": (140.0, 180.0),
        "hunter-3": (120.0, 180.0),
        "hunter-4": (140.0, 180.0),
        "hunter-5": (140.0, 180.0),
        "channel-watcher": (140.0, 180.0),
        "sweeper": (150.0, 185.0),
    },
    "05_moving_paths.tmj": {
        "square-guard": (165.0, 175.0),
        "hex-guard": (180.0, 195.0),
        "snakes": (180.0, 180.0),
        "wobble-guard": (150.0, 160.0),
        "orbit-guard": (150.0, 165.0),
    },
    "07_squadron.tmj": {
        "wedge": (183.0, 210.0),
        "line": (184.0, 220.0),
        "lookout": (150.0, 180.0),
    },
    "08_sentries.tmj": {
        "sentry-east": (172.5, 310.0),
        "sentry-west": (172.5, 310.0),
        "watchman": (172.5, 210.0),
    },
    "09_finale.tmj": {
        "sentinel": (130.0, 220.0),
        "sentinel-2": (180.0, 230.0),
        "zig-a": (165.0, 190.0),
        "zig-b": (165.0, 190.0),
        "warden": (140.0, 180.0),
        "drift-guard": (165.0, 200.0),
    },
    "06_gate.tmj": {
        "gatekeeper": (175.0, 380.0),
        "gatekeeper-2": (175.0, 380.0),
        "warden": (150.0, 240.0),
    },
}


def _sights(name: str) -> Callable[[Level], Level]:
    def edit(level: Level) -> Level:
        return with_enemy_settings(level, **SIGHTS[name])

    return edit


EDITS: dict[str, Callable[[Level], Level]] = {
    "01_patrol.tmj": _hint("01_patrol.tmj"),
    "02_currents.tmj": currents,
    "03_rockfield.tmj": rockfield,
    "04_swarm.tmj": swarm,
    "05_moving_paths.tmj": _sights("05_moving_paths.tmj"),
    "06_gate.tmj": gate,
    "07_squadron.tmj": squadron,
    "08_sentries.tmj": _sights("08_sentries.tmj"),
    "09_finale.tmj": _sights("09_finale.tmj"),
    "10_sandbox.tmj": _hint("10_sandbox.tmj"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Apply the edits; return the exit status (2 on a level error)."""
    return run_edits("issue44_levels", EDITS, lambda lv: f"{lv.title}: {lv.hint}", argv)


if __name__ == "__main__":
    raise SystemExit(main())
