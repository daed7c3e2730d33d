"""Compile and cache every kernel of the engine once: ``python -m steering.warmup [--jobs N]``.

numba compiles a kernel on its first call (seconds each) and caches it (see
:mod:`steering._jit`), so later runs load it in milliseconds. This runs every behaviour of the
vocabulary on a small crowd (the serial kernels) and on a crowd of
:data:`~steering._jit.PARALLEL_MIN` agents (the parallel ones), alone and through
:func:`~steering.step`, one behaviour a job, in one process per core, with a progress line;
and the loops a behaviour has for another group's agents (``others=``: AvoidAgents's own loop).
Behaviours that need an extra that is not installed are skipped, with one line saying so.
Run it where the kernels should be kept: with ``NUMBA_CACHE_DIR`` set to warm that folder (see
'Read-only installs' in the README).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TextIO

import numpy as np

from . import _jit
from .agents import AgentGroup
from .avoid_agents import AvoidAgents
from .bench import DT, behaviour_cases
from .combine import step
from .hide import Hide
from .moving import integrate
from .obstacle_set import Obstacles

__all__ = ["EXTRAS", "HIDE", "OTHERS", "jobs", "main", "warm"]

#: The two crowd sizes: the serial kernels, then the parallel ones.
SIZES = (8, _jit.PARALLEL_MIN)
#: The job that runs both of Hide's searches at both sizes.
HIDE = "Hide's two searches"
#: The job that runs AvoidAgents against another group (``others=``: a loop of its own) at both
#: sizes. (Separate, Align, Cohere and Queue search others in the loop they run on their own
#: group, compiled by their own jobs.)
OTHERS = "AvoidAgents (others=)"
#: Behaviours of the warmup that need an optional dependency: name -> (module, extra).
EXTRAS = {"FollowFlow (noise)": ("opensimplex", "noise")}


def jobs() -> tuple[list[str], dict[str, str]]:
    """The jobs to run (behaviour names, heaviest first), and those skipped for a missing
    extra, each with its one-line reason."""
    skipped = {
        name: f"needs the '{extra}' extra (pip install 'reynolds-steering[{extra}]')"
        for name, (module, extra) in EXTRAS.items()
        if importlib.util.find_spec(module) is None
    }
    names = [name for name in behaviour_cases(SIZES[0]) if name not in skipped]
    # Composites and path following compile the most: started first, they end together.
    names.sort(key=lambda name: not name.startswith(("Flock", "WeightedSum", "FollowPath")))
    return [*names, OTHERS, HIDE], skipped


@functools.cache
def _cases(n: int) -> dict[str, tuple[AgentGroup, Any]]:
    return behaviour_cases(n)


def _warm_one(name: str) -> tuple[str, float]:
    """Compile job ``name`` (in this process); returns it with its seconds."""
    start = time.perf_counter()
    if name == HIDE:
        _hide_both_ways()
    elif name == OTHERS:
        _avoid_others()
    else:
        for n in SIZES:
            agents, behaviour = _cases(n)[name]
            for _ in range(3):  # later steps take kernels the first does not (grid refresh)
                integrate(agents, behaviour(agents, DT), DT)
            step(agents, behaviour, DT)  # a composite's loop that also moves the agents
    return name, time.perf_counter() - start


def _hide_both_ways() -> None:
    """Hide weighs every spot, or searches a grid of them for one hunter among many rocks and
    agents: both ways, serial and parallel (the scenes above take one way per size)."""
    rng = np.random.default_rng(0)
    for n in (max(SIZES[0], 100), SIZES[1]):
        agents = AgentGroup.create(rng.uniform(0.0, 600.0, (n, 2)))
        for rocks in (8, 40):
            obstacles = Obstacles.create(rng.uniform(0.0, 600.0, (rocks, 2)), np.full(rocks, 10.0))
            Hide((300.0, 300.0), obstacles)(agents, DT)


def _avoid_others() -> None:
    """AvoidAgents with another group's agents as the threats (``others=``; its own loop,
    :mod:`steering.avoid_others`), serial and parallel, with and without debug output, alone and
    through :func:`~steering.step`."""
    rng = np.random.default_rng(1)
    for n in SIZES:
        agents = AgentGroup.create(
            rng.uniform(0.0, 600.0, (n, 2)), rng.uniform(-60.0, 60.0, (n, 2))
        )
        cars = AgentGroup.create(rng.uniform(0.0, 600.0, (n, 2)), rng.uniform(-60.0, 60.0, (n, 2)))
        avoid = AvoidAgents(others=cars)
        for _ in range(3):
            integrate(agents, avoid(agents, DT), DT)
        avoid(agents, DT, {})
        step(agents, avoid, DT)


def _default_processes() -> int:
    if _jit.fcntl is None:  # no lock on the cache's index files: one process
        return 1
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def warm(
    out: TextIO = sys.stderr, processes: int | None = None, names: Sequence[str] | None = None
) -> float:
    """Run every job (or ``names``) across ``processes`` processes (default: one per core
    this process may use); returns the seconds taken."""
    start = time.perf_counter()
    todo, skipped = jobs()
    if names is not None:
        todo = [name for name in todo if name in names]
    for name, reason in skipped.items():
        out.write(f"steering: skipped {name}: {reason}\n")
    processes = max(1, min(processes or _default_processes(), len(todo)))
    tty = out.isatty()

    def progress(done: int, name: str) -> None:
        line = f"steering: compiling kernels {done}/{len(todo)} ({processes} processes): {name}"
        out.write(f"\r{line:<78}" if tty else line + "\n")
        out.flush()

    if processes == 1:
        for done, name in enumerate(todo, 1):
            progress(done, name)
            _warm_one(name)
    else:
        # spawn, not fork: a forked numba may inherit a parent's threads half-started.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(processes, mp_context=context) as pool:
            futures = [pool.submit(_warm_one, name) for name in todo]
            for done, future in enumerate(as_completed(futures), 1):
                progress(done, future.result()[0])
    seconds = time.perf_counter() - start
    end = f"steering: {len(todo)} jobs compiled and cached in {seconds:.1f} s"
    end += f" ({processes} processes)"
    out.write(f"\r{end:<78}\n" if tty else end + "\n")
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m steering.warmup``."""
    parser = argparse.ArgumentParser(prog="python -m steering.warmup", description=__doc__)
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: one per core)")
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    warm(processes=args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
