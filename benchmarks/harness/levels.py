"""Whole levels, ours against the seed-style reference: ``World.step`` against one
:class:`~benchmarks.harness.reference.Vehicle` object per agent on the same level, with the
same pymunk space stepping under both.

The reference runs any level: each vehicle follows its own path (seed 001, every segment
tried), reads the summed current of every flow region holding it (seed 003, nearest cell),
avoids every rock (seed 002, every rock tagged) and separates from every other vehicle (seed
004); drifting paths move their nodes one by one (seed 000 Exercise 5.11). Forces go to the
bodies through pymunk's per-body API, then ``space.step``, as a per-object game would.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from pymunk import Vec2d

from game.level import Level
from game.world import DT, World

from .reference import (
    MIN_DETECTION_BOX_LENGTH,
    SeedFlowField,
    SeedObstacle,
    SeedPath,
    Vehicle,
    Weights,
    limit,
)

__all__ = ["LevelReference", "LevelTiming", "scaled_level", "time_level"]

#: Weights of the reference's blend on a level (the world's: separation 1.5, goal 1.0, rocks
#: first at 2.0, a current at 1.0).
LEVEL_WEIGHTS = Weights(path=1.0, flow=1.0, avoid=2.0, separate=1.5)


@dataclass(eq=False)
class _SeedRegion:
    """One flow region for the reference: its seed field, rectangle and strength."""

    field: SeedFlowField
    left: float
    bottom: float
    right: float
    top: float
    strength: float


@dataclass(eq=False)
class _SeedDrift:
    """A drifting path's nodes, moved one by one each step (seed 000 Exercise 5.11)."""

    path: SeedPath
    base: list[tuple[float, float]]
    amp: tuple[float, float]
    freq: list[tuple[float, float]]
    phase: list[tuple[float, float]]

    def apply(self, t: float) -> None:
        ax, ay = self.amp
        for k, ((bx, by), (fx, fy), (px, py)) in enumerate(
            zip(self.base, self.freq, self.phase, strict=True)
        ):
            self.path.points[k] = Vec2d(
                bx + ax * math.sin(fx * t + px), by + ay * math.sin(fy * t + py)
            )


class LevelReference:
    """The seed-style engine on a whole level, in a world's pymunk space.

    Args:
        level: the level.
        seed: the spawn seed (the world's default: the level's).
        extra_npcs: NPCs added, as ``World``'s ``extra_npcs``.
    """

    def __init__(self, level: Level, seed: int | None = None, extra_npcs: int = 0) -> None:
        world = World(level, seed, extra_npcs)
        self.world = world  # only its spawn and its pymunk space are used
        self.space = world.physics.space
        self.bodies = list(world.physics.bodies[1 : world.n])
        self.t = 0.0
        paths: list[SeedPath] = []
        self.drifts: list[_SeedDrift] = []
        for slot in range(world.paths.n_slots):
            name = world.paths.name_at(slot)
            path = world.paths.at(slot)
            assert name is not None and path is not None
            seed_path = SeedPath(
                [Vec2d(float(x), float(y)) for x, y in path.nodes], path.radius, path.closed
            )
            paths.append(seed_path)
            drift = world.paths.drift_of(name)
            if drift is not None:
                self.drifts.append(
                    _SeedDrift(
                        seed_path,
                        [(float(x), float(y)) for x, y in drift.base_nodes],
                        (float(drift.amplitude_xy[0]), float(drift.amplitude_xy[1])),
                        [(drift.speed * a, drift.speed * b) for a, b in drift.rates.tolist()],
                        [(a, b) for a, b in drift.phases.tolist()],
                    )
                )
        self.regions = [
            _SeedRegion(
                SeedFlowField(
                    [[Vec2d(x, y) for x, y in row] for row in c.field.vectors.tolist()],
                    c.field.cell,
                    Vec2d(*c.field.origin),
                ),
                c.region.rect.left,
                c.region.rect.bottom,
                c.region.rect.right,
                c.region.rect.top,
                c.region.strength,
            )
            for c in world.currents.items
        ]
        self.rocks = [SeedObstacle(Vec2d(o.x, o.y), o.radius) for o in level.obstacles]
        crowd = world.crowd
        separation = crowd.column("separation")
        index = world.path_index[1:]
        self.vehicles = [
            Vehicle(
                Vec2d(*crowd.pos[i]),
                Vec2d(*crowd.vel[i]),
                heading=Vec2d(*crowd.heading[i]),
                maxspeed=float(crowd.max_speed[i]),
                maxforce=float(crowd.max_force[i]),
                r=float(crowd.radius[i]),
                desiredseparation=float(separation[i]),
                path=paths[int(index[i])] if index[i] >= 0 else None,
            )
            for i in range(crowd.n)
        ]
        for v, body in zip(self.vehicles, self.bodies, strict=True):
            if v.velocity.get_length_sqrd() == 0.0:
                # The seeds' vehicles start at full speed (seed 001: ``new PVector(maxspeed,
                # 0)``): a still one on its path would never steer.
                v.velocity = v.heading * v.maxspeed
                body.velocity = v.velocity
        self.weights = LEVEL_WEIGHTS

    def current(self, position: Vec2d) -> Vec2d:
        """The summed current of every region holding ``position`` (px/s)."""
        total = Vec2d(0.0, 0.0)
        for r in self.regions:
            if r.left <= position.x <= r.right and r.bottom <= position.y <= r.top:
                total = total + r.field.lookup(position) * r.strength
        return total

    def calculate(self, v: Vehicle) -> Vec2d:
        """Buckland's weighted sum for one vehicle: path or current, rocks, neighbours."""
        w = self.weights
        force = Vec2d(0.0, 0.0)
        if v.path is not None:
            force = force + v.follow_path(v.path) * w.path
        elif self.regions:
            flow = self.current(v.position)
            if flow.length > 0:
                desired = flow.scale_to_length(v.maxspeed)
                force = force + limit((desired - v.velocity) * v.gain, v.maxforce) * w.flow
        force = force + v.avoid_obstacles(self.rocks, MIN_DETECTION_BOX_LENGTH) * w.avoid
        force = force + v.separate(self.vehicles) * w.separate
        return limit(force, v.maxforce)

    def step(self) -> None:
        """One fixed step: drift, read every body, steer every vehicle, write, pymunk."""
        self.t += DT
        for drift in self.drifts:
            drift.apply(self.t)
        for v, body in zip(self.vehicles, self.bodies, strict=True):
            v.position = body.position
            v.velocity = body.velocity
            if v.velocity.get_length_sqrd() > 1e-16:
                v.heading = v.velocity.normalized()
        forces = [self.calculate(v) for v in self.vehicles]
        for v, body, f in zip(self.vehicles, self.bodies, forces, strict=True):
            body.velocity = limit(v.velocity + f * DT, v.maxspeed)
        self.space.step(DT)


