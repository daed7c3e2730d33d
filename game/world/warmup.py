"""Compile and cache the world's kernels once: ``python -m game.world.warmup``.

The game's own compiled systems (:mod:`game.world.think`) and the engine kernels it calls
with the world's array layouts compile on their first call, seconds each, and are cached on
disk. ``make install`` runs this after ``python -m steering.warmup``, so the first level a
player opens (and the first timed step of a test or a benchmark) starts warm: every shipped
level is built and stepped a few times, with a progress line.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

import numpy as np

from game.level import load_level, shipped_levels

from .sight import enemy_sight
from .world import World

__all__ = ["main", "warm"]


def warm(out: TextIO = sys.stderr) -> float:
    """Step every shipped level (and once with staggered steering) and cast its enemies'
    sight; returns seconds."""
    start = time.perf_counter()
    paths = shipped_levels()
    tty = out.isatty()
    for k, path in enumerate(paths, 1):
        line = f"game: compiling the world's kernels {k}/{len(paths)}: {path.stem}"
        out.write(f"\r{line:<78}" if tty else line + "\n")
        out.flush()
        level = load_level(path)
        for stagger in (1, 2):
            world = World(level, stagger=stagger)
            for step in range(4):
                world.step(np.array([1.0, 0.0]) if step % 2 else np.zeros(2))
            enemy_sight(world)  # the sight regions the renderer draws
    seconds = time.perf_counter() - start
    end = f"game: the world's kernels compiled and cached in {seconds:.1f} s"
    out.write(f"\r{end:<78}\n" if tty else end + "\n")
    return seconds


def main() -> int:
    """Entry point of ``python -m game.world.warmup``."""
    warm()
    return 0


if __name__ == "__main__":
    sys.exit(main())
