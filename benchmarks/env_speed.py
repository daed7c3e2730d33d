"""How fast the environment runs: agent decisions a second on every shipped level in one
process, and in a two-process ``AsyncVectorEnv`` (both cores).

Run: ``python -m benchmarks.env_speed [--levels 1 8] [--seconds 2] [--hold 4]
[--vector-level 08_sentries] [--vector-seconds 5] [--no-vector] [--json FILE]``. A decision
is one ``env.step``: an action (random, drawn before timing) held ``hold`` fixed steps, then
the observation. Each level is warmed up, then each decision is timed alone for ``seconds``
(episodes that end are reset outside the clock); the vector environment's steps are timed the
same way. Prints, per level, the median and 95th percentile of a decision (microseconds) and
decisions a second (their count over their summed time), with the load average beside them:
the figures are the machine's at that moment.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import gymnasium
import numpy as np

from game.env import StealthEnv
from game.level import resolve_level, shipped_levels

#: The issue's goal: agent decisions a second on a small level, one process.
GOAL = 5000.0


def time_level(level: Path, seconds: float, hold: int, warmup: int = 50) -> dict[str, float]:
    """One level's decision times (microseconds) and rate, over ``seconds`` of stepping."""
    env = StealthEnv(level, hold=hold)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 9, size=1_000_000).tolist()
    env.reset(seed=0)
    resets: list[float] = []
    for k in range(warmup):
        _, _, terminated, truncated, _ = env.step(actions[k])
        if terminated or truncated:
            env.reset()
    clock = time.perf_counter
    times: list[float] = []
    spent = 0.0
    k = warmup
    while spent < seconds:
        t0 = clock()
        _, _, terminated, truncated, _ = env.step(actions[k])
        dt = clock() - t0
        times.append(dt)
        spent += dt
        k += 1
        if terminated or truncated:
            t0 = clock()
            env.reset()
            resets.append(clock() - t0)
    env.close()
    us = np.asarray(times) * 1e6
    return {
        "decisions": float(us.size),
        "median_us": float(np.median(us)),
        "p95_us": float(np.percentile(us, 95)),
        "per_second": float(us.size / (us.sum() / 1e6)),
        "resets": float(len(resets)),
        "reset_ms": float(np.median(resets) * 1e3) if resets else 0.0,
    }


def _make(level: str, hold: int) -> StealthEnv:
    return StealthEnv(level, hold=hold)


def time_vector(level: Path, seconds: float, hold: int, envs: int = 2) -> dict[str, float]:
    """Decisions a second of ``envs`` environments in an ``AsyncVectorEnv`` (one process
    each; episodes reset inside the vector, as in training)."""
    from functools import partial

    vec = gymnasium.vector.AsyncVectorEnv([partial(_make, str(level), hold)] * envs)
    try:
        vec.reset(seed=list(range(envs)))
        rng = np.random.default_rng(0)
        for _ in range(20):
            vec.step(rng.integers(0, 9, size=envs))
        clock = time.perf_counter
        times: list[float] = []
        spent = 0.0
        while spent < seconds:
            action = rng.integers(0, 9, size=envs)
            t0 = clock()
            vec.step(action)
            dt = clock() - t0
            times.append(dt)
            spent += dt
    finally:
        vec.close()
    us = np.asarray(times) * 1e6
    return {
        "envs": float(envs),
        "steps": float(us.size),
        "median_us": float(np.median(us)),
        "p95_us": float(np.percentile(us, 95)),
        "per_second": float(us.size * envs / (us.sum() / 1e6)),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.env_speed", description=__doc__)
    parser.add_argument("--levels", nargs="*", help="levels (default: every shipped level)")
    parser.add_argument("--seconds", type=float, default=2.0, help="timed seconds a level")
    parser.add_argument("--hold", type=int, default=4, help="fixed steps an action is held")
    parser.add_argument("--vector-level", default="08_sentries")
    parser.add_argument("--vector-seconds", type=float, default=5.0)
    parser.add_argument("--no-vector", action="store_true", help="skip the vector run")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    levels = [resolve_level(n) for n in args.levels] if args.levels else shipped_levels()
    load = os.getloadavg()[0]
    print(f"env speed: hold {args.hold}, {args.seconds:g} s a level, load average {load:.2f}")
    print(f"{'level':<18}{'median us':>10}{'p95 us':>10}{'decisions/s':>13}{'steps/s':>10}")
    rows: dict[str, dict[str, float]] = {}
    for level in levels:
        r = time_level(level, args.seconds, args.hold)
        rows[level.stem] = r
        steps = r["per_second"] * args.hold
        print(
            f"{level.stem:<18}{r['median_us']:>10.0f}{r['p95_us']:>10.0f}"
            f"{r['per_second']:>13,.0f}{steps:>10,.0f}"
        )
    out: dict[str, object] = {"hold": args.hold, "load": load, "levels": rows}
    if not args.no_vector:
        level = resolve_level(args.vector_level)
        v = time_vector(level, args.vector_seconds, args.hold)
        out["vector"] = {"level": level.stem, **v}
        print(
            f"AsyncVectorEnv x{v['envs']:.0f} on {level.stem}: median {v['median_us']:.0f} us, "
            f"p95 {v['p95_us']:.0f} us a vector step, {v['per_second']:,.0f} decisions/s"
        )
    best = max((r["per_second"] for r in rows.values()), default=0.0)
    print(f"goal: {GOAL:,.0f} decisions/s on a small level; fastest here {best:,.0f}")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
