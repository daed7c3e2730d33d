"""Replays reproduce runs: a recorded run played back by ``simulate --inputs`` gives the same
trace bit for bit, every time; a held direction swims that way."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import pytest

from game import cli_simulate
from game.level import load_level, resolve_level
from game.recording import RunRecorder, load_recording
from game.world import TraceRecorder, World, load_trace
from tests.helpers.level import exit_, make_map, player

S = 1.0 / math.sqrt(2.0)
#: What keys give: the eight directions and no key.
KEY_THRUSTS = [
    (0.0, 0.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (S, S),
    (S, -S),
    (-S, S),
    (-S, -S),
]


def key_inputs(steps: int, seed: int) -> list[tuple[float, float]]:
    """A player pressing keys: each direction held for 5-40 steps."""
    rng = np.random.default_rng(seed)
    out: list[tuple[float, float]] = []
    while len(out) < steps:
        out += [KEY_THRUSTS[rng.integers(len(KEY_THRUSTS))]] * int(rng.integers(5, 40))
    return out[:steps]


def simulate(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="python -m game")
    cli_simulate.add_parser(parser.add_subparsers(dest="command"))
    code = cli_simulate.run(parser.parse_args(["simulate", *argv]))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_a_recorded_run_replays_to_a_bit_identical_trace_every_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a run of the sandbox (currents, wanderers, patrols) played with keys and recorded,
    # with the debug overlay's arrays collected for a while (as F1 does in the game)
    path = resolve_level("sandbox")
    world = World(load_level(path), seed=21)
    recorder = RunRecorder(tmp_path / "run.json")
    recorder.start(path, world)
    trace = TraceRecorder(world)
    for k, u in enumerate(key_inputs(240, 5)):
        world.steering.debug_enabled = 60 <= k < 120
        world.step(u)
        trace.after_step(world)
        if world.outcome != "running":
            break
    trace.finish(world)
    trace.save(tmp_path / "played.npz")
    assert world.frame > 120  # the overlay's stretch and more were played
    assert recorder.save()
    assert len(load_recording(tmp_path / "run.json").keyframes) < world.frame / 4

    # When simulate plays the file twice
    for name in ("again1", "again2"):
        code, out, err = simulate(
            ["--inputs", str(tmp_path / "run.json"), "--trace", str(tmp_path / f"{name}.npz")],
            capsys,
        )
        assert code == 0, err
        summary = json.loads(out)
        assert summary["frames"] == world.frame and summary["seed"] == 21

    # Then all three traces hold exactly the same arrays
    played = load_trace(tmp_path / "played.npz")
    for name in ("again1", "again2"):
        again = load_trace(tmp_path / f"{name}.npz")
        assert again.keys() == played.keys()
        for key in played:
            assert np.array_equal(again[key], played[key]), (name, key)


def _corridor(folder: Path) -> Path:
    """A level with only the player (world (64, 320)) and an exit at the right edge."""
    path = folder / "corridor.tmj"
    path.write_text(json.dumps(make_map([player(), exit_()])))
    return path


def test_holding_one_direction_swims_that_way_and_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a bare list of keyframes: right from 0.5 s on
    level = _corridor(tmp_path)
    script = tmp_path / "right.json"
    script.write_text("[[0.5, 1, 0]]")
    # When simulate plays it on the corridor, traced
    trace_file = tmp_path / "t.npz"
    argv = [str(level), "--inputs", str(script), "--seconds", "20", "--trace", str(trace_file)]
    code, out, err = simulate(argv, capsys)
    # Then the player waits 30 steps, swims right along its row and reaches the exit
    assert code == 0, err
    summary = json.loads(out)
    assert summary["outcome"] == "won"
    assert summary["seed"] == load_level(level).seed
    x = load_trace(trace_file)["pos"][:, 0, :]
    assert np.array_equal(x[:31], np.repeat(x[:1], 31, axis=0))
    assert (np.diff(x[31:, 0]) > 0).all()
    assert np.abs(x[:, 1] - x[0, 1]).max() < 1e-3


def test_the_file_sets_level_seed_and_length_and_the_command_line_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _corridor(tmp_path)
    script = tmp_path / "left.json"
    body = {"level": "corridor.tmj", "seed": 77, "seconds": 0.5, "inputs": [[0, -1, 0]]}
    script.write_text(json.dumps(body))
    # The level is found beside the file; seed and length come from it
    code, out, _ = simulate(["--inputs", str(script)], capsys)
    summary = json.loads(out)
    assert code == 0
    assert (summary["level"], summary["seed"], summary["frames"]) == ("corridor.tmj", 77, 30)
    # Options given on the command line win over the file
    code, out, _ = simulate(["1", "--inputs", str(script), "--seed", "5", "--seconds", "1"], capsys)
    summary = json.loads(out)
    assert code == 0
    assert (summary["level"], summary["seed"], summary["frames"]) == ("01_patrol.tmj", 5, 60)


def test_inputs_and_autopilot_together_or_no_level_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "s.json"
    script.write_text("[]")
    code, _, err = simulate(["1", "--inputs", str(script), "--autopilot"], capsys)
    assert code == 2 and "--inputs and --autopilot" in err
    code, _, err = simulate([], capsys)
    assert code == 2 and "a level is required" in err
    code, _, err = simulate(["--inputs", str(script)], capsys)
    assert code == 2 and err.count("\n") == 1 and 'field "level": a bare list' in err
