"""``python -m game simulate``: options, the JSON summary, the trace file, errors, progress,
exit status 143 on SIGTERM."""

from __future__ import annotations

import argparse
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from game import cli_simulate
from game.level import load_level, resolve_level
from game.world import TRACE_KEYS

REPO = Path(__file__).resolve().parents[2]


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m game")
    sub = parser.add_subparsers(dest="command")
    cli_simulate.add_parser(sub)
    return parser.parse_args(["simulate", *argv])


def simulate(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = cli_simulate.run(parse(argv))
    except SystemExit as exc:  # argparse errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_run_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = simulate(["sandbox", "--seconds", "0.5", "--seed", "3"], capsys)
    assert code == 0
    assert len(out.splitlines()) == 1
    summary = json.loads(out)
    assert summary["level"] == "10_sandbox.tmj"
    assert summary["seed"] == 3
    assert summary["frames"] == 30
    assert summary["agents"] == load_level(resolve_level("sandbox")).agent_count
    assert summary["outcome"] == "running"
    assert summary["seconds"] == pytest.approx(0.5)
    assert 0 < summary["median_ms"] <= summary["p95_ms"]
    assert err == ""  # shorter than a second: no progress bar


def test_extra_agents_and_the_level_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = simulate(["sandbox", "--seconds", "0.1", "--agents", "100"], capsys)
    summary = json.loads(out)
    level = load_level(resolve_level("sandbox"))  # 204 agents, seed 12
    assert level.agent_count == 204 and level.seed == 12
    assert code == 0 and summary["agents"] == 304 and summary["seed"] == 12


@pytest.mark.slow
def test_the_run_stops_when_the_outcome_is_decided(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = simulate(["sandbox", "--seconds", "60", "--autopilot"], capsys)
    summary = json.loads(out)
    assert code == 0
    assert summary["outcome"] in ("won", "caught")
    assert summary["frames"] < 3600


def test_the_trace_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "run.npz"
    argv = ["patrol", "--seconds", "1", "--trace", str(trace), "--trace-every", "7"]
    code, out, _ = simulate(argv, capsys)
    assert code == 0
    with np.load(trace, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    assert set(arrays) == set(TRACE_KEYS)
    level = load_level(resolve_level("patrol"))
    a, m = level.agent_count, len(level.obstacles)
    frames = len(range(0, 61, 7)) + 1  # frames 0, 7, ..., 56 and the last one (60)
    assert arrays["t"].shape == (frames,)
    assert arrays["t"][1] == pytest.approx(7 / 60) and arrays["t"][-1] == pytest.approx(1.0)
    assert arrays["pos"].shape == arrays["vel"].shape == (frames, a, 2)
    assert arrays["pos"].dtype == arrays["vel"].dtype == np.float32
    assert arrays["radius"].shape == (a,)
    assert arrays["kind"].tolist() == ["player"] + ["enemy"] * (a - 1)
    assert arrays["kind"].dtype.kind == "U"
    assert arrays["spawn_id"][0] == level.player.id
    assert arrays["obstacle_pos"].shape == (frames, m, 2)
    assert arrays["obstacle_radius"].tolist() == [o.radius for o in level.obstacles]
    assert arrays["obstacle_id"].tolist() == [o.id for o in level.obstacles]
    assert arrays["outcome"].shape == () and str(arrays["outcome"]) == "running"
    assert int(arrays["seed"]) == level.seed == json.loads(out)["seed"]
    assert arrays["pos"][0, 0].tolist() == [level.player.x, level.player.y]


@pytest.mark.parametrize(
    "argv",
    [
        ["no-such-level"],
        ["sandbox", "--seconds", "0"],
        ["sandbox", "--seconds", "nan"],
        ["sandbox", "--seconds", "abc"],
        ["sandbox", "--agents", "-1"],
        ["sandbox", "--trace-every", "0"],
        ["sandbox", "--seed", "-5"],
        ["sandbox", "--stagger", "0"],
        ["sandbox", "--trace", "/no/such/folder/x.npz"],
        ["sandbox", "--bogus"],
        [],
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = simulate(argv, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_broken_level_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "broken.tmj"
    bad.write_text("{not json")
    code, out, err = simulate([str(bad)], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "broken.tmj" in err


def test_a_long_run_shows_a_progress_bar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_simulate, "PROGRESS_AFTER", 0.0)
    code, out, err = simulate(["patrol", "--seconds", "0.5"], capsys)
    assert code == 0
    assert "%" in err and "simulated" in err
    assert err.endswith("\n")
    assert json.loads(out)["frames"] == 30
    # stderr is not a terminal here: plain lines, no carriage returns, at most one per tenth
    assert "\r" not in err
    assert 1 <= len(err.splitlines()) <= 10


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_is_redrawn_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_simulate, "PROGRESS_AFTER", 0.05)
    out = Terminal()
    bar = cli_simulate._Progress(100, out)
    time.sleep(0.15)  # the run has taken longer than PROGRESS_AFTER (and tqdm's 0.1 s interval)
    bar.update(50, 0.8)
    bar.close()
    assert out.getvalue().startswith("\r[###############") and out.getvalue().endswith("\n")


def test_on_a_terminal_a_short_run_shows_no_bar() -> None:
    # Given a run that ends before PROGRESS_AFTER
    out = Terminal()
    bar = cli_simulate._Progress(100, out)
    bar.update(100, 1.6)
    bar.close()
    # Then nothing was drawn, not even on close
    assert out.getvalue() == ""


def test_simulate_imports_no_graphics() -> None:
    code = (
        "import argparse, sys\n"
        "from game import cli_simulate as c\n"
        "p = argparse.ArgumentParser(); s = p.add_subparsers(dest='command'); c.add_parser(s)\n"
        "rc = c.run(p.parse_args(['simulate', 'patrol', '--seconds', '0.2']))\n"
        "bad = [m for m in ('arcade', 'pyglet', 'OpenGL') if m in sys.modules]\n"
        "assert rc == 0 and not bad, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert result.returncode == 0, result.stderr


def test_the_game_command_exits_143_on_sigterm(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "game",
            "simulate",
            "01_patrol",
            "--seconds",
            "3600",  # the limit: 600 simulated s of patrol can end within the 4 s below
            "--trace",
            str(tmp_path / "t.npz"),
        ],
        stderr=subprocess.PIPE,
        cwd=REPO,
        text=True,
    )
    time.sleep(4.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "terminated" in err and "Traceback" not in err
    assert not list(tmp_path.glob(".t.npz.*.tmp"))
