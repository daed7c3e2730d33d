"""Steady-state cost of one FollowPath / FollowFlow call at 1, 10, 100 and 10,000 agents.

Run from the repository root: ``python -m benchmarks.follow_kernels``;
``SERIAL=1`` keeps every compiled loop serial. Agents are created with serial loops: at the
commit this was written on, AgentGroup.create's parallel kernels failed to compile.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np

import steering._jit as jit
from steering import AgentGroup, FlowField, FollowFlow, FollowPath, NoiseFlow, Path, PathSet

PARALLEL_MIN = 10**9 if os.environ.get("SERIAL") else jit.PARALLEL_MIN
jit.PARALLEL_MIN = PARALLEL_MIN


def agents(n: int, rng: np.random.Generator) -> AgentGroup:
    """N agents at random places and velocities (created with serial loops)."""
    jit.PARALLEL_MIN = 10**9
    try:
        return AgentGroup.create(
            rng.uniform(0, 1000, (n, 2)),
            rng.uniform(-100, 100, (n, 2)),
            max_speed=120.0,
            max_force=300.0,
        )
    finally:
        jit.PARALLEL_MIN = PARALLEL_MIN


def best_time(fn: Callable[[AgentGroup, float], object], a: AgentGroup, reps: int) -> float:
    """Best mean seconds per call over five runs of ``reps`` calls, after a warm-up."""
    for _ in range(5):
        fn(a, 1 / 60)
    best = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn(a, 1 / 60)
        best.append((time.perf_counter() - t0) / reps)
    return min(best)


def main() -> None:
    rng = np.random.default_rng(0)
    one = Path(rng.uniform(0, 1000, (20, 2)), closed=True, radius=20.0)
    five = PathSet(
        [
            (f"p{k}", Path(rng.uniform(0, 1000, (20, 2)), closed=bool(k % 2), radius=20.0))
            for k in range(5)
        ]
    )
    field = FlowField.noise(40, 40, 25.0)
    noise = NoiseFlow(40, 40, 25.0)
    rows: list[tuple[int, dict[str, float]]] = []
    for n in (1, 10, 100, 10_000):
        reps = 2000 if n <= 100 else 20
        r: dict[str, float] = {}
        r["FollowPath 1 path"] = best_time(FollowPath(one), agents(n, rng), reps)
        a = agents(n, rng)
        a.column("path.index", fill=-1.0)[:] = rng.integers(0, 5, n)
        r["FollowPath PathSet(5)"] = best_time(FollowPath(five), a, reps)
        r["FollowFlow FlowField"] = best_time(FollowFlow(field), agents(n, rng), reps)
        r["FollowFlow NoiseFlow"] = best_time(FollowFlow(noise), agents(n, rng), reps)
        rows.append((n, r))
    for name in rows[0][1]:
        cells = "  ".join(f"N={n}: {r[name] * 1e6:9.1f} us" for n, r in rows)
        print(f"{name:24s} {cells}")


if __name__ == "__main__":
    main()
