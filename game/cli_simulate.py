"""``python -m game simulate LEVEL``: run a level headless and print a one-line JSON summary.

No arcade, no window, no OpenGL: the level, the world and the steering core only. The run
stops as soon as the outcome is decided. ``--inputs FILE.json`` plays the player from a replay
file (see :mod:`game.recording`) instead of leaving them still or to the autopilot. A progress
bar goes to stderr when the run takes longer than a second; a bad level, option or replay file
prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
from numpy.typing import ArrayLike

from game.cli_common import MAX_SEED, one_line_errors, seed
from game.level import LevelError, load_level, resolve_level
from game.progress_bar import progress_bar
from game.safe_io import OutputError, check_output, raise_if_terminated

if TYPE_CHECKING:
    from game.recording import Recording

__all__ = ["MAX_EXTRA_AGENTS", "MAX_SECONDS", "PROGRESS_AFTER", "add_parser", "run", "summary"]

log = logging.getLogger(__name__)

#: Longest run accepted (simulated seconds): one hour.
MAX_SECONDS = 3600.0
#: Simulated seconds when neither ``--seconds`` nor the ``--inputs`` file says.
DEFAULT_SECONDS = 10.0
#: Most NPCs ``--agents`` may add.
MAX_EXTRA_AGENTS = 100_000
#: The largest trace ``simulate --trace`` holds in memory (bytes).
MAX_TRACE_BYTES = 2 * 10**9
#: The progress bar appears once a run has taken this long (wall-clock seconds).
PROGRESS_AFTER = 1.0
#: The terminal's bar, as the hand-drawn one before it: share of the steps, simulated time.
_BAR_FORMAT = "[{bar:30}] {percentage:5.1f}%  {desc}"


class UsageError(Exception):
    """A bad option value (reported as one line, exit status 2)."""


def add_parser(subparsers: Any) -> None:
    """Add the ``simulate`` command to an ``argparse`` sub-parsers object.

    Args:
        subparsers: what ``parser.add_subparsers()`` returned.
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        help="run a level headless and print a JSON summary",
        description=__doc__,
    )
    parser.add_argument(
        "level",
        nargs="?",
        default=None,
        help="a level file, or a shipped level's name or number (default: the --inputs file's)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="simulated seconds (default: the --inputs file's seconds, else 10)",
    )
    parser.add_argument(
        "--seed", type=seed, default=None, help=f"seed, 0..{MAX_SEED} (default: the level's)"
    )
    parser.add_argument(
        "--agents", type=int, default=0, help="add N NPCs in the level's NPC spawn areas"
    )
    parser.add_argument(
        "--autopilot", action="store_true", help="the player heads for the nearest exit"
    )
    parser.add_argument(
        "--inputs",
        type=Path,
        default=None,
        help="play the player from a replay file (JSON keyframes; see the README)",
    )
    parser.add_argument("--trace", type=Path, default=None, help="write a trace .npz here")
    parser.add_argument(
        "--trace-every", type=int, default=1, help="keep every K-th frame in the trace (1)"
    )
    parser.add_argument(
        "--stagger",
        type=int,
        default=1,
        help="recompute each agent's steering every K-th step, in K groups (default 1)",
    )
    # One line on stderr for every bad option (python -m game also refuses unknown ones).
    one_line_errors(parser)


def _check(args: argparse.Namespace) -> None:
    """Validate option values beyond their types.

    Raises:
        UsageError: naming the option.
    """
    seconds = DEFAULT_SECONDS if args.seconds is None else args.seconds
    if not (math.isfinite(seconds) and 0.0 < seconds <= MAX_SECONDS):
        raise UsageError(f"--seconds must be in (0, {MAX_SECONDS:g}], got {seconds}")
    if not 0 <= args.agents <= MAX_EXTRA_AGENTS:
        raise UsageError(f"--agents must be in 0..{MAX_EXTRA_AGENTS}, got {args.agents}")
    if args.trace_every < 1:
        raise UsageError(f"--trace-every must be >= 1, got {args.trace_every}")
    if not 1 <= args.stagger <= 64:
        raise UsageError(f"--stagger must be in 1..64, got {args.stagger}")
    if args.trace is not None:
        try:
            check_output(args.trace, suffixes=(".npz",), what="--trace")
        except OutputError as exc:
            raise UsageError(str(exc)) from exc


def _recording(args: argparse.Namespace) -> Recording | None:
    """The ``--inputs`` file, read and validated (None without one); fills in ``--seconds``.

    Raises:
        UsageError: for ``--inputs`` with ``--autopilot``.
        ReplayError: for a bad file.
    """
    recording = None
    if args.inputs is not None:
        if args.autopilot:
            raise UsageError("--inputs and --autopilot both steer the player: give one")
        from game.recording import load_recording

        recording = load_recording(args.inputs)
    if args.seconds is None:
        given = recording.seconds if recording is not None else None
        args.seconds = given if given is not None else DEFAULT_SECONDS
    return recording


def _level_path(args: argparse.Namespace, recording: Recording | None) -> Path:
    """The level to run: the command line's, else the ``--inputs`` file's.

    Raises:
        UsageError: when neither names one.
        LevelError, ReplayError: for a level that cannot be found or loaded.
    """
    if recording is not None:
        from game.recording import resolve_recording_level

        return resolve_recording_level(recording, args.level)
    if args.level is None:
        raise UsageError("a level is required (or --inputs with a file that names one)")
    return resolve_level(args.level)


def _check_trace_size(args: argparse.Namespace, agents: int, rocks: int) -> None:
    """Refuse, before the run, a trace that would not fit in :data:`MAX_TRACE_BYTES`.

    Raises:
        UsageError: with the estimate and what to change.
    """
    from game.world import DT, TraceRecorder

    frames = max(1, round(args.seconds / DT)) // args.trace_every + 2
    need = frames * TraceRecorder.bytes_per_frame(agents, rocks)
    if need > MAX_TRACE_BYTES:
        raise UsageError(
            f"--trace would hold about {need / 1e9:.1f} GB ({frames:,} frames of {agents:,} "
            f"agents); at most {MAX_TRACE_BYTES / 1e9:.0f} GB: raise --trace-every or lower "
            "--seconds"
        )


class _Progress:
    """Progress on stderr, shown once the run has taken :data:`PROGRESS_AFTER` seconds: on a
    terminal a bar redrawn in place (:func:`game.progress_bar.progress_bar`); elsewhere (a log,
    a pipe) one plain line per tenth of the run, so the log holds no carriage returns."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total = max(total, 1)
        self.out = out
        self.bar = progress_bar(self.total, file=out, delay=PROGRESS_AFTER, bar_format=_BAR_FORMAT)
        self.start = time.perf_counter()
        self.next_tenth = 1

    def update(self, done: int, sim_time: float) -> None:
        """``done`` steps of the run taken, ``sim_time`` seconds simulated."""
        if not self.bar.disable:
            self.bar.set_description_str(f"{sim_time:7.2f} s simulated", refresh=False)
            self.bar.update(done - self.bar.n)
            return
        frac = done / self.total
        if time.perf_counter() - self.start < PROGRESS_AFTER or frac * 10 < self.next_tenth:
            return
        self.next_tenth = int(frac * 10) + 1
        self.out.write(f"progress {frac:6.1%}  {sim_time:7.2f} s simulated\n")
        self.out.flush()

    def close(self) -> None:
        """Leave the bar's last state on its line (nothing when it never appeared)."""
        self.bar.close()


def summary(
    level: str, seed: int, frames: int, agents: int, outcome: str, seconds: float, ms: list[float]
) -> dict[str, Any]:
    """The JSON summary of a run (what ``simulate`` prints)."""
    arr = np.asarray(ms, dtype=np.float64)
    return {
        "level": level,
        "seed": seed,
        "frames": frames,
        "agents": agents,
        "outcome": outcome,
        "seconds": round(seconds, 6),
        "median_ms": round(float(np.median(arr)), 4) if arr.size else 0.0,
        "p95_ms": round(float(np.percentile(arr, 95)), 4) if arr.size else 0.0,
    }


def run(args: argparse.Namespace) -> int:
    """Run ``simulate`` with parsed arguments; returns the exit status (0, or 2 on bad input).

    Prints the summary to stdout; the progress bar and any error line go to stderr.
    """
    # Imported here, not at the top: building ``python -m game``'s parsers need not load
    # pydantic, which validates replay files.
    from game.recording import InputScript, ReplayError

    try:
        recording = _recording(args)
        _check(args)
        level = load_level(_level_path(args, recording))
    except (UsageError, LevelError, ReplayError) as exc:
        sys.stderr.write(f"simulate: error: {exc}\n")
        return 2
    script = InputScript(recording.keyframes) if recording is not None else None
    if args.seed is None and recording is not None:
        args.seed = recording.seed
    from game.world import DT, Autopilot, TraceRecorder, World  # after validation: fast errors

    try:
        if args.trace is not None:  # before the world is built: that alone takes seconds
            _check_trace_size(args, level.agent_count + args.agents, len(level.obstacles))
        world = World(level, args.seed, args.agents, stagger=args.stagger)
    except (ValueError, LevelError, UsageError) as exc:
        sys.stderr.write(f"simulate: error: {exc}\n")
        return 2
    pilot = Autopilot(world) if args.autopilot else None
    trace = TraceRecorder(world, args.trace_every) if args.trace is not None else None
    steps = max(1, round(args.seconds / DT))
    progress = _Progress(steps, sys.stderr)
    ms: list[float] = []
    idle = np.zeros(2)
    try:
        for k in range(steps):
            thrust: ArrayLike = idle
            if pilot is not None:
                thrust = pilot()
            elif script is not None:
                thrust = script.thrust(k)
            t0 = time.perf_counter()
            world.step(thrust)
            ms.append((time.perf_counter() - t0) * 1000.0)
            if trace is not None:
                trace.after_step(world)
            progress.update(k + 1, world.time)
            raise_if_terminated()  # SIGTERM's exception can be lost in a physics callback
            if world.outcome != "running":
                break
    finally:
        progress.close()
    if trace is not None:
        trace.finish(world)
        try:
            trace.save(args.trace)
        except OSError as exc:
            sys.stderr.write(f"simulate: error: {exc}\n")
            return 2
    name = level.source.name if level.source is not None else str(args.level)
    result = summary(name, world.seed, world.frame, world.n, world.outcome, world.time, ms)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0
