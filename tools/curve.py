"""Check the difficulty curve: every shipped level against the blind strategies and the autopilot.

For each level, prints how each blind strategy of :mod:`game.world.blind` ends (won, caught or
still running after the limit) and the autopilot's time. From level 3 on, no blind strategy
should win; every level should be won by the autopilot within the limit.

Usage: ``python tools/curve.py [--seconds 120] [LEVEL ...]``
"""

from __future__ import annotations

import argparse
import sys

from game.level import load_level
from game.level.shipped import resolve_level, shipped_levels
from game.world.autopilot import fly
from game.world.blind import play, strategies


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
    order = {p.resolve(): i for i, p in enumerate(shipped_levels(), start=1)}
    ok = True
    for i, path in enumerate(paths, start=1):
        number = order.get(path.resolve(), i)  # a shipped level's place in the play order
        level = load_level(path)
        pilot = fly(level, args.seconds)
        cells = [f"{pilot.outcome} {pilot.seconds:.1f} s"]
        ok &= pilot.outcome == "won"
        for name in names:
            run = play(level, strategies()[name](), args.seconds)
            cells.append(f"{run.outcome} {run.seconds:.1f} s")
            if run.outcome == "won" and number >= 3:
                ok = False
        print(f"| {path.stem} | " + " | ".join(cells) + " |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
