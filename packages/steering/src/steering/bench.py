"""The engine's own benchmark: ours against naive per-object code, side by side in one process.

``python -m steering.bench`` prints two tables:

* the sweep: separate + seek, and a flock (separate, align, cohere, seek), each step being the
  forces plus the integration (:func:`~steering.step`, which for a
  :class:`~steering.WeightedSum` is one compiled call), from 1 to 20,000 agents, against
  :class:`Vehicle`, a per-object implementation in the seeds' style (float fields, a loop over
  every other vehicle);
* every behaviour of the vocabulary alone at 10,000 agents, as a fraction of the naive
  separate + seek step at 1,000.

The two sides run in interleaved blocks (ours, naive, ours, naive, ...) so that a change in the
machine's speed falls on both; each figure is the median (and p95) of single-step times after a
warm-up that compiles every kernel. Both sides time the same stretch of the same scene: each
block starts from the scene's start and starts it again every :data:`HORIZON` steps (untimed).
Without that, the faster side would be timed over a later scene than the slower one: in 2,000
steps (what ours runs in a block at 1,000 agents) the flock packs round its target with 15 times
the neighbours it starts with, while the naive side's two steps a block see the start.
``--horizon 0`` never restarts, to time a crowd as it packs. Naive code is not run above
``--naive-max`` agents (one naive flock step at 1,000 agents already takes about a second).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

import steering as st

__all__ = ["Vehicle", "main", "naive_step", "sweep"]

DT = 1.0 / 60.0
GAIN = st.DEFAULT_GAIN
SEPARATION = 25.0
NEIGHBOUR = 50.0
#: Area per agent (px^2): the side of the square the crowd starts in grows with sqrt(N), so
#: every size sees about the same number of neighbours (a game's density).
AREA_PER_AGENT = 40.0 * 40.0
SIZES = (1, 2, 5, 10, 30, 100, 300, 1_000, 3_000, 10_000, 20_000)
FLOCK_WEIGHTS = (1.5, 1.0, 1.0, 0.5)  # separate, align, cohere, seek
#: Steps (one second) after which a side's scene starts again from its start state.
HORIZON = 60
PRESET = "flock (Flock preset)"
#: What the sweep times: ours as WeightedSum of the parts each time, and the flock once more as
#: the Flock preset (the same forces); the naive side is the same per-object code for both.
SCENARIOS = ("separate + seek", "flock", PRESET)


# -- the naive reference: the seeds' Vehicle, one object per agent ---------------------------


class Vehicle:
    """A vehicle as The Nature of Code writes it, with float fields instead of PVectors.

    Speeds in px/s and forces in px/s^2 with the engine's gain, so both sides do the same maths.
    """

    __slots__ = ("ax", "ay", "max_force", "max_speed", "vx", "vy", "x", "y")

    def __init__(self, x: float, y: float, vx: float = 0.0, vy: float = 0.0) -> None:
        self.x, self.y, self.vx, self.vy = x, y, vx, vy
        self.ax = self.ay = 0.0
        self.max_speed = 120.0
        self.max_force = 360.0

    def apply_force(self, fx: float, fy: float, weight: float = 1.0) -> None:
        self.ax += fx * weight
        self.ay += fy * weight

    def _steer(self, dx: float, dy: float) -> tuple[float, float]:
        """Desired velocity along (dx, dy) at max speed; steer = (desired - velocity) * gain."""
        d = math.hypot(dx, dy)
        if d > 1e-9:
            dx, dy = dx / d * self.max_speed, dy / d * self.max_speed
        else:
            dx = dy = 0.0
        sx, sy = (dx - self.vx) * GAIN, (dy - self.vy) * GAIN
        m = math.hypot(sx, sy)
        if m > self.max_force:
            sx, sy = sx / m * self.max_force, sy / m * self.max_force
        return sx, sy

    def seek(self, tx: float, ty: float) -> tuple[float, float]:
        return self._steer(tx - self.x, ty - self.y)

    def separate(self, vehicles: Sequence[Vehicle]) -> tuple[float, float]:
        sx = sy = 0.0
        count = 0
        for other in vehicles:
            dx, dy = self.x - other.x, self.y - other.y
            d = math.hypot(dx, dy)
            if 0.0 < d < SEPARATION:
                sx += dx / (d * d)
                sy += dy / (d * d)
                count += 1
        if count == 0:
            return 0.0, 0.0
        return self._steer(sx, sy)

    def align(self, vehicles: Sequence[Vehicle]) -> tuple[float, float]:
        sx = sy = 0.0
        count = 0
        for other in vehicles:
            d = math.hypot(self.x - other.x, self.y - other.y)
            if 0.0 < d < NEIGHBOUR:
                sx += other.vx
                sy += other.vy
                count += 1
        if count == 0:
            return 0.0, 0.0
        return self._steer(sx / count, sy / count)

    def cohere(self, vehicles: Sequence[Vehicle]) -> tuple[float, float]:
        sx = sy = 0.0
        count = 0
        for other in vehicles:
            d = math.hypot(self.x - other.x, self.y - other.y)
            if 0.0 < d < NEIGHBOUR:
                sx += other.x
                sy += other.y
                count += 1
        if count == 0:
            return 0.0, 0.0
        return self.seek(sx / count, sy / count)

    def update(self, dt: float) -> None:
        self.vx += self.ax * dt
        self.vy += self.ay * dt
        m = math.hypot(self.vx, self.vy)
        if m > self.max_speed:
            self.vx, self.vy = self.vx / m * self.max_speed, self.vy / m * self.max_speed
        self.x += self.vx * dt
        self.y += self.vy * dt
        self.ax = self.ay = 0.0


def naive_step(vehicles: Sequence[Vehicle], flock: bool, target: tuple[float, float]) -> None:
    """One step of the naive crowd: every vehicle's forces, then every update."""
    ws, wa, wc, wt = FLOCK_WEIGHTS if flock else (1.5, 0.0, 0.0, 1.0)
    for v in vehicles:
        v.apply_force(*v.separate(vehicles), ws)
        if flock:
            v.apply_force(*v.align(vehicles), wa)
            v.apply_force(*v.cohere(vehicles), wc)
        v.apply_force(*v.seek(*target), wt)
    for v in vehicles:
        v.update(DT)


