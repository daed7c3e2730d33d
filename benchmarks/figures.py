"""Issue 41's figures (its part 4), each ours and its yardstick side by side in one run.

Run from the repository root (the same file runs on commit 46146fe's tree, to pin a baseline)::

    python -m benchmarks.figures [--only NAME ...] [--json FILE] [--steps N]

The figures (``--only`` takes their names):

* ``levels``: ``World.step`` on every shipped level against the seed-style per-object reference
  on the same level (the bench harness's :func:`time_level`: alternating blocks);
* ``sweep``: the same on the sandbox scaled from 2 to 20,000 agents (the reference only up to
  1,000: a step of it takes about a second there and grows with N^2);
* ``blends``: the library's separate + seek and flock (as a ``WeightedSum`` and as the ``Flock``
  preset), one ``steering.step`` each, from 1 to 20,000 agents against naive per-object code
  (:func:`steering.bench.sweep`, the engine's own harness; naive code up to 1,000 agents). The
  rows at 1 and 2 agents are issue 41's "library's step at 1 and 2 agents";
* ``masked``: ``Masked(FollowPath)`` and ``Masked(Seek)`` at 5 agents, 2 of 5 masked out,
  against the part alone (the behaviour's call, forces only; the agents move between calls);
* ``guards``: five guards under ``TruncatedRunningSum`` of ``AvoidObstacles``, ``Separate``,
  ``Masked(Limited(FollowPath))`` and ``Masked(Pursue)``, one step (forces + integration),
  against :class:`Guard`, the same guards per object in the seeds' style.

Every pair is timed in turns (ours, theirs, ours, ...) after a warm-up, single steps each; a row
gives both medians and 95th percentiles (µs) and ``x`` = theirs / ours (above 1: ours is
faster; for ``masked``, "theirs" is the part alone, so ``x`` below 1 is the composite's cost).
Only public APIs that exist both in 46146fe and later are used.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path as FsPath
from typing import Any

import numpy as np
from pymunk import Vec2d

import steering as st
from steering import bench as engine_bench

try:  # issue 41 moved the bench harness from game/bench/ to benchmarks/harness/
    from benchmarks.harness import levels as bench_levels
    from benchmarks.harness.reference import SeedObstacle, SeedPath, Vehicle, limit
except ModuleNotFoundError:  # commit 46146fe
    from game.bench import levels as bench_levels  # type: ignore[no-redef]
    from game.bench.reference import (  # type: ignore[no-redef]
        SeedObstacle,
        SeedPath,
        Vehicle,
        limit,
    )
from game.level import LEVELS_DIR, load_level, shipped_levels

DT = 1.0 / 60.0
SWEEP_SIZES = (2, 10, 30, 100, 300, 1_000, 3_000, 10_000, 20_000)
BLEND_SIZES = (1, 2, 5, 10, 100, 1_000, 10_000, 20_000)
#: The reference runs in the sweep up to this many agents.
SWEEP_REFERENCE_MAX = 1_000
#: Naive per-object blends run up to this many agents.
NAIVE_MAX = 1_000


@dataclass
class Row:
    """One figure at one size: ours against its yardstick, times in µs."""

    figure: str
    case: str
    agents: int
    ours_us: float
    ours_p95_us: float
    theirs_us: float | None
    theirs_p95_us: float | None

    @property
    def x(self) -> float | None:
        """Theirs / ours: above 1, ours is faster."""
        return None if self.theirs_us is None else self.theirs_us / self.ours_us

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "x": self.x}


def _p95(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def in_turns(
    ours: Callable[[], object],
    theirs: Callable[[], object],
    steps: int,
    rounds: int = 5,
    warmup: int = 50,
) -> tuple[list[float], list[float]]:
    """Single-step times (s) of both sides, ``rounds`` alternating blocks of ``steps / rounds``
    steps each after ``warmup`` untimed steps of each."""
    for _ in range(warmup):
        ours()
        theirs()
    a: list[float] = []
    b: list[float] = []
    clock = time.perf_counter
    block = max(1, steps // rounds)
    for _ in range(rounds):
        for fn, out in ((ours, a), (theirs, b)):
            for _ in range(block):
                t0 = clock()
                fn()
                out.append(clock() - t0)
    return a, b


def _row(figure: str, case: str, n: int, a: Sequence[float], b: Sequence[float]) -> Row:
    return Row(
        figure, case, n, statistics.median(a) * 1e6, _p95(a) * 1e6,
        statistics.median(b) * 1e6, _p95(b) * 1e6,
    )  # fmt: skip


def _level_row(figure: str, t: Any) -> Row:
    ref = t.reference_median
    return Row(
        figure,
        t.level,
        t.agents,
        t.ours_median * 1e3,
        t.ours_p95 * 1e3,
        None if ref is None else ref * 1e3,
        None if ref is None else t.reference_p95 * 1e3,
    )


# -- World.step -----------------------------------------------------------------------------


def fig_levels(steps: int, log: Callable[[str], None]) -> list[Row]:
    """Every shipped level at its own crowd, ``World.step`` against the reference."""
    rows = []
    for path in shipped_levels():
        level = load_level(path)
        t = bench_levels.time_level(
            level, path.stem, steps=steps, warmup=30, reference_budget_s=1.5
        )
        rows.append(_level_row("levels", t))
        log(_line(rows[-1]))
    return rows


def fig_sweep(steps: int, log: Callable[[str], None], sizes: Sequence[int]) -> list[Row]:
    """The sandbox at each crowd size (spawns scaled down, NPCs added above its own crowd)."""
    level = load_level(LEVELS_DIR / "10_sandbox.tmj")
    own = level.agent_count
    rows = []
    for n in sizes:
        scaled = bench_levels.scaled_level(level, n) if n < own else level
        big = n > SWEEP_REFERENCE_MAX
        t = bench_levels.time_level(
            scaled,
            f"sandbox {n}",
            extra_npcs=max(n - own, 0),
            steps=max(10, steps // 3) if big else steps,
            warmup=30,
            reference=n <= SWEEP_REFERENCE_MAX,
            reference_budget_s=3.0 if n >= SWEEP_REFERENCE_MAX else 1.0,
        )
        rows.append(_level_row("sweep", t))
        log(_line(rows[-1]))
    return rows


# -- the library's blends -------------------------------------------------------------------


def fig_blends(steps: int, log: Callable[[str], None], sizes: Sequence[int]) -> list[Row]:
    """The engine's own sweep (separate + seek, flock, Flock preset) against naive code."""
    out = engine_bench.sweep(sizes, NAIVE_MAX, rounds=5, budget=0.05, log=lambda _: None)
    rows = []
    for r in out:
        naive = r.naive
        rows.append(
            Row(
                "blends",
                r.scenario,
                r.agents,
                r.ours.median * 1e6,
                r.ours.p95 * 1e6,
                None if naive is None else naive.median * 1e6,
                None if naive is None else naive.p95 * 1e6,
            )
        )
        log(_line(rows[-1]))
    return rows


