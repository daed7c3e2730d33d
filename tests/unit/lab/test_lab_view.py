"""The Lab in a (headless) window: every scene's screenshot after 300 frames is not blank, the
keys and the mouse drive the scene, and the title view opens the Lab."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from game.cli_lab import render_scene
from game.lab import Scene, find_scene, scene_classes
from game.lab.panel import PANEL_WIDTH
from game.lab.view import LabView
from game.views.app import GameApp
from tests.unit.views.helpers import frames, press

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
    assert view.panel.info[0].text == "agent 2"
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
    assert lab.scene is not None and lab.scene.name == scene_classes()[0].name
    press(app.window, arcade.key.ESCAPE)
    press(app.window, arcade.key.ESCAPE)
    assert isinstance(app.window.current_view, TitleView)
