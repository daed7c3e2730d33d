"""Compile and cache the drawing's own kernels once: ``python -m game.render.warmup``.

The particles that show currents and the chevrons along routes are compiled loops (no window
needed); ``make install`` runs this after the world's warmup so the first frame of a level
does not compile them.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from .geometry import chevrons_along
from .particles import FlowParticles

__all__ = ["main", "warm"]


def _east(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vel = np.zeros_like(points)
    vel[:, 0] = 40.0
    return vel, np.ones(points.shape[0], dtype=bool)


def warm() -> float:
    """Run each drawing kernel once; returns seconds."""
    start = time.perf_counter()
    particles = FlowParticles([(0.0, 0.0, 400.0, 300.0)], _east, seed=1)
    particles.update(1 / 60)
    particles.arrows(shown=10)
    particles.fade()
    chevrons_along(np.array([(0.0, 0.0), (100.0, 0.0)]), False, 40.0, 8.0, 1.0)
    return time.perf_counter() - start


def main() -> int:
    """Entry point of ``python -m game.render.warmup``."""
    seconds = warm()
    print(f"game: the drawing's kernels compiled and cached in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
