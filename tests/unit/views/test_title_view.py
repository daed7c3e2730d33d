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


def test_one_then_zero_opens_level_ten(app: GameApp) -> None:
    # Given the title with ten levels
    view = _title(app)
    assert len(app.levels) >= 10
    # When 1 is typed, nothing opens yet and the title says it waits for a second digit
    press(app.window, arcade.key.KEY_1)
    assert app.window.current_view is view and view.digits.pending is not None
    assert "second digit" in view.message.text
    # Then 0 opens level 10
    press(app.window, arcade.key.KEY_0)
    level_view = app.window.current_view
    assert isinstance(level_view, LevelView) and level_view.path == shipped_levels()[9]


def test_a_lone_one_opens_patrol_after_a_moment(app: GameApp) -> None:
    view = _title(app)
    press(app.window, arcade.key.NUM_1)
    frames(app.window, 2)
    assert app.window.current_view is view
    frames(app.window, 60)  # a second: longer than the wait
    level_view = app.window.current_view
    assert isinstance(level_view, LevelView) and level_view.path == shipped_levels()[0]


def test_each_level_says_what_it_teaches(app: GameApp) -> None:
    view = _title(app)
    assert [t.text for t in view.lessons] == [e.lesson for e in app.levels]
    assert all(t.text for t in view.lessons)
    assert "1 then 0" in view.footer.text
    # and each lesson sits between its level's title and the best-time column, clear of both
    app.progress.record_win(app.levels[4].path.stem, 75.25)
    view = _title(app)
    right = view.status[4].x - view.status[4].content_width
    for line, lesson in zip(view.menu.texts, view.lessons, strict=True):
        assert line.x + line.content_width + 8 <= lesson.x
        assert lesson.x + lesson.content_width + 8 <= right