# -- scenes -------------------------------------------------------------------------------------


def _start(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray, float]:
    rng = np.random.default_rng(seed)
    side = math.sqrt(AREA_PER_AGENT * max(n, 1))
    pos = rng.uniform(0.0, side, (n, 2))
    vel = rng.normal(0.0, 40.0, (n, 2))
    return pos, vel, side


def ours_preset(target: tuple[float, float]) -> st.Flock:
    """The naive flock's blend as the :class:`~steering.Flock` preset: one pass over the
    neighbours for all three group rules, the same forces as the weighted sum of the parts."""
    ws, wa, wc, wt = FLOCK_WEIGHTS
    return st.Flock(
        separation=SEPARATION,
        alignment=NEIGHBOUR,
        cohesion=NEIGHBOUR,
        separation_weight=ws,
        alignment_weight=wa,
        cohesion_weight=wc,
        target=target,
        seek_weight=wt,
    )


def ours_sum(flock: bool, target: tuple[float, float]) -> st.WeightedSum:
    """The same blend as :func:`naive_step`, built from the public API."""
    ws, wa, wc, wt = FLOCK_WEIGHTS if flock else (1.5, 0.0, 0.0, 1.0)
    parts = [st.Weighted(st.Separate(SEPARATION), ws)]
    if flock:
        parts += [st.Weighted(st.Align(NEIGHBOUR), wa), st.Weighted(st.Cohere(NEIGHBOUR), wc)]
    parts.append(st.Weighted(st.Seek(target), wt))
    return st.WeightedSum(parts)


# -- timing -------------------------------------------------------------------------------------


@dataclass
class Timing:
    """Single-step times of one side at one size, in seconds."""

    median: float
    p95: float
    steps: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> Timing:
        ordered = sorted(samples)
        p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
        return cls(statistics.median(ordered), p95, len(ordered))


@dataclass
class Side:
    """One side of a comparison: its ``step``, and ``restart`` (None: nothing to restart),
    which puts its scene back to the start state."""

    step: Callable[[], None]
    restart: Callable[[], None] | None = None


def _block(side: Side, budget: float, max_steps: int, horizon: int) -> list[float]:
    """Time single steps until ``budget`` seconds or ``max_steps`` steps have passed, from the
    start state and starting again every ``horizon`` steps (0: never), untimed."""
    times: list[float] = []
    clock = time.perf_counter
    end = clock() + budget
    restart = side.restart
    step = side.step
    while len(times) < max_steps:
        if restart is not None and (not times or (horizon > 0 and len(times) % horizon == 0)):
            restart()
        t0 = clock()
        step()
        t1 = clock()
        times.append(t1 - t0)
        if t1 > end:
            break
    return times


