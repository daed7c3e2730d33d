"""All behaviours together on random agents, paths, fields and rocks: finite, within limits."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from steering import (
    AgentGroup,
    Align,
    Arrive,
    AvoidObstacles,
    Cohere,
    Contain,
    FirstNonZero,
    FlowField,
    FollowFlow,
    FollowPath,
    Obstacles,
    Path,
    Pursue,
    Separate,
    TruncatedRunningSum,
    Wander,
    Weighted,
    WeightedSum,
    integrate,
)
from steering.vec import length

coords = st.floats(-2000, 2000, allow_nan=False)
points = st.integers(1, 30).flatmap(lambda n: arrays(np.float64, (n, 2), elements=coords))


@st.composite
def scenes(draw: st.DrawFn) -> tuple[AgentGroup, TruncatedRunningSum]:
    pos = draw(points)
    n = len(pos)
    # Duplicate some agents on purpose: coincident neighbours must not produce NaN.
    if n > 2 and draw(st.booleans()):
        pos[1] = pos[0]
    vel = draw(arrays(np.float64, (n, 2), elements=st.floats(-300, 300)))
    agents = AgentGroup.create(
        pos,
        vel,
        max_speed=draw(st.floats(0, 400)),
        max_force=draw(st.floats(0, 2000)),
        radius=draw(st.floats(0, 30)),
    )
    nodes = draw(arrays(np.float64, (draw(st.integers(2, 8)), 2), elements=coords))
    if draw(st.booleans()):
        nodes[1] = nodes[0]  # a zero-length segment
    path = Path(nodes, closed=draw(st.booleans()), radius=draw(st.floats(1, 80)))
    vectors = draw(arrays(np.float64, (3, 4, 2), elements=st.floats(-1, 1)))
    field = FlowField(vectors, cell=draw(st.floats(1, 200)), origin=(-300.0, -200.0))
    centres = draw(arrays(np.float64, (draw(st.integers(0, 6)), 2), elements=coords))
    rocks = Obstacles.create(
        centres.reshape(-1, 2), draw(st.floats(1, 100)) if len(centres) else np.zeros(0)
    )
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    behaviour = TruncatedRunningSum(
        [
            Contain(-2500, -2500, 2500, 2500),
            AvoidObstacles(rocks),
            Weighted(Separate(distance=draw(st.floats(0, 60))), 1.5),
            FirstNonZero([FollowPath(path), Arrive((0.0, 0.0))]),
            WeightedSum(
                [
                    Weighted(FollowFlow(field), 0.5),
                    Weighted(Align(30.0), 0.2),
                    Weighted(Cohere(30.0), 0.2),
                    Weighted(Wander(rng), 0.3),
                    Weighted(Pursue(pos[0], vel[0]), 0.1),
                ]
            ),
        ]
    )
    return agents, behaviour


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(scenes())
def test_combined_forces_are_finite_and_within_max_force(
    scene: tuple[AgentGroup, TruncatedRunningSum],
) -> None:
    agents, behaviour = scene
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            debug: dict[str, np.ndarray] = {}
            force = behaviour(agents, 1 / 60, debug)
            assert force.shape == (agents.n, 2)
            assert np.isfinite(force).all()
            assert (length(force) <= agents.max_force + 1e-9).all()
            integrate(agents, force, 1 / 60)
            assert np.isfinite(agents.pos).all() and np.isfinite(agents.vel).all()
