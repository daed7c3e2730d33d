"""The game as a Gymnasium environment, ``steering-game/Stealth-v0`` (docs/env.md): importing
this package registers it. Gymnasium is an optional extra (``pip install -e '.[env]'``);
``import game`` alone never loads it."""

from __future__ import annotations

import gymnasium

from .observe import EXTRA_NAMES, observation_names, observation_size
from .options import EnvOptionError, EnvOptions
from .rays import CHANNELS
from .stealth import ACTION_KEYS, ACTION_NAMES, ACTION_THRUST, StealthEnv

__all__ = [
    "ACTION_KEYS",
    "ACTION_NAMES",
    "ACTION_THRUST",
    "CHANNELS",
    "ENV_ID",
    "EXTRA_NAMES",
    "EnvOptionError",
    "EnvOptions",
    "StealthEnv",
    "observation_names",
    "observation_size",
    "register_envs",
]

#: The environment's id.
ENV_ID = "steering-game/Stealth-v0"


def register_envs() -> None:
    """Register :data:`ENV_ID` with Gymnasium (once; the ``gymnasium.envs`` entry point
    of the game's package calls this too)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="game.env.stealth:StealthEnv")


register_envs()
