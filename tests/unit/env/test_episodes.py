"""The environment's episodes: spaces, actions through the keyboard's rule, rewards, ends,
determinism and replay files, on small hand-made maps (1280 x 640 px, the player at
(64, 320), the exit at the right edge)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from game.clock import DT
from game.env import ACTION_THRUST, EnvOptionError, StealthEnv, observation_names
from game.level import load_level
from game.recording import InputScript, load_recording, resolve_recording_level
from game.world import World
from game.world.player import key_thrust
from tests.helpers.level import point, valid_map, write

RIGHT = 3


@pytest.fixture
def open_lane(tmp_path: Path) -> Path:
    """Nothing between the player and the exit."""
    return write(tmp_path, valid_map(), "lane.tmj")


@pytest.fixture
def guarded(tmp_path: Path) -> Path:
    """An enemy 136 px right of the player and 40 px above its line, facing right (away from
    the player: its back is blind, issue 44)."""
    return write(tmp_path, valid_map([point(3, "enemy", 200, 360)]), "guarded.tmj")


def test_spaces_have_exact_bounds(open_lane: Path) -> None:
    env = StealthEnv(open_lane, rays=8)
    assert env.action_space.n == 9  # type: ignore[attr-defined]
    box = env.observation_space
    assert box.shape == (8 * 4 + 8,) and box.dtype == np.float32
    assert (box.low == -1).all() and (box.high == 1).all()
    assert len(observation_names(8)) == box.shape[0]
    cont = StealthEnv(open_lane, continuous=True)
    assert cont.action_space.shape == (2,)


def test_discrete_actions_are_the_keys_thrust() -> None:
    # none, then clockwise from up; diagonals normalised as the keyboard does
    assert ACTION_THRUST[0] == (0.0, 0.0)
    assert ACTION_THRUST[1] == key_thrust(False, False, True, False) == (0.0, 1.0)
    assert ACTION_THRUST[3] == (1.0, 0.0)
    s = 1 / math.sqrt(2.0)
    assert ACTION_THRUST[2] == (s, s) and ACTION_THRUST[6] == (-s, -s)
    assert all(math.hypot(*t) == pytest.approx(1.0) for t in ACTION_THRUST[1:])


def test_observations_are_in_the_space(open_lane: Path) -> None:
    env = StealthEnv(open_lane)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert info["outcome"] == "running" and info["seed"] == 3
    for a in range(9):
        obs, *_ = env.step(a)
        assert env.observation_space.contains(obs)


def test_swimming_right_reaches_the_exit(open_lane: Path) -> None:
    # Given the open lane, when the agent holds right
    env = StealthEnv(open_lane)
    env.reset(seed=0)
    total, steps = 0.0, 0
    while True:
        _, reward, terminated, truncated, info = env.step(RIGHT)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            break
    # Then it escapes: +1, less 0.001 a simulated second
    assert terminated and not truncated and info["outcome"] == "won"
    assert total == pytest.approx(1.0 - 0.001 * info["time"])
    assert steps == math.ceil(round(info["time"] / DT) / 4)


def test_swimming_into_an_enemy_is_caught(guarded: Path) -> None:
    env = StealthEnv(guarded, time_limit=20.0)
    env.reset(seed=0)
    for _ in range(400):
        _, reward, terminated, truncated, info = env.step(RIGHT)
        if terminated or truncated:
            break
    assert terminated and info["outcome"] == "caught"
    assert float(reward) < -0.99


def test_the_enemy_seeing_the_player_is_observed(guarded: Path) -> None:
    env = StealthEnv(guarded)
    obs, _ = env.reset(seed=0)
    seen = [obs[-3]]
    first = None
    for _ in range(20):
        obs, _, terminated, _, _ = env.step(RIGHT)  # past the enemy, into its cone
        seen.append(obs[-3])
        if obs[-3] == 1.0 and first is None:
            first = obs
        if terminated:
            break
    assert set(seen) <= {-1.0, 1.0}
    assert seen[0] == -1.0  # behind it, the player is not seen
    assert first is not None  # in front of it, with nothing between, it is
    # and a ray meets the enemy then (each ray's third number: the enemy within reach, in sight)
    assert first[2 : 4 * 16 : 4].min() < 1.0


def test_the_time_limit_truncates(open_lane: Path) -> None:
    env = StealthEnv(open_lane, time_limit=1.0, hold=7)
    env.reset(seed=0)
    ends = [env.step(0)[2:4] for _ in range(9)]
    # 60 steps: eight decisions of 7, then one of 4
    assert ends[-1] == (False, True)
    assert all(end == (False, False) for end in ends[:-1])
    assert env.world is not None and env.world.frame == 60


def test_the_same_seed_and_actions_give_the_same_observations(guarded: Path) -> None:
    def run(seed: int) -> list[bytes]:
        env = StealthEnv(guarded)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(7)
        out = [obs.tobytes()]
        for _ in range(60):
            obs, _, terminated, truncated, _ = env.step(int(rng.integers(9)))
            out.append(obs.tobytes())
            if terminated or truncated:
                break
        return out

    assert run(11) == run(11)


def test_continuous_actions_are_clipped_thrust(open_lane: Path) -> None:
    env = StealthEnv(open_lane, continuous=True)
    env.reset(seed=0)
    env.step(np.array([3.0, 0.0], dtype=np.float32))
    assert env.world is not None
    assert env.world.player.inputs[-1] == (1.0, 0.0)


def test_a_finished_episode_replays_from_its_file(guarded: Path, tmp_path: Path) -> None:
    # Given an episode of random actions, written as a replay file
    env = StealthEnv(guarded, time_limit=10.0)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    while True:
        *_, terminated, truncated, _ = env.step(int(rng.integers(9)))
        if terminated or truncated:
            break
    (tmp_path / "runs").mkdir()
    out = env.save_replay(tmp_path / "runs" / "run.json")
    world = env.world
    assert world is not None
    # When the file is read back and played as `python -m game replay` plays it
    recording = load_recording(out)
    level = load_level(resolve_recording_level(recording))
    script = InputScript(recording.keyframes)
    again = World(level, recording.seed)
    assert recording.seconds is not None
    for k in range(round(recording.seconds / DT)):
        again.step(script.thrust(k))
    # Then it is the same run, bit for bit
    assert recording.seed == 5
    assert again.outcome == world.outcome
    np.testing.assert_array_equal(again.agents.pos, world.agents.pos)


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"level": "no_such_level"}, "level"),
        ({"level": 3.5}, "level"),
        ({"rays": 0}, "rays"),
        ({"rays": "16"}, "rays"),
        ({"hold": 0}, "hold"),
        ({"continuous": 1}, "continuous"),
        ({"ray_range": -5.0}, "ray_range"),
        ({"time_limit": math.inf}, "time_limit"),
        ({"time_cost": -1.0}, "time_cost"),
        ({"render_mode": "ansi"}, "render_mode"),
        ({"render_size": (0, 10)}, "render_size"),
    ],
)
def test_a_bad_option_is_one_line_naming_it(
    open_lane: Path, options: dict[str, object], name: str
) -> None:
    kwargs: dict[str, object] = {"level": open_lane, **options}
    with pytest.raises(EnvOptionError) as err:
        StealthEnv(**kwargs)  # type: ignore[arg-type]
    message = str(err.value)
    assert message.startswith(f"{name}: ") and "\n" not in message
    assert err.value.option == name


def test_a_bad_action_is_refused(open_lane: Path) -> None:
    env = StealthEnv(open_lane)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(9)


def test_stepping_past_the_end_changes_nothing(open_lane: Path) -> None:
    env = StealthEnv(open_lane)
    env.reset(seed=0)
    while not env.step(RIGHT)[2]:
        pass
    assert env.world is not None
    frame = env.world.frame
    _, reward, terminated, truncated, info = env.step(RIGHT)
    assert (reward, terminated, truncated, info["outcome"]) == (0.0, True, False, "won")
    assert env.world.frame == frame


@pytest.mark.parametrize("level", ["02_currents", "08_sentries"])
def test_shipped_levels_are_deterministic_too(level: str) -> None:
    def run() -> bytes:
        env = StealthEnv(level)
        obs, _ = env.reset(seed=21)
        rng = np.random.default_rng(3)
        frames = [obs]
        for _ in range(25):
            frames.append(env.step(int(rng.integers(9)))[0])
        return np.stack(frames).tobytes()

    assert run() == run()
