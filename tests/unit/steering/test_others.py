"""Neighbours across groups (issue 42): the group behaviours take another group's agents as
the neighbours (``others=``), searched through the grid over them, as gdx-ai's Proximity
allows (a school of fish keeping clear of the sharks)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Align,
    AvoidAgents,
    Cohere,
    Queue,
    Seek,
    Separate,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
)
from steering.base import Debug
from steering.debug import AvoidAgentsDebug, QueueDebug, SeparateDebug, read

DT = 1 / 60
GAIN = 8.0
SPEED = 120.0


def _fish() -> AgentGroup:
    """Two agents 10 px apart, each moving at 5 px/s; a force limit that never binds."""
    return AgentGroup.create([(0.0, 0.0), (10.0, 0.0)], [(5.0, 0.0), (0.0, 5.0)], max_force=1e4)


def _sharks() -> AgentGroup:
    """Three others: one near both fish, one far, one near fish 1 only (at 12 px)."""
    return AgentGroup.create(
        [(3.0, 4.0), (100.0, 0.0), (12.0, -6.0)], [(1.0, 6.0), (0.0, 2.0), (3.0, 3.0)]
    )


def _steer(direction: tuple[float, float], vel: tuple[float, float]) -> list[float]:
    """``(desired - velocity) * gain`` with the desired velocity along ``direction`` at max
    speed."""
    norm = math.hypot(*direction)
    return [
        (SPEED * direction[0] / norm - vel[0]) * GAIN,
        (SPEED * direction[1] / norm - vel[1]) * GAIN,
    ]


# -- each behaviour against a 3-agent group, by hand -------------------------------------------
#
# Within 12 px: fish 0 sees shark 0 only (offset (3, 4), 5 px); fish 1 sees shark 0 (offset
# (-7, 4), 8.06 px) and shark 2 (offset (2, -6), 6.32 px), and not fish 0 (its own group).


def test_separate_pushes_away_from_the_other_group_only() -> None:
    debug: Debug = {}
    force = Separate(12.0, others=_sharks())(_fish(), DT, debug)
    # fish 0: away from (3, 4) (the 1/d^2-weighted offset keeps its direction)
    # fish 1: -(-7, 4) / 65 - (2, -6) / 40
    away_1 = (7 / 65 - 2 / 40, -4 / 65 + 6 / 40)
    np.testing.assert_allclose(
        force, [_steer((-3.0, -4.0), (5.0, 0.0)), _steer(away_1, (0.0, 5.0))], rtol=1e-12
    )
    record = read(SeparateDebug, debug)
    assert record is not None
    assert record.neighbours.tolist() == [1, 2]
    assert record.pairs.shape == (0, 2)  # pairs are within one group: none across


def test_align_matches_the_other_groups_mean_velocity() -> None:
    force = Align(12.0, others=_sharks())(_fish(), DT)
    # fish 0: shark 0's (1, 6); fish 1: the mean of (1, 6) and (3, 3), (2, 4.5)
    np.testing.assert_allclose(
        force, [_steer((1.0, 6.0), (5.0, 0.0)), _steer((2.0, 4.5), (0.0, 5.0))], rtol=1e-12
    )


def test_cohere_seeks_the_other_groups_center() -> None:
    force = Cohere(12.0, others=_sharks())(_fish(), DT)
    # fish 0: toward (3, 4); fish 1: toward the mean offset ((-7, 4) + (2, -6)) / 2
    np.testing.assert_allclose(
        force, [_steer((3.0, 4.0), (5.0, 0.0)), _steer((-2.5, -1.0), (0.0, 5.0))], rtol=1e-12
    )


def test_queue_brakes_behind_a_slower_other_ahead() -> None:
    debug: Debug = {}
    force = Queue(12.0, brake=0.8, fov=180.0, gain=GAIN, others=_sharks())(_fish(), DT, debug)
    # fish 0 (moving +x): shark 0 is ahead (3 px along) and slower along +x (1 < 5): brake,
    # -(5, 0) * 0.8 * 8. fish 1 (moving +y): shark 0 is ahead but faster along +y (6 > 5),
    # shark 2 is behind: nothing
    np.testing.assert_allclose(force, [[-32.0, 0.0], [0.0, 0.0]], rtol=0, atol=1e-12)
    record = read(QueueDebug, debug)
    assert record is not None
    assert record.ahead.tolist() == [0, -1]  # an index into the others


def test_avoid_agents_steers_from_an_oncoming_other() -> None:
    # Given fish 0 heading +x at 10 px/s with a shark 12 px ahead coming at it at 10 px/s
    # (radii 8 and 8, margin 2: clearance 18), and fish 1 at rest 100 px above
    fish = AgentGroup.create([(0.0, 0.0), (0.0, 100.0)], [(10.0, 0.0), (0.0, 0.0)], max_force=1e4)
    sharks = AgentGroup.create([(12.0, 0.0), (300.0, 300.0), (-300.0, 300.0)], [(-10.0, 0.0)] * 3)
    debug: Debug = {}
    force = AvoidAgents(others=sharks)(fish, DT, debug)
    # Then fish 0's threat is shark 0 at t = 12 / 20 = 0.6 s, already inside the clearance:
    # straight away at max speed, -120 * 8, less the braking 10 * brake 0.5 * urgency
    # (1 - 0.6 / 1.5) * 8 = 24. Fish 1's closest approach to shark 0 misses by 100 px.
    np.testing.assert_allclose(force, [[-984.0, 0.0], [0.0, 0.0]], rtol=0, atol=1e-9)
    record = read(AvoidAgentsDebug, debug)
    assert record is not None
    assert record.threat.tolist() == [0, -1]
    np.testing.assert_allclose(record.time, [0.6, math.inf])


# -- the default, and the group itself -----------------------------------------------------------


def _crowd(n: int, seed: int) -> AgentGroup:
    rng = np.random.default_rng(seed)
    side = 25.0 * math.sqrt(n)
    return AgentGroup.create(
        rng.uniform(0, side, (n, 2)),
        rng.normal(0, 40, (n, 2)),
        radius=rng.uniform(4, 10, n),
    )


def _behaviours(**others: Any) -> list[Any]:
    """Each behaviour with ``others=`` when given, else built without it."""
    return [
        Separate(20.0, **others),
        Separate(20.0, fov=270.0, **others),
        Align(30.0, **others),
        Align(30.0, match_speed=True, **others),
        Cohere(30.0, **others),
        Queue(30.0, **others),
        AvoidAgents(**others),
    ]


@pytest.mark.parametrize("n", [6, 80])
def test_others_none_or_the_group_itself_is_the_default(n: int) -> None:
    agents = _crowd(n, 1)
    for default, none, itself, arrays in zip(
        _behaviours(),
        _behaviours(others=None),
        _behaviours(others=agents),
        _behaviours(others=None),
        strict=True,
    ):
        # Given a behaviour built without others, and its twins with others None, the group
        # itself, and an object holding the group's own arrays
        want = default(_crowd(n, 1), DT)
        # (each on its own copy: AvoidAgents remembers its side)
        np.testing.assert_array_equal(none(_crowd(n, 1), DT), want)
        np.testing.assert_array_equal(itself(agents, DT), want)
        twin = _crowd(n, 1)
        arrays.others = SimpleNamespace(pos=twin.pos, vel=twin.vel)
        np.testing.assert_array_equal(arrays(twin, DT), want)


def test_a_plain_object_with_arrays_is_the_same_as_a_group() -> None:
    fish = _crowd(30, 2)
    sharks = _crowd(50, 3)
    plain = SimpleNamespace(pos=sharks.pos.copy(), vel=sharks.vel.copy(), radius=sharks.radius)
    for group, arrays in zip(_behaviours(others=sharks), _behaviours(others=plain), strict=True):
        np.testing.assert_allclose(group(_crowd(30, 2), DT), arrays(fish, DT), rtol=0, atol=1e-9)


# -- memory: many more others than agents --------------------------------------------------------


def test_many_more_others_than_agents_all_within_reach() -> None:
    # Given 3 agents and 3,000 others packed within every behaviour's distance of them
    rng = np.random.default_rng(4)
    fish = AgentGroup.create(rng.uniform(0, 10, (3, 2)), rng.normal(0, 20, (3, 2)))
    school = AgentGroup.create(rng.uniform(0, 10, (3000, 2)), rng.normal(0, 20, (3000, 2)))
    debug: Debug = {}
    # When each behaviour searches them, alone and in one composite
    for b in _behaviours(others=school):
        force = b(fish, DT, debug)
        assert force.shape == (3, 2) and np.isfinite(force).all()
    tree = TruncatedRunningSum(
        [Weighted(b, 0.5) for b in _behaviours(others=school)[:6]] + [Seek((50.0, 50.0))]
    )
    force = tree(fish, DT)
    # Then every force is finite, and every other within 20 px was counted
    assert force.shape == (3, 2) and np.isfinite(force).all()
    Separate(20.0, others=school)(fish, DT, debug)
    record = read(SeparateDebug, debug)
    assert record is not None
    d = np.hypot(*(school.pos[None, :, :] - fish.pos[:, None, :]).transpose(2, 0, 1))
    assert record.neighbours.tolist() == (d < 20.0).sum(axis=1).tolist()


_BIG_RUNNER = """
import numpy as np
from steering import AgentGroup, Align, Cohere, Queue, Separate, WeightedSum, Weighted, Seek
rng = np.random.default_rng(0)
for n, m in ((2, 3000), (30, 5000), (300, 2000)):
    fish = AgentGroup.create(rng.uniform(0, 40, (n, 2)), rng.normal(0, 20, (n, 2)))
    school = AgentGroup.create(rng.uniform(0, 40, (m, 2)), rng.normal(0, 20, (m, 2)))
    parts = [Separate(25.0, others=school), Align(30.0, others=school),
             Cohere(30.0, others=school), Queue(30.0, others=school)]
    for p in parts:
        assert np.isfinite(p(fish, 0.1)).all()
    tree = WeightedSum([Weighted(Separate(10.0), 1.0), *[Weighted(p, 0.5) for p in parts],
                        Weighted(Seek((0.0, 0.0)), 1.0)])
    for _ in range(3):
        assert np.isfinite(tree(fish, 0.1)).all()
