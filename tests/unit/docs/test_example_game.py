"""The guide's example game (docs/examples/steered_sprites.py) runs headless: 500 sprites
move where the steering core puts them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import arcade
import numpy as np
import pytest

from tests.helpers.window import frames

pytestmark = pytest.mark.window

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "steered_sprites.py"


def test_the_example_game_steers_500_sprites(window: arcade.Window) -> None:
    spec = importlib.util.spec_from_file_location("steered_sprites", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    view = module.SteeredSprites(window)
    window.show_view(view)
    start = view.agents.pos.copy()
    view.on_mouse_motion(100, 100, 0, 0)
    frames(window, 10)
    a = view.agents
    assert a.n == len(view.sprites) == 500
    assert np.isfinite(a.pos).all() and np.isfinite(a.vel).all()
    assert np.hypot(*(a.pos - start).T).mean() > 5.0
    sprite_xy = np.array([s.position for s in view.sprites])
    np.testing.assert_allclose(sprite_xy, a.pos, atol=1e-3)
    assert (np.hypot(*a.vel.T) <= a.max_speed + 1e-9).all()
