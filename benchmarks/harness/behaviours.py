"""``python -m game bench --behaviours``: ms per call of each behaviour of the steering
vocabulary (hide, interpose, offset pursuit, match velocity, agent and wall avoidance, queueing,
orientation, fields of view) on its own, at 1,000 and 10,000 agents.

Every case is one behaviour on one :class:`~steering.AgentGroup`: agents uniform in a
square whose side grows with ``sqrt(N)`` (one agent per :data:`AREA_PER_AGENT` px², the
density of a busy level), each moving at 60 % of a 120 px/s max speed in a random direction.
Between timed calls the agents move by the behaviour's force (the core's Euler step, not timed),
so neighbour indexes are rebuilt every call as in the game. Hide uses :data:`ROCKS` rocks, wall
avoidance :data:`WALLS` random segments 40-160 px long, both spread over the same square, so
the walls are dense at 1,000 agents (about 18 within each agent's front feeler, a maze) and
sparse at 10,000 (about 2). Seeded: every run times the same scenes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from game.clock import DT
from steering import (
    AgentGroup,
    Align,
    AvoidAgents,
    AvoidWalls,
    Behaviour,
    Cohere,
    Face,
    Hide,
    Interpose,
    LookWhereYouAreGoing,
    MatchVelocity,
    Obstacles,
    OffsetPursuit,
    Queue,
    Separate,
    Walls,
    formation_offsets,
    integrate,
)
from steering.vec import FloatArray

__all__ = [
    "AREA_PER_AGENT",
    "BEHAVIOUR_SIZES",
    "QUICK_BEHAVIOUR_SIZES",
    "ROCKS",
    "WALLS",
    "BehaviourCase",
    "BehaviourTiming",
    "behaviour_cases",
    "format_behaviours",
    "time_behaviour",
    "time_behaviours",
]

#: Crowd sizes of the per-behaviour table (the issue's 1,000 and 10,000).
BEHAVIOUR_SIZES = (1_000, 10_000)
#: ``--quick``: a smoke test.
QUICK_BEHAVIOUR_SIZES = (100, 300)
#: One agent per this many px² (50 px apart on average).
AREA_PER_AGENT = 2_500.0
#: Rocks of the hide case; wall segments of the wall-avoidance case.
ROCKS = 100
WALLS = 1_000
#: Followers per leader in the formation case (a wedge of nine behind each tenth agent).
SQUAD = 10
#: Max speed (px/s) and max force (px/s^2) of every agent; the turn rate (rad/s) of the
#: orientation cases.
MAX_SPEED = 120.0
MAX_FORCE = 360.0
TURN_RATE = 6.0

Clock = Callable[[], float]
Tick = Callable[[], None]
#: One timed call: the forces for the group's current state.
Step = Callable[[AgentGroup, float], FloatArray]


def _nothing() -> None:
    """No progress to report."""


@dataclass(frozen=True)
class Scene:
    """The shared starting state of every case at one size."""

    side: float
    pos: FloatArray
    vel: FloatArray
    rng: np.random.Generator

    @classmethod
    def make(cls, agents: int, seed: int = 0) -> Scene:
        """``agents`` agents uniform in a square, moving at 60 % of max speed."""
        rng = np.random.default_rng(seed)
        side = math.sqrt(max(agents, 1) * AREA_PER_AGENT)
        pos = rng.uniform(0.0, side, (agents, 2))
        angle = rng.uniform(0.0, 2.0 * math.pi, agents)
        vel = 0.6 * MAX_SPEED * np.stack((np.cos(angle), np.sin(angle)), axis=1)
        return cls(side, pos, vel, rng)

    def group(self, turn_rate: float = math.inf) -> AgentGroup:
        """A fresh group in this state. With a finite ``turn_rate`` (the orientation cases)
        headings start in random directions, not along the velocity, so there is turning
        to do."""
        group = AgentGroup.create(
            self.pos,
            self.vel,
            max_speed=MAX_SPEED,
            max_force=MAX_FORCE,
            radius=8.0,
            max_turn_rate=turn_rate,
        )
        if math.isfinite(turn_rate):
            rng = np.random.default_rng(1)
            angle = rng.uniform(0.0, 2.0 * math.pi, group.n)
            group.heading[:] = np.stack((np.cos(angle), np.sin(angle)), axis=1)
        return group


@dataclass(frozen=True)
class BehaviourCase:
    """One row of the table: a name, what it runs on, and how to build it for a scene.

    Attributes:
        name: the behaviour as written in code.
        detail: what else it works on (rocks, walls, parameters), for the report.
        build: makes the group and the timed step for a scene.
        face_velocity: whether the untimed Euler step turns headings toward the velocity
            (off for the orientation cases, whose timed step turns them).
    """

    name: str
    detail: str
    build: Callable[[Scene], tuple[AgentGroup, Step]]
    face_velocity: bool = True


def _plain(
    behaviour: Behaviour, turn_rate: float = math.inf
) -> Callable[[Scene], tuple[AgentGroup, Step]]:
    def build(scene: Scene) -> tuple[AgentGroup, Step]:
        return scene.group(turn_rate), behaviour

    return build


def _hide(scene: Scene) -> tuple[AgentGroup, Step]:
    rocks = Obstacles.create(
        scene.rng.uniform(0.0, scene.side, (ROCKS, 2)), scene.rng.uniform(15.0, 40.0, ROCKS)
    )
    centre = np.array([scene.side / 2.0, scene.side / 2.0])
    hide = Hide(centre, rocks, hunter_velocity=(30.0, 0.0))
    return scene.group(), hide


def _interpose(scene: Scene) -> tuple[AgentGroup, Step]:
    s = scene.side
    return scene.group(), Interpose((0.25 * s, 0.5 * s), (0.75 * s, 0.5 * s), (0, 20), (0, -20))


def _formation(scene: Scene) -> tuple[AgentGroup, Step]:
    """Every tenth agent leads the nine after it in a wedge; leaders' slots are their own
    position (offset 0), so every agent runs the one call."""
    group = scene.group()
    n = group.n
    leader = (np.arange(n) // SQUAD) * SQUAD
    wedge = np.concatenate((np.zeros((1, 2)), formation_offsets("wedge", SQUAD - 1, 30.0)))
    offset = np.tile(wedge, (n // SQUAD + 1, 1))[:n]

    def step(agents: AgentGroup, dt: float) -> FloatArray:
        lead_vel = agents.vel[leader]
        follow = OffsetPursuit(agents.pos[leader], lead_vel, agents.heading[leader], offset)
        return follow(agents, dt)

    return group, step


def _walls(scene: Scene) -> tuple[AgentGroup, Step]:
    rng = scene.rng
    start = rng.uniform(0.0, scene.side, (WALLS, 2))
    angle = rng.uniform(0.0, 2.0 * math.pi, WALLS)
    length = rng.uniform(40.0, 160.0, WALLS)
    end = start + length[:, None] * np.stack((np.cos(angle), np.sin(angle)), axis=1)
    walls = Walls.create(np.stack((start, end), axis=1))
    return scene.group(), AvoidWalls(walls)


def _turning(behaviour: Behaviour) -> Step:
    """An orientation behaviour's timed step: its call (the request) and the heading's turn
    (:meth:`~steering.AgentGroup.update_heading` applies it, as after a physics step)."""

    def step(agents: AgentGroup, dt: float) -> FloatArray:
        force = behaviour(agents, dt)
        agents.update_heading(dt)
        return force

    return step


def _face(scene: Scene) -> tuple[AgentGroup, Step]:
    return scene.group(TURN_RATE), _turning(Face((scene.side / 2.0, scene.side / 2.0)))


def _look(scene: Scene) -> tuple[AgentGroup, Step]:
    return scene.group(TURN_RATE), _turning(LookWhereYouAreGoing())


def behaviour_cases() -> list[BehaviourCase]:
    """Every case, in the table's order."""
    return [
        BehaviourCase("Hide", f"{ROCKS} rocks, one hunter", _hide),
        BehaviourCase("Interpose", "two moving points", _interpose),
        BehaviourCase("OffsetPursuit", f"wedges of {SQUAD}, per-agent leaders", _formation),
        BehaviourCase("MatchVelocity", "one target velocity", _plain(MatchVelocity((40.0, 0.0)))),
        BehaviourCase("AvoidAgents", "time horizon 1.5 s", _plain(AvoidAgents())),
        BehaviourCase("AvoidWalls", f"{WALLS:,} segments", _walls),
        BehaviourCase("Queue", "distance 40, fov 90", _plain(Queue())),
        BehaviourCase("Face", f"one target, {TURN_RATE:g} rad/s", _face, face_velocity=False),
        BehaviourCase(
            "LookWhereYouAreGoing",
            f"{TURN_RATE:g} rad/s",
            _look,
            face_velocity=False,
        ),
        BehaviourCase("Separate", "fov 270", _plain(Separate(fov=270.0))),
        BehaviourCase("Align", "fov 270", _plain(Align(fov=270.0))),
        BehaviourCase("Cohere", "fov 270", _plain(Cohere(fov=270.0))),
    ]


