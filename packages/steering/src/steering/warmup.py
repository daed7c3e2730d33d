"""Compile and cache every kernel of the engine once: ``python -m steering.warmup``.

numba compiles a kernel on its first call (seconds each) and keeps it in ``__pycache__`` beside
the module (``cache=True``), so later runs load it in milliseconds. This runs every behaviour of
the vocabulary once on a small crowd (the serial kernels) and once on a crowd of
:data:`~steering._jit.PARALLEL_MIN` agents (the parallel ones), with a progress line.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

import numpy as np

from . import _jit
from .agents import AgentGroup, integrate
from .bench import DT, behaviour_cases
from .hide import Hide
from .obstacle_set import Obstacles

__all__ = ["main", "warm"]


def warm(out: TextIO = sys.stderr) -> float:
    """Call every behaviour and :func:`~steering.integrate` at both sizes; returns seconds."""
    start = time.perf_counter()
    sizes = (8, _jit.PARALLEL_MIN)
    jobs = [(n, name) for n in sizes for name in behaviour_cases(1)] + [(0, "Hide")]
    tty = out.isatty()
    done = 0
    for n in sizes:
        for name, (agents, behaviour) in behaviour_cases(n).items():
            done += 1
            line = f"steering: compiling kernels {done}/{len(jobs)}: {name} ({n} agents)"
            out.write(f"\r{line:<78}" if tty else line + "\n")
            out.flush()
            for _ in range(3):  # later steps take kernels the first does not (grid refresh)
                integrate(agents, behaviour(agents, DT), DT)
    done += 1
    line = f"steering: compiling kernels {done}/{len(jobs)}: Hide's two searches"
    out.write(f"\r{line:<78}" if tty else line + "\n")
    out.flush()
    _hide_both_ways(sizes)
    seconds = time.perf_counter() - start
    end = f"steering: {len(jobs)} behaviours compiled and cached in {seconds:.1f} s"
    out.write(f"\r{end:<78}\n" if tty else end + "\n")
    return seconds


def _hide_both_ways(sizes: tuple[int, int]) -> None:
    """Hide weighs every spot, or searches a grid of them for one hunter among many rocks and
    agents: both ways, serial and parallel (the scenes above take one way per size)."""
    rng = np.random.default_rng(0)
    for n in (max(sizes[0], 100), sizes[1]):
        agents = AgentGroup.create(rng.uniform(0.0, 600.0, (n, 2)))
        for rocks in (8, 40):
            obstacles = Obstacles.create(rng.uniform(0.0, 600.0, (rocks, 2)), np.full(rocks, 10.0))
            Hide((300.0, 300.0), obstacles)(agents, DT)


def main() -> int:
    """Entry point of ``python -m steering.warmup``."""
    warm()
    return 0


if __name__ == "__main__":
    sys.exit(main())
