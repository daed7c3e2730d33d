"""Headless screenshots of every shipped level: not blank, and the player is drawn where the
world says it is."""

from __future__ import annotations

from pathlib import Path

import arcade
import numpy as np
import pytest

from game.cli_game import render_level
from game.level import shipped_levels

pytestmark = pytest.mark.window


def _is_player_gold(rgb: np.ndarray) -> np.ndarray:
    """Pixels of the submersible's gold hull (no other sprite or layer is this colour)."""
    r, g, b = (rgb[..., k].astype(int) for k in range(3))
    return (r > 200) & (g > 150) & (b < 110)


@pytest.mark.slow
@pytest.mark.parametrize("path", shipped_levels(), ids=lambda p: p.stem)
@pytest.mark.parametrize("debug", [False, True], ids=["plain", "overlay"])
def test_screenshot_shows_the_level_and_the_player_where_the_world_says(
    window: arcade.Window, path: Path, debug: bool
) -> None:
    # at zoom 1, where the player's hull outweighs the overlay's few gold marks
    image, view = render_level(window, path, 1.0, debug=debug, zoom=1.0)
    rgb = np.asarray(image)
    h, w, _ = rgb.shape
    assert (w, h) == window.get_framebuffer_size()

    # Not blank: many colours and real contrast.
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 200
    assert rgb.std() > 8

    # The player's gold is around the world's player position, projected by the camera...
    px, py = view.stage.project(tuple(view.world.player_pos))
    col, row = round(px), round(h - py)  # image rows run down
    r = max(int(view.world.agents.radius[0] * view.stage.rig.zoom), 4)
    near = rgb[max(row - r, 0) : row + r + 1, max(col - r, 0) : col + r + 1]
    assert _is_player_gold(near).sum() > r * r * 0.5
    # ...and nowhere else on screen.
    gold = _is_player_gold(rgb)
    far = gold.copy()
    far[max(row - 3 * r, 0) : row + 3 * r + 1, max(col - 3 * r, 0) : col + 3 * r + 1] = False
    assert far.sum() < 0.05 * gold.sum()
