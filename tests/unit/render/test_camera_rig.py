"""The camera rig: follows smoothly, stays inside the level, centres small levels, zooms."""

from __future__ import annotations

import pytest

from game.render.camera import ZOOM_MAX, ZOOM_MIN, CameraRig, clamp_axis, opening_zoom


def test_clamp_axis() -> None:
    assert clamp_axis(100.0, 640.0, 3000.0) == 640.0
    assert clamp_axis(2900.0, 640.0, 3000.0) == 2360.0
    assert clamp_axis(1500.0, 640.0, 3000.0) == 1500.0
    assert clamp_axis(10.0, 640.0, 1000.0) == 500.0  # narrower than the view: centred


def test_follow_converges_and_never_leaves_the_level() -> None:
    rig = CameraRig((3200.0, 1800.0), (1280.0, 720.0))
    rig.snap((0.0, 0.0))
    assert rig.center == (640.0, 360.0)
    for _ in range(600):
        rig.follow((2000.0, 1000.0), 1 / 60)
        left, bottom, right, top = rig.visible_rect()
        assert left >= -1e-9 and bottom >= -1e-9 and right <= 3200 + 1e-9 and top <= 1800 + 1e-9
    assert rig.center == pytest.approx((2000.0, 1000.0), abs=0.01)


def test_follow_is_frame_rate_independent() -> None:
    a = CameraRig((3200.0, 1800.0), (1280.0, 720.0), center=(640.0, 360.0))
    b = CameraRig((3200.0, 1800.0), (1280.0, 720.0), center=(640.0, 360.0))
    for _ in range(60):
        a.follow((1600.0, 900.0), 1 / 60)
    for _ in range(30):
        b.follow((1600.0, 900.0), 1 / 30)
    assert a.center == pytest.approx(b.center)


def test_zoom_limits_and_clamping() -> None:
    rig = CameraRig((1600.0, 960.0), (1280.0, 720.0), center=(800.0, 480.0))
    rig.zoom_by(-10)
    assert rig.zoom == ZOOM_MIN
    assert rig.center == (800.0, 480.0)  # the whole level fits: centred
    rig.zoom_by(+30)
    assert rig.zoom == ZOOM_MAX
    rig.snap((0.0, 0.0))
    assert rig.visible_rect()[:2] == pytest.approx((0.0, 0.0))


def test_a_level_opens_whole_or_on_the_player_and_the_exit() -> None:
    # a map that fits at a zoom the keys allow opens whole
    assert opening_zoom((2560.0, 1440.0), (1280.0, 630.0), (100.0, 700.0), (2460.0, 720.0)) == (
        pytest.approx(630.0 / 1440.0)
    )
    # a map too big for that opens on the player with the exit in view (and room round it)
    big = (10000.0, 8000.0)
    z = opening_zoom(big, (1280.0, 630.0), (1000.0, 1000.0), (2000.0, 1100.0))
    rig = CameraRig(big, (1280.0, 630.0), zoom=z)
    rig.snap((1000.0, 1000.0))
    left, bottom, right, top = rig.visible_rect()
    assert left <= 1000.0 - 160.0 and right >= 2000.0 + 160.0 - 1e-6
    assert bottom <= 1000.0 and top >= 1100.0 + 160.0 - 1e-6
    # never closer than 1, never farther than the keys go
    assert opening_zoom(big, (1280.0, 630.0), (1000.0, 1000.0), (1010.0, 1000.0)) == 1.0
    assert opening_zoom(big, (1280.0, 630.0), (0.0, 0.0), (9000.0, 7000.0)) == ZOOM_MIN
