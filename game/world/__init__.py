"""The game world: a level run with pymunk physics and the steering core, headless.

``World(level, seed=None, extra_npcs=0)`` builds everything; ``world.step(thrust)`` advances one
fixed step of :data:`DT` seconds. No arcade here: the world runs in tests and from the command
line with no window. See docs/world.md.
"""

from __future__ import annotations

from .autopilot import Autopilot
from .brains import MODE_NAMES, Mode
from .currents import CURRENT_DRAG, Current, Currents
from .physics import Physics, PhysicsSettings
from .spawn import ENEMY, KIND_NAMES, NPC, PLAYER, PLAYER_ACCEL, Kind
from .trace import TRACE_KEYS, TraceRecorder, load_trace
from .tuning import TUNING_FILE, Tuning, TuningError, default_tuning, load_tuning
from .world import DT, OUTCOMES, ROCK_FRICTION, World, replay

__all__ = [
    "CURRENT_DRAG",
    "DT",
    "ENEMY",
    "KIND_NAMES",
    "MODE_NAMES",
    "NPC",
    "OUTCOMES",
    "PLAYER",
    "PLAYER_ACCEL",
    "ROCK_FRICTION",
    "TRACE_KEYS",
    "TUNING_FILE",
    "Autopilot",
    "Current",
    "Currents",
    "Kind",
    "Mode",
    "Physics",
    "PhysicsSettings",
    "TraceRecorder",
    "Tuning",
    "TuningError",
    "World",
    "default_tuning",
    "load_trace",
    "load_tuning",
    "replay",
]
