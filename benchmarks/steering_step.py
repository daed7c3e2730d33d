"""Time one combined steering step (path + flow + avoidance + separation) at several crowd sizes.

Run: ``python benchmarks/steering_step.py [--sizes 1000 5000 10000] [--steps 40] [--json FILE]``.
Agents move between timed steps (with the core's Euler integrator, not timed) so the neighbour
index is rebuilt every step as in the game. Prints the median and 95th percentile per size.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path as FsPath

import numpy as np

from game.perf import tune_allocator
from game.steering import (
    AgentGroup,
    AvoidObstacles,
    Contain,
    FlowField,
    FollowFlow,
    FollowPath,
    Obstacles,
    Path,
    PrioritizedSum,
    Separate,
    Weighted,
    WeightedSum,
    integrate,
)

WIDTH, HEIGHT = 3200.0, 1800.0
DT = 1 / 60


def scenario(n: int, seed: int = 0) -> tuple[AgentGroup, PrioritizedSum]:
    """The benchmark scene: N agents, 40 rocks, a closed 8-node path, a noise current."""
    rng = np.random.default_rng(seed)
    rocks = Obstacles.create(
        rng.uniform((200, 200), (WIDTH - 200, HEIGHT - 200), (40, 2)), rng.uniform(20, 60, 40)
    )
    path = Path(
        [
            [400, 300],
            [1600, 200],
            [2800, 400],
            [3000, 900],
            [2700, 1500],
            [1600, 1600],
            [500, 1500],
            [300, 900],
        ],
        closed=True,
        radius=40.0,
    )
    field = FlowField.noise(rows=56, cols=100, cell=32.0, scale=0.05, seed=seed)
    agents = AgentGroup.create(
        rng.uniform((50, 50), (WIDTH - 50, HEIGHT - 50), (n, 2)),
        rng.normal(0, 60, (n, 2)),
        max_speed=rng.uniform(100, 200, n),
        max_force=rng.uniform(300, 600, n),
        radius=8.0,
    )
    behaviour = PrioritizedSum(
        [
            Contain(0, 0, WIDTH, HEIGHT),
            AvoidObstacles(rocks),
            Weighted(Separate(distance=24.0), 1.5),
            WeightedSum([Weighted(FollowPath(path), 1.0), Weighted(FollowFlow(field), 0.6)]),
        ]
    )
    return agents, behaviour


def time_steps(n: int, steps: int) -> list[float]:
    """Milliseconds of each of ``steps`` combined steering steps at N agents (after warm-up)."""
    agents, behaviour = scenario(n)
    out = []
    for k in range(steps + 5):
        t0 = time.perf_counter()
        force = behaviour(agents, DT)
        elapsed = (time.perf_counter() - t0) * 1000
        if not np.isfinite(force).all():
            raise SystemExit(f"non-finite force at N={n}, step {k}")
        integrate(agents, force, DT)
        if k >= 5:
            out.append(elapsed)
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--json", type=FsPath, default=None)
    parser.add_argument("--no-tune", action="store_true", help="leave glibc malloc untuned")
    args = parser.parse_args(argv)
    tuned = False if args.no_tune else tune_allocator()
    print(
        f"# {platform.processor() or platform.machine()}, {platform.python_version()}, "
        f"numpy {np.__version__}, malloc tuned: {tuned}"
    )
    print(f"{'agents':>8} {'median ms':>10} {'p95 ms':>8}")
    rows = []
    for n in args.sizes:
        ms = np.array(time_steps(n, args.steps))
        row = {
            "agents": n,
            "median_ms": float(np.median(ms)),
            "p95_ms": float(np.percentile(ms, 95)),
        }
        rows.append(row)
        print(f"{n:>8} {row['median_ms']:>10.2f} {row['p95_ms']:>8.2f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"tuned": tuned, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
