"""What a play-test of the Lab found, each pinned by a test: Buckland's wanderers wrap round
the world instead of being pinned at an edge; the queue scene forms a line at its door;
captions read the sliders' live values; agents are drawn as big as their radii. (The panel's
and the list's texts are tested with a window, in test_lab_view.)"""

from __future__ import annotations

import re

import numpy as np
import pytest

from game.lab import Scene, find_scene, scene_classes
from game.lab.sketch import sketch_scene


def _track(name: str, seconds: float) -> tuple[np.ndarray, tuple[float, float]]:
    """(frames, agents, 2) positions of scene ``name`` over ``seconds``, and its world size."""
    scene = find_scene(name)()
    frames = round(seconds * 60)
    track = np.empty((frames, scene.agents.n, 2))
    for t in range(frames):
        scene.step()
        track[t] = scene.agents.pos
    return track, scene.size


def test_bucklands_wanderers_wrap_round_the_world_and_none_is_pinned() -> None:
    # Given seed 002's wanderers among the rocks for 20 simulated seconds
    track, (w, h) = _track("seed_avoid_buckland", 20.0)
    # every position stays inside the world: leaving one edge enters at the opposite one
    assert (track >= 0.0).all() and (track[..., 0] < w).all() and (track[..., 1] < h).all()
    jumps = np.abs(np.diff(track, axis=0))
    assert (jumps[..., 0] > w / 2).any() or (jumps[..., 1] > h / 2).any(), "nobody wrapped"
    # and no agent stays inside a 20 px box for more than 2 s (pinned against an edge)
    window = 120
    for t0 in range(0, track.shape[0] - window, 10):
        spread = np.ptp(track[t0 : t0 + window], axis=0).max(axis=1)  # per agent
        assert (spread > 20.0).all(), f"agent {int(np.argmin(spread)) + 1} pinned at {t0} frames"


def test_the_queue_scene_forms_a_line_at_the_door_not_a_clump() -> None:
    # Given the crowd walking to the door for 20 s, then watched for 5 s more
    from game.lab.scenes.queue import WALL_X

    track, (_, h) = _track("queue", 25.0)
    door = np.array([WALL_X, h / 2])
    for pos in track[20 * 60 :: 30]:
        # the agents waiting before the door, within 200 px of it
        near = pos[(pos[:, 0] < WALL_X) & (np.hypot(*(pos - door).T) < 200.0)]
        assert len(near) >= 4
        # are strung out along the approach (x), not a blob: spread along it far exceeds across
        along, across = near[:, 0].std(), near[:, 1].std()
        assert along > 4.0 * across + 1.0, f"a clump: {along:.1f} px along, {across:.1f} across"


def test_a_caption_reads_the_slider_it_names() -> None:
    # Given Example 5.6's caption, which names the path's radius
    scene = find_scene("seed_path_5_6")()
    assert "radius 20 px" in scene.caption_text()
    # When the slider is set to 32, the caption says 32 (and the list keeps the default)
    scene.p.set("radius", 32.0)
    assert "radius 32 px" in scene.caption_text() and "20" not in scene.caption_text()
    assert "radius 20 px" in type(scene).default_caption()


@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_no_caption_bakes_in_a_parameters_value(cls: type[Scene]) -> None:
    # A number in the caption equal to a parameter's value is that parameter, read live:
    # moving the parameter changes the caption
    for p in cls.PARAMS:
        if p.choices:
            continue
        scene = cls()
        number = re.escape(f"{p.value:g}")
        if not re.search(rf"(?<![\w.]){number}(?![\d.])", scene.caption_text()):
            continue
        before = scene.caption_text()
        scene.p.set(p.key, p.hi if p.value != p.hi else p.lo)
        assert scene.caption_text() != before, f"{p.key} = {p.value:g} is baked in the caption"


@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_every_agent_is_drawn_as_big_as_its_radius(cls: type[Scene]) -> None:
    # the dart's corners lie on the agent's circle: the drawn size is the radius
    scene = cls()
    for _ in range(3):
        scene.step()
    a = scene.agents
    corners = sketch_scene(scene).triangles.reshape(a.n, 3, 2)
    reach = np.hypot(*(corners - a.pos[:, None, :]).transpose(2, 0, 1))
    np.testing.assert_allclose(reach, np.repeat(a.radius[:, None], 3, axis=1), atol=1e-9)


@pytest.mark.parametrize("name", ["seed_separate_6_7", "seed_separate_6_11"])
def test_separated_vehicles_are_drawn_half_the_separation_wide(name: str) -> None:
    # Given the seed's 20 px separation, each vehicle is a 10 px radius (the seed's r * 2):
    # two vehicles kept 20 px apart just touch and never look as if they overlapped
    scene = find_scene(name)()
    assert scene.p["separation"] == 20.0
    np.testing.assert_array_equal(scene.agents.radius, 10.0)
    # and the drawn size follows the slider
    scene.p.set("separation", 32.0)
    scene.step()
    np.testing.assert_array_equal(scene.agents.radius, 16.0)
    tips = sketch_scene(scene).triangles.reshape(scene.agents.n, 3, 2)[:, 0]
    np.testing.assert_allclose(np.hypot(*(tips - scene.agents.pos).T), 16.0)
    assert scene.click((100.0, 100.0)) and scene.agents.radius[-1] == 16.0
