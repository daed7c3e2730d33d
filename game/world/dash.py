"""The straight dash (issue 44): a blind script that swims the shortest way to the exit round
rocks and walls, at full speed, ignoring who sees it. Being seen must matter: from level 3 on it
loses (``game.curve``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from steering.vec import FloatArray

from .autopilot import Autopilot
from .blind import KEY_DIRECTIONS, Strategy, key_direction, strategies

if TYPE_CHECKING:
    from .world import World

__all__ = ["Dash", "every_strategy"]


@dataclass(eq=False)
class Dash:
    """The shortest way to the nearest exit round rocks and walls, ignoring every enemy: the
    :class:`~game.world.autopilot.Autopilot` with no weight on danger, its thrust rounded to
    the nearest key direction."""

    _pilot: Autopilot | None = field(default=None, init=False)

    def __call__(self, world: World) -> FloatArray:
        """The thrust for this step."""
        if self._pilot is None:
            self._pilot = Autopilot(world, threat_weight=0.0, sight_weight=0.0)
        u = self._pilot()
        if not np.any(u):
            return np.zeros(2)
        return KEY_DIRECTIONS[key_direction(u)].copy()


def every_strategy() -> dict[str, Callable[[], Strategy]]:
    """:func:`~game.world.blind.strategies` and the straight dash, by name."""
    return {**strategies(), "straight dash": Dash}
