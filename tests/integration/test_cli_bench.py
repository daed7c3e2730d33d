"""``python -m game bench``: the table, ``--json``, ``--quick`` end to end, ``--levels`` and
``--sweep``, progress, errors."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.harness import cli
from benchmarks.harness.measure import Progress
from game.level import shipped_levels

REPO = Path(__file__).resolve().parents[2]
TOP_KEYS = {
    "machine",
    "options",
    "weights",
    "rows",
    "exponents",
    "notes",
    "frames",
    "profile",
    "behaviours",
}
MACHINE_KEYS = {
    "python",
    "numpy",
    "scipy",
    "pymunk",
    "platform",
    "cpu",
    "cpu_count",
    "malloc_tuned",
}
OPTION_KEYS = {
    "level",
    "sizes",
    "reference_sizes",
    "steps",
    "warmup",
    "reference_steps",
    "reference_warmup",
    "reference_max_steps",
    "reference_budget_s",
    "stagger",
    "step_limit_s",
}
WORLD_KEYS = {"median_ms", "p95_ms", "steering_ms", "physics_ms", "systems_ms", "steps"}
EXPONENT_KEYS = {"ours_steering", "ours_world", "reference_steering", "reference_total"}
TINY = ["--sizes", "250", "--reference-sizes", "250", "--steps", "2", "--warmup", "1"]


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m game")
    sub = parser.add_subparsers(dest="command")
    cli.add_parser(sub)
    return parser.parse_args(["bench", *argv])


def bench(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = cli.run(parse(argv))
    except SystemExit as exc:  # argparse errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_writes_the_documented_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a tiny run with --json
    out_file = tmp_path / "bench.json"
    # (three untimed steps: the second and third call kernels the first does not, such as the
    # neighbour grid's refresh, which would compile inside the timed steps on a cold cache)
    argv = [*TINY, "--warmup", "3", "--stagger", "1", "3", "--json", str(out_file)]
    code, out, _ = bench(argv, capsys)
    # Then the table is printed and the file holds the documented keys
    assert code == 0
    assert "| 250 |" in out and "fitted exponent" in out
    data = json.loads(out_file.read_text())
    assert set(data) == TOP_KEYS
    assert set(data["machine"]) == MACHINE_KEYS
    assert set(data["options"]) == OPTION_KEYS
    assert set(data["weights"]) == {"path", "flow", "avoid", "separate"}
    (row,) = data["rows"]
    assert set(row) == {"agents", "steered", "reference", "ours", "speedup"}
    assert row["agents"] == 250 and row["steered"] == 249
    assert set(row["reference"]) == {"steering_ms", "total_ms", "steps", "note"}
    assert set(row["ours"]) == {"steering_ms", "steering_p95_ms", "world"}
    assert set(row["ours"]["world"]) == {"1", "3"}
    assert set(row["ours"]["world"]["1"]) == WORLD_KEYS
    assert set(row["speedup"]) == {"steering", "total"}
    assert set(row["speedup"]["total"]) == {"1", "3"}
    assert row["speedup"]["steering"] > 1.0  # reference / ours
    assert set(data["exponents"]) == EXPONENT_KEYS
    assert data["exponents"]["ours_steering"] is None  # one size: nothing to fit
    assert data["frames"] is None and data["profile"] is None
    assert data["behaviours"] is None  # only with --behaviours


def test_progress_is_one_line_per_job_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = bench([*TINY, "--stagger", "1"], capsys)
    assert code == 0
    lines = err.splitlines()
    assert lines == [
        "bench [1/3] reference 250 agents (3 steps)",
        "bench [2/3] ours: steering 250 agents (3 steps)",
        "bench [3/3] ours: World.step 250 agents, stagger 1 (3 steps)",
    ]


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_is_redrawn_in_place() -> None:
    out = Terminal()
    progress = Progress(2, out)
    progress.job("first", 2)
    progress.tick()
    progress.note("a skipped size")
    progress.job("second", 1)
    progress.tick()
    progress.close()
    text = out.getvalue()
    assert text.count("\n") == 1 and "bench: a skipped size\n" in text
    assert "\r[" in text and "2/2 second" in text
    assert text.endswith("\r")


def test_the_reference_can_be_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = bench(
        ["--sizes", "250", "--reference-sizes", "--steps", "1", "--stagger", "1"], capsys
    )
    assert code == 0
    assert "| 250 | - |" in out


@pytest.mark.slow
def test_profile_writes_a_pyinstrument_text_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "profile.txt"
    argv = ["--sizes", "250", "--reference-sizes", "--steps", "1", "--warmup", "0"]
    code, out, _ = bench([*argv, "--stagger", "1", "--profile", str(target)], capsys)
    assert code == 0
    text = target.read_text()
    assert text.startswith("# pyinstrument: 10 World.step calls")
    assert "step" in text
    assert str(target) in out


def test_profile_without_pyinstrument_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyinstrument", None)  # import fails
    code, out, err = bench([*TINY, "--profile", str(tmp_path / "p.txt")], capsys)
    assert code == 2 and out == ""
    assert err.strip() == (
        "bench: error: --profile needs pyinstrument: pip install -e '.[bench]' "
        "(or pip install pyinstrument)"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--steps", "0"],
        ["--warmup", "-1"],
        ["--stagger", "0"],
        ["--sizes", "10"],
        ["--sizes", "abc"],
        ["--sizes"],
        ["--reference-sizes", "5"],
        ["--behaviour-sizes", "0"],
        ["--behaviour-sizes", "x"],
        ["--json", "/no/such/folder/x.json"],
        ["--profile", "/no/such/folder/p.txt"],
        ["--bogus"],
    ],
)
def test_bad_options_are_one_line_on_stderr_and_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = bench(argv, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.slow
def test_quick_runs_end_to_end_from_the_command_line(tmp_path: Path) -> None:
    # When `python -m game bench --quick` runs in a fresh interpreter
    result = subprocess.run(
        [sys.executable, "-m", "game", "bench", "--quick", "--json", str(tmp_path / "q.json")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # Then it prints the table, reports progress on stderr and writes the JSON
    assert result.returncode == 0, result.stderr
    assert "x faster" in result.stdout and "| 400 |" in result.stdout
    assert "bench [1/" in result.stderr
    assert json.loads((tmp_path / "q.json").read_text())["options"]["sizes"] == [250, 400]


def test_a_bad_option_from_the_command_line_exits_2() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "game", "bench", "--steps", "x"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.window
@pytest.mark.slow
def test_frames_adds_the_whole_frame_table(tmp_path: Path) -> None:
    # When a quick run also times whole frames (headless, in a fresh interpreter)
    argv = ["--quick", "--sizes", "250", "--reference-sizes", "--stagger", "1", "--frames"]
    result = subprocess.run(
        [sys.executable, "-m", "game", "bench", *argv, "--json", str(tmp_path / "f.json")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "ARCADE_HEADLESS": "1"},
    )
    # Then the frame table is printed and in the JSON, overlay off and on
    assert result.returncode == 0, result.stderr
    assert "Whole frames" in result.stdout
    frames = json.loads((tmp_path / "f.json").read_text())["frames"]
    assert [(r["agents"], r["overlay"]) for r in frames["rows"]] == [(1000, False), (1000, True)]
    assert all(r["frame_ms"] > 0 and r["fps"] > 0 for r in frames["rows"])


@pytest.mark.slow
def test_levels_and_sweep_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "levels.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "game",
            "bench",
            "--levels",
            "--sweep",
            "1",
            "5",
            "--quick",
            "--json",
            str(out),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "| 05_moving_paths | 9 |" in done.stdout
    assert "| 5 | 5 |" in done.stdout
    data = json.loads(out.read_text())
    assert len(data["levels"]) == len(shipped_levels())
    assert [row["agents"] for row in data["sweep"]] == [1, 5]


def test_a_bad_sweep_size_is_one_line_and_status_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "game", "bench", "--sweep", "0"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--sweep" in done.stderr
