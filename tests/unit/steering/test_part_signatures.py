"""A combinator checks each part's signature when it is made: a part that cannot be called as
``(agents, dt, debug=None)`` is refused at construction, naming the part and the signature
expected, instead of failing on the first call deep inside a step."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from steering import (
    FirstNonZero,
    Limited,
    Masked,
    Seek,
    Staggered,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
)

from .examples import four

EXPECTED = r"expected a behaviour called as \(agents, dt, debug=None\)"


def two_args(agents: Any, dt: float) -> np.ndarray:
    return np.zeros((agents.n, 2))


class TwoArgs:
    def __call__(self, agents: Any, dt: float) -> np.ndarray:
        return np.zeros((agents.n, 2))


#: Each combinator made with one part ``p``, and how its messages name that part.
MAKERS: list[tuple[str, Callable[[Any], object]]] = [
    (r"WeightedSum\.parts\[0\]", lambda p: WeightedSum([p])),
    (r"TruncatedRunningSum\.parts\[0\]", lambda p: TruncatedRunningSum([p])),
    (r"FirstNonZero\.parts\[0\]", lambda p: FirstNonZero([p])),
    (r"Weighted\.behaviour", lambda p: Weighted(p, 0.5)),
    (r"Limited\.behaviour", lambda p: Limited(p, max_speed=10.0)),
    (r"Masked\.behaviour", lambda p: Masked(p, np.ones(4, dtype=bool))),
    (r"Staggered\.behaviour", lambda p: Staggered(p, every=2)),
]


@pytest.mark.parametrize(("named", "make"), MAKERS, ids=[m[0].split("\\")[0] for m in MAKERS])
@pytest.mark.parametrize(
    "bad",
    [lambda a, dt: np.zeros((a.n, 2)), two_args, TwoArgs(), lambda: None, Seek],
    ids=["lambda", "function", "object", "no-args", "a class"],
)
def test_a_part_with_the_wrong_signature_is_refused_at_construction(
    named: str, make: Callable[[Any], object], bad: Any
) -> None:
    # Given a part that cannot take (agents, dt, debug)
    # When a combinator is made of it / Then TypeError names the part and the signature
    with pytest.raises(TypeError, match=rf"^{named}: {EXPECTED}, got .* with signature \("):
        make(bad)


def test_the_message_shows_the_parts_own_signature() -> None:
    with pytest.raises(TypeError, match=r"got \S*<lambda> with signature \(a, dt\)"):
        WeightedSum([Seek((0.0, 0.0)), lambda a, dt: np.zeros((a.n, 2))])
    with pytest.raises(TypeError, match=r"^WeightedSum\.parts\[1\]: "):
        WeightedSum([Seek((0.0, 0.0)), two_args])


def ok_star(*args: Any) -> np.ndarray:
    return np.zeros((args[0].n, 2))


def ok_three(agents: Any, dt: float, debug: Any = None) -> np.ndarray:
    return np.zeros((agents.n, 2))


class OkObject:
    def __call__(self, agents: Any, dt: float, debug: Any = None) -> np.ndarray:
        return np.zeros((agents.n, 2))


@pytest.mark.parametrize(("named", "make"), MAKERS, ids=[m[0].split("\\")[0] for m in MAKERS])
@pytest.mark.parametrize(
    "good",
    [
        ok_star,
        ok_three,
        OkObject(),
        lambda a, dt, debug: np.zeros((a.n, 2)),
        functools.partial(lambda scale, a, dt, debug=None: np.zeros((a.n, 2)) * scale, 2.0),
        Seek((0.0, 0.0)),
    ],
    ids=["*args", "function", "object", "debug-required", "partial", "behaviour"],
)
def test_parts_that_take_agents_dt_debug_are_accepted_and_run(
    named: str, make: Callable[[Any], object], good: Any
) -> None:
    combo = make(good)
    if isinstance(combo, Weighted):  # an item of a sum, not a behaviour itself
        combo = WeightedSum([combo])
    assert combo(four(), 1 / 60).shape == (4, 2)  # type: ignore[operator]


def test_a_builtin_without_a_signature_is_accepted() -> None:
    # np.add has no signature inspect can read: it is taken as it is
    WeightedSum([np.add])


def test_something_not_callable_still_names_the_signature() -> None:
    with pytest.raises(TypeError, match=rf"^FirstNonZero\.parts\[0\]: {EXPECTED}, got int 42"):
        FirstNonZero([42])  # type: ignore[list-item]
