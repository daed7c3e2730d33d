"""The game's one fixed step, and the run clock the player sees (it starts on the first move,
so a level can be read before the time counts)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["DT", "RunClock"]

#: The fixed step (s): 60 steps a simulated second. Never varies.
DT = 1.0 / 60.0


class RunClock:
    """A run's time as the HUD shows it and a best time counts it: from the first step the
    player swims (any thrust), not from the level's opening. The world runs from the
    opening all the same; only the count waits.

    Attributes:
        started: The world time (s) at the start of the first step with thrust, or None
            before it.
    """

    def __init__(self) -> None:
        self.started: float | None = None

    def note(self, thrust: Sequence[float], now: float) -> None:
        """A step with ``thrust`` is about to run at world time ``now``: the first one that
        swims starts the clock."""
        if self.started is None and (thrust[0] != 0.0 or thrust[1] != 0.0):
            self.started = now

    def seconds(self, now: float) -> float:
        """The run's time at world time ``now`` (0 before the first move)."""
        return 0.0 if self.started is None else max(now - self.started, 0.0)
