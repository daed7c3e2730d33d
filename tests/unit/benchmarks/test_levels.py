"""Whole levels against the seed-style reference: the reference runs any level, levels scale to
any crowd (``bench --levels`` / ``--sweep``: tests/integration/test_cli_bench.py)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.harness.levels import LevelReference, scaled_level, time_level
from game.level import load_level, resolve_level, shipped_levels


@pytest.mark.slow  # a pure-Python engine on every level for a second: about 7 s
@pytest.mark.parametrize("name", [p.stem for p in shipped_levels()])
def test_the_reference_runs_every_shipped_level(name: str) -> None:
    # Given a shipped level as the seed-style reference sees it
    level = load_level(resolve_level(name))
    ref = LevelReference(level)
    assert len(ref.vehicles) == level.agent_count - 1
    start = [tuple(b.position) for b in ref.bodies]
    # When it steps for a second
    for _ in range(60):
        ref.step()
    # Then every body moved under its steering, nowhere turned NaN
    end = np.array([tuple(b.position) for b in ref.bodies])
    assert np.isfinite(end).all()
    if ref.bodies:
        assert np.abs(end - np.array(start)).max() > 1.0


def test_drifting_paths_move_in_the_reference_too() -> None:
    ref = LevelReference(load_level(resolve_level("moving_paths")))
    assert ref.drifts
    before = list(ref.drifts[0].path.points)
    for _ in range(30):
        ref.step()
    assert ref.drifts[0].path.points != before


@pytest.mark.parametrize("agents", [1, 2, 7, 50, 202])
def test_scaled_levels_hold_exactly_the_crowd_asked_for(agents: int) -> None:
    level = load_level(resolve_level("sandbox"))
    scaled = scaled_level(level, agents)
    assert scaled.agent_count == agents
    if agents >= 1 + len(level.enemies) + len(level.npcs):
        assert len(scaled.enemies) == len(level.enemies)
    with pytest.raises(ValueError, match="agents"):
        scaled_level(level, 0)


def test_time_level_times_both_engines_on_the_same_crowd() -> None:
    level = load_level(resolve_level("patrol"))
    t = time_level(level, "patrol", steps=8, warmup=2, interleave=2)
    assert t.agents == level.agent_count
    assert len(t.ours_ms) == 8 and len(t.reference_ms) >= 3
    assert t.ratio is not None and t.ratio > 0
    assert set(t.to_json()) >= {"reference_median_ms", "ours_median_ms", "ours_p95_ms", "x_faster"}


def test_each_block_of_ours_after_the_first_starts_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks.harness import levels as bench_levels
    from game.world import World

    steps: list[int] = []

    class Counted(World):
        def step(self, thrust: object = (0.0, 0.0)) -> str:
            steps.append(self.frame)
            return super().step(thrust)  # type: ignore[arg-type]

    monkeypatch.setattr(bench_levels, "World", Counted)
    level = load_level(resolve_level("patrol"))
    t = time_level(level, "patrol", steps=12, warmup=2, interleave=3)
    # 2 warm-up steps, 3 blocks of 4 timed ones, the last two blocks after 3 untimed steps each
    assert len(t.ours_ms) == 12
    assert len(steps) == 2 + 12 + 2 * bench_levels.BLOCK_WARMUP
