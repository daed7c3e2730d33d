"""The player's side of a world that is not a column of the agents' state: its input.

The player is row 0 of every per-agent column (:class:`~game.world.state.AgentState`): where it
is and how it moves live there and only there. :class:`Player` owns what the agents' columns do
not: this step's thrust, the record of every thrust, and whether the player is a ghost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from steering.vec import FloatArray

__all__ = ["KEY_DIRECTIONS", "KEY_NAMES", "Player", "key_thrust"]


@dataclass(eq=False)
class Player:
    """The player's input, written by :meth:`World.step <game.world.world.World.step>` and read
    by the steer system (the thrust), the perceive and decide systems (a ghost).

    Attributes:
        thrust: (2,) the player's input this step (a direction no longer than 1).
        inputs: every thrust given to the world, in order (replaying them reproduces the run).
        ghost: True makes the player a ghost (the editor's live world, where the player is only
            a start marker): no enemy sees it, a touch catches no one and no exit ends the run.
        detection: the detection meter, 0 (unseen) to 1 (caught): the decide system fills it
            while an enemy sees the player and drains it out of sight (issue 44).
    """

    thrust: FloatArray = field(default_factory=lambda: np.zeros(2))
    inputs: list[tuple[float, float]] = field(default_factory=list)
    ghost: bool = False
    detection: float = 0.0


def key_thrust(right: bool, left: bool, up: bool, down: bool) -> tuple[float, float]:
    """The player's thrust for the four key directions held: a unit vector (diagonals
    normalised) or zero; opposite keys cancel. The one rule from keys to thrust: the game's
    keyboard (``game.views.controls.thrust_from_keys``) and the environment's discrete actions
    (``game.env``) both call it.

    Returns:
        (x, y), y up.
    """
    x = float(right) - float(left)
    y = float(up) - float(down)
    if x and y:
        return (x / math.sqrt(2.0), y / math.sqrt(2.0))
    return (x, y)


#: What the keyboard can give as the four direction keys held, (right, left, up, down): none,
#: then the eight directions clockwise from up (the environment's discrete actions, the
#: exploit finder's moves).
KEY_DIRECTIONS: tuple[tuple[bool, bool, bool, bool], ...] = (
    (False, False, False, False),
    (False, False, True, False),
    (True, False, True, False),
    (True, False, False, False),
    (True, False, False, True),
    (False, False, False, True),
    (False, True, False, True),
    (False, True, False, False),
    (False, True, True, False),
)
#: Each of :data:`KEY_DIRECTIONS`' names.
KEY_NAMES = ("none", "up", "up-right", "right", "down-right", "down", "down-left", "left",
             "up-left")  # fmt: skip
