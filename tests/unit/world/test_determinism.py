"""Seeded worlds are reproducible: same level, seed and inputs give the same run, bit for bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.world import Autopilot, TraceRecorder, World, load_trace, replay


def random_inputs(steps: int, seed: int) -> list[tuple[float, float]]:
    """A wandering player: unit vectors and pauses, from a seeded generator."""
    rng = np.random.default_rng(seed)
    angle = np.cumsum(rng.normal(0.0, 0.15, steps))
    go = rng.random(steps) > 0.1
    return [
        (float(np.cos(a)) if g else 0.0, float(np.sin(a)) if g else 0.0)
        for a, g in zip(angle, go, strict=True)
    ]


@pytest.mark.slow
def test_two_worlds_with_the_same_seed_and_inputs_are_bit_identical() -> None:
    # Given the finale (noise currents, drifting paths, pushable rocks, every brain), twice
    level = load_level(resolve_level("finale"))
    a, b = World(level, seed=11), World(level, seed=11)
    inputs = random_inputs(3600, 5)
    # When both take the same 3,600 inputs
    for u in inputs:
        a.step(u)
        b.step(u)
    # Then every position and velocity is bit-identical
    assert a.frame == b.frame == 3600
    assert np.array_equal(a.agents.pos, b.agents.pos)
    assert np.array_equal(a.agents.vel, b.agents.vel)
    assert np.array_equal(a.obstacle_pos, b.obstacle_pos)
    assert np.array_equal(a.mode, b.mode)
    assert a.outcome == b.outcome


def test_a_different_seed_gives_a_different_run() -> None:
    level = load_level(resolve_level("sandbox"))
    a, b = World(level, seed=1), World(level, seed=2)
    for _ in range(60):
        a.step()
        b.step()
    assert not np.array_equal(a.agents.pos, b.agents.pos)


@pytest.mark.slow
def test_replaying_recorded_inputs_reproduces_the_trace(tmp_path: Path) -> None:
    # Given an autopilot run on the currents level, traced every 3rd frame
    level = load_level(resolve_level("currents"))
    world = World(level, seed=4)
    pilot = Autopilot(world)
    first = TraceRecorder(world, every=3)
    for _ in range(600):
        world.step(pilot())
        first.after_step(world)
        if world.outcome != "running":
            break
    first.finish(world)
    first.save(tmp_path / "first.npz")
    # When its recorded inputs are replayed in a fresh world
    again = World(level, seed=4)
    second = TraceRecorder(again, every=3)
    for u in world.player.inputs:
        again.step(u)
        second.after_step(again)
    second.finish(again)
    second.save(tmp_path / "second.npz")
    # Then the two trace files hold exactly the same arrays
    one, two = load_trace(tmp_path / "first.npz"), load_trace(tmp_path / "second.npz")
    assert one.keys() == two.keys()
    for key in one:
        assert np.array_equal(one[key], two[key]), key
    again = replay(level, world.player.inputs, seed=4)
    assert again.agents.pos.tobytes() == world.agents.pos.tobytes()
