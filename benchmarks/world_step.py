"""Time one world step (steering + pymunk + batch transfer) on the sandbox at several crowd sizes.

Run: ``python -m benchmarks.world_step [--sizes 1000 5000 10000] [--stagger 1 4 8]
[--steps 120] [--warmup 60] [--json FILE]``. Agents are added the way ``simulate --agents``
adds them (extra NPCs in the sandbox's spawn area, grown and, past what the map can hold,
shrunk). Each configuration warms up first (the crowd spreads out of its spawn area), then
times ``World.step`` alone. Prints, per size and stagger, the median and 95th percentile of a
whole step and the median of pymunk's ``space.step`` inside it.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path as FsPath

import numpy as np

from game.level import load_level, resolve_level
from game.perf import tune_allocator
from game.world import World

#: The issue's targets (ms per step) by crowd size.
TARGETS = {5000: 8.0, 10000: 16.7}


def time_world(level_name: str, agents: int, stagger: int, steps: int, warmup: int) -> dict:
    """Median / p95 step time (ms) and the physics system's share for one configuration."""
    level = load_level(resolve_level(level_name))
    world = World(level, extra_npcs=max(agents - level.agent_count, 0), stagger=stagger)
    physics_ms: list[float] = []

    def timer(system: str, seconds: float) -> None:
        if system == "physics":
            physics_ms.append(seconds * 1000.0)

    world.timer = timer
    for _ in range(warmup):
        world.step()
    physics_ms.clear()
    total: list[float] = []
    for _ in range(steps):
        t0 = time.perf_counter()
        world.step()
        total.append((time.perf_counter() - t0) * 1000.0)
    if not np.isfinite(world.agents.pos).all():
        raise SystemExit(f"non-finite positions at {agents} agents, stagger {stagger}")
    ms = np.asarray(total)
    return {
        "agents": world.n,
        "stagger": stagger,
        "median_ms": float(np.median(ms)),
        "p95_ms": float(np.percentile(ms, 95)),
        "physics_ms": float(np.median(physics_ms)),
        "npc_radius": float(world.agents.radius[-1]),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--level", default="sandbox")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--stagger", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--json", type=FsPath, default=None)
    parser.add_argument("--no-tune", action="store_true", help="leave glibc malloc untuned")
    args = parser.parse_args(argv)
    tuned = False if args.no_tune else tune_allocator()
    print(
        f"# {args.level}, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, numpy {np.__version__}, malloc tuned: {tuned}"
    )
    print(
        f"{'agents':>7} {'stagger':>7} {'median ms':>10} {'p95 ms':>8} {'pymunk ms':>10} "
        f"{'npc r':>6} {'target':>8}"
    )
    rows = []
    for n in args.sizes:
        for k in args.stagger:
            row = time_world(args.level, n, k, args.steps, args.warmup)
            rows.append(row)
            target = TARGETS.get(n)
            verdict = "" if target is None else ("ok" if row["median_ms"] <= target else "over")
            print(
                f"{row['agents']:>7} {k:>7} {row['median_ms']:>10.2f} {row['p95_ms']:>8.2f} "
                f"{row['physics_ms']:>10.2f} {row['npc_radius']:>6.2f} {verdict:>8}",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps({"level": args.level, "tuned": tuned, "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
