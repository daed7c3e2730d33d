"""Editor edits through the window's events: the player fish follows its start while it is
dragged, the path tool makes one node per click and the panel shows the new path, and Esc
with unsaved changes asks once before it leaves."""

from __future__ import annotations

from pathlib import Path

import arcade
import pytest

from game.editor import EditModel
from game.editor.blank import create_level_file
from game.editor.tools import Tool
from game.views.app import GameApp
from game.views.editor import EditorView
from game.views.editor_input import LEAVE_ASKS
from game.views.title import TitleView
from tests.helpers.window import LEFT, frames, on_screen, press, send

pytestmark = pytest.mark.window


def _editor(app: GameApp, tmp_path: Path) -> EditorView:
    target = tmp_path / "fresh.tmj"
    create_level_file(target, (30, 20))
    view = EditorView(app, EditModel.open(target))
    app.window.show_view(view)
    frames(app.window, 2)
    return view


def _click(app: GameApp, point: tuple[float, float]) -> None:
    x, y = point
    send(app.window, "on_mouse_motion", x, y, 0, 0)
    send(app.window, "on_mouse_press", x, y, LEFT, 0)
    send(app.window, "on_mouse_release", x, y, LEFT, 0)


def test_the_fish_follows_the_start_while_it_is_dragged(app: GameApp, tmp_path: Path) -> None:
    # Given a new level in the editor, its fish drawn on the start
    view = _editor(app, tmp_path)
    start = view.model.level.player
    assert view.renderer is not None
    assert view.renderer.player_drawn_at == pytest.approx((start.x, start.y), abs=0.5)
    # When the start is dragged 100 world px up, one frame at a time
    x, y = on_screen(view, (start.x, start.y))
    z = view.camera.zoom
    send(app.window, "on_mouse_motion", x, y, 0, 0)
    send(app.window, "on_mouse_press", x, y, LEFT, 0)
    send(app.window, "on_mouse_drag", x, y + 50 * z, 0, 50 * z, LEFT, 0)
    frames(app.window, 1)
    # Then the fish is drawn on the start mid-drag, and after the release
    mid = view.model.level.player
    assert mid.y == pytest.approx(start.y + 50, abs=0.6)
    assert view.renderer.player_drawn_at == pytest.approx((mid.x, mid.y), abs=0.5)
    send(app.window, "on_mouse_drag", x, y + 100 * z, 0, 50 * z, LEFT, 0)
    send(app.window, "on_mouse_release", x, y + 100 * z, LEFT, 0)
    frames(app.window, 1)
    end = view.model.level.player
    assert end.y == pytest.approx(start.y + 100, abs=0.6)
    assert view.renderer.player_drawn_at == pytest.approx((end.x, end.y), abs=0.5)


def test_four_clicks_of_the_path_tool_make_four_nodes(app: GameApp, tmp_path: Path) -> None:
    # Given the path tool and nothing selected
    view = _editor(app, tmp_path)
    m = view.model
    press(app.window, arcade.key.KEY_2)
    assert view.tool is Tool.PATH
    m.select_object(None)
    # When it clicks four times on open water near the right edge of the map
    w = m.level.width_px
    spots = [(w - 40.0, 100.0), (w - 40.0, 200.0), (w - 140.0, 260.0), (w - 240.0, 200.0)]
    _click(app, on_screen(view, spots[0]))
    # Then the first click is one node in waiting (no path yet)
    assert len(m.level.paths) == 1 and m.path_start == spots[0]
    for spot in spots[1:]:
        _click(app, on_screen(view, spot))
    # Then there is one new path of four nodes, where the clicks were
    new = m.level.paths[-1]
    assert len(m.level.paths) == 2
    flat = [c for point in new.points for c in point]
    assert flat == pytest.approx([c for spot in spots for c in spot], abs=0.6)
    # And the panel shows the new path, not the map
    frames(app.window, 1)
    assert view.panel_layer.heading.text.startswith("path")
    assert new.name in view.panel_layer.heading.text


def test_esc_waits_for_a_second_press_when_changes_are_unsaved(
    app: GameApp, tmp_path: Path
) -> None:
    # Given an unsaved edit
    view = _editor(app, tmp_path)
    press(app.window, arcade.key.KEY_1)
    start = view.model.level.player
    x, y = on_screen(view, (start.x, start.y))
    send(app.window, "on_mouse_motion", x, y, 0, 0)
    send(app.window, "on_mouse_press", x, y, LEFT, 0)
    send(app.window, "on_mouse_release", x + 20, y, LEFT, 0)
    assert view.model.dirty
    # When Esc is pressed, the editor stays and says what Esc again does
    press(app.window, arcade.key.ESCAPE)
    assert app.window.current_view is view and view.model.notice == LEAVE_ASKS
    # Then Esc again leaves, the edit kept in the autosave
    press(app.window, arcade.key.ESCAPE)
    assert isinstance(app.window.current_view, TitleView)
    assert (tmp_path / "fresh.autosave.tmj").is_file()
