"""Command line: ``python -m game [COMMAND]``; with no command it opens the game window.

Commands: ``play LEVEL``, ``edit LEVEL``, ``simulate LEVEL``, ``screenshot LEVEL --out FILE``,
``demo``, ``bench``. A bad level or option prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    from . import cli_game, cli_simulate
    from .bench import runner as bench

    parser = argparse.ArgumentParser(prog="python -m game", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    cli_game.add_parsers(sub)
    edit = sub.add_parser("edit", help="open a level in the path editor")
    edit.add_argument("level", help="a level file, or a shipped level's name or number")
    cli_simulate.add_parser(sub)
    demo = sub.add_parser("demo", help="headless steering demo that prints what the crowd does")
    demo.add_argument("--agents", type=int, default=300, help="number of agents (default 300)")
    demo.add_argument("--seconds", type=float, default=10.0, help="simulated seconds (default 10)")
    demo.add_argument("--seed", type=int, default=0)
    bench.add_parser(sub)
    return parser


def _edit(level: str) -> int:
    from .level import LevelError, resolve_level

    try:
        path = resolve_level(level)
        from .views.editor import run_editor

        return run_editor(path)
    except LevelError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run the command; returns the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    parser = _parser()
    args = parser.parse_args(argv)
    command = args.command
    if not getattr(args, "no_tune", False):
        # Every command, the game window included, runs in the process the README's figures
        # describe (bench --no-tune measures without it).
        from .perf import tune_allocator

        tune_allocator()
    if command is None:
        from .cli_game import run_window

        return run_window()
    if command in ("play", "screenshot"):
        from .cli_game import run

        return run(args) or 0
    if command == "edit":
        return _edit(args.level)
    if command == "simulate":
        from .cli_simulate import run as run_simulate

        return run_simulate(args)
    if command == "bench":
        from .bench.runner import run as run_bench

        return run_bench(args)
    if command == "demo":
        from .demo import run_demo

        if args.agents < 1 or not 0 < args.seconds <= 3600:
            print("error: --agents must be >= 1 and --seconds in (0, 3600]", file=sys.stderr)
            return 2
        run_demo(args.agents, args.seconds, args.seed)
        return 0
    parser.error(f"unknown command {command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
