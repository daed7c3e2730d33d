"""Level views, headless: keys move the player, Esc pauses, R restarts, runs end in the
result view, F1 and Tab do what the HUD says."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path

import arcade
import numpy as np
import pytest

from game.level import load_level, shipped_levels
from game.render.hud import BOTTOM_BAR, TOP_BAR
from game.views.app import FIXED_FRAME_CAP, GameApp, level_key
from game.views.level import END_DELAY, LevelView
from game.views.pause import PauseView
from game.views.result import ResultView
from game.views.title import TitleView
from game.world import World
from tests.helpers.window import frames, press, release

pytestmark = pytest.mark.window

LEVELS = shipped_levels()


def _level_view(app: GameApp, path: Path) -> LevelView:
    app.play(path)
    view = app.window.current_view
    assert isinstance(view, LevelView)
    return view


@pytest.mark.slow
@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.stem)
def test_keys_move_the_player_the_way_they_say(app: GameApp, path: Path) -> None:
    # Given a level and, beside it, the same world left without input (it is deterministic)
    view = _level_view(app, path)
    level = view.level
    still = World(level)
    sx, sy = level.player.x, level.player.y
    across = (arcade.key.D, 1.0) if sx < level.width_px / 2 else (arcade.key.A, -1.0)
    upward = (arcade.key.W, 1.0) if sy < level.height_px / 2 else (arcade.key.S, -1.0)

    # When the horizontal key is held for 60 frames, then the vertical one for 60 more
    moved = []
    for key, _sign in (across, upward):
        press(app.window, key)
        frames(app.window, 60)
        release(app.window, key)
        for _ in range(60):
            still.step((0.0, 0.0))
        moved.append(view.world.player_pos - still.player_pos)

    # Then the player is well off the drifting baseline the way each key says
    assert view.world.frame == 120
    assert moved[0][0] * across[1] > 60.0
    assert moved[1][1] * upward[1] > 60.0 + abs(moved[0][1])


def test_diagonal_keys_are_normalised(app: GameApp) -> None:
    view = _level_view(app, LEVELS[0])
    press(app.window, arcade.key.D)
    press(app.window, arcade.key.W)
    assert np.hypot(*view.thrust()) == pytest.approx(1.0)
    release(app.window, arcade.key.D)
    release(app.window, arcade.key.W)
    frames(app.window, 1)  # presses since the last step still count for one step
    assert view.thrust() == (0.0, 0.0)


def test_escape_pauses_and_resume_continues(app: GameApp) -> None:
    view = _level_view(app, LEVELS[0])
    frames(app.window, 10)
    press(app.window, arcade.key.ESCAPE)
    assert isinstance(app.window.current_view, PauseView)
    paused_at = view.world.frame
    frames(app.window, 30)
    assert view.world.frame == paused_at  # no simulation while paused

    press(app.window, arcade.key.ESCAPE)
    assert app.window.current_view is view
    frames(app.window, 12)
    assert view.world.frame == paused_at + 12


def test_pause_menu_restarts_and_goes_back_to_the_title(app: GameApp) -> None:
    view = _level_view(app, LEVELS[0])
    frames(app.window, 5)
    press(app.window, arcade.key.ESCAPE)
    press(app.window, arcade.key.DOWN)
    press(app.window, arcade.key.ENTER)  # "Restart"
    fresh = app.window.current_view
    assert isinstance(fresh, LevelView) and fresh is not view and fresh.world.frame == 0

    press(app.window, arcade.key.ESCAPE)
    press(app.window, arcade.key.UP)  # wraps round to "Back to the menu"
    press(app.window, arcade.key.ENTER)
    assert isinstance(app.window.current_view, TitleView)


def test_r_restarts_the_level(app: GameApp) -> None:
    view = _level_view(app, LEVELS[1])
    press(app.window, arcade.key.D)
    frames(app.window, 40)
    release(app.window, arcade.key.D)
    assert view.world.frame == 40

    press(app.window, arcade.key.R)
    fresh = app.window.current_view
    assert isinstance(fresh, LevelView) and fresh is not view
    assert fresh.world.frame == 0
    spawn = (fresh.level.player.x, fresh.level.player.y)
    assert tuple(fresh.world.player_pos) == pytest.approx(spawn)
    frames(app.window, 5)
    assert fresh.world.frame == 5


def test_each_try_is_the_next_seed_so_a_scattered_guard_stands_elsewhere(app: GameApp) -> None:
    # Given a level whose first guard's post is scattered over 200 px
    level = load_level(LEVELS[0])
    guard = replace(level.enemies[0], path="", scatter=200.0)
    level = replace(level, enemies=(guard, *level.enemies[1:]))
    app.window.show_view(LevelView(app, LEVELS[0], level=level))
    first = app.window.current_view
    assert isinstance(first, LevelView) and first.world.seed == level.seed
    posts = [tuple(first.world.roster.post[1])]
    # When the player restarts twice (R, then the pause menu's restart)
    press(app.window, arcade.key.R)
    second = app.window.current_view
    assert isinstance(second, LevelView)
    second.restart()
    third = app.window.current_view
    assert isinstance(third, LevelView)
    # Then each try is the next world seed, and the guard stands somewhere else each time
    assert (second.world.seed, third.world.seed) == (level.seed + 1, level.seed + 2)
    posts += [tuple(second.world.roster.post[1]), tuple(third.world.roster.post[1])]
    assert len(set(posts)) == 3
    # And a fresh start from the level list is the level's own seed again
    app.play(LEVELS[0])
    again = app.window.current_view
    assert isinstance(again, LevelView) and again.world.seed == load_level(LEVELS[0]).seed


def _tiny_level(tmp_path: Path, enemy: bool) -> Path:
    """A 640 x 320 corridor: player on the left, exit on the right, maybe a guard beside."""
    objects = [
        {"id": 1, "type": "player", "point": True, "x": 64, "y": 160},
        {"id": 2, "type": "exit", "x": 500, "y": 100, "width": 100, "height": 120},
    ]
    if enemy:
        objects.append({"id": 3, "type": "enemy", "point": True, "x": 130, "y": 160})
    doc = {
        "width": 20,
        "height": 10,
        "tilewidth": 32,
        "tileheight": 32,
        "properties": [{"name": "title", "type": "string", "value": "Tiny"}],
        "layers": [
            {"type": "objectgroup", "name": "o", "draworder": "topdown", "objects": objects}
        ],
    }
    path = tmp_path / ("caught.tmj" if enemy else "tiny.tmj")
    path.write_text(json.dumps(doc))
    load_level(path)
    return path


def _until_result(app: GameApp, limit: int) -> ResultView:
    for _ in range(limit):
        frames(app.window, 1, draw=False)
        result = app.window.current_view
        if isinstance(result, ResultView):
            while not result.armed:  # the panel takes keys a moment after it shows
                frames(app.window, 1, draw=False)
            return result
    raise AssertionError("no result view")


def test_winning_shows_the_result_view_and_saves_the_best_time(
    app: GameApp, tmp_path: Path
) -> None:
    view = _level_view(app, _tiny_level(tmp_path, enemy=False))
    press(app.window, arcade.key.RIGHT)
    result = _until_result(app, 600)
    assert view.world.outcome == "won"
    assert result.heading.text == "Escaped!"
    assert view.world.time < 4.0
    # the result waits a moment on the last frame before it shows
    assert view.end_timer is not None and view.end_timer <= 0 < END_DELAY
    saved = json.loads(app.progress.path.read_text())
    key = level_key(view.path)  # a level of one's own: kept under its full path
    assert saved["levels"][key]["best_time"] == pytest.approx(view.world.time)
    assert saved["levels"][key]["wins"] == 1
    assert "new best" in result.detail.text

    press(app.window, arcade.key.R)
    assert isinstance(app.window.current_view, LevelView)


def test_being_caught_shows_the_result_view(app: GameApp, tmp_path: Path) -> None:
    view = _level_view(app, _tiny_level(tmp_path, enemy=True))
    result = _until_result(app, 600)
    assert view.world.outcome == "caught"
    assert result.heading.text == "Caught!"
    assert "R retry" in result.keys.text
    assert not app.progress.path.exists()  # nothing won, nothing written
    # the player never swam: the clock never started, and the panel says so in words
    assert result.detail.text == "caught before your first move"


def test_f1_toggles_the_overlay_and_its_debug_data(app: GameApp) -> None:
    view = _level_view(app, LEVELS[3])
    assert not view.stage.debug
    press(app.window, arcade.key.F1)
    frames(app.window, 3)
    assert view.stage.debug and view.world.steering.debug_enabled
    assert "path.future" in view.world.steering.debug or "avoid.box" in view.world.steering.debug
    assert view.stage.overlay.hairlines.count > 0
    press(app.window, arcade.key.F1)
    assert not view.stage.debug


def test_paths_with_a_radius_per_segment_are_drawn_with_the_overlay(
    app: GameApp, tmp_path: Path
) -> None:
    # Given a level whose patrol path is wide, then narrow, then wide again
    doc = json.loads(LEVELS[0].read_text(encoding="utf-8"))
    objects = [o for layer in doc["layers"] for o in layer.get("objects", [])]
    path = next(o for o in objects if o.get("type") == "path" or o.get("class") == "path")
    count = len(path.get("polygon", path.get("polyline", [])))
    count -= 0 if "polygon" in path else 1
    radii = ",".join(str(12 + 30 * (k % 2)) for k in range(count))
    path.setdefault("properties", []).append({"name": "radii", "type": "string", "value": radii})
    file = tmp_path / "radii.tmj"
    file.write_text(json.dumps(doc), encoding="utf-8")
    # When it is played with the debug overlay on
    view = _level_view(app, file)
    press(app.window, arcade.key.F1)
    frames(app.window, 3)
    # Then the world's path has the radii, and the tubes and overlay are drawn
    name = path["name"]
    assert view.world.paths[name].radii.tolist() == [float(r) for r in radii.split(",")]
    assert view.stage.debug and view.stage.overlay.hairlines.count > 0
    press(app.window, arcade.key.F1)


def test_tab_without_an_editor_says_so_in_the_hud(
    app: GameApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an editor that cannot be imported (None in sys.modules makes its import fail)
    monkeypatch.setitem(sys.modules, "game.views.editor", None)
    view = _level_view(app, LEVELS[0])
    press(app.window, arcade.key.TAB)
    assert app.window.current_view is view
    assert view.stage.hud.message == "editor not available"


@pytest.mark.skipif(
    importlib.util.find_spec("game.views.editor") is None, reason="no editor module yet"
)
def test_tab_opens_the_editor_on_this_level(app: GameApp) -> None:
    view = _level_view(app, LEVELS[0])
    frames(app.window, 3)
    press(app.window, arcade.key.TAB)
    assert app.window.current_view is not view
    assert type(app.window.current_view).__module__ == "game.views.editor"
    frames(app.window, 2)


def test_a_level_opens_on_the_whole_map_and_keeps_the_zoom_the_player_picks(
    app: GameApp,
) -> None:
    # Given a level opened fresh: the whole map is on screen, the exit with it
    view = _level_view(app, LEVELS[2])
    left, bottom, right, top = view.stage.rig.visible_rect()
    level = view.level
    assert left <= 0.0 and bottom <= 0.0
    assert right >= level.width_px - 1e-6 and top >= level.height_px - 1e-6
    fitted = view.stage.rig.zoom
    # When the player zooms in twice, the next level and a restart open at that zoom
    press(app.window, arcade.key.EQUAL)
    press(app.window, arcade.key.EQUAL)
    chosen = view.stage.rig.zoom
    assert chosen == pytest.approx(fitted * 1.25**2)
    nxt = _level_view(app, LEVELS[3])
    assert nxt.stage.rig.zoom == pytest.approx(chosen)
    press(app.window, arcade.key.R)
    again = app.window.current_view
    assert isinstance(again, LevelView) and again is not nxt
    assert again.stage.rig.zoom == pytest.approx(chosen)
    # and 0 goes back to the fit, which the next level opens with again
    press(app.window, arcade.key.KEY_0)
    assert again.stage.rig.zoom == pytest.approx(
        min(
            view.stage.rig.view_size[0] / nxt.level.width_px,
            view.stage.rig.view_size[1] / nxt.level.height_px,
        )
    )
    assert _level_view(app, LEVELS[2]).stage.rig.zoom == pytest.approx(fitted)


def test_zoom_keys_stay_within_limits(app: GameApp) -> None:
    view = _level_view(app, LEVELS[0])
    for _ in range(20):
        press(app.window, arcade.key.EQUAL)
    assert view.stage.rig.zoom == pytest.approx(3.0)
    for _ in range(20):
        press(app.window, arcade.key.MINUS)
    assert view.stage.rig.zoom == pytest.approx(0.35)


def test_resizing_keeps_the_camera_inside_and_the_hud_in_the_corners(app: GameApp) -> None:
    view = _level_view(app, LEVELS[2])
    frames(app.window, 1)  # deliver events pending since the window opened
    try:
        app.window.dispatch_event("on_resize", 800, 600)
        frames(app.window, 2)
        field = 600.0 - TOP_BAR - BOTTOM_BAR  # the world is drawn between the HUD's bars
        assert view.stage.rig.view_size == (800.0, field)
        left, bottom, right, top = view.stage.rig.visible_rect()
        zoom = view.stage.rig.zoom
        assert right - left == pytest.approx(800.0 / zoom)
        assert top - bottom == pytest.approx(field / zoom)
        assert view.stage.hud.time.x == 800 - 14
    finally:
        w, h = app.window.get_size()
        app.window.dispatch_event("on_resize", w, h)
        app.window.dispatch_events()


def test_a_tap_shorter_than_a_frame_still_swims_for_one_step(app: GameApp) -> None:
    # Given a level, and D pressed and released before the next fixed step
    view = _level_view(app, LEVELS[0])
    press(app.window, arcade.key.D)
    release(app.window, arcade.key.D)
    # When one frame runs
    frames(app.window, 1)
    # Then that step swam right, and the next one (no key) does not
    assert view.world.player.inputs[-1] == (1.0, 0.0)
    frames(app.window, 1)
    assert view.world.player.inputs[-1] == (0.0, 0.0)


def test_an_overloaded_frame_runs_a_capped_number_of_steps(app: GameApp) -> None:
    # Given a level one whole second behind (a machine too slow to keep up)
    view = _level_view(app, LEVELS[0])
    before = view.world.frame
    # When arcade's own update dispatcher catches up
    app.window._dispatch_updates(1.0)
    app.window.dispatch_events()
    # Then it ran at most the cap's steps before drawing again, not 60
    assert 1 <= view.world.frame - before <= FIXED_FRAME_CAP + 1


def test_tab_after_the_level_file_turned_to_garbage_is_a_hud_message(
    app: GameApp, tmp_path: Path
) -> None:
    # Given a level being played whose file is then overwritten with garbage
    copy = tmp_path / "level.tmj"
    copy.write_bytes(LEVELS[0].read_bytes())
    view = _level_view(app, copy)
    copy.write_text("{garbage")
    # When Tab asks for the editor
    press(app.window, arcade.key.TAB)
    # Then the game goes on and the HUD says why the editor did not open
    assert app.window.current_view is view
    assert view.stage.hud.message.startswith("cannot edit level.tmj: invalid JSON")


def test_the_clock_starts_on_the_first_move(app: GameApp) -> None:
    # Given a level left open for a second with no key pressed
    view = _level_view(app, LEVELS[0])
    frames(app.window, 60)
    # Then the world ran but the clock did not, and the HUD says when it will
    assert view.world.frame == 60
    assert view.stage.seconds == 0.0 and view.stage.hud.time.text == "0:00.0"
    hud = view.stage.hud
    assert hud.flash.visible and hud.flash.text == "the clock starts when you swim"
    # When the player swims for half a second
    press(app.window, arcade.key.D)
    frames(app.window, 30)
    release(app.window, arcade.key.D)
    # Then the clock counts those steps only
    assert view.stage.seconds == pytest.approx(30 / 60)
    assert hud.time.text == "0:00.5" and not hud.flash.visible


def test_h_brings_the_hint_back(app: GameApp) -> None:
    # Given a level whose hint has faded
    view = _level_view(app, LEVELS[0])
    hud = view.stage.hud
    assert hud.hint.text and hud.hint_showing
    for _ in range(10):
        frames(app.window, 60, draw=False)
    assert not hud.hint_showing and not hud.hint.visible
    # When H is pressed
    press(app.window, arcade.key.H)
    frames(app.window, 1)
    # Then the hint shows again
    assert hud.hint_showing and hud.hint.visible
    assert "H hint" in hud.controls.text


def test_exits_are_labelled_and_the_player_ringed_at_any_zoom(app: GameApp) -> None:
    # Given the Finale, zoomed all the way out
    view = _level_view(app, LEVELS[8])
    for _ in range(12):
        press(app.window, arcade.key.MINUS)
    frames(app.window, 2)
    marks = view.stage.markers
    # Then each exit has an EXIT label just above it on screen, or just below it where
    # above is under the HUD's top bar (the Finale's exit is at the map's top)
    assert len(marks.labels) == len(view.level.exits) >= 1
    _left, bottom, _width, height = view.stage.viewport
    for text, exit_ in zip(marks.labels, view.level.exits, strict=True):
        rect = exit_.rect
        x, top = view.stage.project((rect.left + rect.width / 2, rect.top))
        _, low = view.stage.project((rect.left, rect.bottom))
        assert text.text == "EXIT"
        assert text.position[0] == pytest.approx(x, abs=1)
        assert text.position[1] > top or text.position[1] + text.content_height < low
        assert bottom <= text.position[1] and text.position[1] + 16 <= bottom + height
    # And the halo round the player is at least 14 screen px wide in radius
    assert marks.halo is not None
    px, py = view.stage.project(tuple(view.world.player_pos))
    assert marks.halo[0] == pytest.approx(px, abs=1) and marks.halo[1] == pytest.approx(py, abs=1)
    assert marks.halo[2] >= 14.0 * 0.9
