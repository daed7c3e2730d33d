"""The difficulty curve (issue 15): from level 3 on no blind strategy wins a shipped level
within 120 s, and the autopilot wins every shipped level within 120 s.

The same runs as ``tools/curve.py``, which prints them as a table (README, "The curve"). Each
run stops at its outcome; a blind strategy stuck against a reef runs the whole 120 s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.curve import LevelCurve, measure, problems, story_levels, table
from game.level import load_level, shipped_levels
from game.world.autopilot import fly
from game.world.blind import Run, play
from game.world.dash import every_strategy

LIMIT = 120.0
SHIPPED = shipped_levels()
STORY = story_levels()
#: The first level (in play order) no blind strategy may win.
BLIND_FROM = 3


def _stem(path: Path) -> str:
    return path.stem


def test_the_curve_covers_at_least_ten_levels() -> None:
    assert len(SHIPPED) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("name", list(every_strategy()))
@pytest.mark.parametrize("path", STORY[BLIND_FROM - 1 :], ids=_stem)
def test_no_blind_strategy_wins_from_level_three(path: Path, name: str) -> None:
    # Given a shipped level from the third on, and a strategy that looks only at the map
    level = load_level(path)
    # When it plays for up to two minutes
    run = play(level, every_strategy()[name](), LIMIT)
    # Then it is caught or still out there when time runs out
    assert run.outcome in ("caught", "running"), f"{name} won in {run.seconds:.1f} s"


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=_stem)
def test_the_autopilot_wins_every_level(path: Path) -> None:
    run = fly(load_level(path), LIMIT)
    assert run.outcome == "won", f"{run.outcome} after {run.seconds:.1f} s"
    assert run.seconds < LIMIT


@pytest.mark.slow
def test_the_curve_measured_by_bots_has_the_wanted_shape() -> None:
    # Given every shipped level, the human-like bot on 20 seeds each, the autopilot and
    # every blind script (the runs of tools/curve.py, over every core)
    rows = measure(STORY, seeds=20, seconds=LIMIT)
    # Then the bot nearly always wins the first two levels, its win rate falls level by
    # level (within the noise) to at most 40 % on the last and at least 10 % on every one,
    # the autopilot wins every level and no blind script wins from level 3 on
    assert problems(rows) == [], table(rows)


def test_the_curve_check_names_each_break() -> None:
    def row(number: int, wins: int, blind: str = "running", pilot: str = "won") -> LevelCurve:
        bot = [Run("HumanBot", "won" if k < wins else "caught", 10.0) for k in range(10)]
        return LevelCurve(
            number,
            f"l{number}",
            bot,
            Run("Autopilot", pilot, 20.0),
            [Run("hold toward exit", blind, 5.0)],
        )

    good = [row(1, 10), row(2, 9), row(3, 7), row(4, 8), row(5, 6), row(6, 4)]
    assert problems(good) == []
    found = problems(
        [row(1, 8), row(2, 9), row(3, 9, blind="won"), row(4, 0, pilot="caught"), row(5, 5)]
    )
    assert any("level 1 l1: the bot wins 80%, wanted >= 90%" in p for p in found)
    assert any("level 3 l3: blind scripts win: hold toward exit" in p for p in found)
    assert any("level 4 l4: the bot wins 0%, wanted >= 10%" in p for p in found)
    assert any("level 4 l4: the autopilot is caught" in p for p in found)
    assert any("level 5 l5: the bot wins 50%, more than level 4's 0%" in p for p in found)
    assert any("(the last): the bot wins 50%, wanted <= 40%" in p for p in found)
    assert any("level 4 l4: the bot wins 0%, a drop of more than 20%" in p for p in found)
    assert len(found) == 7


def test_the_curve_check_wants_the_careless_bot_to_lose_more_and_patrols_on_route() -> None:
    # Given a level the careful bot wins 6 times in 10, the careless bot as often, and
    # patrols on route in 85 % of the unseen frames
    row = LevelCurve(
        1, "l1", [Run("HumanBot", "won" if k < 6 else "caught", 9.0) for k in range(10)]
    )
    row.careless = list(row.bot)
    row.route = (85, 100)
    # When the curve is checked, Then both are named
    found = problems([row])
    assert any("the careless bot wins 60%, not less than the careful bot's 60%" in p for p in found)
    assert any("patrols hold their routes in 85% of unseen frames" in p for p in found)


def test_the_sandbox_stands_outside_the_story() -> None:
    assert [p.stem for p in SHIPPED if p not in STORY] == ["10_sandbox"]
