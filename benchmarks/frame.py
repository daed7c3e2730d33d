"""Whole-frame time of the game: world step + render update + draw + ``ctx.finish()``.

Runs headless (``ARCADE_HEADLESS=1``, Mesa llvmpipe here) on the sandbox level with extra NPCs
to reach 300 and 1,000 agents, at 1280 x 720, debug overlay off and on. The measurement lives in
:mod:`benchmarks.harness.frames` (``python -m game bench --frames`` runs it too).

    .venv/bin/python -m benchmarks.frame [--agents 300 1000] [--frames 200] [--level sandbox]
"""

from __future__ import annotations

import argparse
import sys

from benchmarks.harness.frames import format_frames, run_frames
from game.perf import tune_allocator


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print a table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--agents", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--level", default="sandbox")
    args = parser.parse_args(argv)
    tune_allocator()
    report = run_frames(args.agents, args.frames, args.warmup, args.level)
    print(format_frames(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
