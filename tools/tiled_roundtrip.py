"""Check that a level round-trips through the Tiled map editor unchanged in play.

Usage: ``python -m tools.tiled_roundtrip LEVEL [--seconds S] [--route json|tmx|both] [--keep]``;
LEVEL is a file or a shipped level's name or number. Tiled (``tiled``, run headless) exports
the level as JSON, and as TMX and back; each result must load as the same level (apart from
its path) and play the same trace for S seconds (10) as ``python -m game simulate`` with the
level's seed and no input. Exit status 0 when both hold; 1 with one line per difference; 2
with one line for bad input (a level that does not load, no Tiled, a bad option).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from game.cli_common import bounded_float, one_line, one_line_errors
from game.cli_simulate import MAX_SECONDS
from game.level import LevelError, load_level, resolve_level
from game.tiled_roundtrip import (
    DEFAULT_SECONDS,
    ROUTES,
    RoundTripError,
    round_trip,
    work_folder,
)

REPO = Path(__file__).resolve().parents[1]

PROG = "tiled_roundtrip"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check; returns the exit status (0 same, 1 different, 2 bad input)."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("level", help="a level file, or a shipped level's name or number")
    parser.add_argument(
        "--seconds",
        type=bounded_float(0.0, MAX_SECONDS, open_low=True),
        default=DEFAULT_SECONDS,
        help=f"simulated seconds each version is played for (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--route",
        choices=(*ROUTES, "both"),
        default="both",
        help="json: one JSON export; tmx: to TMX and back; both (default)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep Tiled's files (in a folder beside the level)"
    )
    one_line_errors(parser)
    args = parser.parse_args(argv)
    routes = tuple(ROUTES) if args.route == "both" else (args.route,)
    try:
        path = resolve_level(args.level)
        load_level(path)  # a bad level is refused before any folder is made
        folder = work_folder(path) if args.keep else None
        if folder is not None:
            print(f"Tiled's files: {folder}")
        differences = round_trip(path, seconds=args.seconds, routes=routes, folder=folder)
    except (LevelError, RoundTripError) as exc:
        sys.stderr.write(f"{PROG}: error: {one_line(str(exc))}\n")
        return 2
    for line in differences:
        print(one_line(line))
    if differences:
        return 1
    print(
        f"{path.name}: the same level and the same {args.seconds:g} s of play after Tiled "
        f"({', '.join(routes)})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