print("ok")
"""


@pytest.mark.slow
def test_many_more_others_under_the_jit_dies_by_no_signal() -> None:
    # Given groups searched by far fewer agents, parts alone and in a composite, run with
    # the JIT on (the no-JIT run would raise an IndexError instead of reading past a buffer)
    result = subprocess.run(
        [sys.executable, "-c", _BIG_RUNNER],
        capture_output=True,
        text=True,
        timeout=900,
        env={k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"},
    )
    assert result.returncode >= 0, f"died by signal {-result.returncode}: {result.stderr[-2000:]}"
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"


# -- kept records, composites, checks ------------------------------------------------------------


def test_a_kept_record_is_made_again_for_other_others() -> None:
    fish = _fish()
    sep = Separate(12.0, others=_sharks())
    first = sep(fish, DT)
    # When the others get another agent (a new pos array), their count changes
    sharks = sep.others
    sharks.add(np.array([[10.0, 3.0]]), vel=np.zeros((1, 2)))
    np.testing.assert_allclose(sep(fish, DT), Separate(12.0, others=sharks)(fish, DT))
    assert not np.allclose(sep(fish, DT)[1], first[1])
    # And other others of the same count, then none: each gives its own result
    sep.others = SimpleNamespace(pos=np.array([[1.0, 1.0]] * 3), vel=np.zeros((3, 2)))
    np.testing.assert_allclose(sep(fish, DT), Separate(12.0, others=sep.others)(fish, DT))
    sep.others = None
    np.testing.assert_array_equal(sep(fish, DT), Separate(12.0)(fish, DT))


def test_a_composite_mixing_own_and_other_neighbours_equals_its_parts() -> None:
    # Given 60 agents (a grid: the loop follows its order) and 70 others
    agents = _crowd(60, 5)
    sharks = _crowd(70, 6)
    parts = [Separate(20.0, others=sharks), Cohere(40.0), Align(30.0, others=sharks), Queue(30.0)]
    weights = [1.5, 0.5, 1.0, 2.0]
    tree = WeightedSum([Weighted(p, w) for p, w in zip(parts, weights, strict=True)])
    # When the sum runs alone and inside another combinator (one compiled loop each)
    got = tree(agents, DT)
    compiled = TruncatedRunningSum([tree])(_crowd(60, 5), DT)
    want = sum(w * p(_crowd(60, 5), DT) for p, w in zip(parts, weights, strict=True))
    cap = agents.max_force[:, None]
    norm = np.hypot(want[:, 0], want[:, 1])[:, None]
    want = np.where(norm > cap, want * cap / np.where(norm > 0, norm, 1.0), want)
    # Then both equal the parts' forces weighted, added and limited
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(compiled, want, rtol=1e-9, atol=1e-9)


def test_bad_others_are_refused_by_name() -> None:
    fish = _fish()
    with pytest.raises(ValueError, match=r"Separate\.others\.pos: expected shape \(M, 2\)"):
        Separate(others=SimpleNamespace(pos=np.zeros((3, 3)), vel=np.zeros((3, 2))))(fish, DT)
    with pytest.raises(ValueError, match=r"Align\.others\.vel: expected shape \(3, 2\)"):
        Align(others=SimpleNamespace(pos=np.zeros((3, 2)), vel=np.zeros((4, 2))))(fish, DT)
    with pytest.raises(ValueError, match=r"Queue\.others\.vel: the others have no velocities"):
        Queue(others=SimpleNamespace(pos=np.zeros((3, 2))))(fish, DT)
    with pytest.raises(ValueError, match=r"AvoidAgents\.others\.radius: expected shape \(3,\)"):
        AvoidAgents(
            others=SimpleNamespace(pos=np.zeros((3, 2)), vel=np.zeros((3, 2)), radius=np.ones(2))
        )(fish, DT)
    with pytest.raises(ValueError, match=r"Cohere\.others: expected an AgentGroup"):
        Cohere(others=object())(fish, DT)
    with pytest.raises(ValueError, match=r"Cohere\.others\.pos: expected an array of numbers"):
        Cohere(others=SimpleNamespace(pos="ab", vel=None))(fish, DT)
    # in a composite the part is named by its place
    bad = Separate(others=SimpleNamespace(pos=np.zeros(3), vel=np.zeros((3, 2))))
    with pytest.raises(ValueError, match=r"TruncatedRunningSum\.parts\[0\]\.others\.pos"):
        TruncatedRunningSum([bad])(fish, DT)


def test_positions_given_as_lists_are_taken() -> None:
    others = SimpleNamespace(pos=[[3.0, 4.0]], vel=[[1.0, 6.0]])
    np.testing.assert_allclose(
        Separate(12.0, others=others)(_fish(), DT)[0], _steer((-3.0, -4.0), (5.0, 0.0))
    )
