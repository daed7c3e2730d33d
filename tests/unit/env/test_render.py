"""Frames of the environment, drawn headless by the game's own stage."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from game.env import StealthEnv


@pytest.mark.window
def test_rgb_array_frames_show_the_run(window: arcade.Window) -> None:
    # Given an environment that renders frames, in the session's headless window
    env = StealthEnv("08_sentries", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    for _ in range(10):
        env.step(3)
    later = env.render()
    # Then each is an RGB image of the window, and the run moved between them
    width, height = window.get_framebuffer_size()
    assert first is not None and later is not None
    assert first.shape == (height, width, 3) and first.dtype == np.uint8
    assert first.std() > 0
    assert not np.array_equal(first, later)
    env.close()  # the session's window stays open
    assert window.ctx is not None


def test_no_render_mode_draws_nothing() -> None:
    env = StealthEnv("08_sentries")
    env.reset(seed=0)
    assert env.render() is None


def test_human_mode_opens_no_window_until_it_draws() -> None:
    # (drawing needs a display; `xvfb-run -a` gives one)
    env = StealthEnv("08_sentries", render_mode="human")
    assert env.render_mode == "human" and env.metadata["render_fps"] == 15
    env.close()
