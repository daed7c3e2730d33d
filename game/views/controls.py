"""Keys to input: which keys swim where, and the keys that pick a level by number."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import arcade

from game.world.player import key_thrust

if TYPE_CHECKING:
    from game.render.stage import LevelStage

    from .app import GameApp

__all__ = [
    "DIGIT_KEYS",
    "DIGIT_WAIT",
    "DOWN",
    "LEFT",
    "RIGHT",
    "UP",
    "DigitEntry",
    "number_of_key",
    "thrust_from_keys",
    "zoom_key",
]

UP = frozenset({arcade.key.W, arcade.key.UP})
DOWN = frozenset({arcade.key.S, arcade.key.DOWN})
LEFT = frozenset({arcade.key.A, arcade.key.LEFT})
RIGHT = frozenset({arcade.key.D, arcade.key.RIGHT})

#: Number keys (top row and keypad) to the number they stand for.
DIGIT_KEYS: dict[int, int] = {
    **{getattr(arcade.key, f"KEY_{d}"): d for d in range(10)},
    **{getattr(arcade.key, f"NUM_{d}"): d for d in range(10)},
}
ZOOM_IN = frozenset({arcade.key.PLUS, arcade.key.EQUAL, arcade.key.NUM_ADD})
ZOOM_OUT = frozenset({arcade.key.MINUS, arcade.key.NUM_SUBTRACT, arcade.key.UNDERSCORE})
#: Back to the opening zoom (the whole map, or the player and the exit).
ZOOM_FIT = frozenset({arcade.key.KEY_0, arcade.key.NUM_0, arcade.key.HOME})
CONFIRM = frozenset({arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER, arcade.key.SPACE})


def thrust_from_keys(pressed: Collection[int]) -> tuple[float, float]:
    """The player's thrust for the keys held: a unit vector (diagonals normalised) or zero.

    Args:
        pressed: Key codes held down.

    Returns:
        (x, y), y up.
    """
    held = set(pressed)
    return key_thrust(bool(held & RIGHT), bool(held & LEFT), bool(held & UP), bool(held & DOWN))


def number_of_key(symbol: int) -> int | None:
    """The digit a key stands for, or None."""
    return DIGIT_KEYS.get(symbol)


#: Seconds the title waits after a digit that may begin a two-digit level number (``1`` with
#: ten levels: ``1`` then ``0`` is level 10) before it plays the one-digit level.
DIGIT_WAIT = 0.8


class DigitEntry:
    """Level numbers typed on the title: one digit, or two when the first may begin a
    two-digit number of the list (``1`` then ``0`` is level 10 of ten).

    A digit that cannot begin a longer number plays at once; one that can waits
    :data:`DIGIT_WAIT` seconds for a second digit (or Enter). A lone ``0`` is the tenth level,
    as before. Times are the caller's clock (seconds), so tests need no sleep.

    Args:
        count: How many levels the list has (numbers 1..count).
    """

    def __init__(self, count: int) -> None:
        self.count = count
        #: The first digit typed and the time it was typed, while waiting for a second.
        self.pending: tuple[int, float] | None = None

    def press(self, digit: int, now: float) -> int | None:
        """A digit typed at ``now``: the level number to play now (1-based), or None (waiting
        for a second digit, or no such level)."""
        if self.pending is not None:
            first, _ = self.pending
            self.pending = None
            both = first * 10 + digit
            return both if 1 <= both <= self.count else self._valid(first)
        if digit == 0:
            return self._valid(10)
        if digit * 10 <= self.count:
            self.pending = (digit, now)
            return None
        return self._valid(digit)

    def poll(self, now: float) -> int | None:
        """The waiting digit's level once :data:`DIGIT_WAIT` has passed, else None."""
        if self.pending is not None and now - self.pending[1] >= DIGIT_WAIT:
            return self.flush()
        return None

    def flush(self) -> int | None:
        """The waiting digit's level now (Enter while waiting), or None when none waits."""
        if self.pending is None:
            return None
        first, _ = self.pending
        self.pending = None
        return self._valid(first)

    def _valid(self, number: int) -> int | None:
        return number if 1 <= number <= self.count else None


def zoom_key(app: GameApp, stage: LevelStage, symbol: int) -> None:
    """A zoom key: zoom in or out, kept as the player's choice for every level after, or
    back to the opening fit (and each level opens fitted again)."""
    if symbol in ZOOM_FIT:
        app.zoom = None
        stage.fit_view()
        return
    stage.zoom_by(1 if symbol in ZOOM_IN else -1)
    app.zoom = stage.rig.zoom
