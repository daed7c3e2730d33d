"""The reference and the core agree on the direction of each behaviour's force.

Simple states where the seeds and the core are meant to do the same thing: the core's gain is
8/s against the seeds' 1/dt, so forces agree in direction (and in size when both hit max force);
the core's avoidance differs in its multiplier, braking weight and margin, so there the signs
of braking and of the lateral push agree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from pymunk import Vec2d

from benchmarks.harness.reference import SeedFlowField, SeedObstacle, SeedPath, Vehicle
from steering import (
    AgentGroup,
    AvoidObstacles,
    FlowField,
    FollowFlow,
    FollowPath,
    Obstacles,
    Path,
    Separate,
)

DT = 1 / 60


def cosine(a: Vec2d, b: np.ndarray) -> float:
    return float((a.x * b[0] + a.y * b[1]) / (a.length * math.hypot(*b)))


def test_separation_agrees_for_every_agent_of_a_trio() -> None:
    # Given three agents, one moving, 25 px separation, max force 360
    pos = [(0.0, 0.0), (10.0, 0.0), (0.0, 20.0)]
    vel = [(30.0, 0.0), (0.0, 0.0), (0.0, -10.0)]
    core = Separate(distance=25.0)(
        AgentGroup.create(pos, vel, max_speed=120.0, max_force=360.0), DT
    )
    ref = [
        Vehicle(Vec2d(*p), Vec2d(*v), maxforce=360.0, desiredseparation=25.0)
        for p, v in zip(pos, vel, strict=True)
    ]
    # Then every force points the same way, at max force in both engines
    for k, v in enumerate(ref):
        f = v.separate(ref)
        assert cosine(f, core[k]) == pytest.approx(1.0)
        assert f.length == pytest.approx(math.hypot(*core[k]))


@pytest.mark.parametrize("start", [(50.0, 40.0), (50.0, -40.0), (150.0, 30.0)])
def test_path_following_seeks_the_same_target(start: tuple[float, float]) -> None:
    # Given an agent off a straight path, moving along it at the seeds' 120 px/s
    path = Path([(0.0, 0.0), (400.0, 0.0)], radius=20.0)
    group = AgentGroup.create([start], [(120.0, 0.0)], max_speed=120.0, max_force=300.0)
    core = FollowPath(path, cruise_fraction=0.0, arrive_at_end=False)(group, DT)[0]
    seed = SeedPath([Vec2d(0.0, 0.0), Vec2d(400.0, 0.0)], radius=20.0)
    ref = Vehicle(Vec2d(*start), Vec2d(120.0, 0.0)).follow_path(seed)
    # Then both look 25 px ahead, target 25 px past the normal point, and steer the same way
    assert cosine(ref, core) == pytest.approx(1.0)


def test_path_following_agrees_to_leave_an_agent_on_the_path_alone() -> None:
    path = Path([(0.0, 0.0), (400.0, 0.0)], radius=20.0)
    group = AgentGroup.create([(50.0, 5.0)], [(120.0, 0.0)], max_speed=120.0)
    core = FollowPath(path, cruise_fraction=0.0, arrive_at_end=False)(group, DT)[0]
    seed = SeedPath([Vec2d(0.0, 0.0), Vec2d(400.0, 0.0)], radius=20.0)
    ref = Vehicle(Vec2d(50.0, 5.0), Vec2d(120.0, 0.0)).follow_path(seed)
    assert ref == Vec2d(0.0, 0.0)
    assert not core.any()


@pytest.mark.parametrize("vel", [(0.0, 0.0), (100.0, 0.0), (-30.0, 80.0)])
def test_flow_following_agrees(vel: tuple[float, float]) -> None:
    # Given a uniform current at 45 degrees
    field = FlowField.uniform(4, 4, 32.0, math.pi / 4)
    group = AgentGroup.create([(40.0, 40.0)], [vel], max_speed=120.0, max_force=300.0)
    core = FollowFlow(field, bilinear=False)(group, DT)[0]
    grid = [[Vec2d(x, y) for x, y in row] for row in field.vectors.tolist()]
    ref = Vehicle(Vec2d(40.0, 40.0), Vec2d(*vel)).follow_flow(SeedFlowField(grid, 32.0))
    assert cosine(ref, core) == pytest.approx(1.0)


@pytest.mark.parametrize("side", [1.0, -1.0], ids=["rock on the left", "rock on the right"])
@pytest.mark.parametrize("heading", [(1.0, 0.0), (0.0, 1.0), (-0.6, -0.8)])
def test_avoidance_brakes_and_pushes_away_from_the_rock(
    side: float, heading: tuple[float, float]
) -> None:
    # Given a rock 40 px ahead and 5 px to one side, the agent at half speed
    h = np.array(heading)
    left = np.array([-h[1], h[0]])
    rock = h * 40.0 + left * 5.0 * side
    group = AgentGroup.create([(0.0, 0.0)], [h * 60.0], max_speed=120.0, max_force=1e9)
    core = AvoidObstacles(Obstacles.create([rock], [10.0]))(group, DT)[0]
    vehicle = Vehicle(Vec2d(0.0, 0.0), Vec2d(*(h * 60.0)), heading=Vec2d(*h), maxforce=1e9)
    ref = vehicle.avoid_obstacles([SeedObstacle(Vec2d(*rock), 10.0)])
    ref_xy = np.array([ref.x, ref.y])
    # Then both brake (against the heading) and push to the other side of the rock
    assert ref_xy @ h < 0 and core @ h < 0
    assert np.sign(ref_xy @ left) == np.sign(core @ left) == -side
