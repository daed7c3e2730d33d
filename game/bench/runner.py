"""``python -m game bench``: the core against the seed-style reference on the sandbox scenario.

For each crowd size N (agents in the world, the player included; N - 1 of them are steered)
it reports the median ms per step of:

* the reference (:mod:`game.bench.reference`): steering = every vehicle's forces; steering +
  physics = forces + the seeds' Euler integration. It runs only while one of its steps stays
  under :data:`STEP_LIMIT_S`: the first step at each size is timed on its own, the next size's
  step is predicted from it by the quadratic growth of separation, and a size whose prediction
  is over the limit is skipped with a note. A step that itself goes over the limit ends the
  reference series;
* ours: steering = the core's blend on the same agents (:meth:`Scenario.core`, the same
  behaviours and weights as the reference's); steering + physics = the real ``World.step`` on the
  sandbox with N agents (brains, pymunk and the batch transfer), at stagger 1 and each other
  ``--stagger``.

It prints a Markdown table with the ratio reference / ours ("x faster") beside each pair and, per
series, the exponent k of a least-squares fit ``ms ~ N^k`` over the sizes. ``--json FILE`` writes
the same; its keys:

* ``machine``: ``python``, ``numpy``, ``scipy``, ``pymunk``, ``platform``, ``cpu``,
  ``cpu_count``, ``malloc_tuned``;
* ``options``: ``level``, ``sizes``, ``reference_sizes``, ``steps``, ``warmup``,
  ``reference_steps``, ``reference_max_steps``, ``reference_budget_s``, ``reference_warmup``,
  ``stagger``, ``step_limit_s``;
* ``weights``: the blend (``path``, ``flow``, ``avoid``, ``separate``);
* ``rows``: one per size, ``agents``, ``steered``, ``reference`` (``steering_ms``, ``total_ms``,
  ``steps``, ``note``; null figures where it did not run), ``ours`` (``steering_ms``,
  ``steering_p95_ms``, ``world``: per stagger ``median_ms``, ``p95_ms``, ``steering_ms`` (the
  world's ``steer`` system), ``physics_ms`` (its ``physics`` system), ``systems_ms`` (every
  system by name)), ``speedup`` (``steering``, ``total``
  per stagger; reference / ours);
* ``exponents``: ``ours_steering``, ``ours_world`` (per stagger), ``reference_steering``,
  ``reference_total`` (null with fewer than two sizes);
* ``notes``: what was skipped and why;
* ``frames``: the whole-frame measurement with ``--frames`` (see :mod:`game.bench.frames`),
  else null;
* ``behaviours``: with ``--behaviours`` (or ``--behaviour-sizes``), each behaviour of the
  steering vocabulary timed on its own (see :mod:`game.bench.behaviours`): ``sizes``,
  ``rocks``, ``walls``, ``steps``, ``warmup`` and ``rows`` of ``behaviour``, ``detail``,
  ``agents``, ``median_ms``, ``p95_ms``, ``steps``; else null;
* ``profile``: the profile file written with ``--profile``, else null.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

import numpy as np

from game.cli_common import one_line_errors
from game.clock import DT
from game.level import Level
from game.perf import tune_allocator
from game.safe_io import OutputError, atomic_write, check_output

if TYPE_CHECKING:
    from pymunk import Vec2d

    from game.world import World

    from .behaviours import BehaviourTiming
    from .frames import FrameReport

__all__ = [
    "DEFAULT_REFERENCE_SIZES",
    "DEFAULT_SIZES",
    "DEFAULT_STAGGER",
    "PROFILE_AGENTS",
    "PROFILE_STEPS",
    "STEP_LIMIT_S",
    "BenchOptions",
    "BenchResult",
    "CoreTiming",
    "Progress",
    "ReferenceTiming",
    "UsageError",
    "WorldTiming",
    "add_parser",
    "fit_exponent",
    "format_report",
    "predict_step_seconds",
    "run",
    "time_core",
    "time_reference",
    "time_world",
]

#: Crowd sizes of our engine.
DEFAULT_SIZES = (250, 1_000, 4_000, 10_000, 20_000)
#: Crowd sizes of the reference (each only while its steps stay under the limit).
DEFAULT_REFERENCE_SIZES = (250, 1_000, 4_000)
#: Our World.step staggers.
DEFAULT_STAGGER = (1, 4)
#: Timed and untimed (warm-up) steps of each of our measurements.
DEFAULT_STEPS = 60
DEFAULT_WARMUP = 30
#: Most timed or warm-up steps a measurement takes.
MAX_STEPS = 100_000
#: The reference never starts a step expected to take longer than this (s).
STEP_LIMIT_S = 10.0
#: Timed and warm-up steps of the reference at most (its steps take seconds).
REFERENCE_STEPS = 3
REFERENCE_WARMUP = 1
#: The reference takes more timed steps (up to :data:`REFERENCE_MAX_STEPS`) while a size's
#: timed steps total less than this (s): at small N three steps are a few milliseconds, and
#: their median swings by half on this shared machine.
REFERENCE_BUDGET_S = 2.0
REFERENCE_MAX_STEPS = 15
#: What ``--profile`` profiles: World.step calls at this many agents.
PROFILE_AGENTS = 10_000
PROFILE_STEPS = 10
#: ``--frames``: crowd size of the whole-frame measurement, frames timed and warm-up.
FRAME_AGENTS = 1_000
FRAME_COUNT = 200
FRAME_WARMUP = 30
#: ``--quick``: tiny sizes and few steps, a smoke test of a few seconds.
QUICK_SIZES = (250, 400)
QUICK_REFERENCE_SIZES = (250,)
QUICK_STEPS = 3
QUICK_WARMUP = 1
QUICK_FRAMES = 10
#: Largest crowd accepted.
MAX_AGENTS = 200_000
#: Largest crowd the seed-style reference is run at: it measures every pair in Python, so a
#: step costs about N^2 / 10^6 s (some 25 s at 5,000 agents, hours at 200,000).
MAX_REFERENCE_AGENTS = 5_000

Clock = Callable[[], float]
Tick = Callable[[], None]


class UsageError(Exception):
    """A bad option value (reported as one line, exit status 2)."""


# -- the maths -------------------------------------------------------------------------------


def fit_exponent(sizes: Sequence[float], ms: Sequence[float | None]) -> float | None:
    """The exponent k of the least-squares fit ``log ms = k log N + c``.

    Sizes without a (positive, finite) figure are left out; None with fewer than two distinct
    sizes left.
    """
    pts = [
        (math.log(n), math.log(t))
        for n, t in zip(sizes, ms, strict=True)
        if t is not None and math.isfinite(t) and t > 0 and n > 0
    ]
    if len({x for x, _ in pts}) < 2:
        return None
    x = np.array([p[0] for p in pts])
    y = np.array([p[1] for p in pts])
    slope = np.polyfit(x, y, 1)[0]
    return float(slope)


def predict_step_seconds(measured_agents: int, measured_s: float, agents: int) -> float:
    """A step at ``agents`` predicted from one at ``measured_agents``: separation compares every
    pair, so cost grows with N^2 (an upper bound for the parts that grow linearly)."""
    return measured_s * (agents / measured_agents) ** 2


def _median(values: Sequence[float]) -> float | None:
    return float(np.median(values)) if values else None


# -- progress --------------------------------------------------------------------------------


class Progress:
    """Progress on stderr: a bar redrawn in place on a terminal, one line per job otherwise.

    Args:
        total: jobs to run.
        out: the stream (stderr).
        tty: draw the bar; default ``out.isatty()``.
    """

    def __init__(self, total: int, out: TextIO, tty: bool | None = None) -> None:
        self.total = max(total, 1)
        self.out = out
        self.tty = out.isatty() if tty is None else tty
        self.job_index = 0
        self.label = ""
        self.steps = 0
        self.done = 0
        self._last = 0.0
        self._width = 0

    def job(self, label: str, steps: int) -> None:
        """Start the next job: ``label`` and how many steps it has."""
        self.job_index += 1
        self.label = label
        self.steps = max(steps, 1)
        self.done = 0
        if self.tty:
            self._draw(force=True)
        else:
            self.out.write(f"bench [{self.job_index}/{self.total}] {label} ({steps} steps)\n")
            self.out.flush()

    def tick(self) -> None:
        """One step of the current job done."""
        self.done += 1
        if self.tty:
            self._draw()

    def note(self, text: str) -> None:
        """A message on its own line (a skipped size)."""
        self._clear()
        self.out.write(f"bench: {text}\n")
        self.out.flush()
        if self.tty and self.label:
            self._draw(force=True)

    def close(self) -> None:
        """Remove the bar."""
        self._clear()

    def _draw(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        frac = (self.job_index - 1 + min(self.done / self.steps, 1.0)) / self.total
        bar = "#" * int(frac * 30)
        line = (
            f"\r[{bar:<30}] {frac:4.0%} {self.job_index}/{self.total} {self.label}: "
            f"step {self.done}/{self.steps}"
        )
        pad = max(self._width - len(line), 0)
        self.out.write(line + " " * pad)
        self.out.flush()
        self._width = len(line)

    def _clear(self) -> None:
        if self.tty and self._width:
            self.out.write("\r" + " " * self._width + "\r")
            self.out.flush()
            self._width = 0


def _nothing() -> None:
    """The default tick."""


# -- the reference ---------------------------------------------------------------------------


class ReferenceEngine(Protocol):
    """What :func:`time_reference` steps (:class:`~game.bench.reference.SeedWorld`)."""

    def forces(self) -> list[Vec2d]:
        """Every vehicle's steering force."""
        ...

    def integrate(self, forces: Sequence[Vec2d], dt: float = DT) -> None:
        """Apply the forces and move every vehicle."""
        ...


