"""Steering inside a pymunk world: bodies steered by the engine, collisions by pymunk.

Each step reads every body's position and velocity in one batch, computes the steering forces,
writes them back in one batch and steps the space. Run: ``python examples/pymunk_world.py``
(``pip install ./packages/steering pymunk``).
"""

from __future__ import annotations

import math

import numpy as np
import pymunk

import steering as st
from steering.pymunk import BodyBridge

DT = 1.0 / 60.0


def main(seconds: float = 8.0, n: int = 30) -> dict[str, float]:
    space = pymunk.Space()
    rng = np.random.default_rng(3)
    rock_centers = [(400.0, 300.0), (250.0, 200.0), (520.0, 420.0)]
    rock_radii = [50.0, 30.0, 35.0]
    for c, r in zip(rock_centers, rock_radii, strict=True):
        space.add(pymunk.Circle(space.static_body, r, offset=c))
    bodies = []
    for x, y in rng.uniform([20, 20], [120, 580], (n, 2)):
        body = pymunk.Body(1.0, math.inf)  # no spin: the heading is the steering's
        body.position = (float(x), float(y))
        space.add(body, pymunk.Circle(body, 6.0))
        bodies.append(body)

    bridge = BodyBridge(space, bodies)
    agents = BodyBridge.agents_of(bodies, max_speed=100.0, max_force=300.0)
    rocks = st.Obstacles.create(rock_centers, rock_radii)
    steer = st.TruncatedRunningSum(
        [
            st.Weighted(st.AvoidObstacles(rocks), 1.0),
            st.Weighted(st.Separate(18.0), 1.0),
            st.Weighted(st.Arrive((760.0, 300.0), slowing_radius=120.0), 1.0),
        ]
    )
    deepest = 0.0
    for _ in range(round(seconds / DT)):
        bridge.read(agents)
        agents.update_heading(DT)
        bridge.write(steer(agents, DT))  # forces: pymunk divides by mass, as integrate does
        space.step(DT)
        for c, r in zip(rock_centers, rock_radii, strict=True):
            inside = r + 6.0 - np.hypot(*(agents.pos - c).T)
            deepest = max(deepest, float(inside.max()))
    bridge.read(agents)
    return {
        "agents past x = 650": float(np.count_nonzero(agents.pos[:, 0] > 650.0)),
        "deepest overlap with a rock (px)": deepest,
    }


if __name__ == "__main__":
    for name, value in main().items():
        print(f"{name}: {value:.1f}")
