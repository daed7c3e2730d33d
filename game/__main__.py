"""Command line: ``python -m game [COMMAND]``; with no command it opens the game window.

Commands: ``play LEVEL``, ``edit LEVEL``, ``simulate LEVEL``, ``replay FILE``,
``screenshot LEVEL --out FILE``, ``exploit LEVEL``, ``demo``, ``bench``, ``lab [NAME]``. A bad
level or option prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from typing import NoReturn

__all__ = ["MAX_DEMO_AGENTS", "main"]

#: Most agents ``demo`` runs (as ``simulate --agents``).
MAX_DEMO_AGENTS = 100_000


def _parser() -> argparse.ArgumentParser:
    from benchmarks.harness import cli as bench

    from . import cli_exploit, cli_game, cli_lab, cli_replay, cli_simulate
    from .cli_common import MAX_SEED, bounded_float, bounded_int, one_line_errors, seed

    parser = argparse.ArgumentParser(prog="python -m game", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    cli_game.add_parsers(sub)
    edit = sub.add_parser("edit", help="open a level in the level editor")
    edit.add_argument("level", help="a level file, or a shipped level's name or number")
    edit.add_argument("--new", action="store_true", help="make LEVEL, a new .tmj file, first")
    edit.add_argument("--size", type=_tiles, default=None, help="--new: WxH tiles (default 40x24)")
    cli_simulate.add_parser(sub)
    cli_replay.add_parser(sub)
    cli_exploit.add_parser(sub)
    demo = sub.add_parser("demo", help="headless steering demo that prints what the crowd does")
    demo.add_argument(
        "--agents",
        type=bounded_int(1, MAX_DEMO_AGENTS),
        default=300,
        help=f"number of agents, 1..{MAX_DEMO_AGENTS:,} (default 300)",
    )
    demo.add_argument(
        "--seconds",
        type=bounded_float(0.0, 3600.0, open_low=True),
        default=10.0,
        help="simulated seconds, up to 3600 (default 10)",
    )
    demo.add_argument("--seed", type=seed, default=0, help=f"seed, 0..{MAX_SEED} (default 0)")
    bench.add_parser(sub)
    cli_lab.add_parser(sub)
    # Every bad or unknown option of every command: one line on stderr, exit status 2.
    one_line_errors(parser)
    return parser


def _tiles(text: str) -> tuple[int, int]:
    """``--size WxH`` for argparse (its error is one line)."""
    from .editor.blank import parse_size

    try:
        return parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _edit(level: str, new: bool = False, size: tuple[int, int] | None = None) -> int:
    from .cli_game import no_display
    from .level import LevelError, resolve_level

    try:
        if size is not None and not new:
            print("error: --size only goes with --new", file=sys.stderr)
            return 2
        if new:
            from .editor.blank import check_new_path

            check_new_path(level)
        reason = no_display()
        if reason is not None:
            print(f"error: {reason}", file=sys.stderr)
            return 2
        if new:
            from .editor.blank import DEFAULT_SIZE, create_level_file

            create_level_file(level, size or DEFAULT_SIZE)
        path = resolve_level(level)
        from .views.app import run_editor

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
        from .perf import quiet_gl, tune_allocator

        tune_allocator()
        if argv is None:  # the program itself, not a call from other code (the tests)
            quiet_gl()
    if command is None:
        from .cli_game import run_window

        return run_window()
    if command in ("play", "screenshot"):
        from .cli_game import run

        return run(args) or 0
    if command == "edit":
        return _edit(args.level, args.new, args.size)
    if command == "simulate":
        from .cli_simulate import run as run_simulate

        return run_simulate(args)
    if command == "replay":
        from .cli_replay import run as run_replay

        return run_replay(args)
    if command == "exploit":
        from .cli_exploit import run as run_exploit

        return run_exploit(args)
    if command == "bench":
        from benchmarks.harness.cli import run as run_bench

        return run_bench(args)
    if command == "lab":
        from .cli_lab import run as run_lab

        return run_lab(args)
    if command == "demo":
        from .demo import run_demo

        run_demo(args.agents, args.seconds, args.seed)
        return 0
    parser.error(f"unknown command {command}")
    return 2


def _exit(status: int) -> NoReturn:
    """Exit at once: flush what was written, then skip the interpreter's teardown (freeing a
    large pymunk space's arbiters one by one can take minutes)."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)


if __name__ == "__main__":
    from .safe_io import Terminated, exit_cleanly_on_sigterm

    exit_cleanly_on_sigterm()  # SIGTERM unwinds like Ctrl+C: no temporary file is left
    try:
        code = main()
    except SystemExit as stop:  # argparse's errors, --help
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    except Terminated:
        sys.stderr.write("terminated\n")
        code = 143
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        code = 130
    _exit(code)