@dataclass
class ReferenceTiming:
    """The reference at one size: ms of each timed step, or why it did not run.

    Attributes:
        agents: agents in the world (the player included).
        steering_ms: per timed step, every vehicle's forces.
        total_ms: per timed step, forces + integration.
        note: why the size was skipped or cut short ("" when it ran normally).
    """

    agents: int
    steering_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def ran(self) -> bool:
        """Whether any step was measured."""
        return bool(self.total_ms)

    def to_json(self) -> dict[str, Any]:
        """Medians and the note."""
        return {
            "steering_ms": _median(self.steering_ms),
            "total_ms": _median(self.total_ms),
            "steps": len(self.total_ms),
            "note": self.note,
        }


def time_reference(
    sizes: Sequence[int],
    steps: int,
    warmup: int,
    build: Callable[[int], ReferenceEngine],
    *,
    limit_s: float = STEP_LIMIT_S,
    clock: Clock = time.perf_counter,
    on_start: Callable[[str, int], None] | None = None,
    tick: Tick = _nothing,
    on_note: Callable[[str], None] | None = None,
    budget_s: float = 0.0,
    max_steps: int = 0,
) -> list[ReferenceTiming]:
    """Time the reference at ``sizes`` (ascending), never starting a step expected over the limit.

    At each size the first step (warm-up or not) is timed on its own; the next size's step is
    predicted from the last measured one (:func:`predict_step_seconds`) and the size is skipped
    when the prediction is over ``limit_s``; a step that takes longer than ``limit_s`` ends the
    series (its figure is kept when it was the size's only one).

    Args:
        sizes: crowd sizes, agents in the world.
        steps: timed steps per size (after ``warmup`` untimed ones).
        build: makes the engine at a size (only for sizes that run).
        clock: seconds, monotonic (a fake one in tests).
        on_start, tick, on_note: progress hooks.
        budget_s, max_steps: after the ``steps`` timed steps, keep stepping while the timed
            steps of the size total less than ``budget_s`` seconds and number fewer than
            ``max_steps`` (the defaults take no extra step).

    Returns:
        One :class:`ReferenceTiming` per size, in ascending order.
    """
    out: list[ReferenceTiming] = []
    last: tuple[int, float] | None = None  # (agents, seconds of one step)
    stopped = ""
    for n in sorted(sizes):
        row = ReferenceTiming(n)
        out.append(row)
        if stopped:
            row.note = stopped
        elif last is not None and (guess := predict_step_seconds(*last, n)) > limit_s:
            row.note = (
                f"skipped: a step predicted at {guess:.1f} s (N^2 from {last[1]:.2f} s at "
                f"{last[0]:,} agents), over the {limit_s:g} s limit"
            )
        else:
            if on_start is not None:
                on_start(f"reference {n:,} agents", warmup + max(steps, max_steps))
            budget = _Budget(steps, max(steps, max_steps), budget_s, limit_s)
            last, stopped = _reference_steps(build(n), row, warmup, budget, clock, tick)
            if stopped:
                row.note = stopped
                stopped = f"skipped: a step at {last[0]:,} agents took {last[1]:.1f} s"
        if row.note and on_note is not None:
            on_note(f"reference at {n:,} agents: {row.note}")
    return out


