"""The difficulty curve, measured by bots: how often a person-like bot wins each level, how fast
the autopilot does, and whether a blind script wins at all.

For every level:

* the human-like bot (:class:`~game.world.humanbot.HumanBot`: the autopilot with a 250 ms
  reaction, an aim that wanders, eight keys, and only the screen's view of the world, the
  view the level opens at in a 1280 x 720 window) plays one run per seed, world seed and
  bot seed alike; its win rate is the level's difficulty;
* the autopilot (:func:`~game.world.autopilot.fly`) plays the level's own seed: it must win;
* every blind script (:func:`~game.world.blind.strategies`: each of the eight keys held,
  the edges either way, a zig-zag toward the exit, the straight dash round rocks and walls)
  plays the level's own seed: from level 3 on, none may win;
* the same human-like bot, careless (it ignores the enemies: issue 44's "being seen
  matters"), plays the same seeds: it must win less often than the careful bot;
* every patrol holds its route (:class:`~game.world.route.RouteWatch`, counted over the
  careful bot's runs) in at least :attr:`Wanted.route_share` of the frames the player is
  out of sight.

The runs are independent, so they go to a process pool over every core. :func:`problems`
says where a measured curve breaks the wanted shape (:data:`WANTED`). ``tools/curve.py``
prints the table; ``tests/integration/test_curve.py`` asserts the shape on the same 20 seeds.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from game.level import load_level, shipped_levels
from game.render.camera import level_opening_zoom
from game.world.autopilot import fly
from game.world.blind import Run, play
from game.world.dash import every_strategy
from game.world.humanbot import play_human
from game.world.route import RouteWatch

__all__ = [
    "SCREEN",
    "WANTED",
    "LevelCurve",
    "Wanted",
    "measure",
    "problems",
    "screen_view",
    "story_levels",
    "table",
]

_R = TypeVar("_R")

#: The play area of a 1280 x 720 window (between the HUD's bars), screen px.
SCREEN = (1280.0, 630.0)


@dataclass(frozen=True)
class Wanted:
    """The curve's wanted shape (issue 25)."""

    first_levels: int = 2
    """The levels at the start the bot must nearly always win..."""
    first_rate: float = 0.9
    """...at least this often."""
    slack: float = 0.10
    """A level's win rate may be above the one before by at most this (the noise)."""
    last_rate: float = 0.4
    """The last level's win rate, at most."""
    floor: float = 0.1
    """Every level's win rate, at least."""
    blind_from: int = 3
    """From this level on, no blind script may win."""
    drop: float = 0.20
    """A level's win rate may be below the one before by at most this (no wall)."""
    route_share: float = 0.9
    """Every level's patrols hold their routes in at least this share of unseen frames."""


WANTED = Wanted()


@dataclass
class LevelCurve:
    """One level's row of the curve."""

    number: int
    """Its place in the play order (1 first)."""
    name: str
    bot: list[Run] = field(default_factory=list)
    """The human-like bot's runs, one per seed."""
    pilot: Run | None = None
    blind: list[Run] = field(default_factory=list)
    careless: list[Run] = field(default_factory=list)
    """The careless bot's runs (it ignores the enemies), one per seed."""
    route: tuple[int, int] = (0, 0)
    """Patrol-frames on route and all counted, over the careful bot's runs."""

    @property
    def route_share(self) -> float:
        """The share of unseen patrol-frames on route (1 when none were counted)."""
        held, frames = self.route
        return held / frames if frames else 1.0

    @property
    def careless_rate(self) -> float:
        """The careless bot's win rate."""
        return sum(r.outcome == "won" for r in self.careless) / max(len(self.careless), 1)

    @property
    def rate(self) -> float:
        """The bot's win rate."""
        return sum(r.outcome == "won" for r in self.bot) / max(len(self.bot), 1)

    @property
    def blind_wins(self) -> list[str]:
        """The blind scripts that won."""
        return [r.name for r in self.blind if r.outcome == "won"]


