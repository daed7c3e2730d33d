"""Target settings read back as float64 arrays (issue 42): given as any points, kept as the
array given (changes made in place are read) or, for a tuple or a list, as a new array that
cannot change in place; the kept records and tables that rest on a target stay right."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from steering import (
    Arrive,
    Evade,
    Face,
    Flee,
    Flock,
    Hide,
    Interpose,
    Masked,
    MatchVelocity,
    Obstacles,
    OffsetPursuit,
    Pursue,
    Seek,
    Separate,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
)
from steering.composite import kept_plan

from .examples import four

DT = 1.0 / 60.0
ROCKS = Obstacles.create([[50.0, 50.0]], 10.0)

#: Every behaviour's target-like settings, each with a working behaviour to set them on.
TARGETS: list[tuple[str, Callable[[], Any], str]] = [
    ("Seek", lambda: Seek((100.0, 0.0)), "target"),
    ("Flee", lambda: Flee((100.0, 0.0)), "target"),
    ("Arrive", lambda: Arrive((100.0, 0.0)), "target"),
    ("Pursue", lambda: Pursue((100.0, 0.0)), "target"),
    ("Pursue", lambda: Pursue((100.0, 0.0)), "target_velocity"),
    ("Evade", lambda: Evade((100.0, 0.0)), "target"),
    ("Evade", lambda: Evade((100.0, 0.0)), "target_velocity"),
    ("Interpose", lambda: Interpose((0.0, 0.0), (50.0, 50.0)), "a"),
    ("Interpose", lambda: Interpose((0.0, 0.0), (50.0, 50.0)), "b"),
    ("Interpose", lambda: Interpose((0.0, 0.0), (50.0, 50.0)), "a_velocity"),
    ("Interpose", lambda: Interpose((0.0, 0.0), (50.0, 50.0)), "b_velocity"),
    ("MatchVelocity", lambda: MatchVelocity((30.0, 0.0)), "target_velocity"),
    ("OffsetPursuit", lambda: OffsetPursuit((0, 0), (9, 0), (1, 0), (-30, 0)), "leader"),
    ("OffsetPursuit", lambda: OffsetPursuit((0, 0), (9, 0), (1, 0), (-30, 0)), "offset"),
    ("OffsetPursuit", lambda: OffsetPursuit((0, 0), (9, 0), (1, 0), (-30, 0)), "leader_heading"),
    (
        "OffsetPursuit",
        lambda: OffsetPursuit((0, 0), (9, 0), (1, 0), (-30, 0)),
        "leader_velocity",
    ),
    ("Hide", lambda: Hide((100.0, 100.0), ROCKS), "hunter"),
    ("Hide", lambda: Hide((100.0, 100.0), ROCKS), "hunter_velocity"),
    ("Face", lambda: Face((100.0, 0.0)), "target"),
    ("Flock", lambda: Flock(target=(100.0, 0.0)), "target"),
]
IDS = [f"{name}.{field}" for name, _, field in TARGETS]


class Vec(tuple[float, float]):
    """A Vec2d-like point (a tuple subclass)."""


@pytest.mark.parametrize(("name", "make", "field"), TARGETS, ids=IDS)
@pytest.mark.parametrize(
    "given",
    [(3.0, 4.0), (3, 4), [3.0, 4.0], Vec((3.0, 4.0)), np.array([3, 4]), np.float32([3, 4])],
    ids=["tuple", "ints", "list", "Vec2d", "int array", "float32 array"],
)
def test_a_target_reads_back_as_a_float64_array(
    name: str, make: Callable[[], Any], field: str, given: Any
) -> None:
    # Given a behaviour, when its target is given as any point (at construction too)
    behaviour = make()
    setattr(behaviour, field, given)
    # Then it reads back as a float64 array that cannot change in place (as a tuple could not)
    got = getattr(behaviour, field)
    assert type(got) is np.ndarray and got.dtype == np.float64
    np.testing.assert_array_equal(got, [3.0, 4.0])
    assert not got.flags.writeable
    # and the behaviour runs with it, as with the equal array given
    agents = four()
    kept = behaviour(agents, DT)
    setattr(behaviour, field, np.array([3.0, 4.0]))
    np.testing.assert_allclose(kept, behaviour(agents, DT))


@pytest.mark.parametrize(("name", "make", "field"), TARGETS, ids=IDS)
def test_an_array_is_kept_and_changes_made_in_place_are_read(
    name: str, make: Callable[[], Any], field: str
) -> None:
    # Given a behaviour holding the user's float64 arrays: one point, and a view of a bigger one
    agents = four()
    behaviour = make()
    point = np.array([100.0, 0.0])
    setattr(behaviour, field, point)
    assert getattr(behaviour, field) is point
    behaviour(agents, DT)
    # When the array is changed in place
    getattr(behaviour, field)[1] = 80.0
    after = behaviour(agents, DT).copy()
    # Then the next call reads it (as a new array of those numbers would)
    setattr(behaviour, field, np.array([100.0, 80.0]))
    np.testing.assert_allclose(after, behaviour(agents, DT))
    # And a view of another array, changed through that array, is read too
    table = np.zeros((4, 4))
    table[:, 0] = 60.0
    view = table[:, :2]
    setattr(behaviour, field, view)
    assert getattr(behaviour, field) is view
    behaviour(agents, DT)
    table[:, 1] = 70.0
    got = behaviour(agents, DT).copy()
    setattr(behaviour, field, np.full((4, 2), (60.0, 70.0)))
    np.testing.assert_allclose(got, behaviour(agents, DT))


@pytest.mark.parametrize("given", ["array", "list"])
def test_a_per_agent_target_of_the_wrong_count_is_refused_as_before(given: str) -> None:
    # Given four agents and a target per agent for five
    rows = np.zeros((5, 2)) if given == "array" else [(0.0, 0.0)] * 5
    seek = Seek(rows)
    # When / Then the call says what to do, naming the setting
    with pytest.raises(ValueError, match=r"^Seek\.target has 5 rows, the group 4 agents"):
        seek(four(), DT)
    # and a shape that is never points is refused when given
    with pytest.raises(ValueError, match=r"^Seek\.target: expected a point \(x, y\) or"):
        seek.target = np.zeros((4, 3))
    with pytest.raises(ValueError, match=r"^Seek\.target: expected a point \(x, y\) or"):
        seek.target = [[1.0, 2.0, 3.0]]


def test_a_nan_written_into_an_array_target_is_refused_at_the_call() -> None:
    seek = Seek(np.zeros(2))
    seek(four(), DT)
    seek.target[0] = np.nan
    with pytest.raises(ValueError, match=r"^Seek\.target: coordinates must be finite"):
        seek(four(), DT)


def test_a_kept_record_holds_for_a_point_and_the_kernel_gets_a_writable_copy() -> None:
    # Given a seek at a point given as a tuple (read back as an array that cannot change)
    agents = four()
    seek = Seek((100.0, 0.0))
    first = seek.bind(agents, DT, False)
    # Then its record is kept between calls, and holds a writable array (numba types a
    # read-only one apart: another compile)
    assert seek.bind(agents, DT, False) is first
    assert first.target.flags.writeable and first.target.shape == (1, 2)
    # When a new point is assigned, the record is made again from it
    seek.target = (0.0, 100.0)
    assert seek.bind(agents, DT, False).target.tolist() == [[0.0, 100.0]]


def _one_by_one(parts: list[Any], agents: Any) -> Any:
    """Each part called as itself, weighted, added, limited to max force."""
    total = sum(p.weight * p.behaviour(agents, DT) for p in parts)
    length = np.hypot(total[:, 0], total[:, 1])
    return total * np.minimum(1.0, agents.max_force / np.maximum(length, 1e-300))[:, None]


@pytest.mark.parametrize("change", ["equal tuple", "other tuple", "array in place"])
def test_a_weighted_sum_follows_its_targets(change: str) -> None:
    # Given a weighted sum replayed from its kept plan (nothing changed for calls running)
    agents = four()
    point = np.array([100.0, 0.0])
    seek = Seek(point if change == "array in place" else (100.0, 0.0))
    parts = [Weighted(Separate(15.0), 1.0), Weighted(seek, 1.0)]
    blend = WeightedSum(parts)
    for _ in range(3):
        blend(agents, DT)
    assert kept_plan(blend) is not None
    # When the target changes (or an equal one is assigned)
    if change == "equal tuple":
        seek.target = (100.0, 0.0)
    elif change == "other tuple":
        seek.target = (-100.0, 50.0)
    else:
        point[1] = 50.0
    # Then the next call is the sum of the parts called one by one
    np.testing.assert_allclose(blend(agents, DT), _one_by_one(parts, agents), atol=1e-9)


@pytest.mark.parametrize("change", ["tuple", "array in place"])
def test_a_kept_plan_follows_its_targets(change: str) -> None:
    # Given a tree replayed from its kept plan (a pursuit assigned a new point every step, as
    # the five guards do, and a seek at an array)
    agents = four()
    mask = np.array([True, False, True, True])
    point = np.array([100.0, 0.0])
    pursue = Pursue((0.0, 0.0))
    seek = Seek(point)
    tree = TruncatedRunningSum([Weighted(Masked(pursue, mask), 1.0), Weighted(seek, 0.5)])
    for step in range(4):
        pursue.target = (10.0 * step, 5.0)
        tree(agents, DT)
    # When the targets change
    if change == "tuple":
        pursue.target = (-50.0, 40.0)
        pursue.target_velocity = (5.0, 5.0)
    else:
        point[:] = (-30.0, 60.0)
    # Then the replay uses them, as a tree made anew does
    fresh = TruncatedRunningSum(
        [
            Weighted(Masked(Pursue(pursue.target, pursue.target_velocity), mask), 1.0),
            Weighted(Seek(point.copy()), 0.5),
        ]
    )
    np.testing.assert_allclose(tree(agents, DT), fresh(agents, DT), atol=1e-9)


def test_behaviours_with_array_targets_compare_by_value() -> None:
    # Given behaviours made alike, their targets read back as arrays
    # Then == compares the targets by shape and value, as it did tuples
    assert Seek((1.0, 2.0)) == Seek((1, 2))
    assert Seek((1.0, 2.0)) != Seek((1.0, 3.0))
    assert Seek((0.0, 0.0)) != Seek(np.zeros((3, 2)))
    assert Seek(np.zeros((3, 2))) == Seek(np.zeros((3, 2)))
    assert Seek((1.0, 2.0), gain=2.0) != Seek((1.0, 2.0))
    assert Flock(target=(1.0, 1.0)) == Flock(target=[1.0, 1.0]) != Flock()
    assert Hide((1.0, 1.0), ROCKS) == Hide((1.0, 1.0), ROCKS)
    assert [Seek((5.0, 5.0)), Seek((1.0, 2.0))].index(Seek((1.0, 2.0))) == 1