@dataclass(frozen=True)
class _Budget:
    """How many timed reference steps a size takes: ``steps``, then more up to ``max_steps``
    while they total under ``seconds``; any step over ``limit_s`` ends the size."""

    steps: int
    max_steps: int
    seconds: float
    limit_s: float

    def more(self, timed: Sequence[float]) -> bool:
        """Whether to take another timed step after ``timed`` (seconds of each)."""
        if len(timed) < self.steps:
            return True
        return len(timed) < self.max_steps and sum(timed) < self.seconds


def _reference_steps(
    engine: ReferenceEngine,
    row: ReferenceTiming,
    warmup: int,
    budget: _Budget,
    clock: Clock,
    tick: Tick,
) -> tuple[tuple[int, float], str]:
    """Step ``engine`` into ``row``; returns (agents, seconds of a step) and why it stopped."""
    limit_s = budget.limit_s
    seconds: list[float] = []
    k = 0
    while k < warmup or budget.more(seconds[warmup:]):
        t0 = clock()
        forces = engine.forces()
        t1 = clock()
        engine.integrate(forces, DT)
        t2 = clock()
        seconds.append(t2 - t0)
        tick()
        if k >= warmup or t2 - t0 > limit_s:
            row.steering_ms.append((t1 - t0) * 1000.0)
            row.total_ms.append((t2 - t0) * 1000.0)
        if t2 - t0 > limit_s:
            return (row.agents, t2 - t0), (
                f"one step took {t2 - t0:.1f} s, over the {limit_s:g} s limit: no more steps"
            )
        k += 1
    timed = seconds[warmup:] or seconds
    return (row.agents, float(np.median(timed))), ""


# -- ours ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoreTiming:
    """The core's blend on the scenario at one size (ms per step)."""

    agents: int
    steering_ms: float
    p95_ms: float
    steps: int


def time_core(
    agents: int,
    steps: int,
    warmup: int,
    level: Level | None = None,
    *,
    clock: Clock = time.perf_counter,
    tick: Tick = _nothing,
) -> CoreTiming:
    """Median ms of the core's steering on the scenario at ``agents``.

    Agents move between timed steps (the core's Euler integrator, not timed), so the neighbour
    index is rebuilt every step as in the game.
    """
    from steering import integrate

    from .scenario import build_scenario

    group, behaviour = build_scenario(agents, level).core()
    ms: list[float] = []
    for k in range(warmup + steps):
        t0 = clock()
        force = behaviour(group, DT)
        elapsed = (clock() - t0) * 1000.0
        if not np.isfinite(force).all():
            raise RuntimeError(f"non-finite steering force at {agents} agents, step {k}")
        integrate(group, force, DT)
        if k >= warmup:
            ms.append(elapsed)
        tick()
    return CoreTiming(agents, float(np.median(ms)), float(np.percentile(ms, 95)), len(ms))