def interleaved(
    sides: dict[str, Side | Callable[[], None]],
    rounds: int,
    budget: float,
    max_steps: int = 2000,
    horizon: int = HORIZON,
) -> dict[str, Timing]:
    """Each side's step timed in ``rounds`` alternating blocks of about ``budget`` seconds (a
    bare callable is a side with nothing to restart)."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(rounds):
        for name, side in sides.items():
            s = side if isinstance(side, Side) else Side(side)
            samples[name] += _block(s, budget, max_steps, horizon)
    return {name: Timing.of(s) for name, s in samples.items()}


@dataclass
class SweepRow:
    scenario: str
    agents: int
    ours: Timing
    naive: Timing | None

    @property
    def ratio(self) -> float | None:
        """Naive median / ours median: above 1, ours is faster."""
        return None if self.naive is None else self.naive.median / self.ours.median


class _Ours:
    """Our crowd of a sweep scene, stepped by ``steering.step`` and restarted by making the
    group again from the start state."""

    def __init__(self, pos: np.ndarray, vel: np.ndarray, blend: Any) -> None:
        self.start = (pos.copy(), vel.copy())
        self.blend = blend
        self.restart()

    def restart(self) -> None:
        pos, vel = self.start
        self.agents = st.AgentGroup.create(pos.copy(), vel.copy())

    def step(self) -> None:
        st.step(self.agents, self.blend, DT)


class _Naive:
    """The naive crowd of a sweep scene, restarted by making its vehicles again."""

    def __init__(self, pos: np.ndarray, vel: np.ndarray, flock: bool, target: Any) -> None:
        self.start = (pos.tolist(), vel.tolist())
        self.flock = flock
        self.target = target
        self.restart()

    def restart(self) -> None:
        pos, vel = self.start
        self.vehicles = [Vehicle(*p, *v) for p, v in zip(pos, vel, strict=True)]

    def step(self) -> None:
        naive_step(self.vehicles, self.flock, self.target)


def sweep(
    sizes: Sequence[int],
    naive_max: int,
    rounds: int,
    budget: float,
    log: Callable[[str], None],
    horizon: int = HORIZON,
) -> list[SweepRow]:
    """Both scenarios at every size, ours and naive in interleaved blocks, each side timed
    over the first ``horizon`` steps of the scene (0: as it runs on, never restarted)."""
    rows: list[SweepRow] = []
    for scenario in SCENARIOS:
        flock = scenario != "separate + seek"
        for n in sizes:
            pos, vel, side = _start(n)
            target = (side / 2.0, side / 2.0)
            blend: Any = ours_preset(target) if scenario == PRESET else ours_sum(flock, target)
            ours = _Ours(pos, vel, blend)
            ours.step()  # compiles on a cold cache
            sides: dict[str, Side | Callable[[], None]] = {"ours": Side(ours.step, ours.restart)}
            if n <= naive_max:
                naive = _Naive(pos, vel, flock, target)
                sides["naive"] = Side(naive.step, naive.restart)
            # Slow naive steps (a second each at 1,000) get fewer, longer blocks.
            slow = n >= 300
            timing = interleaved(sides, rounds, budget * (3 if slow else 1), 2000, horizon)
            row = SweepRow(scenario, n, timing["ours"], timing.get("naive"))
            rows.append(row)
            log(_sweep_line(row))
    return rows


# -- every behaviour alone ----------------------------------------------------------------------


def _turning(behaviour: Any) -> Any:
    """An orientation behaviour timed with the turn it asks for: its call, then
    :meth:`~steering.AgentGroup.update_heading` (which applies the request once)."""

    def step(agents: st.AgentGroup, dt: float, debug: Any = None) -> Any:
        force = behaviour(agents, dt, debug)
        agents.update_heading(dt)
        return force

    return step


def behaviour_cases(n: int, seed: int = 2) -> dict[str, tuple[st.AgentGroup, Any]]:
    """Each behaviour of the vocabulary on a crowd of ``n`` at the sweep's density."""
    pos, vel, side = _start(n, seed)
    rng = np.random.default_rng(seed)
    center = (side / 2.0, side / 2.0)
    ring = [
        (side / 2 + side / 3 * math.cos(a), side / 2 + side / 3 * math.sin(a))
        for a in np.linspace(0.0, 2 * math.pi, 12, endpoint=False)
    ]
    path = st.Path(np.array(ring), radius=20.0, closed=True)
    k = max(20, n // 50)
    rocks = st.Obstacles.create(rng.uniform(0.0, side, (k, 2)), np.full(k, 12.0))
    walls = st.Walls.from_polylines(
        [
            np.array([(side * 0.2, side * (0.2 + 0.6 * i / 9)), (side * 0.8, side * 0.3)])
            for i in range(10)
        ]
    )
    cells = max(2, math.ceil(side / 32.0))
    field = st.FlowField.uniform(cells, cells, 32.0, (60.0, 0.0))
    cases: dict[str, Any] = {
        "Seek": st.Seek(center),
        "Flee": st.Flee(center, 200.0),
        "Arrive": st.Arrive(center),
        "Pursue": st.Pursue(center, (30.0, 0.0)),
        "Evade": st.Evade(center, (30.0, 0.0), panic_distance=200.0),
        "Wander": st.Wander(np.random.default_rng(seed)),
        "Contain": st.Contain(0.0, 0.0, side, side),
        "Separate": st.Separate(SEPARATION),
        "Align": st.Align(NEIGHBOUR),
        "Cohere": st.Cohere(NEIGHBOUR),
        "AvoidAgents": st.AvoidAgents(),
        "Queue": st.Queue(),
        "FollowPath": st.FollowPath(path),
        "FollowFlow (grid)": st.FollowFlow(field),
        # Noise fields need the 'noise' extra (opensimplex); without it the case is left out.
        "FollowFlow (noise)": None,
        "AvoidObstacles": st.AvoidObstacles(rocks),
        "AvoidWalls": st.AvoidWalls(walls),
        "Hide": st.Hide(center, rocks),
        "Interpose": st.Interpose(center, (0.0, 0.0)),
        "MatchVelocity": st.MatchVelocity((30.0, 0.0)),
        "OffsetPursuit": st.OffsetPursuit(center, (30.0, 0.0), (1.0, 0.0), (-30.0, 0.0)),
        "Face": _turning(st.Face(center)),
        "LookWhereYouAreGoing": _turning(st.LookWhereYouAreGoing()),
        "WeightedSum (separate, seek)": ours_sum(False, center),
        "Flock (WeightedSum of the parts)": ours_sum(True, center),
        "Flock (preset)": ours_preset(center),
    }
    if importlib.util.find_spec("opensimplex") is None:
        del cases["FollowFlow (noise)"]
    else:
        noise = st.NoiseFlow(cells, cells, 32.0, speed=0.1, seed=3)
        cases["FollowFlow (noise)"] = st.FollowFlow(noise)
    return {name: (st.AgentGroup.create(pos, vel), b) for name, b in cases.items()}


@dataclass
class BehaviourRow:
    name: str
    agents: int
    ours: Timing
    #: Ours at this size / naive separate + seek at 1,000 (wanted: at most 1/100).
    fraction: float | None


def behaviours(
    n: int, reference: Timing | None, rounds: int, budget: float, log: Callable[[str], None]
) -> list[BehaviourRow]:
    """Every behaviour alone (forces only) at ``n`` agents."""
    rows: list[BehaviourRow] = []
    for name, (agents, behaviour) in behaviour_cases(n).items():
        try:
            behaviour(agents, DT)
        except Exception as exc:  # a case the bench builds wrong must not hide the others
            log(f"  {name}: skipped ({type(exc).__name__}: {exc})")
            continue
        timing = interleaved({"ours": functools.partial(behaviour, agents, DT)}, rounds, budget)
        frac = None if reference is None else timing["ours"].median / reference.median
        row = BehaviourRow(name, n, timing["ours"], frac)
        rows.append(row)
        log(_behaviour_line(row))
    return rows


# -- report -------------------------------------------------------------------------------------


def _us(seconds: float) -> str:
    us = seconds * 1e6
    return f"{us:,.1f} µs" if us < 10_000 else f"{us / 1000:,.1f} ms"


def _sweep_line(row: SweepRow) -> str:
    naive = "—" if row.naive is None else f"{_us(row.naive.median)} (p95 {_us(row.naive.p95)})"
    ratio = "—" if row.ratio is None else f"{row.ratio:,.2f}x"
    return (
        f"{row.scenario:20} {row.agents:>6} agents  ours {_us(row.ours.median)} "
        f"(p95 {_us(row.ours.p95)})  naive {naive}  naive/ours {ratio}"
    )


def _behaviour_line(row: BehaviourRow) -> str:
    frac = "—" if row.fraction is None else f"1/{1 / row.fraction:,.0f}" if row.fraction else "0"
    return (
        f"  {row.name:30} {_us(row.ours.median):>10} (p95 {_us(row.ours.p95)})"
        f"  of naive separate + seek at 1,000: {frac}"
    )


def markdown(rows: list[SweepRow], brows: list[BehaviourRow]) -> str:
    """The two tables as Markdown, for the README."""
    sizes = sorted({r.agents for r in rows})
    out = ["| agents | " + " | ".join(f"{n:,}" for n in sizes) + " |"]
    out.append("|---|" + "---:|" * len(sizes))
    for scenario in SCENARIOS:
        cells = []
        for n in sizes:
            row = next(r for r in rows if r.scenario == scenario and r.agents == n)
            cells.append("—" if row.ratio is None else f"{row.ratio:,.2f}x")
        out.append(f"| {scenario}, naive / ours | " + " | ".join(cells) + " |")
    for scenario in SCENARIOS:
        cells = [
            _us(next(r for r in rows if r.scenario == scenario and r.agents == n).ours.median)
            for n in sizes
        ]
        out.append(f"| {scenario}, ours per step | " + " | ".join(cells) + " |")
    if brows:
        out += [
            "",
            "| behaviour alone | agents | median | p95 | of naive separate + seek at 1,000 |",
        ]
        out.append("|---|---:|---:|---:|---:|")
        for b in brows:
            frac = "—" if not b.fraction else f"1/{1 / b.fraction:,.0f}"
            out.append(
                f"| {b.name} | {b.agents:,} | {_us(b.ours.median)} | {_us(b.ours.p95)} | {frac} |"
            )
    return "\n".join(out)


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it, so a failed or killed
    write leaves the old file whole."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sweep and the per-behaviour table; print them (and write JSON if asked)."""
    parser = argparse.ArgumentParser(
        prog="python -m steering.bench",
        description="The steering engine against naive per-object code, side by side.",
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), metavar="N")
    parser.add_argument("--naive-max", type=int, default=1_000, metavar="N")
    parser.add_argument("--behaviours-at", type=int, default=10_000, metavar="N")
    parser.add_argument("--no-behaviours", action="store_true")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved blocks per side")
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per block")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument("--markdown", action="store_true", help="end with Markdown tables")
    parser.add_argument(
        "--horizon",
        type=int,
        default=HORIZON,
        metavar="STEPS",
        help=f"start each scene again every STEPS steps (default {HORIZON}; 0: never)",
    )
    args = parser.parse_args(argv)
    bad = [n for n in args.sizes if not 1 <= n <= 100_000]
    if bad or not 1 <= args.rounds <= 100 or not 0.0 < args.budget <= 60.0:
        parser.error("sizes must be 1..100,000, rounds 1..100 and budget in (0, 60] seconds")
    if not 0 <= args.horizon <= 1_000_000:
        parser.error(f"--horizon must be 0..1,000,000 steps, got {args.horizon}")

    def log(line: str) -> None:
        print(line, flush=True)

    log(
        "sweep: each step is the forces plus the integration (steering.step); "
        "naive/ours above 1 means ours is faster; "
        + (
            f"both sides timed over the scene's first {args.horizon} steps"
            if args.horizon
            else "each side timed as its scene runs on (never restarted)"
        )
    )
    rows = sweep(args.sizes, args.naive_max, args.rounds, args.budget, log, args.horizon)
    reference = next(
        (r.naive for r in rows if r.scenario == "separate + seek" and r.agents == 1_000), None
    )
    brows: list[BehaviourRow] = []
    if not args.no_behaviours:
        log(f"every behaviour alone at {args.behaviours_at:,} agents (forces only):")
        brows = behaviours(args.behaviours_at, reference, args.rounds, args.budget, log)
    if args.markdown:
        log("")
        log(markdown(rows, brows))
    if args.json is not None:
        data = {
            "sweep": [asdict(r) | {"ratio": r.ratio} for r in rows],
            "behaviours": [asdict(b) for b in brows],
        }
        _write_atomically(args.json, json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
