"""Dragging a wall's corner in the editor while its world runs: one model update per frame
however many motion events arrive (each can rebuild the world), and the hover ring on the
corner it drags."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.editor import EditModel, HitKind
from game.editor.blank import create_level_file
from game.views.app import GameApp
from game.views.editor import EditorView
from tests.helpers.window import LEFT, frames, on_screen, send

pytestmark = pytest.mark.window


def test_a_burst_of_motion_is_one_update_per_frame(app: GameApp, tmp_path: Path) -> None:
    # Given a new level with a wall, open in the editor with its world running
    target = tmp_path / "walls.tmj"
    create_level_file(target, (30, 20))
    model = EditModel.open(target)
    assert model.begin_wall(200.0, 400.0, rect=False)
    model.update_drag(400.0, 400.0)
    model.end_drag()
    view = EditorView(app, model)
    app.window.show_view(view)
    frames(app.window, 2)
    updates: list[int] = []
    model.subscribe(lambda changes: updates.append(len(changes)))
    # When its end corner is pressed and five motion events arrive before the next frame
    x, y = on_screen(view, (400.0, 400.0))
    send(app.window, "on_mouse_motion", x, y, 0, 0)
    send(app.window, "on_mouse_press", x, y, LEFT, 0)
    assert view.hover is not None and view.hover.kind is HitKind.NODE and view.hover.wall == 0
    for k in range(1, 6):
        send(app.window, "on_mouse_drag", x + 10 * k, y + 4 * k, 10, 4, LEFT, 0)
    # Then nothing has moved yet, and one frame moves the corner once, to the last place
    assert updates == [] and model.level.walls[0].points[1] == (400.0, 400.0)
    frames(app.window, 1)
    z = view.camera.zoom
    end = model.level.walls[0].points[1]
    assert len(updates) == 1
    assert end == pytest.approx((400.0 + 50 / z, 400.0 + 20 / z), abs=0.02)
    # And the hover ring is on the dragged corner, not where the drag began
    assert view.hover is not None and view.hover.point == end
    # And the release ends the drag as one undo step
    send(app.window, "on_mouse_release", x + 50, y + 20, LEFT, 0)
    assert model.dragging is None and model.undo_labels[-1] == "move wall corner"
