"""Where a scene goes on screen: the camera fits the world beside the panel, and the world is
clipped to its own rectangle inside the free area (nothing under the panel or the caption)."""

from __future__ import annotations

import numpy as np
import pytest

from game.lab.layout import FOLLOW_ZOOM, MARGIN, Layout

SIZE = (640.0, 360.0)
SCREEN = Layout(1280, 720, left=300, bottom=36)


def to_screen(layout: Layout, centre: np.ndarray, zoom: float, xy: tuple[float, float]) -> tuple:
    return tuple(np.array([layout.width, layout.height]) / 2 + (np.asarray(xy) - centre) * zoom)


def test_the_world_fits_the_free_area_with_a_margin() -> None:
    centre, zoom = SCREEN.fit(SIZE)
    # Given a 640 x 360 world and 964 x 668 px free, the width decides the zoom
    assert zoom == pytest.approx((1280 - 300 - 2 * MARGIN) / 640)
    left, bottom = to_screen(SCREEN, centre, zoom, (0.0, 0.0))
    right, top = to_screen(SCREEN, centre, zoom, SIZE)
    assert left == pytest.approx(300 + MARGIN) and right == pytest.approx(1280 - MARGIN)
    assert bottom >= 36 + MARGIN - 1e-9 and top <= 720 - MARGIN + 1e-9
    # centred vertically in the free band
    assert (bottom + top) / 2 == pytest.approx((36 + 720) / 2)


def test_following_an_agent_centres_it_closer() -> None:
    _, zoom = SCREEN.fit(SIZE)
    centre, near = SCREEN.fit(SIZE, np.array([100.0, 50.0]))
    assert near == pytest.approx(zoom * FOLLOW_ZOOM)
    x, y = to_screen(SCREEN, centre, near, (100.0, 50.0))
    assert x == pytest.approx(300 + MARGIN + (1280 - 300 - 2 * MARGIN) / 2)
    assert y == pytest.approx(36 + MARGIN + (720 - 36 - 2 * MARGIN) / 2)


def test_the_clip_box_is_the_world_rectangle_one_pixel_wider() -> None:
    centre, zoom = SCREEN.fit(SIZE)
    left, bottom, width, height = SCREEN.clip(SIZE, centre, zoom)
    assert left == 300 + MARGIN - 1 and left + width == 1280 - MARGIN + 1
    _, wy = to_screen(SCREEN, centre, zoom, (0.0, 0.0))
    assert bottom == int(np.floor(wy + 1e-6)) - 1
    assert 360 * zoom + 2 <= height <= 360 * zoom + 4  # one px each side, whole px


def test_a_close_camera_is_clipped_to_the_free_area_not_the_panel_or_caption() -> None:
    # Given the camera following an agent near the world's corner, zoomed in
    centre, zoom = SCREEN.fit(SIZE, np.array([5.0, 5.0]))
    left, bottom, width, height = SCREEN.clip(SIZE, centre, zoom)
    # the world's corner is inside the free area; beyond the panel and the caption nothing
    assert left >= 300 and bottom >= 36
    assert left + width <= 1280 and bottom + height <= 720
    # and a camera far off the world clips everything
    assert SCREEN.clip(SIZE, np.array([5000.0, 5000.0]), zoom)[2:] == (0, 0)
