"""``bench --behaviours``: every behaviour of the steering vocabulary has a row, timed on a
scene where it does real work, in the report and the JSON."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import pytest

from benchmarks.harness import behaviours, cli
from benchmarks.harness.behaviours import (
    BEHAVIOUR_SIZES,
    WALLS,
    Scene,
    behaviour_cases,
    format_behaviours,
    time_behaviour,
    time_behaviours,
)
from steering import AvoidWalls

NAMES = [
    "Hide",
    "Interpose",
    "OffsetPursuit",
    "MatchVelocity",
    "AvoidAgents",
    "AvoidWalls",
    "Queue",
    "Face",
    "LookWhereYouAreGoing",
    "Separate",
    "Align",
    "Cohere",
]


def test_every_new_behaviour_has_a_case_at_the_issues_sizes() -> None:
    assert [c.name for c in behaviour_cases()] == NAMES
    assert BEHAVIOUR_SIZES == (1_000, 10_000)


def test_the_wall_case_has_a_thousand_segments_spread_over_the_scene() -> None:
    case = next(c for c in behaviour_cases() if c.name == "AvoidWalls")
    scene = Scene.make(200)
    _, step = case.build(scene)
    assert isinstance(step, AvoidWalls)
    assert len(step.walls) == WALLS == 1_000
    # starts inside the agents' square
    assert (step.walls.start >= 0).all() and (step.walls.start <= scene.side).all()


def test_scenes_keep_the_density_and_are_seeded() -> None:
    a, b = Scene.make(400), Scene.make(400)
    assert a.side == pytest.approx(math.sqrt(400 * behaviours.AREA_PER_AGENT))
    np.testing.assert_array_equal(a.pos, b.pos)
    speeds = np.hypot(a.vel[:, 0], a.vel[:, 1])
    np.testing.assert_allclose(speeds, 0.6 * behaviours.MAX_SPEED)


@pytest.mark.parametrize("case", behaviour_cases(), ids=lambda c: c.name)
def test_each_case_does_real_work(case: behaviours.BehaviourCase) -> None:
    # Given the case's scene at 200 agents
    group, step = case.build(Scene.make(200))
    before = group.heading.copy()
    force = step(group, 1 / 60)
    # Then it returns finite forces within max force for every agent
    assert force.shape == (200, 2) and np.isfinite(force).all()
    assert (np.hypot(force[:, 0], force[:, 1]) <= group.max_force + 1e-9).all()
    if case.face_velocity:
        # and steers a good part of the crowd (not a no-op being timed)
        assert (np.abs(force).sum(axis=1) > 0).sum() >= 10
    else:
        # orientation: no force, but headings turn (at most 6 rad/s * dt)
        assert not force.any()
        turned = np.abs(
            np.angle(
                (group.heading[:, 0] + 1j * group.heading[:, 1])
                / (before[:, 0] + 1j * before[:, 1])
            )
        )
        assert (turned > 1e-6).sum() >= 10
        assert turned.max() <= behaviours.TURN_RATE / 60 + 1e-9


def test_timing_a_case_counts_its_calls_and_reports_ms() -> None:
    ticks = iter(np.arange(0.0, 100.0, 0.002))  # every clock reading 2 ms later
    case = behaviour_cases()[1]
    row = time_behaviour(case, 50, steps=4, warmup=2, clock=lambda: float(next(ticks)))
    assert (row.name, row.agents, row.steps) == ("Interpose", 50, 4)
    assert row.median_ms == pytest.approx(2.0) and row.p95_ms == pytest.approx(2.0)


def test_rows_and_table_for_every_case_and_size() -> None:
    started: list[str] = []
    rows = time_behaviours([20, 40], 1, 0, on_start=lambda label, _: started.append(label))
    assert [(r.name, r.agents) for r in rows] == [(n, k) for n in NAMES for k in (20, 40)]
    assert started[0] == "behaviour: Hide 20 agents"
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)
    table = format_behaviours(rows, 1, 0)
    assert "| 20 agents median | p95 | 40 agents median | p95 |" in table
    assert sum(line.startswith("| ") for line in table.splitlines()) == 1 + len(NAMES)
    assert "| AvoidWalls | 1,000 segments |" in table


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m game")
    cli.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["bench", *argv])


def test_the_flag_adds_the_section_to_the_report_and_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # When a tiny run asks for the per-behaviour table at 30 agents
    out_file = tmp_path / "b.json"
    argv = ["--sizes", "250", "--reference-sizes", "--stagger", "1", "--steps", "1"]
    argv += ["--warmup", "0", "--behaviour-sizes", "30", "--json", str(out_file)]
    assert cli.run(_parse(argv)) == 0
    out, err = capsys.readouterr()
    # Then the report has a row per behaviour, progress names them, and the JSON holds them
    assert "Each behaviour on its own" in out and "| Queue | distance 40, fov 90 |" in out
    assert "behaviour: AvoidWalls 30 agents" in err
    data = json.loads(out_file.read_text())["behaviours"]
    assert data["sizes"] == [30] and data["walls"] == 1000 and data["steps"] == 1
    assert [r["behaviour"] for r in data["rows"]] == NAMES
    assert set(data["rows"][0]) == {"behaviour", "detail", "agents", "median_ms", "p95_ms", "steps"}


def test_behaviours_with_quick_uses_tiny_sizes() -> None:
    from benchmarks.harness.scenario import load_sandbox

    options = cli.options_from(_parse(["--quick", "--behaviours"]), load_sandbox())
    assert options.behaviour_sizes == behaviours.QUICK_BEHAVIOUR_SIZES
    plain = cli.options_from(_parse(["--behaviours"]), load_sandbox())
    assert plain.behaviour_sizes == BEHAVIOUR_SIZES
    assert cli.options_from(_parse([]), load_sandbox()).behaviour_sizes == ()