#: Shipped levels outside the story's curve (issue 44: the Sandbox is an open field).
OUTSIDE_THE_STORY = frozenset({"10_sandbox"})


def story_levels() -> list[Path]:
    """The shipped levels of the story, in play order: every one but the Sandbox."""
    return [p for p in shipped_levels() if p.stem not in OUTSIDE_THE_STORY]


def screen_view(path: Path) -> tuple[float, float]:
    """The world (px across, up) a 1280 x 720 window shows of the level when it opens."""
    level = load_level(path)
    start = (level.player.x, level.player.y)
    z = level_opening_zoom(level, SCREEN, start)  # as the level view opens
    return (SCREEN[0] / z, SCREEN[1] / z)


def _bot_run(job: tuple[Path, int, float]) -> tuple[Run, int, int]:
    path, seed, seconds = job
    watch = RouteWatch()
    run = play_human(load_level(path), seed, seconds, view=screen_view(path), watch=watch)
    return run, watch.held, watch.frames


def _careless_run(job: tuple[Path, int, float]) -> Run:
    path, seed, seconds = job
    return play_human(load_level(path), seed, seconds, view=screen_view(path), careless=True)


def _pilot_run(job: tuple[Path, float]) -> Run:
    path, seconds = job
    return fly(load_level(path), seconds)


def _blind_run(job: tuple[Path, str, float]) -> Run:
    path, name, seconds = job
    run = play(load_level(path), every_strategy()[name](), seconds)
    return run._replace(name=name)


def measure(
    paths: Sequence[Path],
    seeds: int = 20,
    seconds: float = 120.0,
    jobs: int | None = None,
    numbers: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[LevelCurve]:
    """Run every bot, autopilot and blind script on ``paths`` (in parallel over ``jobs``
    processes; None: every core) and gather the rows.

    Args:
        paths: the levels, in play order.
        seeds: the bot's runs per level (seeds 1 to ``seeds``).
        seconds: each run's limit (the run stops at its outcome).
        jobs: worker processes (1: in this process).
        numbers: each level's place in the play order (default 1, 2, ...).
        progress: called with (runs done, runs in all): once before the first run (a bar
            shows its length at once: the first runs take seconds), then as runs finish.
    """
    names = list(every_strategy())
    rows = [
        LevelCurve(n, p.stem)
        for n, p in zip(numbers or range(1, len(paths) + 1), paths, strict=True)
    ]
    bot_jobs = [(p, s, seconds) for p in paths for s in range(1, seeds + 1)]
    pilot_jobs = [(p, seconds) for p in paths]
    blind_jobs = [(p, name, seconds) for p in paths for name in names]
    total = 2 * len(bot_jobs) + len(pilot_jobs) + len(blind_jobs)
    done = 0
    if progress is not None:
        progress(done, total)

    def tick(runs: Iterable[_R]) -> Iterable[_R]:
        nonlocal done
        for run in runs:
            done += 1
            if progress is not None:
                progress(done, total)
            yield run

    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1:
        bots = list(tick(map(_bot_run, bot_jobs)))
        careless = list(tick(map(_careless_run, bot_jobs)))
        pilots = list(tick(map(_pilot_run, pilot_jobs)))
        blinds = list(tick(map(_blind_run, blind_jobs)))
    else:
        # Fresh interpreters, not forks: the caller may hold threads or an OpenGL context (a
        # test session's window) that a forked worker cannot inherit safely.
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=spawn) as pool:
            bots = list(tick(pool.map(_bot_run, bot_jobs)))
            careless = list(tick(pool.map(_careless_run, bot_jobs)))
            pilots = list(tick(pool.map(_pilot_run, pilot_jobs)))
            blinds = list(tick(pool.map(_blind_run, blind_jobs)))
    for k, row in enumerate(rows):
        mine = bots[k * seeds : (k + 1) * seeds]
        row.bot = [run for run, _, _ in mine]
        row.route = (sum(h for _, h, _ in mine), sum(f for _, _, f in mine))
        row.careless = careless[k * seeds : (k + 1) * seeds]
        row.pilot = pilots[k]
        row.blind = blinds[k * len(names) : (k + 1) * len(names)]
    return rows


