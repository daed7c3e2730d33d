"""Every kernel gives the same numbers on every core as on one, run after run."""

from __future__ import annotations

import numpy as np
import pytest

import steering as st
from steering import _jit
from steering.bench import DT, behaviour_cases


def _forces(n: int) -> dict[str, np.ndarray]:
    out = {}
    for name, (agents, behaviour) in behaviour_cases(n).items():
        force = behaviour(agents, DT)
        st.integrate(agents, force, DT)
        out[name] = np.concatenate((force, agents.pos, agents.vel, agents.heading), axis=1)
    return out


@pytest.mark.slow
def test_parallel_kernels_give_the_serial_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a crowd large enough for the parallel kernels
    n = _jit.PARALLEL_MIN + 37
    # When every behaviour and integrate run in parallel, then again on one core
    parallel = _forces(n)
    monkeypatch.setattr(_jit, "PARALLEL_MIN", 10**9)
    serial = _forces(n)
    # Then the forces and the motion are bit-identical
    for name, value in parallel.items():
        np.testing.assert_array_equal(value, serial[name], err_msg=name)


def test_small_crowds_repeat_bit_for_bit() -> None:
    first, second = _forces(23), _forces(23)
    for name, value in first.items():
        np.testing.assert_array_equal(value, second[name], err_msg=name)


def test_a_leaf_helper_reads_and_writes_its_arrays_from_a_loop() -> None:
    # njit_leaf: a per-agent helper compiled without reference counting (so that it inlines)
    # works from a loop of njit code: it moves every agent and returns its numbers exactly as
    # the same arithmetic in NumPy does
    from steering.kernels import njit, njit_leaf

    @njit_leaf
    def move(pos: np.ndarray, vel: np.ndarray, dt: float, i: int) -> float:
        pos[i, 0] += vel[i, 0] * dt
        pos[i, 1] += vel[i, 1] * dt
        return float(pos[i, 0] + pos[i, 1])

    @njit
    def run(pos: np.ndarray, vel: np.ndarray, dt: float, out: np.ndarray) -> None:
        for i in range(pos.shape[0]):
            out[i] = move(pos, vel, dt, i)

    rng = np.random.default_rng(0)
    pos = rng.uniform(0.0, 100.0, (50, 2))
    vel = rng.normal(0.0, 10.0, (50, 2))
    moved = pos.copy()
    out = np.empty(50)
    run(moved, vel, 0.1, out)
    want = pos + vel * 0.1
    assert np.array_equal(moved, want)
    assert np.array_equal(out, want[:, 0] + want[:, 1])
