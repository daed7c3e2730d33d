"""Every object a designer can draw renders at any size the loader accepts, from 1 px up: in
play (the world renderer) and in the editor (its own drawing over the live world). A 30 x 10
px exit once crashed the editor (PIL asked for a frame inset past the image's size)."""

from __future__ import annotations

from pathlib import Path

import arcade
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.editor import EditModel
from game.editor.objects import Ref
from game.level import (
    ExitData,
    FlowRegion,
    Level,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Rect,
    WallData,
    save_level,
)
from game.render.bank import TextureBank
from game.render.scene import WorldRenderer
from game.render.textures import exit_image
from game.views.app import GameApp
from game.views.editor import EditorView
from game.world import World
from tests.helpers.window import frames

pytestmark = pytest.mark.window

SIZE = st.floats(min_value=1.0, max_value=24.0)


def _tiny_level(w: float, h: float, r: float) -> Level:
    return Level(
        width_px=320.0,
        height_px=256.0,
        player=PlayerSpawn(x=30.0, y=30.0, id=1),
        exits=(ExitData(rect=Rect(200.0, 150.0, w, h), id=2),),
        paths=(
            PathData(points=((100.0, 100.0), (100.0 + w, 100.0 + h)), radius=2.0, id=3, name="p"),
        ),
        obstacles=(ObstacleData(x=150.0, y=60.0, radius=r, id=4),),
        walls=(WallData(points=((250.0, 40.0), (250.0 + w, 40.0 + h)), thickness=1.0, id=5),),
        flows=(FlowRegion(rect=Rect(40.0, 150.0, w, h), cell=1.0, id=6),),
    )


@pytest.mark.parametrize("width, height", [(30, 10), (10, 30), (9, 9), (1, 1), (0, 0), (4, 12)])
def test_an_exit_image_of_any_size_is_made(width: int, height: int) -> None:
    img = exit_image(width, height)
    assert img.size == (max(width, 4), max(height, 4))


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(w=SIZE, h=SIZE, r=st.floats(min_value=1.0, max_value=24.0))
def test_tiny_objects_render_in_play(window: arcade.Window, w: float, h: float, r: float) -> None:
    world = World(_tiny_level(w, h, r))
    renderer = WorldRenderer(world, TextureBank(), window.ctx)
    for _ in range(3):
        world.step()
        renderer.update(1 / 60)
        window.clear()
        renderer.draw()


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(w=SIZE, h=SIZE, r=st.floats(min_value=4.0, max_value=24.0))
def test_tiny_objects_render_in_the_editor(
    app: GameApp, tmp_path: Path, w: float, h: float, r: float
) -> None:
    path = tmp_path / "tiny.tmj"
    save_level(_tiny_level(w, h, r), path, backup=False)
    view = EditorView(app, EditModel.open(path))
    app.window.show_view(view)
    frames(app.window, 3)
    # and with every object selected in turn (selection outlines and the panel)
    for field in ("player", "exits", "paths", "obstacles", "walls", "flows"):
        view.model.select_object(Ref(field, 0))
        frames(app.window, 1)
