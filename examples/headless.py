"""A flock that follows a closed path around a pond of rocks, with no window: the engine alone.

Run: ``python examples/headless.py`` (needs only ``pip install ./packages/steering``).
"""

from __future__ import annotations

import math

import numpy as np

import steering as st

DT = 1.0 / 60.0


def main(seconds: float = 10.0, n: int = 40) -> dict[str, float]:
    rng = np.random.default_rng(7)
    # A 16-sided loop of radius 200 around (300, 300), 30 px wide.
    ring = [(300 + 200 * math.cos(a), 300 + 200 * math.sin(a)) for a in np.arange(16) * math.pi / 8]
    path = st.Path(ring, closed=True, radius=30.0)
    rocks = st.Obstacles.create([(300, 300), (330, 250), (260, 340)], [40.0, 20.0, 25.0])
    agents = st.AgentGroup.create(rng.uniform(80, 520, (n, 2)), max_speed=90.0, radius=6.0)
    steer = st.WeightedSum(
        [
            st.Weighted(st.AvoidObstacles(rocks), 2.0),
            st.Weighted(st.Separate(20.0), 1.5),
            st.Weighted(st.FollowPath(path), 1.0),
        ]
    )
    for _ in range(round(seconds / DT)):
        st.step(agents, steer, DT)  # forces, divided by mass (1 here) and integrated: one call
    # How far each agent ended from the loop's center line, and from its nearest neighbour.
    off_path = np.abs(np.hypot(*(agents.pos - 300).T) - 200)
    gaps = np.hypot(*(agents.pos[:, None] - agents.pos[None]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    result = {
        "median distance from the path (px)": float(np.median(off_path)),
        "closest pair (px)": float(gaps.min()),
        "mean speed (px/s)": float(np.mean(np.hypot(*agents.vel.T))),
    }
    return result


if __name__ == "__main__":
    for name, value in main().items():
        print(f"{name}: {value:.1f}")
