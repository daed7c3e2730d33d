"""Measure the difficulty curve: every story level (the Sandbox stands outside) against the
human-like bot (careful and careless), the autopilot and the blind scripts (see
:mod:`game.curve`).

Prints a Markdown table (per level: the bot's wins over the seeds, its median winning time,
the autopilot's time, the blind scripts that win) and then every place the curve breaks the
wanted shape; exit status 1 when it does. The runs go in parallel over every core.

Usage: ``python -m tools.curve [--seeds 20] [--seconds 120] [--jobs N] [LEVEL ...]``
"""

from __future__ import annotations

import argparse
import sys
import time

from game.curve import measure, problems, story_levels, table
from game.level.shipped import resolve_level, shipped_levels
from game.progress_bar import progress_bar


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit status 1 when the curve does not hold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", help="levels (default: every story level)")
    parser.add_argument("--seeds", type=int, default=20, help="bot runs per level (20)")
    parser.add_argument("--seconds", type=float, default=120.0, help="each run's limit (120)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (every core)")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.seconds <= 0 or (args.jobs is not None and args.jobs < 1):
        parser.error("--seeds and --jobs must be >= 1, --seconds > 0")
    paths = [resolve_level(x) for x in args.levels] if args.levels else story_levels()
    order = {p.resolve(): i for i, p in enumerate(shipped_levels(), start=1)}
    numbers = [order.get(p.resolve(), i) for i, p in enumerate(paths, start=1)]
    start = time.perf_counter()
    with progress_bar(desc="curve", unit="run") as bar:

        def progress(done: int, total: int) -> None:
            if bar.total != total:  # the first call, before any run: show the length at once
                bar.reset(total)
            bar.update(done - bar.n)

        rows = measure(paths, args.seeds, args.seconds, args.jobs, numbers, progress)
    print(table(rows))
    found = problems(rows)
    print()
    print("\n".join(f"- {p}" for p in found) if found else "The curve holds.")
    print(
        f"({args.seeds} seeds a level, runs of at most {args.seconds:.0f} s,"
        f" {time.perf_counter() - start:.0f} s in all)"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
