"""The run clock starts on the player's first move, not when the level opens."""

from __future__ import annotations

import pytest

from game.clock import DT, RunClock


def test_the_clock_waits_for_the_first_move() -> None:
    # Given a fresh clock and steps without thrust
    clock = RunClock()
    for frame in range(30):
        clock.note((0.0, 0.0), frame * DT)
    # Then it reads zero however long the level has been open
    assert clock.started is None and clock.seconds(30 * DT) == 0.0
    # When the player swims at step 30
    clock.note((0.0, -1.0), 30 * DT)
    # Then it counts from there, and a later stop does not restart it
    clock.note((0.0, 0.0), 31 * DT)
    assert clock.started == pytest.approx(30 * DT)
    assert clock.seconds(90 * DT) == pytest.approx(60 * DT)
