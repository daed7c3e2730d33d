"""Every scene runs headless (no window, no arcade): 300 frames with finite state, a sketch
to draw, one-line captions; the scene modules import no arcade."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from game.lab import Scene, SceneNotFoundError, find_scene, scene_classes
from game.lab.sketch import sketch_scene

SEED_SCENES = {
    "seed_path_5_6",
    "seed_path_5_8",
    "seed_path_ex5_11",
    "seed_path_loop",
    "seed_flow_5_4",
    "seed_flow_ex5_6",
    "seed_flow_ex5_7",
    "seed_flow_ex5_8",
    "seed_separate_6_7",
    "seed_separate_6_11",
    "seed_avoid_buckland",
}
BEHAVIOUR_SCENES = {
    "seek",
    "flee",
    "arrive",
    "pursue_evade",
    "wander",
    "contain",
    "flock",
    "hide",
    "interpose",
    "offset_pursuit",
    "avoid_agents",
    "walls",
    "queue",
    "orientation",
}


def test_every_seed_example_and_behaviour_has_a_scene_basics_first() -> None:
    names = [c.name for c in scene_classes()]
    assert set(names) == SEED_SCENES | BEHAVIOUR_SCENES
    # the Lab opens on the basics, and the seed examples come after every behaviour
    assert names[:3] == ["seek", "flee", "arrive"]
    assert all(n.startswith("seed_") for n in names[-len(SEED_SCENES) :])


@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_captions_are_one_line_and_seeds_name_their_source_as_a_subtitle(
    cls: type[Scene],
) -> None:
    caption = cls.default_caption()
    assert cls.title and "\n" not in caption and len(caption) <= 140
    # a learner reads the title and caption: the seed's name is the subtitle, not in them
    assert "Seed 0" not in cls.title and "NoC" not in cls.title and "Seed 0" not in caption
    assert not re.search(r"\b\d+\.\d+\b", cls.title)  # no "5.6" in a title
    if cls.name.startswith("seed_"):
        assert cls.source.startswith("Seed 00") and len(cls.source) <= 60
    else:
        assert cls.source == ""


@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_scene_runs_300_frames_with_finite_state_and_draws(cls: type[Scene]) -> None:
    scene = cls()
    start = scene.agents.pos.copy()
    for _ in range(300):
        scene.step()
        assert scene.finite(), f"{cls.name}: non-finite state at frame {scene.frame}"
    assert scene.frame == 300 and scene.time == pytest.approx(5.0)
    moved = np.hypot(*(scene.agents.pos - start[: scene.agents.n]).T)
    assert moved.max() > 10.0  # something happened
    sketch = sketch_scene(scene)
    assert sketch.triangles.shape == (3 * scene.agents.n, 2)
    assert np.isfinite(sketch.triangles).all()
    assert sketch.lines  # the world's border at least, and annotations


@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_reset_starts_again_from_the_same_state(cls: type[Scene]) -> None:
    scene = cls()
    first = scene.agents.pos.copy()
    for _ in range(30):
        scene.step()
    scene.reset()
    assert scene.frame == 0
    np.testing.assert_array_equal(scene.agents.pos, first)


def test_scene_names_match_loosely_and_a_wrong_one_is_one_line() -> None:
    assert find_scene("Path 5.6").name == "seed_path_5_6"
    assert find_scene("seed-flow-ex5-8").name == "seed_flow_ex5_8"
    assert find_scene("offset").name == "offset_pursuit"
    with pytest.raises(SceneNotFoundError) as err:
        find_scene("nothing like it")
    assert "\n" not in str(err.value) and "--list" in str(err.value)


def test_the_lab_model_imports_no_arcade() -> None:
    names = ", ".join(f"game.lab.scenes.{c.name}" for c in scene_classes())
    code = (
        f"import sys, game.lab, game.lab.sketch, game.lab.annotate, {names}\n"
        "bad = sorted(m for m in ('arcade', 'pymunk', 'pyglet') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_hide_scene_rings_every_hiding_spot_it_can_use() -> None:
    # Given the Hide scene with the hunter (the mouse) in the middle
    scene = find_scene("hide")()
    scene.set_target((320.0, 180.0))
    scene.step()
    # Then a ring marks each rock's hiding spot inside the world, on its far side from the hunter
    rings = [m for m in scene.marks if m.ring]
    assert len(rings) == 1
    spots = rings[0].points
    assert spots.shape[0] >= 3 and np.isfinite(spots).all()
    w, h = scene.size
    assert ((spots >= 0) & (spots <= (w, h))).all()
    assert scene.obstacles is not None
    hunter = np.array([320.0, 180.0])
    centres = np.asarray(scene.obstacles.centers, dtype=np.float64)
    for spot in spots:
        # the spot is farther from the hunter than some rock it hides behind
        assert (np.hypot(*(spot - hunter)) > np.hypot(*(centres - hunter).T)).any()
