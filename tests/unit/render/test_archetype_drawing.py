"""Walls and sight regions on screen: the geometry, and the demo level drawn headless."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from game.level import load_level
from game.level.shipped import REPO_ROOT
from game.render.bank import TextureBank
from game.render.geometry import convex_fan
from game.render.scene import WorldRenderer
from game.world import World
from game.world.sight import enemy_sight

DEMO = REPO_ROOT / "tests" / "data" / "demo_archetypes.tmj"


def test_convex_walls_are_filled_and_concave_ones_are_not() -> None:
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    assert convex_fan(square).shape == (6, 2)  # two triangles
    arrow = [(0, 0), (10, 5), (0, 10), (4, 5)]  # concave
    assert convex_fan(arrow).shape == (0, 2)


@pytest.mark.window
def test_the_demo_level_draws_walls_as_stone_and_every_enemy_cone(
    window: arcade.Window, bank: TextureBank
) -> None:
    # Given the demo level (walls, a formation, a sentinel), drawn after a second
    world = World(load_level(DEMO))
    renderer = WorldRenderer(world, bank, window.ctx)
    for _ in range(60):
        world.step()
    renderer.update(1 / 60)
    fans = enemy_sight(world)  # every enemy's sight region, all in the one batch
    assert set(fans.owner.tolist()) == set(range(world.minds.rows.size))
    assert renderer._cones.count == fans.owner.size * 3
    camera = arcade.Camera2D(window=window)
    camera.match_window(position=True)
    camera.use()
    window.clear(color=(11, 30, 50))
    renderer.draw()
    w, h = window.get_framebuffer_size()
    rgb = np.asarray(arcade.get_image(0, 0, w, h, components=3)).astype(int)[::-1]
    # Then a wall's body reads as stone, far from the deep-water blue
    x, y = 640, 200  # on the southern gate wall
    assert rgb[y, x, 0] > rgb[y, x, 2]  # warm, not blue
    assert abs(rgb[y, x] - np.array([11, 30, 50])).sum() > 100
    # and just ahead of each enemy, inside its cone, the water is lit
    pos, head = world.agents.pos, world.agents.heading
    for row in np.flatnonzero(world.kind == 1):
        px, py = (pos[row] + head[row] * 60.0).astype(int)
        if 0 <= px < w and 0 <= py < h:
            assert rgb[py, px].sum() > 11 + 30 + 50 + 20, row
