"""Every public entry point refuses a dt that is negative or not finite, naming dt, before any
kernel runs (a negative dt used to run a step backwards, NaN to poison every agent)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from steering import Seek, WeightedSum, integrate, step
from steering.composite import run

from .examples import BEHAVIOURS, exported_behaviours, four

BAD = [-1.0, math.nan, math.inf, -math.inf]


def test_every_exported_behaviour_is_in_the_table() -> None:
    assert sorted(exported_behaviours()) == sorted(BEHAVIOURS)


@pytest.mark.parametrize("bad", BAD, ids=["negative", "nan", "inf", "-inf"])
@pytest.mark.parametrize("name", sorted(BEHAVIOURS))
def test_a_behaviour_refuses_a_bad_dt_naming_it(name: str, bad: float) -> None:
    # Given a working behaviour and agents
    behaviour: Callable[..., object] = BEHAVIOURS[name]()  # type: ignore[assignment]
    agents = four()
    pos = agents.pos.copy()
    # When it is called with a bad dt / Then a ValueError names the behaviour and dt
    with pytest.raises(ValueError, match=r"dt must be finite and >= 0"):
        behaviour(agents, bad)
    # and nothing moved
    np.testing.assert_array_equal(agents.pos, pos)


def test_the_message_names_the_behaviour() -> None:
    agents = four()
    with pytest.raises(ValueError, match=r"^Seek: dt must be finite and >= 0, got -1\.0$"):
        Seek((0.0, 0.0))(agents, -1.0)
    with pytest.raises(ValueError, match=r"^WeightedSum: dt must be"):
        WeightedSum([Seek((0.0, 0.0))])(agents, math.nan)


def test_wander_refuses_a_negative_dt() -> None:
    # The example
    from steering import Wander

    with pytest.raises(ValueError, match=r"^Wander: dt must be finite and >= 0, got -1\.0$"):
        Wander(np.random.default_rng(0))(four(), -1.0)


@pytest.mark.parametrize("bad", BAD)
def test_run_step_and_integrate_refuse_a_bad_dt(bad: float) -> None:
    agents = four()
    with pytest.raises(ValueError, match=r"dt must be finite"):
        run(Seek((0.0, 0.0)), agents, bad)
    with pytest.raises(ValueError, match=r"^step: dt must be finite"):
        step(agents, Seek((0.0, 0.0)), bad)
    with pytest.raises(ValueError, match=r"^integrate: dt must be finite"):
        integrate(agents, np.zeros((4, 2)), bad)


def test_a_dt_that_is_not_a_number_is_a_type_error_naming_dt() -> None:
    with pytest.raises(TypeError, match=r"^Seek: dt: expected a number"):
        Seek((0.0, 0.0))(four(), "0.1")  # type: ignore[arg-type]


def test_zero_and_integer_dt_are_accepted() -> None:
    agents = four()
    assert Seek((0.0, 0.0))(agents, 0.0).shape == (4, 2)
    assert Seek((0.0, 0.0))(agents, 1).shape == (4, 2)  # an int is a number of seconds