# -- composites at 5 agents -----------------------------------------------------------------

#: A closed patrol loop (px) and where the 5 agents start, spread along it.
LOOP = ((100.0, 100.0), (500.0, 100.0), (500.0, 400.0), (100.0, 400.0))
STARTS = ((100.0, 110.0), (300.0, 95.0), (505.0, 250.0), (300.0, 405.0), (95.0, 250.0))
#: Rows 1 and 3 of 5 are masked out.
HALF = np.array([True, False, True, False, True])


def _five() -> st.AgentGroup:
    vel = [(60.0, 0.0), (60.0, 0.0), (0.0, 60.0), (-60.0, 0.0), (0.0, -60.0)]
    return st.AgentGroup.create(np.array(STARTS), np.array(vel))


class CallTimer:
    """A behaviour's call on its own 5 agents, timed alone; the agents then move, untimed."""

    def __init__(self, behaviour: Any) -> None:
        self.behaviour = behaviour
        self.agents = _five()

    def step(self) -> float:
        """One call and one integration; returns the call's time (s)."""
        clock = time.perf_counter
        t0 = clock()
        force = self.behaviour(self.agents, DT)
        spent = clock() - t0
        st.integrate(self.agents, force, DT)
        return spent


def _call_times(
    ours: Any, theirs: Any, steps: int, rounds: int = 5, warmup: int = 200
) -> tuple[list[float], list[float]]:
    """Like :func:`in_turns`, with the time of the behaviour's call only."""
    a_side, b_side = CallTimer(ours), CallTimer(theirs)
    for _ in range(warmup):
        a_side.step()
        b_side.step()
    a: list[float] = []
    b: list[float] = []
    block = max(1, steps // rounds)
    for _ in range(rounds):
        for side, out in ((a_side, a), (b_side, b)):
            for _ in range(block):
                out.append(side.step())
    return a, b


def fig_masked(steps: int, log: Callable[[str], None]) -> list[Row]:
    """``Masked(X)`` (2 of 5 masked out) against ``X`` alone, for FollowPath and Seek."""
    path = st.Path(np.array(LOOP), closed=True, radius=20.0)
    cases = {
        "Masked(FollowPath) vs FollowPath": (
            st.Masked(st.FollowPath(path), HALF.copy()),
            st.FollowPath(path),
        ),
        "Masked(Seek) vs Seek": (
            st.Masked(st.Seek((300.0, 250.0)), HALF.copy()),
            st.Seek((300.0, 250.0)),
        ),
    }
    rows = []
    for name, (masked, alone) in cases.items():
        a, b = _call_times(masked, alone, steps * 20)
        rows.append(_row("masked", name, 5, a, b))
        log(_line(rows[-1]))
    return rows


# -- five guards: the library's program against per-object guards ----------------------------

ROCKS = ((300.0, 250.0, 40.0), (180.0, 300.0, 25.0), (420.0, 170.0, 30.0))
PATROL = np.array([True, False, True, False, True])
PATROL_SPEED, PATROL_FORCE = 70.0, 200.0
#: Weights of the program's parts: rocks, neighbours, patrol, pursuit.
GUARD_WEIGHTS = (2.0, 1.5, 1.0, 1.0)
SEPARATION = 24.0


class Player:
    """The intruder both sides chase: a slow circle round the middle of the map."""

    def __init__(self) -> None:
        self.t = 0.0

    def move(self) -> tuple[tuple[float, float], tuple[float, float]]:
        self.t += DT
        a = 0.4 * self.t
        pos = (300.0 + 150.0 * math.cos(a), 250.0 + 150.0 * math.sin(a))
        vel = (-60.0 * math.sin(a), 60.0 * math.cos(a))
        return pos, vel


class LibraryGuards:
    """The five guards as one program of the library's composites."""

    def __init__(self) -> None:
        self.agents = _five()
        rocks = np.array(ROCKS)
        path = st.Path(np.array(LOOP), closed=True, radius=20.0)
        self.pursue = st.Pursue((0.0, 0.0))
        wr, ws, wp, wc = GUARD_WEIGHTS
        self.program = st.TruncatedRunningSum(
            [
                st.Weighted(st.AvoidObstacles(st.Obstacles.create(rocks[:, :2], rocks[:, 2])), wr),
                st.Weighted(st.Separate(SEPARATION), ws),
                st.Weighted(
                    st.Masked(
                        st.Limited(st.FollowPath(path), PATROL_SPEED, PATROL_FORCE), PATROL.copy()
                    ),
                    wp,
                ),
                st.Weighted(st.Masked(self.pursue, ~PATROL), wc),
            ]
        )
        self.player = Player()

    def step(self) -> None:
        pos, vel = self.player.move()
        self.pursue.target = pos
        self.pursue.target_velocity = vel
        st.integrate(self.agents, self.program(self.agents, DT), DT)


class Guard(Vehicle):
    """A guard in the seeds' style: the reference vehicle, plus pursuit and a patrol pace."""

    def __init__(self, position: Vec2d, velocity: Vec2d, patrol: SeedPath | None) -> None:
        super().__init__(
            position,
            velocity,
            heading=velocity.normalized(),
            maxspeed=120.0,
            maxforce=360.0,
            desiredseparation=SEPARATION,
            path=patrol,
            gain=st.DEFAULT_GAIN,
        )

    def pursue(self, target: Vec2d, target_velocity: Vec2d, max_prediction: float = 1.5) -> Vec2d:
        """Seek where the target will be: distance over the closing speed ahead, capped."""
        closing = self.maxspeed + target_velocity.length
        ahead = min(self.position.get_distance(target) / closing, max_prediction)
        return self.seek(target + target_velocity * ahead)

    def patrol(self) -> Vec2d:
        """Follow the patrol path at the patrol pace (its own limits, as ``Limited``)."""
        assert self.path is not None
        speed, force = self.maxspeed, self.maxforce
        self.maxspeed, self.maxforce = PATROL_SPEED, PATROL_FORCE
        steer = self.follow_path(self.path)
        self.maxspeed, self.maxforce = speed, force
        return steer


def accumulate(total: Vec2d, add: Vec2d, max_force: float) -> tuple[Vec2d, bool]:
    """Buckland's ``AccumulateForce``: add what fits under max force; False once it is full."""
    left = max_force - total.length
    if left <= 0.0:
        return total, False
    if add.length < left:
        return total + add, True
    return total + add.normalized() * left, False


class PlainGuards:
    """The same five guards, one object each, Buckland's running sum written out."""

    def __init__(self) -> None:
        path = SeedPath([Vec2d(x, y) for x, y in LOOP], 20.0, closed=True)
        vel = [(60.0, 0.0), (60.0, 0.0), (0.0, 60.0), (-60.0, 0.0), (0.0, -60.0)]
        self.guards = [
            Guard(Vec2d(*p), Vec2d(*v), path if patrol else None)
            for p, v, patrol in zip(STARTS, vel, PATROL, strict=True)
        ]
        self.rocks = [SeedObstacle(Vec2d(x, y), r) for x, y, r in ROCKS]
        self.player = Player()

    def forces(self, g: Guard, target: Vec2d, target_velocity: Vec2d) -> Vec2d:
        wr, ws, wp, wc = GUARD_WEIGHTS
        total, more = accumulate(Vec2d(0.0, 0.0), g.avoid_obstacles(self.rocks) * wr, g.maxforce)
        if more:
            total, more = accumulate(total, g.separate(self.guards) * ws, g.maxforce)
        if more:
            if g.path is not None:
                total, more = accumulate(total, g.patrol() * wp, g.maxforce)
            else:
                total, more = accumulate(total, g.pursue(target, target_velocity) * wc, g.maxforce)
        return total

    def step(self) -> None:
        pos, vel = self.player.move()
        target, target_velocity = Vec2d(*pos), Vec2d(*vel)
        forces = [self.forces(g, target, target_velocity) for g in self.guards]
        for g, f in zip(self.guards, forces, strict=True):
            g.apply_force(limit(f, g.maxforce))
            g.update(DT)


def fig_guards(steps: int, log: Callable[[str], None]) -> list[Row]:
    """The five-guard program against its per-object version, one step each."""
    ours, theirs = LibraryGuards(), PlainGuards()
    a, b = in_turns(ours.step, theirs.step, steps * 20, warmup=200)
    rows = [_row("guards", "five guards: program vs per-object", 5, a, b)]
    log(_line(rows[-1]))
    return rows


# -- the run --------------------------------------------------------------------------------


def _f(x: float | None, fmt: str = "{:,.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def _line(r: Row) -> str:
    return (
        f"| {r.figure} | {r.case} | {r.agents:,} | {_f(r.ours_us)} | {_f(r.ours_p95_us)} "
        f"| {_f(r.theirs_us)} | {_f(r.theirs_p95_us)} | {_f(r.x, '{:.2f}x')} |"
    )


HEADER = (
    "| figure | case | agents | ours µs | p95 | theirs µs | p95 | x |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|"
)
FIGURES = ("levels", "sweep", "blends", "masked", "guards")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the figures asked for and print one Markdown table."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.figures", description=__doc__)
    p.add_argument("--only", nargs="+", choices=FIGURES, default=list(FIGURES))
    p.add_argument("--json", type=FsPath, help="also write the rows to this file")
    p.add_argument("--steps", type=int, default=150, help="timed steps of ours a case (150)")
    p.add_argument("--sweep-sizes", type=int, nargs="+", default=list(SWEEP_SIZES))
    p.add_argument("--blend-sizes", type=int, nargs="+", default=list(BLEND_SIZES))
    args = p.parse_args(argv)

    def log(line: str) -> None:
        print(line, flush=True)

    print(HEADER, flush=True)
    rows: list[Row] = []
    for name in args.only:
        if name == "levels":
            rows += fig_levels(args.steps, log)
        elif name == "sweep":
            rows += fig_sweep(args.steps, log, args.sweep_sizes)
        elif name == "blends":
            rows += fig_blends(args.steps, log, args.blend_sizes)
        elif name == "masked":
            rows += fig_masked(args.steps, log)
        else:
            rows += fig_guards(args.steps, log)
    if args.json is not None:
        args.json.write_text(json.dumps([r.to_json() for r in rows], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