@dataclass(frozen=True)
class BehaviourTiming:
    """One case at one size: ms per call."""

    name: str
    detail: str
    agents: int
    median_ms: float
    p95_ms: float
    steps: int

    def to_json(self) -> dict[str, Any]:
        """The figures."""
        return {
            "behaviour": self.name,
            "detail": self.detail,
            "agents": self.agents,
            "median_ms": self.median_ms,
            "p95_ms": self.p95_ms,
            "steps": self.steps,
        }


def time_behaviour(
    case: BehaviourCase,
    agents: int,
    steps: int,
    warmup: int,
    *,
    seed: int = 0,
    clock: Clock = time.perf_counter,
    tick: Tick = _nothing,
) -> BehaviourTiming:
    """Median and 95th percentile ms of ``steps`` calls of ``case`` at ``agents``.

    Raises:
        RuntimeError: if a call returns a non-finite force or one over max force.
    """
    group, step = case.build(Scene.make(agents, seed))
    ms: list[float] = []
    for k in range(warmup + steps):
        t0 = clock()
        force = step(group, DT)
        elapsed = (clock() - t0) * 1000.0
        if not np.isfinite(force).all():
            raise RuntimeError(f"{case.name}: non-finite force at {agents} agents, call {k}")
        if (np.hypot(force[:, 0], force[:, 1]) > group.max_force * (1 + 1e-9) + 1e-9).any():
            raise RuntimeError(f"{case.name}: force over max force at {agents} agents, call {k}")
        integrate(group, force, DT, face_velocity=case.face_velocity)
        if k >= warmup:
            ms.append(elapsed)
        tick()
    return BehaviourTiming(
        case.name,
        case.detail,
        agents,
        float(np.median(ms)),
        float(np.percentile(ms, 95)),
        len(ms),
    )


