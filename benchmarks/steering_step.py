"""Time the core's combined steering step on the sandbox scenario at several crowd sizes.

Run: ``python -m benchmarks.steering_step [--sizes 1000 5000 10000] [--steps 40] [--json FILE]``.
The scenario is ``python -m game bench``'s (:mod:`benchmarks.harness.scenario`): the sandbox level's
crowd at N agents with path following, flow, obstacle avoidance and separation blended. Agents
move between timed steps (with the core's Euler integrator, not timed) so the neighbour index is
rebuilt every step as in the game. Prints the median and 95th percentile per size.
``python -m game bench`` runs this beside the seed-style reference and the whole world step.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path as FsPath

import numpy as np

from benchmarks.harness.scenario import load_sandbox
from benchmarks.harness.timing import time_core
from game.perf import tune_allocator


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--json", type=FsPath, default=None)
    parser.add_argument("--no-tune", action="store_true", help="leave glibc malloc untuned")
    args = parser.parse_args(argv)
    tuned = False if args.no_tune else tune_allocator()
    level = load_sandbox()
    print(
        f"# sandbox scenario, {platform.processor() or platform.machine()}, "
        f"{platform.python_version()}, numpy {np.__version__}, malloc tuned: {tuned}"
    )
    print(f"{'agents':>8} {'median ms':>10} {'p95 ms':>8}")
    rows = []
    for n in args.sizes:
        t = time_core(n, args.steps, args.warmup, level)
        row = {"agents": n, "median_ms": t.steering_ms, "p95_ms": t.p95_ms}
        rows.append(row)
        print(f"{n:>8} {t.steering_ms:>10.2f} {t.p95_ms:>8.2f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"tuned": tuned, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
