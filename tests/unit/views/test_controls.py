"""Keys to thrust: WASD and arrows, diagonals normalised, opposite keys cancel."""

from __future__ import annotations

import math

import arcade
import pytest

from game.views.controls import number_of_key, thrust_from_keys

k = arcade.key


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (set(), (0.0, 0.0)),
        ({k.D}, (1.0, 0.0)),
        ({k.LEFT}, (-1.0, 0.0)),
        ({k.W}, (0.0, 1.0)),
        ({k.DOWN}, (0.0, -1.0)),
        ({k.A, k.D}, (0.0, 0.0)),
        ({k.W, k.UP}, (0.0, 1.0)),
        ({k.W, k.D}, (math.sqrt(0.5), math.sqrt(0.5))),
        ({k.DOWN, k.LEFT}, (-math.sqrt(0.5), -math.sqrt(0.5))),
        ({k.W, k.S, k.D}, (1.0, 0.0)),
        ({k.SPACE, k.Q}, (0.0, 0.0)),
    ],
)
def test_thrust_from_keys(keys: set[int], expected: tuple[float, float]) -> None:
    x, y = thrust_from_keys(keys)
    assert (x, y) == pytest.approx(expected)
    assert math.hypot(x, y) in (pytest.approx(0.0), pytest.approx(1.0))


def test_number_keys() -> None:
    assert number_of_key(k.KEY_3) == 3
    assert number_of_key(k.NUM_7) == 7
    assert number_of_key(k.A) is None
