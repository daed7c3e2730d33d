"""The bench's whole run: every measurement of a run's options in turn, with its progress on
stderr."""

from __future__ import annotations

import time
from typing import TextIO

from .results import FRAME_AGENTS, BenchOptions, BenchResult, machine_info
from .timing import (
    PROFILE_AGENTS,
    PROFILE_STEPS,
    REFERENCE_BUDGET_S,
    REFERENCE_MAX_STEPS,
    profile_world,
    time_core,
    time_reference,
    time_world,
)

__all__ = ["Progress", "measure_all"]


class Progress:
    """Progress on stderr: a bar redrawn in place on a terminal, one line per job otherwise.

    Args:
        total: jobs to run.
        out: the stream (stderr).
        tty: draw the bar; default ``out.isatty()``.
    """

    def __init__(self, total: int, out: TextIO, tty: bool | None = None) -> None:
        self.total = max(total, 1)
        self.out = out
        self.tty = out.isatty() if tty is None else tty
        self.job_index = 0
        self.label = ""
        self.steps = 0
        self.done = 0
        self._last = 0.0
        self._width = 0

    def job(self, label: str, steps: int) -> None:
        """Start the next job: ``label`` and how many steps it has."""
        self.job_index += 1
        self.label = label
        self.steps = max(steps, 1)
        self.done = 0
        if self.tty:
            self._draw(force=True)
        else:
            self.out.write(f"bench [{self.job_index}/{self.total}] {label} ({steps} steps)\n")
            self.out.flush()

    def tick(self) -> None:
        """One step of the current job done."""
        self.done += 1
        if self.tty:
            self._draw()

    def note(self, text: str) -> None:
        """A message on its own line (a skipped size)."""
        self._clear()
        self.out.write(f"bench: {text}\n")
        self.out.flush()
        if self.tty and self.label:
            self._draw(force=True)

    def close(self) -> None:
        """Remove the bar."""
        self._clear()

    def _draw(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        frac = (self.job_index - 1 + min(self.done / self.steps, 1.0)) / self.total
        bar = "#" * int(frac * 30)
        line = (
            f"\r[{bar:<30}] {frac:4.0%} {self.job_index}/{self.total} {self.label}: "
            f"step {self.done}/{self.steps}"
        )
        pad = max(self._width - len(line), 0)
        self.out.write(line + " " * pad)
        self.out.flush()
        self._width = len(line)

    def _clear(self) -> None:
        if self.tty and self._width:
            self.out.write("\r" + " " * self._width + "\r")
            self.out.flush()
            self._width = 0


def measure_all(options: BenchOptions, progress: Progress, tuned: bool) -> BenchResult:
    """Run every measurement of ``options``, reporting to ``progress``."""
    from .scenario import build_scenario

    result = BenchResult(options, machine_info(tuned))
    level = options.level

    def note(text: str) -> None:
        result.notes.append(text)
        progress.note(text)

    refs = time_reference(
        options.reference_sizes,
        options.reference_steps,
        options.reference_warmup,
        lambda n: build_scenario(n, level).reference(),
        on_start=progress.job,
        tick=progress.tick,
        on_note=note,
        budget_s=REFERENCE_BUDGET_S,
        max_steps=min(options.steps, REFERENCE_MAX_STEPS),
    )
    result.reference = {r.agents: r for r in refs}
    for n in options.sizes:
        progress.job(f"ours: steering {n:,} agents", options.warmup + options.steps)
        result.core[n] = time_core(n, options.steps, options.warmup, level, tick=progress.tick)
        for k in options.stagger:
            progress.job(
                f"ours: World.step {n:,} agents, stagger {k}", options.warmup + options.steps
            )
            result.world[n, k] = time_world(
                level, n, k, options.steps, options.warmup, tick=progress.tick
            )
    if options.profile is not None:
        progress.job(f"profile: World.step {PROFILE_AGENTS:,} agents", PROFILE_STEPS)
        profile_world(level, options.profile, warmup=options.warmup)
        result.profile = options.profile
    if options.behaviour_sizes:
        from .behaviours import time_behaviours

        result.behaviours = time_behaviours(
            options.behaviour_sizes,
            options.steps,
            options.warmup,
            on_start=progress.job,
            tick=progress.tick,
        )
    if options.frames:
        from .frames import run_frames

        result.frames = run_frames(
            [FRAME_AGENTS],
            options.frame_count,
            options.frame_warmup,
            str(level.source) if level.source else "sandbox",
            on_start=progress.job,
            tick=progress.tick,
        )
    return result
