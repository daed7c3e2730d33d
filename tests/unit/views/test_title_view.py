"""The title view lists every shipped level and starts one by arrows + Enter or by number."""

from __future__ import annotations

import arcade
import pytest

from game.level import load_level, shipped_levels
from game.views.app import GameApp
from game.views.level import LevelView
from game.views.title import TitleView
from tests.helpers.window import frames, press

pytestmark = pytest.mark.window


def _title(app: GameApp) -> TitleView:
    app.show_title()
    view = app.window.current_view
    assert isinstance(view, TitleView)
    return view


def test_title_lists_every_shipped_level_in_play_order(app: GameApp) -> None:
    view = _title(app)
    lines = [t.text for t in view.menu.texts]
    titles = [load_level(p).title for p in shipped_levels()]
    assert len(lines) == len(titles) >= 10
    for k, (line, title) in enumerate(zip(lines, titles, strict=True)):
        assert line.startswith(f"{k + 1} ")
        assert line.endswith(title)
    frames(app.window, 3)  # draws and animates without error


def test_arrows_and_enter_start_the_selected_level(app: GameApp) -> None:
    view = _title(app)
    press(app.window, arcade.key.DOWN)
    press(app.window, arcade.key.DOWN)
    press(app.window, arcade.key.UP)
    assert view.menu.selected == 1
    press(app.window, arcade.key.ENTER)
    level_view = app.window.current_view
    assert isinstance(level_view, LevelView)
    assert level_view.path == shipped_levels()[1]


def test_a_number_key_starts_that_level(app: GameApp) -> None:
    _title(app)
    press(app.window, arcade.key.KEY_4)
    level_view = app.window.current_view
    assert isinstance(level_view, LevelView)
    assert level_view.path == shipped_levels()[3]


def test_best_times_are_listed(app: GameApp) -> None:
    app.progress.record_win(shipped_levels()[2].stem, 75.25)
    view = _title(app)
    assert view.status[2].text == "best 1:15.2"
    assert view.status[0].text == ""
