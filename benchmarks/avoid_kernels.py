"""Steady-state cost of one call of AvoidObstacles (20 and 2,000 rocks) and AvoidWalls (50 walls)
at 1, 10, 100 and 10,000 agents, and at 10,000 with the serial loop forced.

Run from the repository root: ``python -m benchmarks.avoid_kernels``. Agents and rocks are
uniform on a 2,000 px square (rock radii 10-30 px, walls 40-160 px long at random angles), agents
at random velocities up to 150 px/s; nothing moves between calls. Each figure is the fastest of
repeated blocks of calls after three warm-up calls (the machine is shared: the median swings).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

import steering._jit as jit
from steering import AgentGroup, AvoidObstacles, AvoidWalls, Obstacles, Walls

SIDE = 2000.0
SIZES = (1, 10, 100, 10_000)


def group(n: int, rng: np.random.Generator) -> AgentGroup:
    """N agents; created with the serial loops (vec's parallel normalisation failed to compile
    when this was written)."""
    old = jit.PARALLEL_MIN
    jit.PARALLEL_MIN = 1 << 60
    try:
        return AgentGroup.create(
            rng.uniform(0, SIDE, (n, 2)),
            rng.uniform(-150, 150, (n, 2)),
            max_speed=150.0,
            max_force=400.0,
            radius=10.0,
        )
    finally:
        jit.PARALLEL_MIN = old


def per_call(f: Callable[[AgentGroup, float], object], agents: AgentGroup) -> float:
    """Seconds per call: the fastest of repeated blocks over about 0.4 s."""
    for _ in range(3):
        f(agents, 1 / 60)
    block = 1 if agents.n >= 1000 else 50
    best = math.inf
    end = time.perf_counter() + 0.4
    count = 0
    while time.perf_counter() < end or count < 5:
        t0 = time.perf_counter()
        for _ in range(block):
            f(agents, 1 / 60)
        best = min(best, (time.perf_counter() - t0) / block)
        count += 1
    return best


def fmt(s: float) -> str:
    return f"{s * 1e6:.1f} us" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def main() -> None:
    rng = np.random.default_rng(1)
    cases: list[tuple[str, Callable[[AgentGroup, float], object]]] = []
    for m in (20, 2000):
        rocks = Obstacles.create(rng.uniform(0, SIDE, (m, 2)), rng.uniform(10, 30, m))
        cases.append((f"AvoidObstacles, {m:,} rocks", AvoidObstacles(rocks)))
    start = rng.uniform(0, SIDE, (50, 2))
    angle = rng.uniform(0, 2 * math.pi, 50)
    end = start + rng.uniform(40, 160, 50)[:, None] * np.stack((np.cos(angle), np.sin(angle)), 1)
    cases.append(("AvoidWalls, 50 walls", AvoidWalls(Walls.create(np.stack((start, end), 1)))))
    head = [f"N={n:,}" for n in SIZES] + ["N=10,000 serial"]
    print("| case | " + " | ".join(head) + " |")
    print("|---|" + "---:|" * len(head))
    for name, behaviour in cases:
        row = []
        for n in SIZES:
            agents = group(n, np.random.default_rng(n))
            row.append(fmt(per_call(behaviour, agents)))
        old = jit.PARALLEL_MIN
        jit.PARALLEL_MIN = 1 << 60
        row.append(fmt(per_call(behaviour, agents)))
        jit.PARALLEL_MIN = old
        print(f"| {name} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
