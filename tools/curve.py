"""Check the difficulty curve: every shipped level against the blind strategies and the autopilot.

For each level, prints how each blind strategy of :mod:`game.world.blind` ends (won, caught or
still running after the limit) and the autopilot's time. From level 3 on, no blind strategy
should win; every level should be won by the autopilot within the limit.

Usage: ``python tools/curve.py [--seconds 120] [LEVEL ...]``
"""

from __future__ import annotations

import argparse
import sys

from game.clock import DT
from game.level import load_level
from game.level.shipped import resolve_level, shipped_levels
from game.world import Autopilot, World
from game.world.blind import play, strategies


def autopilot_time(level: object, seconds: float) -> tuple[str, float]:
    """How the autopilot's run on ``level`` ends, and when."""
    world = World(level)  # type: ignore[arg-type]
    pilot = Autopilot(world)
    for _ in range(round(seconds / DT)):
        world.step(pilot())
        if world.outcome != "running":
            break
    return world.outcome, world.time


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit status 1 when the curve does not hold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", help="levels (default: every shipped level)")
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args(argv)
    paths = [resolve_level(x) for x in args.levels] if args.levels else shipped_levels()
    names = list(strategies())
    print("| level | autopilot | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    ok = True
    for i, path in enumerate(paths, start=1):
        level = load_level(path)
        outcome, t = autopilot_time(level, args.seconds)
        cells = [f"{outcome} {t:.1f} s"]
        ok &= outcome == "won"
        for name in names:
            run = play(level, strategies()[name](), args.seconds)
            cells.append(f"{run.outcome} {run.seconds:.1f} s")
            if run.outcome == "won" and i >= 3:
                ok = False
        print(f"| {path.stem} | " + " | ".join(cells) + " |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
