"""The Lab in a (headless) window: every scene's screenshot after 300 frames is not blank, the
keys and the mouse drive the scene, and the title view opens the Lab."""

from __future__ import annotations

import re

import arcade
import numpy as np
import pytest

from game.cli_lab import render_scene
from game.lab import Param, Scene, find_scene, scene_classes
from game.lab.layout import CAPTION_BAND
from game.lab.panel import PANEL_WIDTH, Panel, keys_help
from game.lab.sketch import ARROW_RADII, COLORS, sketch_scene
from game.views.app import GameApp
from game.views.lab import LIST_KEYS, LIST_ROW, LabView
from tests.helpers.window import frames, press

pytestmark = pytest.mark.window


@pytest.mark.slow
@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_every_scene_screenshot_after_300_frames_is_not_blank(
    window: arcade.Window, cls: type[Scene]
) -> None:
    image = render_scene(window, cls, 5.0)
    rgb = np.asarray(image)
    assert rgb.shape[:2] == window.get_framebuffer_size()[::-1]
    view = window.current_view
    assert isinstance(view, LabView) and view.scene is not None
    assert view.scene.frame == 300 and view.scene.finite()
    world = rgb[:, PANEL_WIDTH + 10 :]  # the scene beside the panel
    assert len(np.unique(world.reshape(-1, 3), axis=0)) > 40
    assert world.std() > 4


def _lab(window: arcade.Window, name: str) -> LabView:
    view = LabView(window, find_scene(name))
    window.show_view(view)
    return view


def test_keys_select_change_pause_step_reset_and_toggle(window: arcade.Window) -> None:
    view = _lab(window, "seed_path_5_6")
    scene = view.scene
    assert scene is not None
    press(window, arcade.key.DOWN)  # predict -> target
    press(window, arcade.key.RIGHT)
    press(window, arcade.key.RIGHT)
    assert scene.p.selected == 1 and scene.p["target"] == 35.0
    press(window, arcade.key.MINUS)
    assert scene.p["target"] == 30.0
    frames(window, 3)
    assert scene.frame == 3
    press(window, arcade.key.SPACE)
    frames(window, 5)
    assert view.paused and scene.frame == 3
    press(window, arcade.key.PERIOD)
    frames(window, 5)
    assert scene.frame == 4
    press(window, arcade.key.R)
    assert scene.frame == 0 and scene.p["target"] == 30.0  # parameters survive a reset
    press(window, arcade.key.F1)
    assert not view.annotations
    press(window, arcade.key.N)
    assert view.scene is not None and view.scene.name == "seed_path_5_8"
    press(window, arcade.key.ESCAPE)
    assert view.scene is None
    frames(window, 2)  # the list draws


