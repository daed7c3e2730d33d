"""A parameter changed through a scene's controls changes what the core does, and clicks act."""

from __future__ import annotations

import numpy as np

from game.lab import find_scene


def _future_distance(predict: float) -> float:
    scene = find_scene("seed_path_5_6")()
    scene.p.selected = [p.key for p in scene.p].index("predict")
    scene.p.nudge(round((predict - scene.p["predict"]) / scene.p.param("predict").step))
    assert scene.p["predict"] == predict
    scene.step()
    d = scene.debug["path.future"] - scene.debug_pos
    gaps = np.hypot(*d.T)
    assert np.ptp(gaps) < 1e-9  # both vehicles, whatever their speed (the seed's rule)
    return float(gaps[0])


def test_a_larger_look_ahead_moves_the_future_point_further() -> None:
    # the future point is the look-ahead in px ahead of each vehicle, as in the seed
    assert abs(_future_distance(25.0) - 25.0) < 1e-9
    assert abs(_future_distance(75.0) - 75.0) < 1e-9


def test_a_larger_separation_pushes_more_pairs_apart() -> None:
    scene = find_scene("seed_separate_6_7")()
    scene.step()
    near = len(scene.debug["separate.pairs"])
    scene.p.set("separation", 60.0)
    scene.step()
    assert len(scene.debug["separate.pairs"]) > 3 * max(near, 1)


def test_the_vehicle_limits_reach_the_agents() -> None:
    scene = find_scene("seed_path_loop")()
    scene.p.set("max_speed", 100.0)
    for _ in range(120):
        scene.step()
    assert np.hypot(*scene.agents.vel.T).max() <= 100.0 + 1e-9


def test_the_mouse_moves_the_seek_target() -> None:
    scene = find_scene("seek")()
    scene.set_target((10.0, 10.0))
    for _ in range(240):
        scene.step()
    centre = scene.agents.pos.mean(axis=0)
    assert np.hypot(*(centre - (10.0, 10.0))) < 40.0


def test_a_click_adds_an_obstacle_and_a_second_click_removes_it() -> None:
    scene = find_scene("seed_avoid_buckland")()
    assert scene.obstacles is not None
    before = len(scene.obstacles.radii)
    spot = (600.0, 30.0)
    assert scene.click(spot)
    assert len(scene.obstacles.radii) == before + 1
    assert scene.obstacles.radii[-1] == scene.p["rock"]
    assert scene.click(spot)
    assert len(scene.obstacles.radii) == before


def test_a_click_is_ignored_where_obstacles_make_no_sense() -> None:
    scene = find_scene("wander")()
    assert not scene.click((100.0, 100.0))
    assert scene.obstacles is None


def test_an_agent_is_found_under_the_mouse() -> None:
    scene = find_scene("arrive")()
    k = 3
    assert scene.agent_at(scene.agents.pos[k] + (2.0, 1.0)) == k
    assert scene.agent_at((-500.0, -500.0)) is None


def test_the_formation_choice_changes_the_slots() -> None:
    scene = find_scene("offset_pursuit")()
    scene.step()
    wedge = scene.debug["offset.slot"].copy()
    scene.p.set("kind", 1.0)  # line
    scene.step()
    assert scene.p.choice("kind") == "line"
    assert not np.allclose(wedge[1:], scene.debug["offset.slot"][1:], atol=1.0)
