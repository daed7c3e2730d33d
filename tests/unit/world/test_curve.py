"""The difficulty curve (issue 15): from level 3 on no blind strategy wins a shipped level
within 120 s, and the autopilot wins every shipped level within 120 s.

The same runs as ``tools/curve.py``, which prints them as a table (README, "The curve"). Each
run stops at its outcome; a blind strategy stuck against a reef runs the whole 120 s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.level import load_level, shipped_levels
from game.world.autopilot import fly
from game.world.blind import play, strategies

LIMIT = 120.0
SHIPPED = shipped_levels()
#: The first level (in play order) no blind strategy may win.
BLIND_FROM = 3


def _stem(path: Path) -> str:
    return path.stem


def test_the_curve_covers_at_least_ten_levels() -> None:
    assert len(SHIPPED) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("name", list(strategies()))
@pytest.mark.parametrize("path", SHIPPED[BLIND_FROM - 1 :], ids=_stem)
def test_no_blind_strategy_wins_from_level_three(path: Path, name: str) -> None:
    # Given a shipped level from the third on, and a strategy that looks only at the map
    level = load_level(path)
    # When it plays for up to two minutes
    run = play(level, strategies()[name](), LIMIT)
    # Then it is caught or still out there when time runs out
    assert run.outcome in ("caught", "running"), f"{name} won in {run.seconds:.1f} s"


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=_stem)
def test_the_autopilot_wins_every_level(path: Path) -> None:
    run = fly(load_level(path), LIMIT)
    assert run.outcome == "won", f"{run.outcome} after {run.seconds:.1f} s"
    assert run.seconds < LIMIT
