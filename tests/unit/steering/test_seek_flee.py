"""Seek and flee: the seeds' desired-minus-velocity steer."""

from __future__ import annotations

import numpy as np
import pytest

from steering.agents import AgentGroup, integrate
from steering.base import DEFAULT_GAIN
from steering.basic import Flee, Seek


def test_seek_force_is_desired_minus_velocity_times_gain_limited() -> None:
    # Given an agent at the origin moving +y at 10 px/s, max speed 100, a big max force
    agents = AgentGroup.create([[0.0, 0.0]], [[0.0, 10.0]], max_speed=100, max_force=1e6)
    # When it seeks (30, 40)
    force = Seek((30.0, 40.0))(agents, 1 / 60)
    # Then desired = (60, 80) and steer = (desired - vel) * gain
    np.testing.assert_allclose(force, [[60.0 * DEFAULT_GAIN, 70.0 * DEFAULT_GAIN]])


def test_seek_force_never_exceeds_max_force() -> None:
    agents = AgentGroup.create([[0.0, 0.0]], [[-100.0, 0.0]], max_speed=100, max_force=5)
    force = Seek((100.0, 0.0))(agents, 1 / 60)
    assert np.linalg.norm(force) == pytest.approx(5.0)
    np.testing.assert_allclose(force, [[5.0, 0.0]])


def test_seek_on_the_target_gives_braking_not_nan() -> None:
    agents = AgentGroup.create([[5.0, 5.0]], [[3.0, 0.0]], max_speed=100, max_force=1e6)
    force = Seek((5.0, 5.0))(agents, 1 / 60)
    assert np.isfinite(force).all()
    np.testing.assert_allclose(force, [[-3.0 * DEFAULT_GAIN, 0.0]])


def test_seek_reaches_the_target_over_time() -> None:
    agents = AgentGroup.create([[0.0, 0.0], [300.0, 300.0]], max_speed=120, max_force=400)
    seek = Seek((150.0, 150.0))
    closest = np.full(2, np.inf)
    for _ in range(300):
        integrate(agents, seek(agents, 1 / 60), 1 / 60)
        closest = np.minimum(closest, np.linalg.norm(agents.pos - 150.0, axis=1))
    assert (closest < 5.0).all()


def test_flee_points_away_and_respects_panic_distance() -> None:
    agents = AgentGroup.create([[10.0, 0.0], [500.0, 0.0]], max_speed=100, max_force=1e6)
    force = Flee((0.0, 0.0), panic_distance=100.0)(agents, 1 / 60)
    np.testing.assert_allclose(force[0], [100.0 * DEFAULT_GAIN, 0.0])
    np.testing.assert_allclose(force[1], [0.0, 0.0])


def test_flee_from_own_position_uses_heading() -> None:
    agents = AgentGroup.create([[0.0, 0.0]], [[0.0, 2.0]], max_speed=10, max_force=1e6)
    force = Flee((0.0, 0.0))(agents, 1 / 60)
    assert np.isfinite(force).all()
    assert force[0, 1] > 0 and force[0, 0] == pytest.approx(0.0)


@pytest.mark.parametrize("make", [Seek, Flee])
@pytest.mark.parametrize(
    ("target", "error"),
    [
        ("player", TypeError),
        ((float("nan"), 0.0), ValueError),
        (np.array([[0.0, float("inf")]]), ValueError),
        ([(1.0, 2.0)] * 3, ValueError),
        (None, TypeError),
    ],
)
def test_a_bad_target_is_named_not_a_numpy_error_or_a_silent_force(
    make: type, target: object, error: type[Exception]
) -> None:
    # Given two agents and a target that is a string, NaN, infinite, of the wrong count or None
    agents = AgentGroup.create([[0.0, 0.0], [5.0, 0.0]])
    # When / Then the call raises, naming the behaviour's target
    with pytest.raises(error, match=f"{make.__name__}.target"):
        make(target)(agents, 1 / 60)


def test_flee_refuses_a_negative_or_nan_panic_distance() -> None:
    with pytest.raises(ValueError, match=r"Flee\.panic_distance"):
        Flee((0.0, 0.0), panic_distance=-1.0)
    with pytest.raises(ValueError, match=r"Flee\.panic_distance"):
        Flee((0.0, 0.0), panic_distance=float("nan"))
    with pytest.raises(ValueError, match=r"Flee\.gain"):
        Flee((0.0, 0.0), gain=float("nan"))


def test_flee_matches_the_per_agent_formula_for_one_target_each() -> None:
    # Given agents and one threat each, some beyond the panic distance
    rng = np.random.default_rng(1)
    pos = rng.uniform(-100, 100, (20, 2))
    vel = rng.normal(0, 30, (20, 2))
    threats = rng.uniform(-100, 100, (20, 2))
    agents = AgentGroup.create(pos, vel, max_speed=50, max_force=300)
    # When
    force = Flee(threats, panic_distance=80.0)(agents, 1 / 60)
    # Then each row is the seeds' flee, or zero beyond the panic distance
    for i in range(20):
        away = pos[i] - threats[i]
        d = np.hypot(*away)
        want = np.zeros(2)
        if d < 80.0:
            steer = (away / d * 50 - vel[i]) * DEFAULT_GAIN
            want = steer * min(1.0, 300 / np.hypot(*steer))
        np.testing.assert_allclose(force[i], want, rtol=1e-12, atol=1e-12)