@dataclass(frozen=True)
class LevelTiming:
    """Milliseconds per step of both engines on one level at one crowd size."""

    level: str
    agents: int
    reference_ms: list[float]
    ours_ms: list[float]

    @property
    def reference_median(self) -> float | None:
        return float(np.median(self.reference_ms)) if self.reference_ms else None

    @property
    def ours_median(self) -> float:
        return float(np.median(self.ours_ms))

    @property
    def ours_p95(self) -> float:
        return float(np.percentile(self.ours_ms, 95))

    @property
    def reference_p95(self) -> float | None:
        return float(np.percentile(self.reference_ms, 95)) if self.reference_ms else None

    @property
    def ratio(self) -> float | None:
        """How many times faster ours is (reference median / ours median)."""
        ref = self.reference_median
        return None if ref is None else ref / self.ours_median

    def to_json(self) -> dict[str, object]:
        return {
            "level": self.level,
            "agents": self.agents,
            "reference_median_ms": self.reference_median,
            "reference_p95_ms": self.reference_p95,
            "ours_median_ms": self.ours_median,
            "ours_p95_ms": self.ours_p95,
            "ours_p95_over_median": self.ours_p95 / self.ours_median,
            "x_faster": self.ratio,
        }


def _timed(step: Callable[[], object], steps: int, warmup: int, budget_s: float) -> list[float]:
    for _ in range(warmup):
        step()
    out: list[float] = []
    spent = 0.0
    while len(out) < steps and (len(out) < 3 or spent < budget_s):
        t0 = time.perf_counter()
        step()
        dt = time.perf_counter() - t0
        out.append(dt * 1000.0)
        spent += dt
    return out


#: Untimed steps of ours at the start of each of its blocks but the first (see time_level).
BLOCK_WARMUP = 3