def time_behaviours(
    sizes: Sequence[int],
    steps: int,
    warmup: int,
    *,
    on_start: Callable[[str, int], None] | None = None,
    tick: Tick = _nothing,
    cases: Sequence[BehaviourCase] | None = None,
) -> list[BehaviourTiming]:
    """Every case at every size, each case's sizes in a row."""
    rows = []
    for case in behaviour_cases() if cases is None else cases:
        for n in sizes:
            if on_start is not None:
                on_start(f"behaviour: {case.name} {n:,} agents", warmup + steps)
            rows.append(time_behaviour(case, n, steps, warmup, tick=tick))
    return rows


def _ms(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.2f}" if x < 10 else f"{x:.1f}"


def format_behaviours(rows: Sequence[BehaviourTiming], steps: int, warmup: int) -> str:
    """The per-behaviour table as Markdown: one row per behaviour, median and p95 per size."""
    sizes = sorted({r.agents for r in rows})
    by = {(r.name, r.agents): r for r in rows}
    names = list(dict.fromkeys(r.name for r in rows))
    detail = {r.name: r.detail for r in rows}
    head = ["behaviour", "on"]
    for n in sizes:
        head += [f"{n:,} agents median", "p95"]
    lines = [
        f"Each behaviour on its own (ms per call; {steps} calls after {warmup} warm-up; agents "
        f"{math.sqrt(AREA_PER_AGENT):g} px apart on average, moving between calls):",
        "",
        "| " + " | ".join(head) + " |",
        "|---|---|" + "---:|" * (2 * len(sizes)),
    ]
    for name in names:
        cells = [name, detail[name]]
        for n in sizes:
            r = by.get((name, n))
            cells += [_ms(r.median_ms), _ms(r.p95_ms)] if r else ["-", "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
