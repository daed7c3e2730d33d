"""Any number of flow regions the loader accepts runs (issue 43): 1,000 or more crashed
``simulate``, ``screenshot`` and ``edit`` with numba's "Tuple 'vectors' length must be smaller
than 1000" while ``check`` accepted the file. Each command runs in its own process with a
timeout, so a hang or a compile per count fails the test instead of blocking."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.level import exit_, make_map, player, prop, rect, write

REPO = Path(__file__).resolve().parents[2]
REGIONS = 1_200


def _level(folder: Path) -> Path:
    """A 40 x 20 tile map with :data:`REGIONS` small uniform flow regions tiling its middle."""
    flows = [
        rect(
            10 + k,
            "flow",
            32.0 + 16.0 * (k % 60),
            64.0 + 16.0 * (k // 60),
            16.0,
            16.0,
            [prop("angle", "float", float(k % 360)), prop("cell", "float", 16.0)],
        )
        for k in range(REGIONS)
    ]
    return write(folder, make_map([player(), exit_(), *flows]), "regions.tmj")


def _run(args: list[str], folder: Path, headless: bool = False) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if headless:
        env["ARCADE_HEADLESS"] = "1"
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_check_simulate_and_screenshot_agree_on_many_flow_regions(tmp_path: Path) -> None:
    level = _level(tmp_path)
    check = _run(["game.level", "check", str(level)], tmp_path)
    assert check.returncode == 0, check.stderr
    sim = _run(["game", "simulate", str(level), "--seconds", "0.2"], tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert '"frames": 12' in sim.stdout


@pytest.mark.slow
@pytest.mark.window
def test_a_screenshot_of_many_flow_regions(tmp_path: Path) -> None:
    level = _level(tmp_path)
    out = tmp_path / "shot.png"
    shot = _run(
        ["game", "screenshot", str(level), "--seconds", "0.1", "--out", str(out)],
        tmp_path,
        headless=True,
    )
    assert shot.returncode == 0, shot.stderr
    assert out.stat().st_size > 0