@dataclass(frozen=True)
class WorldTiming:
    """``World.step`` at one size and stagger (ms per step): the whole step and its parts."""

    agents: int
    stagger: int
    median_ms: float
    p95_ms: float
    steering_ms: float
    """The ``steer`` system: every body's acceleration."""
    physics_ms: float
    """The ``physics`` system: contacts, pymunk's step, the bodies read back."""
    systems_ms: dict[str, float]
    """Every system of the step by name (:attr:`World.systems`)."""
    steps: int

    def to_json(self) -> dict[str, Any]:
        """The figures."""
        return {
            "median_ms": self.median_ms,
            "p95_ms": self.p95_ms,
            "steering_ms": self.steering_ms,
            "physics_ms": self.physics_ms,
            "systems_ms": dict(self.systems_ms),
            "steps": self.steps,
        }


def _world(level: Level, agents: int, stagger: int) -> World:
    """A fresh world on ``level`` with ``agents`` agents (the level's own ones at least)."""
    from game.world import World

    return World(level, extra_npcs=max(agents - level.agent_count, 0), stagger=stagger)


def time_world(
    level: Level,
    agents: int,
    stagger: int,
    steps: int,
    warmup: int,
    *,
    clock: Clock = time.perf_counter,
    tick: Tick = _nothing,
) -> WorldTiming:
    """Median ms of ``World.step`` on ``level`` with ``agents`` agents, and of each of its
    systems (:attr:`World.systems`, timed through the world's ``timer`` hook).

    The crowd spreads out of its spawn area during the untimed warm-up.
    """
    world = _world(level, agents, stagger)
    parts: dict[str, list[float]] = {}

    def record(system: str, seconds: float) -> None:
        parts.setdefault(system, []).append(seconds * 1000.0)

    world.timer = record
    total: list[float] = []
    for k in range(warmup + steps):
        if k == warmup:
            parts.clear()
        t0 = clock()
        world.step()
        if k >= warmup:
            total.append((clock() - t0) * 1000.0)
        tick()
    if not np.isfinite(world.agents.pos).all():
        raise RuntimeError(f"non-finite positions at {agents} agents, stagger {stagger}")
    systems = {name: float(np.median(ms)) for name, ms in parts.items()}
    return WorldTiming(
        agents=int(world.n),
        stagger=stagger,
        median_ms=float(np.median(total)),
        p95_ms=float(np.percentile(total, 95)),
        steering_ms=systems.get("steer", math.nan),
        physics_ms=systems.get("physics", math.nan),
        systems_ms=systems,
        steps=len(total),
    )


def profile_world(
    level: Level,
    out: Path,
    agents: int = PROFILE_AGENTS,
    steps: int = PROFILE_STEPS,
    warmup: int = 0,
) -> None:
    """Write a pyinstrument text profile of ``steps`` calls of ``World.step`` to ``out``.

    Raises:
        UsageError: when pyinstrument is not installed.
    """
    profiler_class = _pyinstrument()
    world = _world(level, agents, 1)
    for _ in range(warmup):
        world.step()
    profiler = profiler_class(interval=0.0005)
    profiler.start()
    for _ in range(steps):
        world.step()
    profiler.stop()
    header = (
        f"# pyinstrument: {steps} World.step calls on {level.source.name if level.source else ''}"
        f" with {world.n:,} agents, stagger 1, after {warmup} warm-up steps\n"
        f"# reproduce: python -m game bench --profile {out}\n\n"
    )
    atomic_write(out, (header + profiler.output_text(unicode=False, color=False)).encode())


def _pyinstrument() -> Any:
    """pyinstrument's ``Profiler``, imported on demand.

    Raises:
        UsageError: naming the extra that installs it.
    """
    try:
        from pyinstrument import Profiler
    except ImportError:
        raise UsageError(
            "--profile needs pyinstrument: pip install -e '.[bench]' (or pip install pyinstrument)"
        ) from None
    return Profiler


# -- the whole run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchOptions:
    """Validated options of one run (``--quick`` resolved)."""

    level: Level
    sizes: tuple[int, ...]
    reference_sizes: tuple[int, ...]
    steps: int
    warmup: int
    stagger: tuple[int, ...]
    json: Path | None = None
    profile: Path | None = None
    frames: bool = False
    frame_count: int = FRAME_COUNT
    frame_warmup: int = FRAME_WARMUP
    tune: bool = True
    #: Sizes of the per-behaviour table (empty: not measured).
    behaviour_sizes: tuple[int, ...] = ()

    @property
    def reference_steps(self) -> int:
        """Timed reference steps per size."""
        return min(self.steps, REFERENCE_STEPS)

    @property
    def reference_warmup(self) -> int:
        """Untimed reference steps per size."""
        return min(self.warmup, REFERENCE_WARMUP)

    def jobs(self) -> int:
        """How many measurements the run makes (for the progress bar)."""
        jobs = len(self.reference_sizes) + len(self.sizes) * (1 + len(self.stagger))
        if self.behaviour_sizes:
            from .behaviours import behaviour_cases

            jobs += len(behaviour_cases()) * len(self.behaviour_sizes)
        return jobs + (self.profile is not None) + (2 if self.frames else 0)


