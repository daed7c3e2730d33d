"""Live parameters: key steps land on the step grid, values stay in bounds, drags and choices."""

from __future__ import annotations

import math

import pytest

from game.lab import Param, Params


def test_nudge_steps_on_the_grid_and_clamps() -> None:
    p = Param("r", "radius", 23.0, 2.0, 30.0, 4.0, "px")
    p.nudge(1)  # 23 is between 22 and 26: snaps to the grid from lo, one step up
    assert p.value == 26.0
    p.nudge(5)
    assert p.value == 30.0
    p.nudge(-100)
    assert p.value == 2.0
    assert p.text() == "2 px"


def test_set_refuses_non_finite_and_clamps() -> None:
    p = Param("k", "k", 1.0, 0.0, 2.0, 0.1)
    p.set(math.nan)
    assert p.value == 1.0
    p.set(9.0)
    assert p.value == 2.0
    assert p.text() == "2.0"


def test_a_drag_across_the_span_covers_the_range() -> None:
    p = Param("s", "speed", 100.0, 0.0, 400.0, 10.0)
    p.drag(100.0, 120.0, span_px=240.0)  # half the span: half the range
    assert p.value == 300.0
    p.drag(100.0, -1000.0)
    assert p.value == 0.0


def test_choices_wrap_and_name_their_value() -> None:
    params = Params([Param("kind", "formation", 0, 0, 0, 1, choices=("wedge", "line", "column"))])
    params.nudge(-1)
    assert params.choice("kind") == "column"
    params.nudge(1)
    assert params.choice("kind") == "wedge"


def test_selection_wraps_and_each_scene_has_its_own_copy() -> None:
    base = (Param("a", "a", 1, 0, 5, 1), Param("b", "b", 2, 0, 5, 1))
    one, two = Params(base), Params(base)
    one.move(-1)
    assert one.selected == 1
    one.nudge(1)
    assert one["b"] == 3 and two["b"] == 2 and base[1].value == 2


def test_bad_bounds_and_duplicate_keys_are_refused() -> None:
    with pytest.raises(ValueError, match="bad bounds"):
        Param("x", "x", 0, 5, 1, 1)
    with pytest.raises(ValueError, match="duplicate"):
        Params([Param("x", "x", 0, 0, 1, 1), Param("x", "y", 0, 0, 1, 1)])
