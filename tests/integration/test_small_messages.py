"""The small messages of issue 27 through ``python -m game``: the empty level argument named, a
shipped level winning over a folder of its name, ASCII digits only, and the bench bounded like
the other commands (the loader's own: tests/unit/level/test_level_messages.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.level import LevelError, resolve_level
from game.level.shipped import LEVELS_DIR
from tests.helpers.level import valid_map, write

ROOT = Path(__file__).resolve().parents[2]


def _game(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the game from this tree, from any folder
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_an_empty_level_argument_is_named() -> None:
    with pytest.raises(LevelError, match="'': an empty level name"):
        resolve_level("")
    run = _game("simulate", "", "--seconds", "0.1")
    assert run.returncode == 2
    assert "an empty level name" in run.stderr and "directory" not in run.stderr


def test_a_shipped_level_wins_over_a_folder_of_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("1", "patrol"):
        (tmp_path / name).mkdir()
    monkeypatch.chdir(tmp_path)
    assert resolve_level("1") == LEVELS_DIR / "01_patrol.tmj"
    assert resolve_level("patrol") == LEVELS_DIR / "01_patrol.tmj"
    # a level file of that name in the working directory is still what is meant
    own = write(tmp_path, valid_map(), "mine.tmj")
    assert resolve_level("mine.tmj") == Path("mine.tmj") and own.exists()
    run = _game("simulate", "1", "--seconds", "0.1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert '"level": "01_patrol.tmj"' in run.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "patrol", "--seconds", "\u0661"),  # Arabic-Indic one
        ("simulate", "patrol", "--agents", "\uff13"),  # full-width three
        ("simulate", "patrol", "--seconds", "1_0"),
        ("demo", "--agents", "\u0663\u0660"),
        ("edit", "--new", "x.tmj", "--size", "\u0664\u0660x24"),
    ],
)
def test_numbers_take_ascii_digits_only(args: tuple[str, ...], tmp_path: Path) -> None:
    run = _game(*args, cwd=tmp_path)
    assert run.returncode == 2, run.stdout
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_the_bench_refuses_a_reference_crowd_that_would_take_hours() -> None:
    run = _game("bench", "--reference-sizes", "200000")
    assert run.returncode == 2
    assert "--reference-sizes must be in" in run.stderr and "5000" in run.stderr