@dataclass
class BenchResult:
    """Everything one run measured."""

    options: BenchOptions
    machine: dict[str, Any]
    reference: dict[int, ReferenceTiming] = field(default_factory=dict)
    core: dict[int, CoreTiming] = field(default_factory=dict)
    world: dict[tuple[int, int], WorldTiming] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    frames: FrameReport | None = None
    profile: Path | None = None
    behaviours: list[BehaviourTiming] = field(default_factory=list)

    @property
    def all_sizes(self) -> list[int]:
        """Every size measured by either engine, ascending."""
        return sorted(set(self.options.sizes) | set(self.options.reference_sizes))

    def speedup(self, n: int) -> tuple[float | None, dict[int, float | None]]:
        """Reference / ours at ``n``: for steering, and for steering + physics per stagger."""
        ref = self.reference.get(n)
        core = self.core.get(n)
        steer = _ratio(
            _median(ref.steering_ms) if ref else None, core.steering_ms if core else None
        )
        total = {
            k: _ratio(
                _median(ref.total_ms) if ref else None,
                self.world[n, k].median_ms if (n, k) in self.world else None,
            )
            for k in self.options.stagger
        }
        return steer, total

    def exponents(self) -> dict[str, Any]:
        """Fitted exponents of every series."""
        sizes = list(self.options.sizes)
        ref_sizes = sorted(self.reference)
        return {
            "ours_steering": fit_exponent(
                sizes, [self.core[n].steering_ms if n in self.core else None for n in sizes]
            ),
            "ours_world": {
                str(k): fit_exponent(
                    sizes,
                    [self.world[n, k].median_ms if (n, k) in self.world else None for n in sizes],
                )
                for k in self.options.stagger
            },
            "reference_steering": fit_exponent(
                ref_sizes, [_median(self.reference[n].steering_ms) for n in ref_sizes]
            ),
            "reference_total": fit_exponent(
                ref_sizes, [_median(self.reference[n].total_ms) for n in ref_sizes]
            ),
        }

    def to_json(self) -> dict[str, Any]:
        """The documented JSON (see the module docstring)."""
        o = self.options
        rows = []
        for n in self.all_sizes:
            ref = self.reference.get(n)
            core = self.core.get(n)
            steer, total = self.speedup(n)
            rows.append(
                {
                    "agents": n,
                    "steered": n - 1,
                    "reference": (
                        ref.to_json()
                        if ref
                        else {"steering_ms": None, "total_ms": None, "steps": 0, "note": ""}
                    ),
                    "ours": {
                        "steering_ms": core.steering_ms if core else None,
                        "steering_p95_ms": core.p95_ms if core else None,
                        "world": {
                            str(k): self.world[n, k].to_json()
                            for k in o.stagger
                            if (n, k) in self.world
                        },
                    },
                    "speedup": {"steering": steer, "total": {str(k): v for k, v in total.items()}},
                }
            )
        from .scenario import WEIGHTS

        return {
            "machine": self.machine,
            "options": {
                "level": o.level.source.name if o.level.source else "",
                "sizes": list(o.sizes),
                "reference_sizes": list(o.reference_sizes),
                "steps": o.steps,
                "warmup": o.warmup,
                "reference_steps": o.reference_steps,
                "reference_max_steps": REFERENCE_MAX_STEPS,
                "reference_budget_s": REFERENCE_BUDGET_S,
                "reference_warmup": o.reference_warmup,
                "stagger": list(o.stagger),
                "step_limit_s": STEP_LIMIT_S,
            },
            "weights": WEIGHTS._asdict(),
            "rows": rows,
            "exponents": self.exponents(),
            "notes": list(self.notes),
            "frames": self.frames.to_json() if self.frames else None,
            "profile": str(self.profile) if self.profile else None,
            "behaviours": self._behaviours_json(),
        }

    def _behaviours_json(self) -> dict[str, Any] | None:
        o = self.options
        if not o.behaviour_sizes:
            return None
        from .behaviours import ROCKS, WALLS

        return {
            "sizes": list(o.behaviour_sizes),
            "rocks": ROCKS,
            "walls": WALLS,
            "steps": o.steps,
            "warmup": o.warmup,
            "rows": [r.to_json() for r in self.behaviours],
        }


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b is not None and b > 0 else None


def machine_info(tuned: bool) -> dict[str, Any]:
    """Versions, CPU and allocator setting of this run."""
    import pymunk
    import scipy

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "pymunk": pymunk.version,
        "platform": platform.platform(),
        "cpu": _cpu_name(),
        "cpu_count": os.cpu_count(),
        "malloc_tuned": tuned,
    }


