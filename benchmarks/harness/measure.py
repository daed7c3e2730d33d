"""The bench's whole run: every measurement of a run's options in turn, with its progress on
stderr (a tqdm bar over the jobs on a terminal, one line per job elsewhere)."""

from __future__ import annotations

from typing import TextIO

from game.progress_bar import progress_bar

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

#: The bar, as the hand-drawn one before it: the whole run's share, then the job and its step.
BAR_FORMAT = "[{bar:30}] {percentage:3.0f}% {desc}"


class Progress:
    """A run's progress over its jobs (the measurements, each a number of steps).

    On a terminal a bar redrawn in place (:func:`game.progress_bar.progress_bar`); elsewhere
    (a pipe, a CI log) one line per job, which says in the log what ran and nothing per step.

    Args:
        total: jobs to run.
        out: the stream (stderr).
    """

    def __init__(self, total: int, out: TextIO) -> None:
        self.total = max(total, 1)
        self.out = out
        self.bar = progress_bar(self.total, file=out, leave=False, bar_format=BAR_FORMAT)
        self.job_index = 0
        self.label = ""
        self.steps = 1
        self.done = 0

    def job(self, label: str, steps: int) -> None:
        """Start the next job: ``label`` and how many steps it has."""
        self.job_index += 1
        self.label = label
        self.steps = max(steps, 1)
        self.done = 0
        if self.bar.disable:
            self.out.write(f"bench [{self.job_index}/{self.total}] {label} ({steps} steps)\n")
            self.out.flush()
        else:
            self._show(at_once=True)

    def tick(self) -> None:
        """One step of the current job done."""
        self.done += 1
        if not self.bar.disable:
            self._show(at_once=False)

    def note(self, text: str) -> None:
        """A message on its own line (a skipped size)."""
        self.bar.clear()
        self.out.write(f"bench: {text}\n")
        self.out.flush()
        if self.label:
            self.bar.refresh()

    def close(self) -> None:
        """Remove the bar."""
        self.bar.close()

    def _show(self, at_once: bool) -> None:
        """Move the bar to the current job and step: redrawn now (a new job) or when tqdm's
        interval is up (a step)."""
        self.bar.set_description_str(
            f"{self.job_index}/{self.total} {self.label}: step {self.done}/{self.steps}",
            refresh=False,
        )
        # The bar counts jobs; a job's steps fill its share, whatever the job's step count.
        position = self.job_index - 1 + min(self.done / self.steps, 1.0)
        if at_once:
            self.bar.n = position
            self.bar.refresh()
        else:
            self.bar.update(position - self.bar.n)


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
