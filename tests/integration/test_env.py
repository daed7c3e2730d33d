"""The environment against Gymnasium's own checks on every shipped level, and in a vector of
processes."""

from __future__ import annotations

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