def test_mouse_follows_an_agent_drags_a_value_and_moves_the_target(
    window: arcade.Window,
) -> None:
    view = _lab(window, "arrive")
    scene = view.scene
    assert scene is not None and view.panel is not None
    frames(window, 30)
    # click an agent: the camera follows it and the panel shows its numbers
    sx, sy = view.world_cam.project(tuple(scene.agents.pos[2]))[:2]
    view.on_mouse_press(int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.follow == 2
    frames(window, 2)
    assert view.panel.info[0].text == "agent 3"  # counted from 1
    assert "px/s" in view.panel.info[2].text
    # drag the first parameter's value to the right
    y = view.panel.row_y(0) + 4
    before = scene.p["slowing"]
    view.on_mouse_press(200, int(y), arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_drag(260, int(y), 60, 0, arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_release(260, int(y), arcade.MOUSE_BUTTON_LEFT, 0)
    assert scene.p["slowing"] > before
    # the mouse over the world is the target
    view.on_mouse_motion(900, 300, 0, 0)
    np.testing.assert_allclose(scene.target, view.world_point(900, 300))


def test_the_title_view_opens_the_lab_and_esc_comes_back(app: GameApp) -> None:
    from game.views.title import TitleView

    app.show_title()
    press(app.window, arcade.key.L)
    lab = app.window.current_view
    assert isinstance(lab, LabView) and lab.scene is None
    press(app.window, arcade.key.ENTER)
    # the Lab opens on the basics: Seek first
    assert lab.scene is not None and lab.scene.name == scene_classes()[0].name == "seek"
    press(app.window, arcade.key.ESCAPE)
    press(app.window, arcade.key.ESCAPE)
    assert isinstance(app.window.current_view, TitleView)


@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_every_caption_and_help_line_fits_beside_the_panel(
    window: arcade.Window, cls: type[Scene]
) -> None:
    # Given the scene in a 1280 x 720 window, its caption is drawn right of the panel
    panel = Panel(cls(), 1280, 720)
    assert panel.shown
    room = 1280 - panel.caption.x - 8
    assert panel.caption.content_width <= room, f"{cls.name}: caption cut at the window edge"
    # and the panel's own lines stay on the panel, the longest state line included
    panel.update(True, True, None)
    panel.state.text = panel.state.text.replace(" 0.0 s", " 600.0 s").replace(" 0", " 36000")
    for line in (panel.title, panel.state, *panel.keys, *panel.labels):
        assert line.x + line.content_width <= PANEL_WIDTH - 8, f"{cls.name}: {line.text!r}"
    assert "36000" in panel.state.text and panel.f1.text.endswith("notes: on")
    # and the caption, which reads the sliders, still fits with every value at its widest
    for p in panel.scene.p:
        p.set(max((p.lo, p.hi, p.value), key=lambda v: len(_at(p, v))))
    panel.update(True, True, None)
    assert panel.caption.text == panel.scene.caption_text()
    assert panel.caption.content_width <= room, f"{cls.name}: {panel.caption.text!r} cut"


def _at(p: Param, value: float) -> str:
    """How parameter ``p`` reads at ``value``."""
    q = p.copy()
    q.set(value)
    return q.text()


@pytest.mark.parametrize("cls", scene_classes(), ids=lambda c: c.name)
def test_agents_are_counted_from_1_on_the_panel_as_on_the_sliders(
    window: arcade.Window, cls: type[Scene]
) -> None:
    scene = cls()
    panel = Panel(scene, 1280, 720)
    for k in range(min(scene.agents.n, 4)):
        panel.update(False, True, k)
        label = panel.info[0].text
        assert label == scene.agent_label(k)
        number = re.search(r" (\d+)$", label)
        assert (number is None and label in cls.agent_names) or int(number[1]) == k + 1
    # a slider that names an agent by its number ("vehicle 1 max speed") means the agent the
    # panel calls so, and a named agent ("hunter") is the one its sliders name
    texts = [p.label for p in scene.p] + [scene.caption_text()]
    for text in texts:
        for noun, number in re.findall(r"\b(agent|vehicle) (\d+)\b", text):
            panel.update(False, True, int(number) - 1)
            assert panel.info[0].text == f"{noun} {number}", f"{cls.name}: {text!r}"
    for name in cls.agent_names:
        assert any(name in t for t in texts), f"{cls.name}: no slider names the {name}"


def test_the_path_scenes_vehicle_1_is_the_one_its_sliders_call_vehicle_1(
    window: arcade.Window,
) -> None:
    scene = find_scene("seed_path_5_6")()
    panel = Panel(scene, 1280, 720)
    assert scene.p.items[3].label.startswith("vehicle 1 ")
    panel.update(False, True, 0)
    assert panel.info[0].text == "vehicle 1"
    panel.update(False, True, 1)
    assert panel.info[0].text == "vehicle 2"


def test_only_scenes_with_a_click_say_what_it_does(window: arcade.Window) -> None:
    assert any("add / remove a rock" in line for line in keys_help(find_scene("hide")))
    assert any("add a vehicle" in line for line in keys_help(find_scene("seed_separate_6_11")))
    assert not any("rock" in line for line in keys_help(find_scene("seek")))


def test_the_world_is_drawn_inside_its_rectangle_beside_the_panel(window: arcade.Window) -> None:
    # Given a path whose corridor (radius 50) reaches past the world's left edge
    view = _lab(window, "seed_path_5_8")
    scene = view.scene
    assert scene is not None and scene.paths[0].nodes[0, 0] - scene.p["radius"] < 0
    view.snap()
    frames(window, 1)
    box = view.world_cam.scissor
    assert box is not None
    left = view.world_cam.project((0.0, 0.0))[0]
    assert box.left == pytest.approx(left - 1, abs=1.0) and box.left > PANEL_WIDTH
    # nothing is painted between the panel and the world's border, beside the corridor
    rgb = np.asarray(arcade.get_image(0, 0, *window.get_size()).convert("RGB"))[::-1]
    strip = rgb[int(box.bottom) : int(box.top), PANEL_WIDTH + 1 : int(box.left) - 1]
    assert len(np.unique(strip.reshape(-1, 3), axis=0)) == 1
    # When the camera follows an agent, the clip stays off the panel and the caption band
    sx, sy = view.world_cam.project(tuple(scene.agents.pos[0]))[:2]
    view.on_mouse_press(int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.follow == 0
    view.snap()
    box = view.world_cam.scissor
    assert box is not None and box.left >= PANEL_WIDTH and box.bottom >= CAPTION_BAND


def test_the_selected_agents_arrows_stay_a_few_radii_long(window: arcade.Window) -> None:
    # Given seed 6.11's small world (320 x 240) seen from close, an agent followed
    view = _lab(window, "seed_separate_6_11")
    scene = view.scene
    assert scene is not None
    frames(window, 20)
    sketch = sketch_scene(scene, selected=3)
    a = scene.agents
    reach = ARROW_RADII * a.radius[3] * (1 + 1e-9)
    # the velocity and force arrows' shafts start at the agent and end within reach
    shafts = [seg for seg, color in sketch.lines if color in (COLORS["velocity"], COLORS["force"])]
    assert len(shafts) == 2
    for seg in shafts:
        assert np.allclose(seg[0, :2], a.pos[3])
        assert np.hypot(*(seg[0, 2:] - seg[0, :2])) <= reach


def test_the_scene_list_says_its_keys(window: arcade.Window) -> None:
    # Given the Lab's list of scenes
    view = LabView(window)
    window.show_view(view)
    assert view.scene is None
    # it shows which keys do what: choose, open, go back
    for key in ("Up/Down", "Enter", "Esc"):
        assert key in LIST_KEYS
    assert view.list_keys.text == LIST_KEYS
    # drawn between the last scene and the caption, on screen
    frames(window, 1)
    rgb = np.asarray(arcade.get_image(0, 0, *window.get_size()).convert("RGB"))[::-1]
    x, y = (int(v) for v in view.list_keys.position)
    line = rgb[
        window.height - y - 14 : window.height - y + 2, x : x + int(view.list_keys.content_width)
    ]
    assert len(np.unique(line.reshape(-1, 3), axis=0)) > 4
    last = view.menu.top - (len(view.menu) - 1) * LIST_ROW
    assert y + view.list_keys.content_height < last and y > view.blurb.y + 12


def test_a_seed_scene_s_panel_titles_it_plainly_with_its_source_below(
    window: arcade.Window,
) -> None:
    view = _lab(window, "seed_flow_ex5_6")
    panel = view.panel
    assert panel is not None
    assert panel.title.text == "Flow field: a designed whirlpool"
    assert panel.subtitle.text == "Seed 003 · Nature of Code, Exercise 5.6"
    # the subtitle sits between the title and the state line, inside the panel
    assert panel.state.y < panel.subtitle.y < panel.title.y
    assert panel.subtitle.content_width <= PANEL_WIDTH - 28
    frames(window, 2)
