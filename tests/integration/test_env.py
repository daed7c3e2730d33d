"""The environment against Gymnasium's own checks on every shipped level, and in a vector of
processes."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from game.env import StealthEnv
from game.level import shipped_levels

LEVELS = shipped_levels()


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS, ids=[p.stem for p in LEVELS])
def test_check_env_passes(level: Path) -> None:
    for continuous in (False, True):
        env = StealthEnv(level, continuous=continuous)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a checker's warning is a failure here
            check_env(env, skip_render_check=True)
        env.close()


@pytest.mark.slow
def test_an_async_vector_of_two_runs() -> None:
    # Given two environments in two processes
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: StealthEnv("08_sentries"), lambda: StealthEnv("01_patrol")]
    )
    try:
        obs, _ = envs.reset(seed=[1, 2])
        assert obs.shape == (2, 72)
        # When they step together
        for _ in range(20):
            obs, reward, *_ = envs.step(np.array([3, 5]))
        # Then each keeps its own run, inside the space
        assert obs.shape == (2, 72) and reward.shape == (2,)
        assert np.all(np.abs(obs) <= 1.0)
        assert not np.array_equal(obs[0], obs[1])
    finally:
        envs.close()


def test_simulate_plays_an_episodes_replay_file(tmp_path: Path) -> None:
    # Given a random episode of level 1, written as a replay file
    env = StealthEnv("01_patrol", time_limit=30.0)
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    while True:
        *_, terminated, truncated, info = env.step(int(rng.integers(9)))
        if terminated or truncated:
            break
    out = env.save_replay(tmp_path / "run.json")
    assert env.world is not None
    frames = env.world.frame
    # When `python -m game simulate --inputs` runs it
    done = subprocess.run(
        [sys.executable, "-m", "game", "simulate", "--inputs", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # Then it is the same run: the same seed, steps and outcome
    assert result["seed"] == 4
    assert result["frames"] == frames
    assert result["outcome"] == (info["outcome"] if terminated else "running")
