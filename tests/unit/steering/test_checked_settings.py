"""A behaviour's settings are checked whenever they are assigned, with the message of
construction: ``s = Separate(20); s.distance = -4`` raises what ``Separate(distance=-4)``
raises, and the setting keeps its old value."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest

from steering import (
    Contain,
    FlowField,
    FollowFlow,
    Interpose,
    Masked,
    MatchVelocity,
    Pursue,
    Seek,
    Separate,
)
from steering.checked import Checked

from .examples import BEHAVIOURS, four

#: Values tried in turn until the constructor refuses one.
BAD: list[Any] = [-4.0, math.nan, math.inf, 1e9, "x", None, 0, 0.0]


def _numeric_settings(cls: type) -> list[str]:
    """The init fields of ``cls`` typed as numbers (float or int, optional or not)."""
    return [
        f.name
        for f in dataclasses.fields(cls)
        if f.init and any(t in str(f.type).split(" | ") for t in ("float", "int"))
    ]


CASES = [
    (name, field)
    for name, make in sorted(BEHAVIOURS.items())
    for field in _numeric_settings(type(make()))
]


def test_every_behaviour_with_numeric_settings_is_covered() -> None:
    covered = {name for name, _ in CASES}
    assert {"Separate", "Seek", "Contain", "FollowPath", "Flock", "Limited", "Weighted"} - {
        "Weighted"
    } <= covered
    assert len(CASES) > 60


@pytest.mark.parametrize(("name", "field"), CASES, ids=[f"{n}.{f}" for n, f in CASES])
def test_assigning_a_bad_setting_raises_what_construction_raises(name: str, field: str) -> None:
    # Given a working behaviour
    behaviour = BEHAVIOURS[name]()
    cls = type(behaviour)
    assert isinstance(behaviour, Checked), f"{name} does not check its settings"
    assert field in cls.CHECKS, f"{name}.{field} is not checked when assigned"
    # and a value its constructor refuses
    for bad in BAD:
        try:
            dataclasses.replace(behaviour, **{field: bad})  # type: ignore[type-var]
        except (TypeError, ValueError) as error:
            made = error
            break
    else:
        pytest.skip(f"{name}.{field} takes every value tried")
    before = getattr(behaviour, field)
    # When it is assigned / Then the same exception and message, and the old value stays
    with pytest.raises(type(made)) as assigned:
        setattr(behaviour, field, bad)
    assert str(assigned.value) == str(made)
    assert str(made).startswith(f"{name}.") or str(made).startswith(f"{name}:")
    assert getattr(behaviour, field) is before


def test_the_issues_example() -> None:
    s = Separate(20)
    with pytest.raises(ValueError) as assigned:
        s.distance = -4
    with pytest.raises(ValueError) as made:
        Separate(distance=-4)
    assert (
        str(assigned.value)
        == str(made.value)
        == ("Separate.distance: must be finite and >= 0, got -4.0")
    )
    assert s.distance == 20.0


def test_a_good_value_is_kept_as_construction_keeps_it() -> None:
    s = Seek((0.0, 0.0))
    s.gain = 3  # an int becomes a float, as at construction
    assert s.gain == 3.0 and type(s.gain) is float


def test_settings_that_depend_on_each_other_are_checked_together() -> None:
    box = Contain(0.0, 0.0, 100.0, 100.0)
    with pytest.raises(ValueError, match=r"^Contain: expected left < right and bottom < top"):
        box.left = 200.0
    assert box.left == 0.0
    box.right = 300.0
    box.left = 200.0  # fine now


def test_assigning_a_setting_drops_the_kept_record() -> None:
    # Given behaviours that keep their record between calls
    agents = four()
    box = Contain(-100.0, -100.0, 100.0, 100.0, margin=10.0)
    flow = FollowFlow(FlowField(np.ones((4, 4, 2)), 50.0))
    seek = Seek((100.0, 0.0), gain=1.0)
    before = [b(agents, 1 / 60).copy() for b in (box, flow, seek)]
    # When a setting is assigned
    box.left = -1.0
    flow.gain = 0.0
    seek.gain = 20.0
    after = [b(agents, 1 / 60) for b in (box, flow, seek)]
    # Then the next call uses it
    for old, new in zip(before, after, strict=True):
        assert not np.array_equal(old, new)


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Seek((0.0, 0.0)), "target"),
        (lambda: Pursue((0.0, 0.0)), "target_velocity"),
        (lambda: Interpose((0.0, 0.0), (1.0, 1.0)), "b"),
        (lambda: MatchVelocity((0.0, 0.0)), "target_velocity"),
    ],
)
@pytest.mark.parametrize("bad", [(math.nan, 0.0), "here", None, [[1.0, 2.0, 3.0]]])
def test_targets_are_checked_when_assigned_and_read_back_as_arrays(
    make: Any, field: str, bad: Any
) -> None:
    behaviour = make()
    with pytest.raises((TypeError, ValueError)) as made:
        dataclasses.replace(behaviour, **{field: bad})
    with pytest.raises(type(made.value)) as assigned:
        setattr(behaviour, field, bad)
    assert str(assigned.value) == str(made.value)
    # A good value reads back as a float64 array: a tuple as a new one that cannot change in
    # place (as the tuple could not), a float64 array as the same object
    setattr(behaviour, field, (1.0, 2.0))
    got = getattr(behaviour, field)
    assert type(got) is np.ndarray and got.dtype == np.float64
    np.testing.assert_array_equal(got, [1.0, 2.0])
    with pytest.raises(ValueError, match="read-only"):
        got[0] = 5.0
    rows = np.zeros((4, 2))
    setattr(behaviour, field, rows)
    assert getattr(behaviour, field) is rows


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (np.array([1, 0, 1]), TypeError, r"^Masked\.mask: expected booleans, .*dtype int64"),
        ([0.5, 1.0], TypeError, r"^Masked\.mask: expected booleans, .*dtype float64"),
        ("yes", TypeError, r"^Masked\.mask: expected booleans"),
        (None, TypeError, r"^Masked\.mask: expected booleans"),
        (np.ones((2, 3), dtype=bool), ValueError, r"^Masked\.mask: .*one dimension.*\(2, 3\)"),
        (np.True_, ValueError, r"^Masked\.mask: .*one dimension.*got shape \(\)"),
    ],
)
def test_a_mask_is_checked_when_assigned_and_kept_as_given(
    bad: Any, error: type[Exception], message: str
) -> None:
    # Given a masked behaviour
    good = np.array([True, False, True, False])
    masked = Masked(Seek((0.0, 0.0)), good)
    # When a mask that cannot be one is given at construction or assigned
    with pytest.raises(error, match=message) as made:
        Masked(Seek((0.0, 0.0)), bad)
    with pytest.raises(error) as assigned:
        masked.mask = bad
    # Then both say the same, naming Masked and mask, and the old mask stays
    assert str(assigned.value) == str(made.value)
    assert masked.mask is good
    # A bool array is kept as the same object (changes in place are read); its length is
    # checked at the call, when the group's count is known
    other = np.ones(5, dtype=bool)
    masked.mask = other
    assert masked.mask is other
    with pytest.raises(ValueError, match=r"^Masked\.mask has 5 rows, the group 4 agents"):
        masked(four(), 1 / 60)
    masked.mask = [True, True, False, False]  # a list of bools, as the call accepts
    assert masked(four(), 1 / 60).shape == (4, 2)
