"""The editor's HUD as a designer reads it: a long refusal is shown whole, wrapped left of
the property panel, not cut off at the window's edge."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.editor import EditModel
from game.editor.blank import create_level_file
from game.views.app import GameApp
from game.views.editor import EditorView
from game.views.editor_panel import PANEL_W

from .helpers import frames

pytestmark = pytest.mark.window


@pytest.fixture
def view(app: GameApp, tmp_path: Path) -> EditorView:
    target = tmp_path / "a_level_with_a_rather_long_file_name.tmj"
    create_level_file(target, (40, 24))
    editor = EditorView(app, EditModel.open(target))
    app.window.show_view(editor)
    frames(app.window, 2)
    return editor


def test_a_long_refusal_is_shown_whole_left_of_the_panel(view: EditorView) -> None:
    # Given a map size typed that the level's objects refuse (the loader's long message)
    panel, model = view.panel, view.model
    panel.begin_typing(model, "width")
    panel.text = "9"
    assert not panel.commit(model)
    assert "a_level_with_a_rather_long_file_name.tmj: object" in model.notice
    # When a frame is drawn
    frames(view.window, 1)
    # Then the whole message is on screen, wrapped on lines left of the panel
    notice = view.layer.notice
    assert notice.text == model.notice
    width = view.window.get_size()[0]
    assert notice.x + notice.content_width <= width - PANEL_W
    assert notice.content_height > 1.5 * notice.font_size
    # And the status line keeps to the file, the tool and the flags
    assert model.notice not in view.layer.status.text
    assert "tool: select" in view.layer.status.text

