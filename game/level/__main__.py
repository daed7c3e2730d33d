"""Command line: ``python -m game.level check [FILE ...]`` and ``python -m game.level list``.

``check`` validates level files (paths, or shipped level names such as ``1`` or ``patrol``;
all shipped levels when none is given) and prints one summary line per good file. A bad file
gives one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from game.cli_common import one_line_errors
from game.level.errors import LevelError
from game.level.loader import load_level
from game.level.model import Level
from game.level.shipped import REPO_ROOT, resolve_level, shipped_levels
from game.level.text import shown

__all__ = ["main", "summary"]


def summary(level: Level) -> str:
    """One line describing a loaded level.

    Args:
        level: The level.

    Returns:
        ``"Title" 1600x960 px: 9 rocks, 2 walls, 4 paths, 4 enemy spawns, 0 npc spawns,
        0 flows, 1 exits, 5 agents``.
    """
    return (
        f'"{shown(level.title)}" {level.width_px:g}x{level.height_px:g} px: '
        f"{len(level.obstacles)} rocks, {len(level.walls)} walls, {len(level.paths)} paths, "
        f"{len(level.enemies)} enemy spawns, {len(level.npcs)} npc spawns, "
        f"{len(level.flows)} flows, {len(level.exits)} exits, {level.agent_count} agents"
    )


def _display(path: object) -> str:
    """A path relative to the repository when it is inside it."""
    text = shown(str(path))
    root = str(REPO_ROOT) + "/"
    return text[len(root) :] if text.startswith(root) else text


def check(names: Sequence[str]) -> int:
    """Validate levels; print a summary per good file and one error line per bad one.

    Args:
        names: Files or shipped level names; all shipped levels when empty.

    Returns:
        0 when all are valid, 2 otherwise.
    """
    targets: list[str] = list(names) or [str(p) for p in shipped_levels()]
    if not targets:
        print("error: no level files given and no shipped levels found", file=sys.stderr)
        return 2
    status = 0
    for name in targets:
        try:
            path = resolve_level(name)
            level = load_level(path)
        except LevelError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 2
            continue
        print(f"{_display(path)}: ok, {summary(level)}")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m game.level", description="Check and list level files."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check_parser = commands.add_parser("check", help="validate level files")
    check_parser.add_argument("files", nargs="*", metavar="FILE", help="files or level names")
    commands.add_parser("list", help="list the shipped levels")
    one_line_errors(parser)  # a bad option: one line on stderr, exit status 2
    args = parser.parse_args(argv)
    # Warnings (unknown properties, often typos) go to stderr, one line each.
    logging.basicConfig(level=logging.WARNING, format="warning: %(message)s", stream=sys.stderr)
    if args.command == "list":
        for path in shipped_levels():
            print(_display(path))
        return 0
    return check(args.files)


if __name__ == "__main__":
    raise SystemExit(main())
