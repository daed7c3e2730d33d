"""The engine's benchmark times both sides over the same stretch of the same scene."""

from __future__ import annotations

import numpy as np

from steering import bench


def test_a_block_starts_from_the_start_and_again_every_horizon_steps() -> None:
    log: list[str] = []
    side = bench.Side(lambda: log.append("step"), lambda: log.append("restart"))
    times = bench._block(side, budget=60.0, max_steps=7, horizon=3)
    assert len(times) == 7
    assert log == ["restart", *["step"] * 3, "restart", *["step"] * 3, "restart", "step"]


def test_horizon_zero_restarts_only_at_the_start_of_a_block() -> None:
    log: list[str] = []
    side = bench.Side(lambda: log.append("step"), lambda: log.append("restart"))
    bench._block(side, budget=60.0, max_steps=5, horizon=0)
    assert log == ["restart", *["step"] * 5]


def test_a_restarted_crowd_is_the_scene_at_its_start() -> None:
    pos, vel, side = bench._start(30)
    ours = bench._Ours(pos, vel, bench.ours_preset((side / 2, side / 2)))
    naive = bench._Naive(pos, vel, True, (side / 2, side / 2))
    for _ in range(20):
        ours.step()
        naive.step()
    assert not np.array_equal(ours.agents.pos, pos)
    ours.restart()
    naive.restart()
    assert np.array_equal(ours.agents.pos, pos)
    assert np.array_equal(ours.agents.vel, vel)
    assert [(v.x, v.y) for v in naive.vehicles] == [tuple(p) for p in pos.tolist()]
    # the start state is the scene's own copy: stepping the crowd does not move it
    ours.step()
    ours.restart()
    assert np.array_equal(ours.agents.pos, pos)
