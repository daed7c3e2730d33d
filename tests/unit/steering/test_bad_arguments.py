"""Issue 23's list of bad arguments: each raises ValueError or TypeError at construction or at
the first call, with a message that names the argument (no bare NumPy message, no silently
wrong force)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Arrive,
    FirstNonZero,
    Masked,
    Seek,
    TruncatedRunningSum,
    Wander,
    Weighted,
    WeightedSum,
    integrate,
)

DT = 1.0 / 60.0


def _three() -> AgentGroup:
    return AgentGroup.create([(0.0, 0.0), (10.0, 0.0), (20.0, 5.0)])


CASES: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("a string target", lambda: Seek("abc")(_three(), DT), TypeError, r"^Seek\.target: "),
    ("a NaN target", lambda: Seek((math.nan, 0.0))(_three(), DT), ValueError, r"^Seek\.target"),
    ("a NaN weight", lambda: Weighted(Seek((0.0, 0.0)), math.nan), ValueError, r"\.weight"),
    (
        "a non-behaviour in a WeightedSum",
        lambda: WeightedSum([Seek((0.0, 0.0)), 42]),
        TypeError,
        r"^WeightedSum\.parts\[1\]: ",
    ),
    (
        "a non-behaviour in a TruncatedRunningSum",
        lambda: TruncatedRunningSum([Seek((0.0, 0.0)), 42]),
        TypeError,
        r"^TruncatedRunningSum\.parts\[1\]: ",
    ),
    (
        "a non-behaviour in a FirstNonZero",
        lambda: FirstNonZero([Seek((0.0, 0.0)), "seek"]),
        TypeError,
        r"^FirstNonZero\.parts\[1\]: ",
    ),
    ("Wander(0)", lambda: Wander(0), TypeError, r"^Wander\.rng: "),
    (
        "vel with the wrong number of rows",
        lambda: AgentGroup.create([(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 1)]),
        ValueError,
        r"^vel: expected 3 rows",
    ),
    (
        "a negative max_speed",
        lambda: AgentGroup.create([(0, 0)], max_speed=-1.0),
        ValueError,
        r"^max_speed: ",
    ),
    (
        "a negative max_force",
        lambda: AgentGroup.create([(0, 0)], max_force=[-1.0]),
        ValueError,
        r"^max_force: ",
    ),
    (
        "a negative max_speed in with_limits",
        lambda: _three().with_limits(max_speed=-5.0),
        ValueError,
        r"max_speed",
    ),
    (
        "a negative slowing_radius",
        lambda: Arrive((0.0, 0.0), slowing_radius=-1.0),
        ValueError,
        r"^Arrive\.slowing_radius: ",
    ),
    (
        "a mask of the wrong length",
        lambda: Masked(Seek((0.0, 0.0)), np.array([True, False]))(_three(), DT),
        ValueError,
        r"^Masked\.mask has 2 rows, the group 3 agents",
    ),
    (
        "a mask of the wrong dtype",
        lambda: Masked(Seek((0.0, 0.0)), np.array([1, 0, 1])),
        TypeError,
        r"^Masked\.mask: .*dtype int64",
    ),
    (
        "a force of the wrong shape given to integrate",
        lambda: integrate(_three(), np.zeros((2, 2)), DT),
        ValueError,
        r"^integrate: force must have shape \(3, 2\), got \(2, 2\)",
    ),
    (
        "a force that is not numbers given to integrate",
        lambda: integrate(_three(), "fast", DT),
        TypeError,
        r"^integrate: force must be \(3, 2\) numbers",
    ),
    (
        "a negative dt given to integrate",
        lambda: integrate(_three(), np.zeros((3, 2)), -DT),
        ValueError,
        r"^integrate: dt",
    ),
]


@pytest.mark.parametrize(("what", "call", "error", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_argument_raises_a_message_that_names_it(
    what: str, call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()


def test_a_refused_integrate_moves_nothing() -> None:
    # Given a group and a force with a row missing
    agents = _three()
    pos, vel = agents.pos.copy(), agents.vel.copy()
    # When integrate refuses it
    with pytest.raises(ValueError, match="force"):
        integrate(agents, np.ones((2, 2)), DT)
    # Then no agent moved
    np.testing.assert_array_equal(agents.pos, pos)
    np.testing.assert_array_equal(agents.vel, vel)
