"""Command line: ``python -m game [COMMAND]``. Until the game's views exist, it runs the demo."""

from __future__ import annotations

import argparse
import logging
import sys

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m game", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="headless steering demo that prints what the crowd does")
    demo.add_argument("--agents", type=int, default=300, help="number of agents (default 300)")
    demo.add_argument("--seconds", type=float, default=10.0, help="simulated seconds (default 10)")
    demo.add_argument("--seed", type=int, default=0)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run the command; returns the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    parser = _parser()
    args = parser.parse_args(argv)
    command = args.command or "demo"
    if command == "demo":
        from .demo import run_demo
        from .perf import tune_allocator

        agents = getattr(args, "agents", 300)
        seconds = getattr(args, "seconds", 10.0)
        if agents < 1 or not 0 < seconds <= 3600:
            parser.error("--agents must be >= 1 and --seconds in (0, 3600]")
        tune_allocator()
        run_demo(agents, seconds, getattr(args, "seed", 0))
        return 0
    parser.error(f"unknown command {command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
