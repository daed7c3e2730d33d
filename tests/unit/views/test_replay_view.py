"""The replay view and ``play --record``, headless: a recording plays back step for step, pauses,
speeds up, ends on its panel; the level view keeps the latest run in the replay file."""

from __future__ import annotations

import json
from pathlib import Path

import arcade
import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.recording import Keyframe, Recording, RunRecorder, load_recording
from game.views.app import GameApp
from game.views.level import END_DELAY, LevelView
from game.views.pause import PauseView
from game.views.replay import ReplayView
from game.world import World
from tests.helpers.level import exit_, make_map, player
from tests.helpers.window import frames, press, release

pytestmark = pytest.mark.window

#: Right for a second, then up-left, then still.
RECORDING = Recording(
    (Keyframe(0.0, 1.0, 0.0), Keyframe(1.0, -0.6, 0.8), Keyframe(1.5, 0.0, 0.0)),
    "01_patrol",
    12,
    2.0,
)


def _reference(steps: int) -> World:
    """The recorded run stepped by hand, ``steps`` steps."""
    world = World(load_level(resolve_level("1")), seed=12)
    thrust = {0: (1.0, 0.0), 60: (-0.6, 0.8), 90: (0.0, 0.0)}
    u = (0.0, 0.0)
    for k in range(steps):
        u = thrust.get(k, u)
        world.step(u)
    return world


@pytest.mark.slow
def test_the_replay_steps_pauses_and_speeds_up(app: GameApp) -> None:
    # Given the replay view of a recorded run
    left: list[bool] = []
    view = ReplayView(app, RECORDING, resolve_level("1"), leave=lambda: left.append(True))
    app.window.show_view(view)
    # When 10 frames pass, it has stepped 10 times
    frames(app.window, 10)
    assert view.world.frame == 10
    # and its HUD says it is a replay, at which speed
    assert view.stage.hud.title.text.startswith("REPLAY x1")
    # Space pauses: frames pass, no step
    press(app.window, arcade.key.SPACE)
    frames(app.window, 5)
    assert view.world.frame == 10 and view.paused
    assert view.stage.hud.title.text.startswith("REPLAY paused")
    # Space again and 4: four steps a frame; then 8: eight
    press(app.window, arcade.key.SPACE)
    press(app.window, arcade.key.KEY_4)
    frames(app.window, 5)
    assert view.world.frame == 30
    assert view.stage.hud.title.text.startswith("REPLAY x4")
    press(app.window, arcade.key.KEY_8)
    frames(app.window, 3)
    assert view.world.frame == 54
    # Then the world is exactly the recorded run's, through the keyframe at 1 s and after
    frames(app.window, 6)
    assert view.world.frame == 102
    ref = _reference(102)
    assert np.array_equal(view.world.agents.pos, ref.agents.pos)
    assert np.array_equal(view.world.agents.vel, ref.agents.vel)
    # F1 turns the overlay on without changing the run
    press(app.window, arcade.key.F1)
    assert view.stage.debug
    # And it stops at the recorded length (2 s) and shows its panel
    frames(app.window, 5)
    assert view.world.frame == 120 and view.ended and not view.showing_result
    frames(app.window, round(END_DELAY * 60) + 2)
    assert view.world.frame == 120 and view.showing_result
    assert view.heading.text == "Replay: Run ended"
    # R watches it again from the start; Esc leaves
    press(app.window, arcade.key.R)
    again = app.window.current_view
    assert isinstance(again, ReplayView) and again is not view
    assert again.world.frame == 0 and again.speed == 8 and again.stage.debug
    press(app.window, arcade.key.ESCAPE)
    assert left == [True]


def _corridor(folder: Path) -> Path:
    path = folder / "corridor.tmj"
    path.write_text(json.dumps(make_map([player(), exit_()])))
    return path


@pytest.mark.slow
def test_a_won_replay_ends_on_the_escaped_panel(app: GameApp, tmp_path: Path) -> None:
    rec = Recording((Keyframe(0.0, 1.0, 0.0),), "corridor.tmj", 0, None, tmp_path / "r.json")
    view = ReplayView(app, rec, _corridor(tmp_path), speed=8, leave=lambda: None)
    app.window.show_view(view)
    frames(app.window, 400, draw=False)
    assert view.world.outcome == "won" and view.showing_result
    assert view.heading.text == "Replay: Escaped!"


def test_play_record_keeps_the_latest_run_in_the_file(app: GameApp, tmp_path: Path) -> None:
    # Given the level view of a game started with --record
    out = tmp_path / "run.json"
    app.recorder = RunRecorder(out)
    path = resolve_level("1")
    app.play(path)
    view = app.window.current_view
    assert isinstance(view, LevelView)
    # When the player swims right, then up-right, and pauses
    press(app.window, arcade.key.D)
    frames(app.window, 20, draw=False)
    press(app.window, arcade.key.W)
    frames(app.window, 15, draw=False)
    release(app.window, arcade.key.D)
    release(app.window, arcade.key.W)
    frames(app.window, 5, draw=False)
    press(app.window, arcade.key.ESCAPE)
    assert isinstance(app.window.current_view, PauseView)
    # Then the file holds the run so far: keyframes where the keys changed, and it replays
    rec = load_recording(out)
    assert (rec.level, rec.seed, rec.seconds) == ("01_patrol", view.world.seed, 0.666667)
    assert [k.t for k in rec.keyframes] == [0.0, round(20 / 60, 6), round(35 / 60, 6)]
    replay = ReplayView(app, rec, path, leave=lambda: None)
    for _ in range(40):
        replay.on_fixed_update(1 / 60)
    assert replay.ended
    assert np.array_equal(replay.world.agents.pos, view.world.agents.pos)

    # When R restarts from the pause menu and the new run takes 10 steps, then is paused
    press(app.window, arcade.key.R)
    fresh = app.window.current_view
    assert isinstance(fresh, LevelView) and fresh is not view
    assert load_recording(out).seconds == round(40 / 60, 6)  # the old run is kept
    press(app.window, arcade.key.A)
    frames(app.window, 10, draw=False)
    press(app.window, arcade.key.ESCAPE)
    # Then the file holds the new run
    rec = load_recording(out)
    assert rec.seconds == round(10 / 60, 6)
    assert rec.keyframes == (Keyframe(0.0, -1.0, 0.0),)
    app.recorder = None


def test_a_finished_run_is_written_when_it_ends(app: GameApp, tmp_path: Path) -> None:
    out = tmp_path / "won.json"
    app.recorder = RunRecorder(out)
    app.play(_corridor(tmp_path))
    view = app.window.current_view
    assert isinstance(view, LevelView)
    press(app.window, arcade.key.D)
    for _ in range(600):
        if view.world.outcome != "running":
            break
        frames(app.window, 1, draw=False)
    assert view.world.outcome == "won"
    rec = load_recording(out)
    assert rec.level == "corridor.tmj" and rec.seconds == round(view.world.time, 6)
    assert rec.keyframes == (Keyframe(0.0, 1.0, 0.0),)
    app.recorder = None
