"""The game world: a level run with pymunk physics and the steering core, headless.

``World(level, seed=None, extra_npcs=0)`` builds everything; ``world.step(thrust)`` advances one
fixed step of :data:`DT` seconds. No arcade here: the world runs in tests and from the command
line with no window. See the README's "World" section.
"""

from __future__ import annotations

from .autopilot import Autopilot
from .brains import FLEE_DISTANCE, LEASH, LOSE_SIGHT_AFTER, MODE_NAMES, PLAYER_GAIN, Mode
from .currents import CURRENT_DRAG, Current, Currents
from .physics import Physics, PhysicsSettings
from .spawn import ENEMY, KIND_NAMES, NPC, PLAYER, PLAYER_ACCEL, Kind
from .trace import TRACE_KEYS, TraceRecorder, load_trace
from .world import DT, OUTCOMES, ROCK_FRICTION, World, replay

__all__ = [
    "CURRENT_DRAG",
    "DT",
    "ENEMY",
    "FLEE_DISTANCE",
    "KIND_NAMES",
    "LEASH",
    "LOSE_SIGHT_AFTER",
    "MODE_NAMES",
    "NPC",
    "OUTCOMES",
    "PLAYER",
    "PLAYER_ACCEL",
    "PLAYER_GAIN",
    "ROCK_FRICTION",
    "TRACE_KEYS",
    "Autopilot",
    "Current",
    "Currents",
    "Kind",
    "Mode",
    "Physics",
    "PhysicsSettings",
    "TraceRecorder",
    "World",
    "load_trace",
    "replay",
]
