"""The seed scenes use the seeds' own numbers (quoted from /work/shared/seeds; the seeds run at
60 frames a second, so px/frame is x 60 px/s and px/frame^2 is x 3600 px/s^2; y is flipped
from the seeds' y-down screens)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from game.lab import find_scene, place_obstacles
from game.lab.scenes import (
    _flow,
    seed_avoid_buckland,
    seed_flow_5_4,
    seed_flow_ex5_7,
    seed_path_ex5_11,
    seed_path_loop,
    seed_separate_6_7,
)


def test_example_5_6_one_segment_radius_20_predict_25_target_25() -> None:
    # seed 000: start, end = (0, HEIGHT/3), (WIDTH, 2*HEIGHT/3); radius = 20;
    # scale_to_length(25) twice; vehicle1 (0, 50) 2 / 0.02, vehicle2 (0, 180) 3 / 0.05
    scene = find_scene("seed_path_5_6")()
    path = scene.paths[0]
    np.testing.assert_allclose(path.nodes, [[0, 360 - 120], [640, 360 - 240]])
    assert path.radius == 20.0
    assert scene.p["predict"] == 25.0 and scene.p["target"] == 25.0
    np.testing.assert_allclose(scene.agents.pos, [[0, 310], [0, 180]])
    np.testing.assert_allclose(scene.agents.vel, [[120, 0], [120, 0]])
    np.testing.assert_allclose(scene.agents.max_speed, [120, 180])
    np.testing.assert_allclose(scene.agents.max_force, [72, 180])


def test_example_5_8_four_points_radius_50_predict_50() -> None:
    # seed 000 Example 5.8: add_point (0, 80), (150, 150), (450, 170), (640, 230); radius 50;
    # displacement.scale_to_length(50) for the future point, 25 for the target
    scene = find_scene("seed_path_5_8")()
    np.testing.assert_allclose(scene.paths[0].nodes, [[0, 280], [150, 210], [450, 190], [640, 130]])
    assert scene.paths[0].radius == 50.0
    assert scene.p["predict"] == 50.0 and scene.p["target"] == 25.0


def test_exercise_5_11_nodes_are_slow_vehicles_turning_back_100_px_from_the_edges() -> None:
    # node.velocity = (0, 5 * random()); node.max_speed = 0.5; node.max_force = 0.02;
    # node.boundaries(100)
    assert seed_path_ex5_11.NODE_SPEED == 30.0
    assert pytest.approx(72.0) == seed_path_ex5_11.NODE_FORCE
    assert seed_path_ex5_11.NODE_START_SPEED == 300.0
    assert seed_path_ex5_11.OFFSET == 100.0
    scene = find_scene("seed_path_ex5_11")()
    for _ in range(600):
        scene.step()
    y = scene.paths[0].nodes[:, 1]
    assert (y > 100 - 40).all() and (y < 260 + 40).all()  # they turn back near the band
    np.testing.assert_allclose(scene.paths[0].nodes[:, 0], [0, 150, 450, 640])


def test_the_processing_loop_12_vehicles_maxspeed_4_maxforce_1_radius_20() -> None:
    # size(800, 400); offset = 30; 12 vehicles; velocity (2, 0); r = 6; maxspeed = 4;
    # maxforce = 1; radius = 20; predict.mult(25); dir.mult(25); history of 100
    scene = find_scene("seed_path_loop")()
    assert scene.size == (800.0, 400.0) and seed_path_loop.OFFSET == 30.0
    path = scene.paths[0]
    assert path.closed and path.radius == 20.0
    np.testing.assert_allclose(path.nodes, [[30, 370], [770, 370], [770, 30], [400, 90], [30, 30]])
    assert scene.agents.n == 12
    np.testing.assert_allclose(scene.agents.vel, np.tile([120.0, 0.0], (12, 1)))
    assert scene.p["max_speed"] == 240.0 and scene.p["max_force"] == 3600.0
    assert scene.p["predict"] == 25.0 and scene.p["target"] == 25.0
    assert scene.agents.radius[0] == 6.0
    assert scene.trail * 2 == 100  # samples every 2 frames


@pytest.mark.parametrize(
    "name", ["seed_flow_5_4", "seed_flow_ex5_6", "seed_flow_ex5_7", "seed_flow_ex5_8"]
)
def test_flow_scenes_120_vehicles_resolution_20_random_limits(name: str) -> None:
    # FlowField(WIDTH, HEIGHT, 20) on 640 x 360; 120 vehicles; max_speed uniform(2, 5);
    # max_force uniform(0.1, 0.5)
    scene = find_scene(name)()
    scene.step()
    assert scene.size == (640.0, 360.0)
    assert scene.field is not None and scene.field.cell == 20.0
    assert (scene.field.rows, scene.field.cols) == (18, 32)
    assert scene.agents.n == _flow.VEHICLES == 120
    a = scene.agents
    assert a.max_speed.min() >= 120.0 and a.max_speed.max() <= 300.0
    assert a.max_force.min() >= 360.0 and a.max_force.max() <= 1800.0
    assert a.max_speed.std() > 20.0  # random per vehicle


def test_noise_steps_and_time_window_of_the_noise_fields() -> None:
    # xoff += 0.05 per cell; Exercise 5.7: zoff = tm_sec / 10, time_window = 2
    assert seed_flow_5_4.NOISE_STEP == 0.05
    assert find_scene("seed_flow_5_4")().p["noise"] == 0.05
    assert seed_flow_ex5_7.TIME_WINDOW == 2.0 and seed_flow_ex5_7.Z_PER_SECOND == 0.1
    scene = find_scene("seed_flow_ex5_7")()
    scene.step()
    before = scene.field.vectors.copy() if scene.field is not None else None
    for _ in range(60):  # one second: not re-made yet
        scene.step()
    assert scene.field is not None and before is not None
    np.testing.assert_array_equal(scene.field.vectors, before)
    for _ in range(70):  # past two seconds: re-made
        scene.step()
    assert not np.array_equal(scene.field.vectors, before)


def test_exercise_5_6_field_points_round_the_centre() -> None:
    scene = find_scene("seed_flow_ex5_6")()
    scene.step()
    assert scene.field is not None
    corner = scene.field.cell_centers().reshape(-1, 2) - 10.0  # j * resolution, i * resolution
    v = scene.field.vectors.reshape(-1, 2)
    # (0.5 - j/cols, 0.5 - i/rows) turned a quarter turn, clockwise as seen (rotate(-90), y down)
    u = np.stack((0.5 - corner[:, 0] / 640.0, 0.5 - corner[:, 1] / 360.0), axis=1)
    np.testing.assert_allclose(v, np.stack((-u[:, 1], u[:, 0]), axis=1), atol=1e-12)


def test_separation_100_vehicles_20_px() -> None:
    # seed 004: for i < 100: vehicles.add(...); float desiredseparation = 20 (= r * 2)
    assert seed_separate_6_7.VEHICLES == 100 and seed_separate_6_7.SEPARATION == 20.0
    scene = find_scene("seed_separate_6_7")()
    assert scene.agents.n == 100 and scene.p["separation"] == 20.0
    assert find_scene("seed_separate_6_11")().p["separation"] == 20.0


def test_buckland_placement_border_10_gap_20_braking_0_6() -> None:
    # seed 002: border = 10; MinGapBetweenObstacles = 20; yClient - radius - 40 - border;
    # const float BrakingWeight = 0.6f
    assert seed_avoid_buckland.BORDER == 10.0 and seed_avoid_buckland.MIN_GAP == 20.0
    assert seed_avoid_buckland.STATUS_BAND == 40.0
    assert find_scene("seed_avoid_buckland")().p["braking"] == 0.6
    obs = place_obstacles(np.random.default_rng(3), 12, (640, 360), 10, 30, status_band=40)
    c, r = obs.centers, obs.radii
    assert len(r) >= 6
    assert (c[:, 0] - r >= 10).all() and (c[:, 0] + r <= 630).all()
    assert (c[:, 1] - r >= 50).all() and (c[:, 1] + r <= 350).all()
    for i, j in itertools.combinations(range(len(r)), 2):
        assert math.dist(c[i], c[j]) >= r[i] + r[j] + 20.0
