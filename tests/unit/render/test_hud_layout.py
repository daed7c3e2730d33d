"""Issue 15: the HUD sits in bars outside the world, and its controls line fades."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import shipped_levels
from game.render.hud import CONTROLS_SECONDS, play_area
from game.views.app import GameApp
from game.views.level import LevelView
from tests.helpers.window import frames

pytestmark = pytest.mark.window


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two (left, bottom, width, height) boxes share any area."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_the_play_area_is_what_the_bars_leave() -> None:
    assert play_area(1280, 720) == (0.0, 26.0, 1280.0, 630.0)
    assert play_area(200, 50)[3] == 1.0  # a tiny window still gets a (1 px) play area


def test_the_world_is_drawn_between_the_hud_bars_so_the_top_edge_is_never_under_them(
    app: GameApp,
) -> None:
    # Given a level view, and the player put at the level's top edge (under the old title bar)
    app.play(shipped_levels()[1])
    view = app.window.current_view
    assert isinstance(view, LevelView)
    stage = view.stage
    # Then the camera's viewport and the HUD's bars do not overlap
    for bar in stage.hud.bars():
        assert not _overlap(stage.viewport, bar), (stage.viewport, bar)
    # When the camera looks at the top edge of the level
    top = (float(view.level.width_px) / 2, float(view.level.height_px))
    stage.rig.snap(top)
    stage.update(0.0)
    # Then that edge is drawn inside the viewport, below the top bar
    y = stage.project(top)[1]
    _, bottom, _, height = stage.viewport
    top_bar = stage.hud.bars()[0]
    assert y == pytest.approx(bottom + height, abs=1.0)
    assert y <= top_bar[1] + 1e-6
    # And the bottom edge of the level sits on the bottom bar, not under it
    stage.rig.snap((top[0], 0.0))
    stage.update(0.0)
    assert stage.project((top[0], 0.0))[1] == pytest.approx(bottom, abs=1.0)
    assert bottom >= stage.hud.bars()[1][3]


def test_the_controls_line_fades_after_a_few_seconds(app: GameApp) -> None:
    app.play(shipped_levels()[0])
    view = app.window.current_view
    assert isinstance(view, LevelView)
    frames(app.window, 2, draw=False)
    assert view.stage.hud.controls.visible
    steps = int(np.ceil(CONTROLS_SECONDS * 60)) + 2
    for _ in range(steps):
        view.stage.hud.update(1 / 60, 0.0, "unseen", (255, 255, 255, 255))
    assert not view.stage.hud.controls.visible


@pytest.mark.parametrize(
    "hint",
    [
        "Guards walk fixed loops and see all round but their backs. Slip past behind them, and "
        "break their sight behind a pillar before the meter fills.",
        "A custom level's hint that goes on and on, far longer than any line of the top bar could "
        "hold at any font size the HUD would use, so that it must be cut at a word to fit.",
    ],
    ids=["patrol", "too_long"],
)
def test_the_hint_line_stops_short_of_the_widest_state(app: GameApp, hint: str) -> None:
    from game.render.hud import HINT_MIN_SIZE, MARGIN, Hud

    # Given the HUD of a 1280-px window with a long hint, and the widest state it shows
    hud = Hud("Level", hint, 1280, 720)
    hud.update(0.0, 0.0, "hunted by 10! [##########]", (255, 0, 0, 255))
    # Then the hint ends left of the state, in a readable size, saying as much as fits
    state_left = 1280 - MARGIN - hud.state.content_width
    assert hud.hint.x + hud.hint.content_width < state_left
    assert hud.hint.font_size >= HINT_MIN_SIZE
    shown = hud.hint.text.rstrip("\u2026")
    assert hint.startswith(shown) and len(shown) > len(hint) // 2
    assert hud.hint_text == hint  # kept whole
