"""The schema helpers: a pydantic error becomes one reason in our words, found at its JSON path,
with the unit and phrases the field declares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import pytest
from pydantic import ConfigDict, with_config

from game.file_schema import (
    Problem,
    ValidationError,
    finite,
    first_problem,
    integer,
    text,
    validate,
)


@with_config(ConfigDict(extra="forbid"))
@dataclass(frozen=True)
class Turret:
    """A made-up section: every kind of field the game's files use."""

    angle: Annotated[float, finite(0.0, 180.0, "deg", open_low=True)]
    rate: Annotated[float, finite(0.0, 10.0, "deg/s", null="no limit")] | None
    name: Annotated[str, text(8, must="a name (1..8 characters)")]
    shots: Annotated[int, integer(0, 99)]
    times: list[tuple[Annotated[float, finite(0.0, 60.0, range_words="in 0..60 s")], float]]


@with_config(ConfigDict(extra="forbid"))
@dataclass(frozen=True)
class Fort:
    turret: Turret


GOOD: dict[str, Any] = {
    "angle": 90,
    "rate": None,
    "name": "north",
    "shots": 3,
    "times": [[0, 1.5], [2, 3]],
}


def _problem(**change: object) -> Problem:
    data = {"turret": {**GOOD, **change}}
    with pytest.raises(ValidationError) as info:
        validate(Fort, data)
    return first_problem(info.value, Fort)


def test_good_data_gives_the_dataclass_with_floats() -> None:
    fort = validate(Fort, {"turret": GOOD})
    assert fort.turret.angle == 90.0 and isinstance(fort.turret.angle, float)
    assert fort.turret.times == [(0.0, 1.5), (2.0, 3.0)]


@pytest.mark.parametrize(
    ("change", "at", "reason"),
    [
        ({"angle": 0}, ("turret", "angle"), "must be > 0 deg, got 0"),
        ({"angle": 200.5}, ("turret", "angle"), "must be at most 180 deg, got 200.5"),
        ({"angle": True}, ("turret", "angle"), "expected a number, got boolean true"),
        ({"angle": "9"}, ("turret", "angle"), 'expected a number, got string "9"'),
        ({"angle": 10**400}, ("turret", "angle"), "number too large"),
        (
            {"angle": float("nan")},
            ("turret", "angle"),
            "NaN is not allowed; it must be a finite number",
        ),
        (
            {"rate": "fast"},
            ("turret", "rate"),
            'expected a number or null (no limit), got string "fast"',
        ),
        ({"rate": -1}, ("turret", "rate"), "must be >= 0 deg/s, got -1"),
        ({"name": " "}, ("turret", "name"), 'must be a name (1..8 characters), got " "'),
        ({"name": 4}, ("turret", "name"), "must be a name (1..8 characters), got 4"),
        ({"shots": 1.5}, ("turret", "shots"), "expected an integer, got number 1.5"),
        ({"shots": 100}, ("turret", "shots"), "must be at most 99, got 100"),
        ({"times": [[0, 1], [61, 2]]}, ("turret", "times", 1, 0), "must be in 0..60 s, got 61"),
        ({"times": {}}, ("turret", "times"), "expected a list, got an object"),
    ],
)
def test_each_problem_reads_in_our_words_at_its_path(
    change: dict[str, object], at: tuple[str | int, ...], reason: str
) -> None:
    problem = _problem(**change)
    assert problem.at == at
    assert problem.reason == reason


def test_an_unknown_name_comes_before_the_missing_one_it_misspells() -> None:
    # Given "angle" written "angel"
    data = {"turret": {**{k: v for k, v in GOOD.items() if k != "angle"}, "angel": 90}}
    with pytest.raises(ValidationError) as info:
        validate(Fort, data)
    # Then the unknown name is reported (a suggestion can follow), not the missing one
    problem = first_problem(info.value, Fort)
    assert (problem.at, problem.reason) == (("turret", "angel"), "unknown field")
    assert "missing" in [e["type"] for e in info.value.errors()]


def test_a_missing_field_and_a_section_of_the_wrong_kind() -> None:
    with pytest.raises(ValidationError) as info:
        validate(Fort, {"turret": {k: v for k, v in GOOD.items() if k != "shots"}})
    assert first_problem(info.value, Fort).reason == "missing"
    with pytest.raises(ValidationError) as info:
        validate(Fort, {"turret": [1]})
    problem = first_problem(info.value, Fort)
    assert (problem.at, problem.reason) == (("turret",), "expected an object, got a list")


def test_the_field_words_are_given_with_the_problem() -> None:
    problem = _problem(rate="x")
    assert problem.words == {"unit": "deg/s", "null": "no limit"}
    assert problem.nullable
    assert not _problem(angle=0).nullable
