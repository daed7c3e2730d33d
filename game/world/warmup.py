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

from .world import World

__all__ = ["main", "warm"]


def warm(out: TextIO = sys.stderr) -> float:
    """Step every shipped level (and once with staggered steering), and compile the drawing's
    kernels; returns seconds."""
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
    _warm_drawing()
    seconds = time.perf_counter() - start
    end = f"game: the world's kernels compiled and cached in {seconds:.1f} s"
    out.write(f"\r{end:<78}\n" if tty else end + "\n")
    return seconds


def _warm_drawing() -> None:
    """The drawing's own kernels (no window needed): the particles that show currents and the
    chevrons along routes."""
    from game.render.geometry import chevrons_along
    from game.render.particles import FlowParticles

    def east(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        vel = np.zeros_like(points)
        vel[:, 0] = 40.0
        return vel, np.ones(points.shape[0], dtype=bool)

    particles = FlowParticles([(0.0, 0.0, 400.0, 300.0)], east, seed=1)
    particles.update(1 / 60)
    particles.arrows(shown=10)
    chevrons_along(np.array([(0.0, 0.0), (100.0, 0.0)]), False, 40.0, 8.0, 1.0)


def main() -> int:
    """Entry point of ``python -m game.world.warmup``."""
    warm()
    return 0


if __name__ == "__main__":
    sys.exit(main())
