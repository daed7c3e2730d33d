"""The game's one fixed step: every simulation step, everywhere, is this many seconds."""

from __future__ import annotations

__all__ = ["DT"]

#: The fixed step (s): 60 steps a simulated second. Never varies.
DT = 1.0 / 60.0
