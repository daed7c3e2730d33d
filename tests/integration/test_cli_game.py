"""The game's commands: argument parsing, and a bad level is one line on stderr + status 2."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from game import cli_game

REPO = Path(__file__).resolve().parents[2]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="game")
    cli_game.add_parsers(parser.add_subparsers(dest="command"))
    return parser


def test_parsers() -> None:
    args = _parser().parse_args(
        ["screenshot", "2", "--out", "x.png", "--seconds", "4.5", "--debug", "--size", "800x600"]
    )
    assert (args.game_command, args.level, args.out, args.seconds) == (
        "screenshot",
        "2",
        Path("x.png"),
        4.5,
    )
    assert args.debug and args.size == (800, 600)
    args = _parser().parse_args(["play", "patrol"])
    assert (args.game_command, args.level, args.debug) == ("play", "patrol", False)


@pytest.mark.parametrize("bad", ["1280", "0x0", "99999x10", "axb"])
def test_bad_sizes_are_refused(bad: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        cli_game.parse_size(bad)


@pytest.mark.parametrize("command", ["play", "screenshot"])
def test_a_bad_level_is_one_line_on_stderr_and_status_2(
    command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = [command, "no-such-level"]
    if command == "screenshot":
        argv += ["--out", str(tmp_path / "x.png")]
    assert cli_game.run(_parser().parse_args(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-level" in err
    assert not (tmp_path / "x.png").exists()


def test_a_broken_level_file_is_one_line_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.tmj"
    bad.write_text('{"width": 10, "height": 10, "tilewidth": 32, "tileheight": 32, "layers": []}')
    args = _parser().parse_args(["screenshot", str(bad), "--out", str(tmp_path / "x.png")])
    assert cli_game.run(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.tmj" in err


@pytest.mark.slow
@pytest.mark.window
def test_screenshot_command_writes_a_png_in_a_fresh_process(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    code = (
        "import sys, argparse; from game import cli_game; p = argparse.ArgumentParser();"
        "cli_game.add_parsers(p.add_subparsers(dest='command'));"
        "sys.exit(cli_game.run(p.parse_args(sys.argv[1:])))"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "screenshot",
            "1",
            "--out",
            str(out),
            "--seconds",
            "0.5",
            "--size",
            "640x360",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    from PIL import Image

    with Image.open(out) as im:
        assert im.size == (640, 360)


def test_the_cli_refuses_an_existing_file_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "mine.tmj"
    target.write_text("{}", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "game", "edit", "--new", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "mine.tmj" in lines[0] and "already exists" in lines[0]
