"""The bench's measuring: the seed-style reference and our core and ``World.step``, timed.

* The reference (:mod:`benchmarks.harness.reference`): steering = every vehicle's forces; steering +
  physics = forces + the seeds' Euler integration. It runs only while one of its steps stays
  under :data:`STEP_LIMIT_S`: the first step at each size is timed on its own, the next size's
  step is predicted from it by the quadratic growth of separation, and a size whose prediction
  is over the limit is skipped with a note. A step that itself goes over the limit ends the
  reference series;
* ours: steering = the core's blend on the same agents (:meth:`Scenario.core`, the same
  behaviours and weights as the reference's); steering + physics = the real ``World.step`` on the
  sandbox with N agents (brains, pymunk and the batch transfer), at any stagger.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from game.clock import DT
from game.safe_io import atomic_write

if TYPE_CHECKING:
    from pymunk import Vec2d

    from game.level import Level
    from game.world import World

__all__ = [
    "PROFILE_AGENTS",
    "PROFILE_STEPS",
    "REFERENCE_BUDGET_S",
    "REFERENCE_MAX_STEPS",
    "REFERENCE_STEPS",
    "REFERENCE_WARMUP",
    "STEP_LIMIT_S",
    "CoreTiming",
    "ReferenceEngine",
    "ReferenceTiming",
    "UsageError",
    "WorldTiming",
    "median_or_none",
    "predict_step_seconds",
    "profile_world",
    "pyinstrument_profiler",
    "time_core",
    "time_reference",
    "time_world",
]

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

Clock = Callable[[], float]
Tick = Callable[[], None]


class UsageError(Exception):
    """A bad option value (reported as one line, exit status 2)."""


def predict_step_seconds(measured_agents: int, measured_s: float, agents: int) -> float:
    """A step at ``agents`` predicted from one at ``measured_agents``: separation compares every
    pair, so cost grows with N^2 (an upper bound for the parts that grow linearly)."""
    return measured_s * (agents / measured_agents) ** 2


def median_or_none(values: Sequence[float]) -> float | None:
    """The median of ``values``; None when there are none (a size that did not run)."""
    return float(np.median(values)) if values else None


def _nothing() -> None:
    """The default tick."""


# -- the reference ---------------------------------------------------------------------------


class ReferenceEngine(Protocol):
    """What :func:`time_reference` steps (:class:`~benchmarks.harness.reference.SeedWorld`)."""

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
            "steering_ms": median_or_none(self.steering_ms),
            "total_ms": median_or_none(self.total_ms),
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
    profiler_class = pyinstrument_profiler()
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


def pyinstrument_profiler() -> Any:
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