def time_level(
    level: Level,
    name: str,
    *,
    extra_npcs: int = 0,
    steps: int = 200,
    warmup: int = 30,
    reference: bool = True,
    reference_budget_s: float = 4.0,
    interleave: int = 4,
) -> LevelTiming:
    """Time ``World.step`` and the reference on ``level`` side by side.

    The two engines run in alternating blocks (``interleave`` of each), so a change in the
    machine's speed during the run falls on both; each block of ours after the first starts
    with :data:`BLOCK_WARMUP` untimed steps. The reference stops early once its timed steps
    exceed ``reference_budget_s`` (it always runs three).
    """
    world = World(level, extra_npcs=extra_npcs)
    ref = LevelReference(level, extra_npcs=extra_npcs) if reference else None
    ours: list[float] = []
    theirs: list[float] = []
    idle = np.zeros(2)
    for _ in range(warmup):
        world.step(idle)
    if ref is not None:
        ref.step()
    block = max(1, steps // max(interleave, 1))
    spent = 0.0
    while len(ours) < steps:
        # Each block of ours starts with a few untimed steps: the first steps after the
        # reference's block run on caches it filled (about 2.4x the median on the small
        # levels), an effect of the alternation, not of the step, which would set the p95.
        warm = BLOCK_WARMUP if ours else 0
        ours += _timed(lambda: world.step(idle), min(block, steps - len(ours)), warm, math.inf)
        if ref is not None and (len(theirs) < 3 or spent < reference_budget_s):
            got = _timed(ref.step, block, 0, reference_budget_s - spent)
            theirs += got
            spent += sum(got) / 1000.0
    return LevelTiming(name, world.n, theirs, ours)


def scaled_level(level: Level, agents: int) -> Level:
    """``level`` with its spawns' counts scaled so that it holds ``agents`` agents (the
    player included), keeping the mix of enemies and NPCs (largest remainders; at least 1).

    Raises:
        ValueError: for fewer than one agent or a level with no spawn to scale.
    """
    if agents < 1:
        raise ValueError(f"agents: at least 1 (the player), got {agents}")
    spawns: Sequence[object] = (*level.enemies, *level.npcs)
    counts = np.array([s.count for s in spawns], dtype=np.float64)  # type: ignore[attr-defined]
    if counts.sum() <= 0:
        raise ValueError("level: no enemy or NPC spawn to scale")
    want = agents - 1
    # Every spawn keeps at least one agent while there are enough to go round.
    floor = 1 if want >= counts.size else 0
    share = floor + counts / counts.sum() * (want - floor * counts.size)
    new = np.floor(share).astype(int)
    rest = want - int(new.sum())
    if rest > 0:
        new[np.argsort(new - share)[:rest]] += 1
    k = len(level.enemies)
    enemies = tuple(
        replace(e, count=int(c)) for e, c in zip(level.enemies, new[:k], strict=True) if c > 0
    )
    npcs = tuple(
        replace(n, count=int(c)) for n, c in zip(level.npcs, new[k:], strict=True) if c > 0
    )
    return replace(level, enemies=enemies, npcs=npcs)


#: Crowd sizes of the sweep (the sandbox scaled, the player included).
SWEEP_SIZES = (1, 2, 5, 10, 30, 100, 150, 300, 1000, 3000, 10000, 20000)
#: The reference runs a size only while its step is predicted to stay under this (s).
REFERENCE_STEP_LIMIT_S = 5.0


def level_table(
    levels: Sequence[tuple[str, Level]],
    steps: int,
    warmup: int,
    progress: Callable[[str], None] = lambda _: None,
) -> list[LevelTiming]:
    """Time every level at its own crowd, ours against the reference."""
    out = []
    for name, level in levels:
        progress(f"level {name}")
        out.append(time_level(level, name, steps=steps, warmup=warmup))
    return out


def sweep(
    level: Level,
    sizes: Sequence[int],
    steps: int,
    warmup: int,
    progress: Callable[[str], None] = lambda _: None,
) -> list[LevelTiming]:
    """Time ``level`` at each crowd size (its spawns scaled down below its own crowd, extra
    NPCs above it, as ``World(extra_npcs=...)``); the reference is skipped where its step
    is predicted (quadratic in N from the last size it ran) to exceed
    :data:`REFERENCE_STEP_LIMIT_S`."""
    out: list[LevelTiming] = []
    last: tuple[int, float] | None = None
    own = level.agent_count
    for n in sizes:
        # Below the level's own crowd its spawns shrink; above it NPCs are added over its
        # spawn areas as for a stress run (a spawn scaled up would pack them into one area).
        scaled = scaled_level(level, n) if n < own else level
        extra = max(n - own, 0)
        run_ref = last is None or last[1] / 1000.0 * (n / last[0]) ** 2 <= REFERENCE_STEP_LIMIT_S
        progress(f"sweep {n} agents" + ("" if run_ref else " (reference skipped)"))
        timing = time_level(
            scaled,
            f"{n}",
            extra_npcs=extra,
            steps=steps,
            warmup=warmup,
            reference=run_ref,
            reference_budget_s=2.0 if n < 1000 else 6.0,
        )
        if timing.reference_median is not None:
            last = (max(n, 1), timing.reference_median)
        out.append(timing)
    return out


def _f(x: float | None, fmt: str = "{:.2f}") -> str:
    return "-" if x is None else fmt.format(x)


def format_table(rows: Sequence[LevelTiming], first: str) -> str:
    """A Markdown table: both engines' medians and 95th percentiles, and the ratio."""
    lines = [
        f"| {first} | agents | reference ms | p95 | ours ms | p95 | ours p95/median | x faster |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for t in rows:
        lines.append(
            f"| {t.level} | {t.agents:,} | {_f(t.reference_median)} | {_f(t.reference_p95)} "
            f"| {t.ours_median:.2f} | {t.ours_p95:.2f} | {t.ours_p95 / t.ours_median:.2f} "
            f"| {_f(t.ratio, '{:.2f}x')} |"
        )
    return "\n".join(lines)