def problems(rows: Sequence[LevelCurve], wanted: Wanted = WANTED) -> list[str]:
    """Where the curve breaks the wanted shape, one line each (none: it holds)."""
    out: list[str] = []
    for k, row in enumerate(rows):
        where = f"level {row.number} {row.name}"
        if row.number <= wanted.first_levels and row.rate < wanted.first_rate:
            out.append(f"{where}: the bot wins {row.rate:.0%}, wanted >= {wanted.first_rate:.0%}")
        if row.rate < wanted.floor:
            out.append(f"{where}: the bot wins {row.rate:.0%}, wanted >= {wanted.floor:.0%}")
        if k and row.rate < rows[k - 1].rate - wanted.drop - 1e-9:
            out.append(
                f"{where}: the bot wins {row.rate:.0%}, a drop of more than"
                f" {wanted.drop:.0%} from level {rows[k - 1].number}'s {rows[k - 1].rate:.0%}"
            )
        if row.careless and row.careless_rate >= row.rate and row.rate < 1.0:
            out.append(
                f"{where}: the careless bot wins {row.careless_rate:.0%}, not less than the"
                f" careful bot's {row.rate:.0%}"
            )
        if row.route_share < wanted.route_share:
            out.append(
                f"{where}: patrols hold their routes in {row.route_share:.0%} of unseen frames,"
                f" wanted >= {wanted.route_share:.0%}"
            )
        if k and row.rate > rows[k - 1].rate + wanted.slack + 1e-9:
            out.append(
                f"{where}: the bot wins {row.rate:.0%}, more than level {rows[k - 1].number}'s"
                f" {rows[k - 1].rate:.0%} (+{wanted.slack:.0%} noise)"
            )
        if row.pilot is not None and row.pilot.outcome != "won":
            out.append(
                f"{where}: the autopilot is {row.pilot.outcome} at {row.pilot.seconds:.1f} s"
            )
        if row.number >= wanted.blind_from and row.blind_wins:
            out.append(f"{where}: blind scripts win: {', '.join(row.blind_wins)}")
    if rows and rows[-1].rate > wanted.last_rate + 1e-9:
        last = rows[-1]
        out.append(
            f"level {last.number} {last.name} (the last): the bot wins {last.rate:.0%},"
            f" wanted <= {wanted.last_rate:.0%}"
        )
    return out


def table(rows: Sequence[LevelCurve]) -> str:
    """The curve as a Markdown table."""
    lines = [
        "| # | level | bot wins | bot's median win | careless bot wins | patrols on route"
        " | autopilot | blind scripts that win |",
        "|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        wins = sorted(r.seconds for r in row.bot if r.outcome == "won")
        median = f"{wins[len(wins) // 2]:.1f} s" if wins else "-"
        pilot = row.pilot
        flown = f"{pilot.outcome} {pilot.seconds:.1f} s" if pilot is not None else "-"
        blind = ", ".join(row.blind_wins) or "none"
        won = sum(r.outcome == "won" for r in row.bot)
        lazy = sum(r.outcome == "won" for r in row.careless)
        careless = f"{lazy}/{len(row.careless)} ({row.careless_rate:.0%})" if row.careless else "-"
        route = f"{row.route_share:.0%}" if row.route[1] else "-"
        lines.append(
            f"| {row.number} | {row.name} | {won}/{len(row.bot)} ({row.rate:.0%}) | {median}"
            f" | {careless} | {route} | {flown} | {blind} |"
        )
    return "\n".join(lines)
