"""A level built from nothing in the editor alone, headless: ``--new``, then a path, an
enemy on it, a rock, a flow region, walls and a property typed in the panel, saved; the file passes
``python -m game.level check`` and ``python -m game simulate`` runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import arcade
import numpy as np
import pytest

from game.editor import EditModel
from game.editor.blank import create_level_file
from game.editor.objects import Ref
from game.level import load_level
from game.views.app import GameApp
from game.views.editor import EditorView
from tests.helpers.window import LEFT, RIGHT, drag, frames, on_screen, send

pytestmark = [pytest.mark.window, pytest.mark.slow]


def click(window: arcade.Window, x: float, y: float, button: int = LEFT) -> None:
    send(window, "on_mouse_motion", x, y, 0, 0)
    send(window, "on_mouse_press", x, y, button, 0)
    send(window, "on_mouse_release", x, y, button, 0)


def key(window: arcade.Window, symbol: int, modifiers: int = 0) -> None:
    send(window, "on_key_press", symbol, modifiers)
    send(window, "on_key_release", symbol, modifiers)


def test_build_a_level_from_nothing(app: GameApp, tmp_path: Path) -> None:
    # Given a new level made as `python -m game edit --new` makes it, open in the editor
    target = tmp_path / "fresh.tmj"
    create_level_file(target, (30, 20))
    view = EditorView(app, EditModel.open(target))
    app.window.show_view(view)
    frames(app.window, 2)
    win, m = app.window, view.model
    # When a second path is made with the path tool (2): one click, one node
    key(win, arcade.key.KEY_2)
    m.select_object(None)
    click(win, *on_screen(view, (200.0, 500.0)))
    assert len(m.level.paths) == 1 and m.path_start == (200.0, 500.0)
    click(win, *on_screen(view, (400.0, 560.0)))
    click(win, *on_screen(view, (600.0, 560.0)))
    assert [p.name for p in m.level.paths] == ["path-1", "path-2"]
    assert len(m.level.paths[1].points) == 3
    # And an enemy is placed on it with the enemy tool (4): it patrols that path
    key(win, arcade.key.KEY_4)
    (ax, ay), (bx, by) = m.level.paths[1].points[1:3]
    click(win, *on_screen(view, ((ax + bx) / 2, (ay + by) / 2)))
    assert len(m.level.enemies) == 1 and m.level.enemies[0].path == "path-2"
    # And a rock is dragged out with the rock tool (3)
    key(win, arcade.key.KEY_3)
    drag(win, on_screen(view, (500.0, 200.0)), 30.0 * view.camera.zoom, 0.0)
    assert len(m.level.obstacles) == 1
    assert m.level.obstacles[0].radius == pytest.approx(30.0, abs=0.2)
    # And a flow region is drawn with the flow tool (7)
    key(win, arcade.key.KEY_7)
    start = on_screen(view, (650.0, 100.0))
    drag(win, start, 200.0 * view.camera.zoom, 150.0 * view.camera.zoom)
    assert len(m.level.flows) == 1
    rect = m.level.flows[0].rect
    assert (rect.width, rect.height) == pytest.approx((200.0, 150.0), abs=0.1)
    # And the flow's strength is typed in the panel: click the value, type, Enter
    key(win, arcade.key.KEY_1)
    assert m.selection == Ref("flows", 0)
    frames(win, 1)
    point = view.panel_layer.value_point("strength")
    assert point is not None
    click(win, *point)
    assert view.panel.editing == "strength"
    for _ in range(len(view.panel.text)):
        key(win, arcade.key.BACKSPACE)
    send(win, "on_text", "120")
    key(win, arcade.key.ENTER)
    assert m.level.flows[0].strength == 120.0
    # And a value out of range is refused with the loader's message, and Esc stops typing
    click(win, *point)
    view.panel.text = "-5"
    key(win, arcade.key.ENTER)
    assert "must be >= 0, got -5" in m.notice and m.level.flows[0].strength == 120.0
    key(win, arcade.key.ESCAPE)
    assert view.panel.editing is None
    # And a wall is drawn with the wall tool (8): pressed at one end, released at the other
    z = view.camera.zoom
    key(win, arcade.key.KEY_8)
    drag(win, on_screen(view, (300.0, 420.0)), 0.0, 140.0 * z)
    assert len(m.level.walls) == 1 and m.level.walls[0].shape == "polyline"
    assert np.allclose(m.level.walls[0].points, [(300.0, 420.0), (300.0, 560.0)], atol=0.6)
    # And a click of the wall tool, the wall still selected, adds a corner at its end
    click(win, *on_screen(view, (380.0, 600.0)))
    assert len(m.level.walls) == 1 and len(m.level.walls[0].points) == 3
    assert np.allclose(m.level.walls[0].points[2], (380.0, 600.0), atol=0.6)
    # And a rectangle wall with Shift held
    x0, y0 = on_screen(view, (700.0, 450.0))
    send(win, "on_mouse_motion", x0, y0, 0, 0)
    send(win, "on_mouse_press", x0, y0, LEFT, arcade.key.MOD_SHIFT)
    send(win, "on_mouse_drag", x0 + 100.0 * z, y0 + 70.0 * z, 0, 0, LEFT, arcade.key.MOD_SHIFT)
    send(win, "on_mouse_release", x0 + 100.0 * z, y0 + 70.0 * z, LEFT, arcade.key.MOD_SHIFT)
    box = m.level.walls[1]
    assert box.shape == "rect"
    assert np.allclose(box.points[0], (700.0, 450.0), atol=0.6)
    assert np.allclose(box.points[2], (800.0, 520.0), atol=0.6)
    # And the wheel over it makes it thicker
    send(win, "on_mouse_scroll", *on_screen(view, (750.0, 450.0)), 0, 2)
    assert m.level.walls[1].thickness == pytest.approx(12.0 * 1.1**2, abs=0.1)
    # And a double-click on the first wall inserts a corner, which a right-click deletes
    key(win, arcade.key.KEY_1)
    middle = on_screen(view, (300.0, 490.0))
    click(win, *middle)
    click(win, *middle)
    assert len(m.level.walls[0].points) == 4
    click(win, *on_screen(view, m.level.walls[0].points[1]), RIGHT)
    assert len(m.level.walls[0].points) == 3
    # And a right-click deletes the rock; the hover ring does not stay where it was
    rock = m.level.obstacles[0]
    click(win, *on_screen(view, (rock.x, rock.y)), RIGHT)
    assert m.level.obstacles == ()
    assert view.hover is None or view.hover.ref != Ref("obstacles", 0)
    m.undo()
    # When it is saved with Ctrl+S
    key(win, arcade.key.S, arcade.key.MOD_CTRL)
    assert not m.dirty
    # Then it loads back equal, passes the level check and runs headless
    assert load_level(target) == m.level
    check = subprocess.run(
        [sys.executable, "-m", "game.level", "check", str(target)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stderr
    run = subprocess.run(
        [sys.executable, "-m", "game", "simulate", str(target), "--seconds", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["outcome"] in ("running", "won", "caught")
