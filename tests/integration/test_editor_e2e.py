"""The editor view driven end to end with mouse and key events, headless: drag a node by
screen pixels at zoom 1 and 2, Ctrl+S, and check the file on disk (and that Tiled opens it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import arcade
import pytest

from game.editor import EditModel
from game.level import LEVELS_DIR, load_level
from game.safe_io import OutputError
from game.views.app import GameApp
from game.views.editor import EditorView, PlaytestView
from game.views.editor_input import LEAVE_ASKS
from game.views.level import LevelView
from game.views.title import TitleView
from tests.helpers.window import LEFT, drag, frames, on_screen, send

pytestmark = pytest.mark.window


def objects(raw: dict[str, Any]) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    stack = [raw["layers"]]
    while stack:
        for lay in stack.pop():
            found.update({o["id"]: o for o in lay.get("objects", [])})
            stack.append(lay.get("layers", []))
    return found


@pytest.fixture
def level_file(tmp_path: Path) -> Path:
    target = tmp_path / "01_patrol.tmj"
    shutil.copyfile(LEVELS_DIR / "01_patrol.tmj", target)
    return target


def open_view(app: GameApp, path: Path) -> EditorView:
    view = EditorView(app, EditModel.open(path))
    app.window.show_view(view)
    frames(app.window, 2)
    return view


@pytest.mark.parametrize("zoom", [1.0, 2.0])
def test_drag_a_node_and_save(app: GameApp, level_file: Path, zoom: float) -> None:
    # Given the editor on a copy of a shipped level, at this zoom
    old_text = level_file.read_text(encoding="utf-8")
    old_raw = json.loads(old_text)
    view = open_view(app, level_file)
    view.camera.zoom = zoom
    path = view.model.level.paths[0]
    node = path.points[1]
    view.camera.position = node
    # When the node is dragged by (+36, -24) screen px and Ctrl+S is pressed
    drag(app.window, on_screen(view, node), 36.0, -24.0)
    frames(app.window, 2)
    send(app.window, "on_key_press", arcade.key.S, arcade.key.MOD_CTRL)
    # Then the file on disk has the node moved by the screen distance over the zoom
    saved = load_level(level_file)
    moved = saved.path_named(path.name)
    assert moved is not None
    assert moved.points[1] == pytest.approx((node[0] + 36.0 / zoom, node[1] - 24.0 / zoom))
    assert moved.points[:1] + moved.points[2:] == path.points[:1] + path.points[2:]
    # And nothing else in the file changed
    new_raw = json.loads(level_file.read_text(encoding="utf-8"))
    before, after = objects(old_raw), objects(new_raw)
    assert before.keys() == after.keys()
    assert all(after[k] == before[k] for k in before if k != path.id)
    assert {k for k in before[path.id] if before[path.id][k] != after[path.id][k]} <= {
        "polygon",
        "polyline",
    }
    strip = [{k: v for k, v in lay.items() if k != "objects"} for lay in new_raw["layers"]]
    assert strip == [{k: v for k, v in lay.items() if k != "objects"} for lay in old_raw["layers"]]
    assert {k: v for k, v in new_raw.items() if k != "layers"} == {
        k: v for k, v in old_raw.items() if k != "layers"
    }
    # And the .bak holds the old version, the model is clean, the title says so
    assert level_file.with_name(level_file.name + ".bak").read_text(encoding="utf-8") == old_text
    assert not view.model.dirty
    frames(app.window, 1)
    assert view.caption == "01_patrol.tmj - editor"
    assert "unsaved" not in view.layer.status.text


def test_dirty_title_undo_and_play_test_round_trip(app: GameApp, level_file: Path) -> None:
    # Given a node dragged in the editor
    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[0]
    drag(app.window, on_screen(view, node), 20.0, 0.0)
    frames(app.window, 1)
    assert view.caption == "01_patrol.tmj * - editor"
    assert "unsaved changes" in view.layer.status.text
    # When the level is play-tested (Tab) and the editor comes back (Tab)
    send(app.window, "on_key_press", arcade.key.TAB, 0)
    playtest = app.window.current_view
    assert isinstance(playtest, PlaytestView)
    assert playtest.world.level == view.model.level  # unsaved edit included
    frames(app.window, 5)
    send(app.window, "on_key_press", arcade.key.TAB, 0)
    # Then the editor is back with its history: Ctrl+Z undoes the drag, Ctrl+Y redoes it
    assert app.window.current_view is view
    send(app.window, "on_key_press", arcade.key.Z, arcade.key.MOD_CTRL)
    assert view.model.level.paths[0].points[0] == node and not view.model.dirty
    send(app.window, "on_key_press", arcade.key.Y, arcade.key.MOD_CTRL)
    moved = view.model.level.paths[0].points[0]
    assert moved[1] == node[1]
    assert moved[0] == pytest.approx(node[0] + 20.0 / view.camera.zoom, abs=0.02)


def test_r_in_the_play_test_plays_the_next_seed(app: GameApp, level_file: Path) -> None:
    # Given a play-test of the edited level (Tab): the level's own seed first
    view = open_view(app, level_file)
    send(app.window, "on_key_press", arcade.key.TAB, 0)
    first = app.window.current_view
    assert isinstance(first, PlaytestView)
    assert first.world.seed == view.model.level.seed
    # When the designer restarts it (R), twice
    send(app.window, "on_key_press", arcade.key.R, 0)
    second = app.window.current_view
    assert isinstance(second, PlaytestView) and second is not first
    send(app.window, "on_key_press", arcade.key.R, 0)
    third = app.window.current_view
    # Then each try is the next seed (scattered and phased enemies differ), still the edit
    assert isinstance(third, PlaytestView)
    assert (second.world.seed, third.world.seed) == (first.world.seed + 1, first.world.seed + 2)
    assert third.world.level == view.model.level


def test_the_world_follows_edits_live(app: GameApp, level_file: Path) -> None:
    # Given the editor with its world running
    view = open_view(app, level_file)
    assert view.world is not None
    name = view.model.level.paths[0].name
    live = view.world.paths[name]
    node = view.model.level.paths[0].points[2]
    # When a node is dragged while frames run
    x, y = on_screen(view, node)
    send(app.window, "on_mouse_press", x, y, LEFT, 0)
    send(app.window, "on_mouse_drag", x + 30, y, 30, 0, LEFT, 0)
    frames(app.window, 3)
    # Then the world's steering path (the same object agents follow) has moved already
    assert view.world.paths[name] is live
    dx = 30.0 / view.camera.zoom  # the editor opens fitted to the level
    assert tuple(live.nodes[2]) == pytest.approx((node[0] + dx, node[1]), abs=0.02)
    send(app.window, "on_mouse_release", x + 30, y, LEFT, 0)


def test_leaving_with_unsaved_changes_writes_the_autosave(app: GameApp, level_file: Path) -> None:
    # Given an unsaved edit
    text = level_file.read_text(encoding="utf-8")
    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[0]
    drag(app.window, on_screen(view, node), 0.0, 25.0)
    # When Esc is pressed, it asks once (the editor stays, saying what Esc again does)
    send(app.window, "on_key_press", arcade.key.ESCAPE, 0)
    assert app.window.current_view is view and view.model.notice == LEAVE_ASKS
    # And Esc again leaves the editor
    send(app.window, "on_key_press", arcade.key.ESCAPE, 0)
    # Then the title shows, the level file is untouched and the autosave holds the edit
    assert isinstance(app.window.current_view, TitleView)
    assert level_file.read_text(encoding="utf-8") == text
    auto = level_file.with_name("01_patrol.autosave.tmj")
    moved = view.model.level.paths[0].points[0]
    assert moved == pytest.approx((node[0], node[1] + 25.0 / view.camera.zoom), abs=0.02)
    assert load_level(auto).paths[0].points[0] == moved
    # And opening the editor again offers it; R recovers it
    again = open_view(app, level_file)
    assert "autosave" in again.model.notice
    send(app.window, "on_key_press", arcade.key.R, 0)
    assert again.model.level.paths[0].points[0] == moved
    assert again.model.dirty


def test_merge_markers_then_save_and_leave_lose_nothing(app: GameApp, level_file: Path) -> None:
    # Given a few edits, then merge-conflict markers put into the file from outside (issue
    # 27's repro: `edit l.tmj`, edits, a conflicted `git checkout`, Ctrl+S, Esc)
    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[0]
    drag(app.window, on_screen(view, node), 0.0, 25.0)
    moved = view.model.level.paths[0].points[0]
    conflicted = "<<<<<<< HEAD\n" + level_file.read_text(encoding="utf-8") + "=======\n>>>>>>> x\n"
    level_file.write_text(conflicted, encoding="utf-8")
    # When Ctrl+S, then Esc
    send(app.window, "on_key_press", arcade.key.S, arcade.key.MOD_CTRL)
    notice = view.model.notice
    send(app.window, "on_key_press", arcade.key.ESCAPE, 0)  # saved (to a copy): no asking
    # Then the conflicted file is as it was, the edit is in a copy beside it and in the
    # autosave, and the notice said where, in one line
    assert level_file.read_text(encoding="utf-8") == conflicted
    assert load_level(level_file.with_name("01_patrol.edited.tmj")).paths[0].points[0] == moved
    assert load_level(level_file.with_name("01_patrol.autosave.tmj")).paths[0].points[0] == moved
    assert "01_patrol.edited.tmj" in notice and "\n" not in notice
    assert isinstance(app.window.current_view, TitleView)


@pytest.mark.parametrize("first", ["esc", "close"])
def test_a_failed_autosave_keeps_the_editor_open_until_asked_again(
    app: GameApp, level_file: Path, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    # Given an unsaved edit and a disk that refuses every write
    import game.level.write as write

    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[0]
    drag(app.window, on_screen(view, node), 0.0, 25.0)

    def full(path: object, data: bytes, **_: object) -> None:
        raise OutputError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(write, "atomic_write", full)
    # When Esc is pressed, or the window is closed: the editor stays, with the edit, and
    # says why in one line (a close handler returning True stops the close)
    if first == "esc":
        send(app.window, "on_key_press", arcade.key.ESCAPE, 0)  # asks first
        assert view.model.notice == LEAVE_ASKS
        send(app.window, "on_key_press", arcade.key.ESCAPE, 0)
    else:
        assert view._on_close() is True
    assert app.window.current_view is view and view.model.dirty
    assert "autosave failed" in view.model.notice and "No space left" in view.model.notice
    assert "\n" not in view.model.notice
    # And after another edit the same action asks again (its answer was for the old level)
    drag(app.window, on_screen(view, view.model.level.paths[0].points[0]), 0.0, 10.0)
    if first == "esc":
        send(app.window, "on_key_press", arcade.key.ESCAPE, 0)  # asks first
        send(app.window, "on_key_press", arcade.key.ESCAPE, 0)
        assert app.window.current_view is view
    else:
        assert view._on_close() is True
    # Then the same action again, nothing edited since, goes without the autosave (the
    # designer's choice)
    if first == "esc":
        send(app.window, "on_key_press", arcade.key.ESCAPE, 0)
        assert isinstance(app.window.current_view, TitleView)
    else:
        assert view._on_close() is False


def test_a_crash_in_an_editor_frame_writes_the_autosave_first(
    app: GameApp, level_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[0]
    drag(app.window, on_screen(view, node), 0.0, 25.0)
    moved = view.model.level.paths[0].points[0]

    def boom(*args: object) -> None:
        raise ValueError("y1 must be greater than or equal to y0")

    monkeypatch.setattr(view.layer, "draw_world", boom)
    with pytest.raises(ValueError, match="y1 must be"):
        view.on_draw()
    assert load_level(level_file.with_name("01_patrol.autosave.tmj")).paths[0].points[0] == moved
    monkeypatch.undo()


@pytest.mark.skipif(shutil.which("tiled") is None, reason="the Tiled map editor is not installed")
def test_saved_file_still_opens_in_tiled(app: GameApp, level_file: Path, tmp_path: Path) -> None:
    # Given a level edited and saved in the editor
    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[1]
    drag(app.window, on_screen(view, node), 10.0, 10.0)
    send(app.window, "on_key_press", arcade.key.S, arcade.key.MOD_CTRL)
    # When Tiled converts it to TMX (it must parse it to do so)
    out = tmp_path / "out.tmx"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        ["tiled", "--export-map", "tmx", str(level_file), str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    # Then it succeeds and the TMX has the path
    assert result.returncode == 0, result.stderr
    assert view.model.level.paths[0].name in out.read_text(encoding="utf-8")


def test_tab_in_a_level_opens_the_editor_on_its_running_world(
    app: GameApp, level_file: Path
) -> None:
    # Given a level being played for a few frames
    app.play(level_file)
    level_view = app.window.current_view
    assert isinstance(level_view, LevelView)
    frames(app.window, 10)
    world = level_view.world
    # When Tab is pressed
    send(app.window, "on_key_press", arcade.key.TAB, 0)
    # Then the editor shows that level, over the same running world
    editor = app.window.current_view
    assert isinstance(editor, EditorView)
    assert editor.world is world and editor.model.source == level_file
    frames(app.window, 5)
    assert world.frame == 15


def test_a_finished_play_test_records_nothing(app: GameApp, level_file: Path) -> None:
    # Given a play-test of the edited level
    view = open_view(app, level_file)
    send(app.window, "on_key_press", arcade.key.F5, 0)
    playtest = app.window.current_view
    assert isinstance(playtest, PlaytestView)
    # When its run ends (the player teleported into the exit)
    exit_rect = view.model.level.exits[0].rect
    playtest.world.physics.bodies[0].position = exit_rect.center
    frames(app.window, 3)
    # Then it says so, stays, records no best time, and Tab still returns to the editor
    assert playtest.world.outcome == "won"
    assert app.window.current_view is playtest
    assert app.progress.record("01_patrol").wins == 0
    send(app.window, "on_key_press", arcade.key.TAB, 0)
    assert app.window.current_view is view


def test_the_play_test_keeps_the_editors_work_on_close_and_on_a_crash(
    app: GameApp, level_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an unsaved edit, then a play-test (F5)
    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[0]
    drag(app.window, on_screen(view, node), 0.0, 25.0)
    moved = view.model.level.paths[0].points[0]
    send(app.window, "on_key_press", arcade.key.F5, 0)
    test_view = app.window.current_view
    assert isinstance(test_view, PlaytestView)
    # When the window is asked to close while the autosave cannot be written: the close is
    # refused (the editor's handler is listening during the play-test)
    import game.level.write as write

    def full(path: object, data: bytes, **_: object) -> None:
        raise OutputError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(write, "atomic_write", full)
    app.window.dispatch_event("on_close")
    assert not app.window.closed and app.window.current_view is test_view
    monkeypatch.undo()

    # And when the play-test's world crashes, the autosave is written first
    def boom(*args: object) -> str:
        raise RuntimeError("a world that breaks")

    monkeypatch.setattr(test_view.world, "step", boom)
    with pytest.raises(RuntimeError, match="breaks"):
        test_view.on_fixed_update(1 / 60)
    assert load_level(level_file.with_name("01_patrol.autosave.tmj")).paths[0].points[0] == moved
    monkeypatch.undo()
    send(app.window, "on_key_press", arcade.key.F5, 0)
    assert app.window.current_view is view


def test_the_window_title_follows_the_view(
    app: GameApp, level_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (a headless window keeps no title: record what the views set)
    titles: list[str] = []
    monkeypatch.setattr(app.window, "set_caption", titles.append)
    # Given the editor on a level, its title naming the file
    view = open_view(app, level_file)
    frames(app.window, 1)
    assert titles[-1] == "01_patrol.tmj - editor"
    # When the level is play-tested, the title names the level, not the editor
    send(app.window, "on_key_press", arcade.key.TAB, 0)
    assert isinstance(app.window.current_view, PlaytestView)
    assert titles[-1] == f"{view.model.level.title} - Steering: deep water"
    # and back in the editor it names the file again
    send(app.window, "on_key_press", arcade.key.TAB, 0)
    frames(app.window, 1)
    assert app.window.current_view is view and titles[-1] == "01_patrol.tmj - editor"
    # and on the title screen, the game alone
    app.show_title()
    assert titles[-1] == "Steering: deep water"


@pytest.mark.parametrize("swap", ["fifo", "link to /dev/zero"])
def test_ctrl_s_over_a_file_swapped_for_a_fifo_or_device_does_not_freeze(
    app: GameApp, level_file: Path, swap: str
) -> None:
    # Given the editor with an edit, and the level file swapped while it runs (issue 43: a
    # FIFO there froze the window; a symlink to /dev/zero was read whole)
    import signal

    view = open_view(app, level_file)
    node = view.model.level.paths[0].points[0]
    drag(app.window, on_screen(view, node), 0.0, 25.0)
    level_file.unlink()
    if swap == "fifo":
        os.mkfifo(level_file)
    else:
        level_file.symlink_to("/dev/zero")

    def hung(*_: object) -> None:
        raise TimeoutError("Ctrl+S blocked")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)  # a blocking open of the FIFO is interrupted by this
    try:
        # When Ctrl+S is pressed
        send(app.window, "on_key_press", arcade.key.S, arcade.key.MOD_CTRL)
        frames(app.window, 2)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    # Then the edit went beside the file, which is left as it is, and the notice says why
    assert not view.model.dirty
    assert view.model.source == level_file.with_name("01_patrol.edited.tmj")
    assert load_level(view.model.source).paths[0].points[0] != node
    assert "not a regular file" in view.model.notice
    assert level_file.is_symlink() or level_file.is_fifo()
