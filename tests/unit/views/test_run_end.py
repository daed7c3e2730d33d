"""Issue 15: how a run ends on screen. The catcher or the exit is ringed and the result panel
sits beside it, the last level's win leads to an ending, and R keeps the zoom."""

from __future__ import annotations

import json
from pathlib import Path

import arcade
import pytest

from game.level import load_level, shipped_levels
from game.views.app import GameApp, level_entry
from game.views.ending import EndingView, ending_table
from game.views.level import LevelView
from game.views.result import ResultView, panel_beside
from game.views.title import TitleView
from tests.helpers.window import frames, press

AREA = (0.0, 26.0, 1280.0, 630.0)


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= point[0] <= box[0] + box[2] and box[1] <= point[1] <= box[1] + box[3]


def _gap(point: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    dx = max(box[0] - point[0], 0.0, point[0] - box[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[1] - box[3])
    return float((dx * dx + dy * dy) ** 0.5)


@pytest.mark.parametrize(
    "spot", [(640.0, 340.0), (100.0, 340.0), (1200.0, 600.0), (640.0, 60.0), (1000.0, 100.0)]
)
def test_the_panel_goes_beside_the_spot_on_its_roomier_side_clear_of_the_ring(
    spot: tuple[float, float],
) -> None:
    box = panel_beside(spot, 40.0, (600.0, 175.0), AREA)
    assert _gap(spot, box) >= 40.0
    assert box[0] >= AREA[0] and box[0] + box[2] <= AREA[0] + AREA[2]
    assert box[1] >= AREA[1] and box[1] + box[3] <= AREA[1] + AREA[3]
    # on the side of the spot with more room
    room_right = AREA[0] + AREA[2] - spot[0] >= spot[0] - AREA[0]
    if box[1] <= spot[1] <= box[1] + box[3]:  # beside it, not above or below
        assert (box[0] > spot[0]) == room_right


def test_a_window_too_small_for_any_clear_place_still_gets_a_panel() -> None:
    box = panel_beside((200.0, 150.0), 500.0, (600.0, 175.0), (0.0, 26.0, 400.0, 274.0))
    assert box[2] <= 400.0 - 32.0 and box[3] <= 175.0


def test_without_a_spot_the_panel_is_centred() -> None:
    box = panel_beside(None, 0.0, (600.0, 175.0), AREA)
    assert box[0] + box[2] / 2 == pytest.approx(640.0)
    assert box[1] + box[3] / 2 == pytest.approx(26.0 + 315.0)


def _tiny(tmp_path: Path, enemy: bool) -> Path:
    """A 640 x 320 corridor: player on the left, exit on the right, maybe a guard beside."""
    objects = [
        {"id": 1, "type": "player", "point": True, "x": 64, "y": 160},
        {"id": 2, "type": "exit", "x": 500, "y": 100, "width": 100, "height": 120},
    ]
    if enemy:
        objects.append({"id": 3, "type": "enemy", "point": True, "x": 130, "y": 160})
    doc = {
        "width": 20,
        "height": 10,
        "tilewidth": 32,
        "tileheight": 32,
        "properties": [{"name": "title", "type": "string", "value": "Tiny"}],
        "layers": [
            {"type": "objectgroup", "name": "o", "draworder": "topdown", "objects": objects}
        ],
    }
    path = tmp_path / ("caught.tmj" if enemy else "tiny.tmj")
    path.write_text(json.dumps(doc))
    load_level(path)
    return path


def _until_result(app: GameApp, limit: int = 600) -> ResultView:
    for _ in range(limit):
        frames(app.window, 1, draw=False)
        result = app.window.current_view
        if isinstance(result, ResultView):
            while not result.armed:  # the panel takes keys a moment after it shows
                frames(app.window, 1, draw=False)
            return result
    raise AssertionError("no result view")


@pytest.mark.window
def test_being_caught_freezes_rings_the_catcher_and_keeps_the_panel_off_it(
    app: GameApp, tmp_path: Path
) -> None:
    # Given a level whose guard catches the player at once
    app.play(_tiny(tmp_path, enemy=True))
    view = app.window.current_view
    assert isinstance(view, LevelView)
    # When the run ends and the result shows
    result = _until_result(app)
    world = view.world
    assert world.outcome == "caught"
    frozen = world.frame
    frames(app.window, 5)
    # Then the world stays frozen, the ring marks the enemy that caught the player...
    assert world.frame == frozen
    spot = view.stage.end_mark.spot
    assert spot is not None and spot.caught
    catcher = world.physics.caught_by[0]
    assert (spot.x, spot.y) == pytest.approx(tuple(world.agents.pos[catcher]))
    # ...and the panel is beside it, not over it (nor over its ring)
    where = view.stage.project((spot.x, spot.y))
    assert not _inside(where, result.panel)
    assert _gap(where, result.panel) >= spot.radius * view.stage.rig.zoom


@pytest.mark.window
def test_escaping_rings_the_exit_and_the_last_level_leads_to_the_ending(
    app: GameApp, tmp_path: Path
) -> None:
    # Given a game whose only (so last) level is a short corridor to the exit
    path = _tiny(tmp_path, enemy=False)
    app.levels = [level_entry(path)]
    app.play(path)
    view = app.window.current_view
    assert isinstance(view, LevelView)
    # When the player swims right into the exit
    press(app.window, arcade.key.RIGHT)
    result = _until_result(app)
    # Then the exit is ringed, the panel keeps off it, and Enter leads to the ending
    spot = view.stage.end_mark.spot
    assert spot is not None and not spot.caught
    exit_rect = view.level.exits[0].rect
    assert (spot.x, spot.y) == pytest.approx(exit_rect.center)
    assert not _inside(view.stage.project((spot.x, spot.y)), result.panel)
    assert "Enter ending" in result.keys.text
    press(app.window, arcade.key.ENTER)
    ending = app.window.current_view
    assert isinstance(ending, EndingView)
    # And the ending lists this run's time and the best time, then goes back to the title
    title, run, best = ending.rows[0]
    assert title == "Tiny" and run == best != "-"
    assert ending.total[1] == run
    frames(app.window, 2)
    press(app.window, arcade.key.ESCAPE)
    assert isinstance(app.window.current_view, TitleView)


def test_the_ending_table_lists_every_level_with_run_and_best_times_and_totals(
    tmp_path: Path,
) -> None:
    levels = shipped_levels()[:3]
    entries = [level_entry(p) for p in levels]
    keys = [p.stem for p in levels]
    rows, total = ending_table(
        entries,
        {keys[0]: 12.5, keys[2]: 30.0},
        {keys[0]: 10.0, keys[1]: 20.0, keys[2]: 30.0},
    )
    assert [r[0] for r in rows] == [e.title for e in entries]
    assert [r[1] for r in rows] == ["0:12.5", "-", "0:30.0"]
    assert [r[2] for r in rows] == ["0:10.0", "0:20.0", "0:30.0"]
    assert total == ("total", "0:42.5 (2/3)", "1:00.0")


@pytest.mark.window
def test_r_keeps_the_zoom(app: GameApp) -> None:
    # Given a level zoomed in twice
    app.play(shipped_levels()[0])
    view = app.window.current_view
    assert isinstance(view, LevelView)
    opening = view.stage.rig.zoom  # the whole map (see test_level_view)
    press(app.window, arcade.key.EQUAL)
    press(app.window, arcade.key.EQUAL)
    zoom = view.stage.rig.zoom
    assert zoom == pytest.approx(opening * 1.25**2)
    # When R restarts it
    press(app.window, arcade.key.R)
    fresh = app.window.current_view
    assert isinstance(fresh, LevelView) and fresh is not view
    frames(app.window, 2)
    # Then the fresh level keeps that zoom, centred on the player
    assert fresh.stage.rig.zoom == pytest.approx(zoom)
    assert fresh.stage.camera.zoom == pytest.approx(zoom)


def _two_tiny_levels(tmp_path: Path) -> tuple[Path, Path]:
    """Two corridors to the exit (the game's levels 1 and 2)."""
    first = _tiny(tmp_path, enemy=False)
    second = tmp_path / "tiny2.tmj"
    second.write_text(first.read_text().replace('"Tiny"', '"Tiny 2"'))
    return first, second


def _win(app: GameApp, path: Path) -> ResultView:
    app.play(path)
    press(app.window, arcade.key.RIGHT)
    result = _until_result(app)
    app.window.current_view.on_key_release(arcade.key.RIGHT, 0)
    return result


@pytest.mark.window
def test_the_ending_waits_until_every_level_is_won(app: GameApp, tmp_path: Path) -> None:
    # Given a game of two levels, neither won
    first, second = _two_tiny_levels(tmp_path)
    app.levels = [level_entry(first), level_entry(second)]
    # When the player wins the last level straight away
    result = _win(app, second)
    # Then there is no ending: the panel says one level is left and N goes to it
    assert not result.ending
    assert "1 level still to win" in result.detail.text
    assert "Enter ending" not in result.keys.text
    assert "N play Tiny, not won yet" in result.keys.text
    press(app.window, arcade.key.N)
    view = app.window.current_view
    assert isinstance(view, LevelView) and view.path == first
    # And winning that one, which completes the set, offers the ending
    press(app.window, arcade.key.RIGHT)
    result = _until_result(app)
    assert result.ending and "Enter ending" in result.keys.text
    press(app.window, arcade.key.ENTER)
    assert isinstance(app.window.current_view, EndingView)


@pytest.mark.window
def test_a_key_that_lands_as_the_panel_shows_does_nothing(app: GameApp, tmp_path: Path) -> None:
    # Given a won run whose result panel has just appeared
    app.levels = [level_entry(_tiny(tmp_path, enemy=False))]
    app.play(app.levels[0].path)
    press(app.window, arcade.key.RIGHT)
    for _ in range(600):
        frames(app.window, 1, draw=False)
        if isinstance(app.window.current_view, ResultView):
            break
    result = app.window.current_view
    assert isinstance(result, ResultView) and not result.armed
    # When Esc (meant as pause) lands then, it does not throw the player to the level list
    press(app.window, arcade.key.ESCAPE)
    assert app.window.current_view is result
    # and half a second later the panel takes keys, and says which
    frames(app.window, 31)
    assert result.armed and "Esc levels" in result.keys.text
    press(app.window, arcade.key.ESCAPE)
    assert isinstance(app.window.current_view, TitleView)


@pytest.mark.window
def test_a_custom_level_s_win_panel_says_nothing_of_the_shipped_ones(
    app: GameApp, tmp_path: Path
) -> None:
    # Given a game of one shipped level, not won, and a level of one's own beside it
    first, custom = _two_tiny_levels(tmp_path)
    app.levels = [level_entry(first)]
    # When the player wins the level of their own
    result = _win(app, custom)
    # Then the panel gives the time in plain words and offers only retry and the list
    assert result.heading.text == "Escaped!"
    assert result.detail.text.startswith("time ") and "new best!" in result.detail.text
    assert "to win" not in result.detail.text and "left" not in result.detail.text
    assert result.keys.text == "R retry   Esc levels"
    assert not result.ending and result.first_left is None
