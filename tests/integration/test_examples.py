"""The examples in examples/ run as a programmer would run them, and do what they say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(name: str, *args: str) -> str:
    env = dict(os.environ, ARCADE_HEADLESS="1")
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _values(out: str) -> dict[str, float]:
    return {k: float(v) for k, v in (line.rsplit(": ", 1) for line in out.splitlines())}


def test_headless_flock_follows_its_path_apart() -> None:
    # When the headless example runs its 10 s
    values = _values(_run("headless.py"))
    # Then the flock is on the loop (30 px wide), spaced out by separation, and moving
    assert values["median distance from the path (px)"] < 30.0
    assert values["closest pair (px)"] > 8.0
    assert values["mean speed (px/s)"] > 30.0


def test_pymunk_world_reaches_the_far_side_without_entering_rocks() -> None:
    # When the pymunk example steers 30 bodies past three rocks for 8 s
    values = _values(_run("pymunk_world.py"))
    # Then most arrive, and none sinks into a rock by more than pymunk's slop
    assert values["agents past x = 650"] >= 20
    assert values["deepest overlap with a rock (px)"] < 2.0


@pytest.mark.window
def test_arcade_window_draws_frames_and_closes() -> None:
    # When the arcade example runs headless for 20 frames, it exits cleanly
    _run("arcade_window.py", "--frames", "20", "--agents", "200")


def test_the_random_policy_reports_rates_that_add_up() -> None:
    # When the random baseline plays three short episodes of level 8
    out = _run("random_policy.py", "08_sentries", "--episodes", "3", "--time-limit", "5")
    # Then its one line gives the three outcomes' rates, summing to one
    (line,) = out.splitlines()
    assert line.startswith("08_sentries: won ")
    rates = [float(part.split()[-1]) for part in line.split(", ")[:3]]
    assert sum(rates) == pytest.approx(1.0)