def _cpu_name() -> str:
    """The CPU model from /proc/cpuinfo, else what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure_all(options: BenchOptions, progress: Progress, tuned: bool) -> BenchResult:
    """Run every measurement of ``options``, reporting to ``progress``."""
    from .scenario import build_scenario

    result = BenchResult(options, machine_info(tuned))
    level = options.level

    def note(text: str) -> None:
        result.notes.append(text)
        progress.note(text)

    refs = time_reference(
        options.reference_sizes,
        options.reference_steps,
        options.reference_warmup,
        lambda n: build_scenario(n, level).reference(),
        on_start=progress.job,
        tick=progress.tick,
        on_note=note,
        budget_s=REFERENCE_BUDGET_S,
        max_steps=min(options.steps, REFERENCE_MAX_STEPS),
    )
    result.reference = {r.agents: r for r in refs}
    for n in options.sizes:
        progress.job(f"ours: steering {n:,} agents", options.warmup + options.steps)
        result.core[n] = time_core(n, options.steps, options.warmup, level, tick=progress.tick)
        for k in options.stagger:
            progress.job(
                f"ours: World.step {n:,} agents, stagger {k}", options.warmup + options.steps
            )
            result.world[n, k] = time_world(
                level, n, k, options.steps, options.warmup, tick=progress.tick
            )
    if options.profile is not None:
        progress.job(f"profile: World.step {PROFILE_AGENTS:,} agents", PROFILE_STEPS)
        profile_world(level, options.profile, warmup=options.warmup)
        result.profile = options.profile
    if options.behaviour_sizes:
        from .behaviours import time_behaviours

        result.behaviours = time_behaviours(
            options.behaviour_sizes,
            options.steps,
            options.warmup,
            on_start=progress.job,
            tick=progress.tick,
        )
    if options.frames:
        from .frames import run_frames

        result.frames = run_frames(
            [FRAME_AGENTS],
            options.frame_count,
            options.frame_warmup,
            str(level.source) if level.source else "sandbox",
            on_start=progress.job,
            tick=progress.tick,
        )
    return result


# -- the report ------------------------------------------------------------------------------


def _ms(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:.2f}" if x < 10 else f"{x:.1f}"


def _times(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}x" if x >= 10 else f"{x:.1f}x"


def _k(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def format_report(result: BenchResult) -> str:
    """The run as Markdown: a header line, the comparison table, World.step's parts, notes."""
    o = result.options
    m = result.machine
    lines = [
        f"Sandbox scenario (level {o.level.source.name if o.level.source else '?'}); "
        f"{m['cpu']}, {m['cpu_count']} CPUs; Python {m['python']}, numpy {m['numpy']}, "
        f"scipy {m['scipy']}, pymunk {m['pymunk']}; malloc tuned: {m['malloc_tuned']}",
        f"Median ms per step. Reference: {o.reference_steps} steps after "
        f"{o.reference_warmup} warm-up, up to {min(o.steps, REFERENCE_MAX_STEPS)} while they "
        f"total under {REFERENCE_BUDGET_S:g} s; ours: {o.steps} steps after {o.warmup} warm-up. "
        f"N counts the player; N - 1 agents are steered.",
        "",
    ]
    head = ["agents", "reference steering", "ours steering", "x faster"]
    head += ["reference steering + physics"]
    for k in o.stagger:
        head += [f"ours World.step stagger {k}", "x faster"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---:|" * len(head))
    for n in result.all_sizes:
        ref = result.reference.get(n)
        core = result.core.get(n)
        steer, total = result.speedup(n)
        cells = [f"{n:,}"]
        cells.append(
            _ms(_median(ref.steering_ms)) if ref and ref.ran else "skipped" if ref else "-"
        )
        cells += [_ms(core.steering_ms if core else None), _times(steer)]
        cells.append(_ms(_median(ref.total_ms)) if ref and ref.ran else "skipped" if ref else "-")
        for k in o.stagger:
            w = result.world.get((n, k))
            cells += [_ms(w.median_ms if w else None), _times(total[k])]
        lines.append("| " + " | ".join(cells) + " |")
    exp = result.exponents()
    cells = ["fitted exponent", _k(exp["reference_steering"]), _k(exp["ours_steering"]), ""]
    cells.append(_k(exp["reference_total"]))
    for k in o.stagger:
        cells += [_k(exp["ours_world"][str(k)]), ""]
    lines.append("| " + " | ".join(cells) + " |")
    if result.world:
        from game.world.world import SYSTEMS

        lines += [
            "",
            "Inside World.step, system by system (median ms per step):",
            "",
            "| agents | stagger | World.step | p95 | " + " | ".join(SYSTEMS) + " |",
            "|---:|---:|---:|---:|" + "---:|" * len(SYSTEMS),
        ]
        for (_, k), w in sorted(result.world.items()):
            parts = " | ".join(_ms(w.systems_ms.get(name)) for name in SYSTEMS)
            lines.append(f"| {w.agents:,} | {k} | {_ms(w.median_ms)} | {_ms(w.p95_ms)} | {parts} |")
    if result.behaviours:
        from .behaviours import format_behaviours

        lines += ["", format_behaviours(result.behaviours, o.steps, o.warmup)]
    if result.frames is not None:
        from .frames import format_frames

        lines += ["", format_frames(result.frames)]
    if result.profile is not None:
        lines += ["", f"Profile of {PROFILE_STEPS} World.step calls written to {result.profile}"]
    if result.notes:
        lines += ["", *[f"Note: {text}" for text in result.notes]]
    return "\n".join(lines)


# -- the command -----------------------------------------------------------------------------


def add_parser(subparsers: Any) -> None:
    """Add the ``bench`` command to an ``argparse`` sub-parsers object.

    Args:
        subparsers: what ``parser.add_subparsers()`` returned.
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench",
        help="time the steering core against a seed-style reference (sandbox scenario)",
        description=(__doc__ or "").split("\n\n")[0],
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=None, help="our crowd sizes (250 1000 ... 20000)"
    )
    parser.add_argument(
        "--reference-sizes",
        type=int,
        nargs="*",
        default=None,
        help="the reference's crowd sizes (250 1000 4000; none: skip it)",
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=None,
        help=f"timed steps per measurement ({DEFAULT_STEPS}; the reference: {REFERENCE_STEPS}, "
        f"up to {REFERENCE_MAX_STEPS} while a size takes under {REFERENCE_BUDGET_S:g} s)",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=None,
        help=f"untimed steps first ({DEFAULT_WARMUP}; the reference: {REFERENCE_WARMUP} at most)",
    )
    parser.add_argument(
        "--stagger",
        type=int,
        nargs="+",
        default=list(DEFAULT_STAGGER),
        help="World.step staggers (1 4)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument(
        "--profile", type=Path, default=None, help="write a pyinstrument profile of World.step"
    )
    parser.add_argument(
        "--frames", action="store_true", help="also time whole frames (opens a headless window)"
    )
    parser.add_argument(
        "--behaviours",
        action="store_true",
        help="also time each behaviour of the steering vocabulary on its own "
        "(1000 and 10000 agents; --quick: 100 300)",
    )
    parser.add_argument(
        "--behaviour-sizes",
        type=int,
        nargs="+",
        default=None,
        help="crowd sizes of the per-behaviour table (implies --behaviours)",
    )
    parser.add_argument(
        "--levels",
        action="store_true",
        help="instead: every shipped level at its own crowd, World.step against the reference",
    )
    parser.add_argument(
        "--sweep",
        type=int,
        nargs="*",
        default=None,
        help="instead: the sandbox scaled to these crowd sizes, World.step against the "
        "reference (no sizes: 1 2 5 10 30 100 150 300 1000 3000 10000 20000)",
    )
    parser.add_argument(
        "--library",
        action="store_true",
        help="instead: the engine alone as a library, against naive per-object code "
        "(python -m steering.bench: 1 to 20,000 agents, and every behaviour at 10,000)",
    )
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    parser.add_argument("--no-tune", action="store_true", help="leave glibc malloc untuned")
    # One line on stderr for every bad option (python -m game also refuses unknown ones).
    one_line_errors(parser)


def _output_file(path: Path | None, option: str) -> Path | None:
    """Check before the run that ``path`` can be written (the run takes minutes)."""
    if path is None:
        return None
    try:
        check_output(path, what=option)
    except OutputError as exc:
        raise UsageError(str(exc)) from exc
    return path


def _write_output(path: Path, text: str) -> bool:
    """Write a result file atomically; False (and one line on stderr) when it fails."""
    try:
        atomic_write(path, text.encode("utf-8"))
    except OutputError as exc:
        sys.stderr.write(f"bench: error: {exc}\n")
        return False
    return True


def _sizes(
    values: Sequence[int], option: str, smallest: int, largest: int = MAX_AGENTS
) -> tuple[int, ...]:
    for n in values:
        if not smallest <= n <= largest:
            raise UsageError(
                f"{option} must be in {smallest}..{largest} (the level has {smallest} "
                f"agents of its own), got {n}"
            )
    return tuple(sorted(set(values)))


def options_from(args: argparse.Namespace, level: Level) -> BenchOptions:
    """Validate the parsed arguments and resolve ``--quick``.

    Raises:
        UsageError: naming the option.
    """
    quick = bool(args.quick)
    smallest = level.agent_count
    sizes = args.sizes if args.sizes is not None else QUICK_SIZES if quick else DEFAULT_SIZES
    refs = args.reference_sizes
    if refs is None:
        refs = QUICK_REFERENCE_SIZES if quick else DEFAULT_REFERENCE_SIZES
    steps = args.steps if args.steps is not None else QUICK_STEPS if quick else DEFAULT_STEPS
    warmup = args.warmup if args.warmup is not None else QUICK_WARMUP if quick else DEFAULT_WARMUP
    if not 1 <= steps <= MAX_STEPS:
        raise UsageError(f"--steps must be in 1..{MAX_STEPS:,}, got {steps}")
    if not 0 <= warmup <= MAX_STEPS:
        raise UsageError(f"--warmup must be in 0..{MAX_STEPS:,}, got {warmup}")
    for k in args.stagger:
        if not 1 <= k <= 64:
            raise UsageError(f"--stagger must be in 1..64, got {k}")
    profile = _output_file(args.profile, "--profile")
    if profile is not None:
        _pyinstrument()
    behaviour_sizes: tuple[int, ...] = ()
    if args.behaviour_sizes is not None or args.behaviours:
        from .behaviours import BEHAVIOUR_SIZES, QUICK_BEHAVIOUR_SIZES

        chosen = args.behaviour_sizes
        if chosen is None:
            chosen = QUICK_BEHAVIOUR_SIZES if quick else BEHAVIOUR_SIZES
        for n in chosen:
            if not 1 <= n <= MAX_AGENTS:
                raise UsageError(f"--behaviour-sizes must be in 1..{MAX_AGENTS}, got {n}")
        behaviour_sizes = tuple(sorted(set(chosen)))
    return BenchOptions(
        level=level,
        sizes=_sizes(sizes, "--sizes", smallest),
        reference_sizes=_sizes(refs, "--reference-sizes", smallest, MAX_REFERENCE_AGENTS),
        steps=steps,
        warmup=warmup,
        stagger=tuple(dict.fromkeys(args.stagger)),
        json=_output_file(args.json, "--json"),
        profile=profile,
        frames=bool(args.frames),
        frame_count=QUICK_FRAMES if quick else FRAME_COUNT,
        frame_warmup=QUICK_WARMUP if quick else FRAME_WARMUP,
        tune=not args.no_tune,
        behaviour_sizes=behaviour_sizes,
    )


def run(args: argparse.Namespace) -> int:
    """Run ``bench`` with parsed arguments; returns the exit status (0, or 2 on bad input).

    The table goes to stdout; progress and error lines go to stderr.
    """
    from .scenario import load_sandbox

    if args.library:
        return _run_library(args)
    try:
        options = options_from(args, load_sandbox())
    except UsageError as exc:
        sys.stderr.write(f"bench: error: {exc}\n")
        return 2
    # python -m game tuned the allocator already unless --no-tune (this call is a no-op then)
    tuned = tune_allocator() if options.tune else False
    if args.levels or args.sweep is not None:
        return _run_levels(args, options)
    progress = Progress(options.jobs(), sys.stderr)
    try:
        result = measure_all(options, progress, tuned)
    except OutputError as exc:  # the profile's folder vanished or filled up during the run
        sys.stderr.write(f"bench: error: {exc}\n")
        return 2
    finally:
        progress.close()
    sys.stdout.write(format_report(result) + "\n")
    if options.json is not None and not _write_output(
        options.json, json.dumps(result.to_json(), indent=1) + "\n"
    ):
        return 2
    return 0


def _run_library(args: argparse.Namespace) -> int:
    """``--library``: the engine's own benchmark (:mod:`steering.bench`), with Markdown tables."""
    from steering import bench as library

    argv = ["--markdown"]
    if args.sizes is not None:
        argv += ["--sizes", *map(str, args.sizes)]
    elif args.quick:
        argv += ["--sizes", "1", "2", "10", "100", "--behaviours-at", "1000"]
    if args.quick:
        argv += ["--rounds", "2", "--budget", "0.05"]
    if args.json is not None:
        try:
            check_output(args.json, what="--json")
        except OutputError as exc:
            sys.stderr.write(f"bench: error: {exc}\n")
            return 2
        argv += ["--json", str(args.json)]
    return library.main(argv)


def _run_levels(args: argparse.Namespace, options: BenchOptions) -> int:
    """``--levels`` and ``--sweep``: whole worlds, ours against the reference, side by side."""
    from game.level import load_level, shipped_levels

    from .levels import SWEEP_SIZES, format_table, level_table, sweep

    sizes = tuple(args.sweep) if args.sweep else SWEEP_SIZES
    for n in sizes:
        if not 1 <= n <= MAX_AGENTS:
            sys.stderr.write(f"bench: error: --sweep sizes must be in 1..{MAX_AGENTS}, got {n}\n")
            return 2
    steps = args.steps if args.steps is not None else 20 if args.quick else 240
    warmup = args.warmup if args.warmup is not None else 5 if args.quick else 30

    def note(text: str) -> None:
        sys.stderr.write(f"bench: {text}\n")
        sys.stderr.flush()

    report: dict[str, Any] = {"machine": machine_info(options.tune)}
    out: list[str] = []
    if args.levels:
        levels = [(p.stem, load_level(p)) for p in shipped_levels()]
        rows = level_table(levels, steps, warmup, note)
        out.append("World.step per shipped level, ours against the seed-style reference\n")
        out.append(format_table(rows, "level"))
        report["levels"] = [t.to_json() for t in rows]
    if args.sweep is not None:
        rows = sweep(options.level, sizes, steps, warmup, note)
        out.append("\nWorld.step on the sandbox scaled to N agents\n")
        out.append(format_table(rows, "N"))
        report["sweep"] = [t.to_json() for t in rows]
        ref_1000 = next((t.reference_median for t in rows if t.agents == 1000), None)
        out.append("")
        for big, target in ((10000, 34), (20000, 17)):  # issue 24's targets
            ours = next((t.ours_median for t in rows if t.agents == big), None)
            if ref_1000 is not None and ours is not None:
                out.append(
                    f"ours at {big:,} / reference at 1,000: 1/{ref_1000 / ours:.1f} "
                    f"(the target: 1/{target} or less)"
                )
    sys.stdout.write("\n".join(out) + "\n")
    if options.json is not None and not _write_output(
        options.json, json.dumps(report, indent=1) + "\n"
    ):
        return 2
    return 0
