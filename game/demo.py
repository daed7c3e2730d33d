"""A headless demonstration of the steering core: a crowd on a path through a current and rocks.

``python -m game demo`` prints, once per simulated second, what the crowd is doing, so the engine
can be watched working without a window.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.clock import DT
from steering import (
    AgentGroup,
    AvoidObstacles,
    Contain,
    FlowField,
    FollowFlow,
    FollowPath,
    Obstacles,
    Path,
    Separate,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
    integrate,
)
from steering.vec import length

__all__ = ["DemoScene", "build_scene", "run_demo"]

log = logging.getLogger(__name__)


@dataclass
class DemoScene:
    """Everything the demo steps: agents, the shared data and the blended behaviour."""

    agents: AgentGroup
    path: Path
    rocks: Obstacles
    field: FlowField
    behaviour: TruncatedRunningSum
    size: tuple[float, float]


def build_scene(n: int, seed: int = 0, size: tuple[float, float] = (1600.0, 900.0)) -> DemoScene:
    """A field of rocks, a closed patrol path, a noise current and N agents at random places."""
    w, h = size
    rng = np.random.default_rng(seed)
    path = Path(
        [[0.15 * w, 0.2 * h], [0.85 * w, 0.2 * h], [0.85 * w, 0.8 * h], [0.15 * w, 0.8 * h]],
        closed=True,
        radius=30.0,
    )
    centres = np.array([[0.5 * w, 0.2 * h], [0.85 * w, 0.5 * h], [0.5 * w, 0.8 * h], [0.3, 0.5]])
    centres[3] *= (w, h)
    rocks = Obstacles.create(centres, rng.uniform(25, 45, len(centres)))
    field = FlowField.noise(rows=int(h // 32), cols=int(w // 32), cell=32.0, scale=0.08, seed=seed)
    spots = rng.uniform((40, 40), (w - 40, h - 40), (4 * n + 16, 2))
    gaps = np.linalg.norm(spots[:, None] - rocks.centers[None], axis=2) - rocks.radii - 12.0
    spots = spots[(gaps > 0).all(axis=1)][:n]
    agents = AgentGroup.create(
        spots,
        max_speed=rng.uniform(100, 180, n),
        max_force=rng.uniform(300, 500, n),
        radius=7.0,
    )
    behaviour = TruncatedRunningSum(
        [
            Contain(0, 0, w, h),
            AvoidObstacles(rocks),
            Weighted(Separate(distance=20.0), 1.5),
            WeightedSum([Weighted(FollowPath(path), 1.0), Weighted(FollowFlow(field), 0.3)]),
        ]
    )
    return DemoScene(agents, path, rocks, field, behaviour, size)


def _report(scene: DemoScene, t: float, ms: list[float]) -> str:
    a = scene.agents
    proj = scene.path.project(a.pos)
    on_path = float(np.mean(proj.distance <= scene.path.radius))
    gaps = np.linalg.norm(a.pos[:, None, :] - scene.rocks.centers[None], axis=2)
    clearance = float(np.min(gaps - scene.rocks.radii[None] - a.radius[:, None]))
    return (
        f"t={t:5.1f}s  agents={a.n}  mean speed={float(np.mean(length(a.vel))):6.1f} px/s  "
        f"on path={on_path:6.1%}  closest rock gap={clearance:6.1f} px  "
        f"step={float(np.median(ms)):5.2f} ms"
    )


def run_demo(
    n: int = 300, seconds: float = 10.0, seed: int = 0, out: Callable[[str], None] = print
) -> DemoScene:
    """Run the demo scene for ``seconds`` simulated seconds, reporting once per second."""
    scene = build_scene(n, seed)
    out(
        f"Steering demo: {n} agents follow a closed path (radius {scene.path.radius:.0f} px) "
        f"through a noise current, around {len(scene.rocks)} rocks, keeping 20 px apart."
    )
    steps = round(seconds / DT)
    ms: list[float] = []
    for k in range(1, steps + 1):
        t0 = time.perf_counter()
        force = scene.behaviour(scene.agents, DT)
        ms.append((time.perf_counter() - t0) * 1000)
        integrate(scene.agents, force, DT)
        if k % 60 == 0 or k == steps:
            out(_report(scene, k * DT, ms))
            ms.clear()
    return scene
