"""The editor's HUD as a designer reads it: a long refusal is shown whole, wrapped left of
the property panel, and the panel's long values and choice lists wrap whole inside it at
1280 x 720, never cut off."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.editor import EditModel
from game.editor.blank import create_level_file
from game.editor.objects import Ref
from game.views.app import GameApp
from game.views.editor import EditorView
from game.views.editor_panel import PANEL_W
from tests.helpers.window import frames

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
    assert notice.text.replace("\u200b", "") == model.notice
    width = view.window.get_size()[0]
    assert notice.x + notice.content_width <= width - PANEL_W
    assert notice.content_height > 1.5 * notice.font_size
    # And the status line keeps to the file, the tool and the flags
    assert model.notice not in view.layer.status.text
    assert "tool: select" in view.layer.status.text


def test_long_values_wrap_whole_inside_the_panel(view: EditorView) -> None:
    # Given a long hint set in the map's panel (the window is 1280 x 720)
    panel, model, layer = view.panel, view.model, view.panel_layer
    hint = "Reefs cross the sea. The fish queue through the gaps; the guard sees far."
    panel.begin_typing(model, "hint")
    panel.text = hint
    assert panel.commit(model) and model.level.hint == hint
    frames(view.window, 1)
    right = view.window.get_size()[0]
    # Then its value shows whole, no ellipsis, wrapped on lines inside the window
    k = [r.name for r in layer.rows].index("hint")
    value = layer.values[k]
    assert value.text.startswith(hint) and "\u2026" not in value.text
    assert value.content_height > 1.5 * value.font_size
    assert value.x + value.content_width <= right
    # And the rows after it start below its last line (no overlap)
    bottom, top = layer.bands[k]
    assert top - bottom >= value.content_height
    assert layer.bands[k + 1][1] <= bottom
    # And while it is typed, all of it shows, with the cursor at the end
    panel.begin_typing(model, "hint")
    panel.backspace()
    frames(view.window, 1)
    assert value.text.startswith(hint[:-1] + "_") and value.x + value.content_width <= right
    # And the panel's own help line fits too, and no text anywhere is cut
    assert layer.hint.x + layer.hint.content_width <= right
    assert not any("\u2026" in t.text for t in layer.values)


def test_every_choice_list_reads_whole(view: EditorView) -> None:
    # Given an enemy selected (its formation has the longest choice list)
    model = view.model
    assert model.begin_create("enemies", 300.0, 300.0)
    model.end_drag()
    model.select_object(Ref("enemies", len(model.level.enemies) - 1))
    frames(view.window, 1)
    layer = view.panel_layer
    right = view.window.get_size()[0]
    # Then every row shows its choices or range whole, inside the window and the panel
    for row, value in zip(layer.rows, layer.values, strict=False):
        if row.range:
            for choice in row.range.split("|"):
                assert choice in value.text
        assert value.x + value.content_width <= right
    assert layer.bands[-1][0] > 32  # above the bottom bar


def test_nothing_is_hovered_before_the_cursor_comes(app: GameApp, tmp_path: Path) -> None:
    # Given a level with a flow region whose corner is the world's origin
    target = tmp_path / "flow.tmj"
    create_level_file(target, (40, 24))
    model = EditModel.open(target)
    assert model.begin_create("flows", 0.0, 0.0)
    model.update_drag(300.0, 300.0)
    model.end_drag()
    assert model.level.flows[0].rect.left == 0.0 and model.level.flows[0].rect.bottom == 0.0
    # When the editor opens and frames run with no mouse event yet
    editor = EditorView(app, model)
    app.window.show_view(editor)
    frames(app.window, 2)
    # Then nothing is hovered (no ring on the flow's corner at the origin)
    assert editor.hover is None
