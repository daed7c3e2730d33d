"""The shared scenario: both engines start from the sandbox world's crowd, identically."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.harness.reference import DT
from benchmarks.harness.scenario import WEIGHTS, Scenario, build_scenario, load_sandbox
from game.world import World
from steering import FollowPath, Weighted

N = 260


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return build_scenario(N)


def test_the_scenario_is_the_worlds_starting_crowd(scenario: Scenario) -> None:
    level = load_sandbox()
    world = World(level, extra_npcs=N - level.agent_count)
    assert scenario.agents == world.n == N
    assert scenario.n == N - 1
    np.testing.assert_array_equal(scenario.pos, world.crowd.pos)
    np.testing.assert_array_equal(scenario.max_speed, world.crowd.max_speed)
    np.testing.assert_array_equal(scenario.separation, world.crowd.column("separation"))
    np.testing.assert_array_equal(scenario.path_index, world.path_index[1:])
    assert (scenario.path_index >= 0).sum() == 1  # the sandbox's patroller
    assert len(scenario.rock_radii) == len(level.obstacles)


def test_both_engines_get_identical_starting_states(scenario: Scenario) -> None:
    ref = scenario.reference()
    group, _ = scenario.core()
    vs = ref.vehicles
    assert len(vs) == group.n == scenario.n
    np.testing.assert_array_equal([tuple(v.position) for v in vs], group.pos)
    np.testing.assert_array_equal([tuple(v.velocity) for v in vs], group.vel)
    np.testing.assert_array_equal([tuple(v.heading) for v in vs], group.heading)
    np.testing.assert_array_equal([v.maxspeed for v in vs], group.max_speed)
    np.testing.assert_array_equal([v.maxforce for v in vs], group.max_force)
    np.testing.assert_array_equal([v.r for v in vs], group.radius)
    np.testing.assert_array_equal([v.desiredseparation for v in vs], group.state["separation"])
    followers = [k for k, v in enumerate(vs) if v.path is not None]
    assert followers == np.flatnonzero(scenario.path_index >= 0).tolist()
    ring = scenario.paths[0]
    assert [tuple(p) for p in vs[followers[0]].path.points] == list(ring.points)
    np.testing.assert_array_equal([tuple(o.pos) for o in ref.obstacles], scenario.rock_centres)
    np.testing.assert_array_equal([o.radius for o in ref.obstacles], scenario.rock_radii)
    np.testing.assert_array_equal(
        [[tuple(c) for c in row] for row in ref.flow.field], scenario.field.vectors
    )
    assert ref.weights == WEIGHTS


def test_both_engines_blend_the_same_behaviours_with_the_same_weights(scenario: Scenario) -> None:
    group, blend = scenario.core()
    parts = [p for p in blend.parts if isinstance(p, Weighted)]
    weights = [p.weight for p in parts]
    assert weights == [WEIGHTS.path, WEIGHTS.flow, WEIGHTS.avoid, WEIGHTS.separate]
    follow = parts[0].behaviour
    assert isinstance(follow, FollowPath)
    np.testing.assert_array_equal(group.state["path.index"], scenario.path_index)


def test_the_first_forces_point_mostly_the_same_way(scenario: Scenario) -> None:
    ref = np.array([tuple(f) for f in scenario.reference().forces()])
    group, blend = scenario.core()
    core = blend(group, DT)
    both = (np.hypot(*ref.T) > 1e-6) & (np.hypot(*core.T) > 1e-6)
    cos = (ref * core).sum(axis=1)[both] / (np.hypot(*ref.T) * np.hypot(*core.T))[both]
    assert both.mean() > 0.9
    assert np.mean(cos > 0.9) > 0.8


def test_fewer_agents_than_the_level_has_is_an_error() -> None:
    with pytest.raises(ValueError, match="agents"):
        build_scenario(10)
