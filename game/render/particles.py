"""Drifting plankton that make currents visible: particles carried by the flow, respawned
inside their region when they age out or leave it (pure NumPy; drawn as small arrows: a tail
that brightens toward an arrowhead, so the current's direction reads in a still frame)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["ARROW_PARTS", "FlowParticles", "VelocityAt"]

#: Segments per particle drawn by :meth:`FlowParticles.arrows`: three tail pieces, two barbs.
ARROW_PARTS = 5
#: Opacity of each of those segments, tail to head (the head's barbs fully opaque).
_ARROW_ALPHA = np.array([0.2, 0.5, 1.0, 1.0, 1.0])

FloatArray = NDArray[np.float64]
#: (K, 2) points -> ((K, 2) current velocity in px/s, (K,) inside any region).
VelocityAt = Callable[[FloatArray], tuple[FloatArray, NDArray[np.bool_]]]


class FlowParticles:
    """Particles spread over rectangles, moved by a velocity field.

    Args:
        rects: (left, bottom, width, height) of each region; particles are shared out by area.
        velocity_at: The current at points (the world's ``currents.velocity_at``).
        density: Particles per square pixel.
        max_count: Upper bound on all particles (keeps huge regions cheap).
        life: (min, max) seconds a particle lives.
        seed: For a reproducible look.
    """

    def __init__(
        self,
        rects: Sequence[tuple[float, float, float, float]],
        velocity_at: VelocityAt,
        density: float = 1.0 / 1800.0,
        max_count: int = 4000,
        life: tuple[float, float] = (2.5, 6.0),
        seed: int = 0,
    ) -> None:
        self._rng = np.random.default_rng(seed)
        self._velocity_at = velocity_at
        self._life_range = life
        r = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
        self._rects = r
        area = r[:, 2] * r[:, 3]
        total = int(min(max_count, area.sum() * density)) if r.shape[0] else 0
        share = area / area.sum() if total else np.zeros(r.shape[0])
        counts = np.maximum(np.round(share * total).astype(int), 12 if total else 0)
        # In random order: the first k particles are an even sample of all (see shown()).
        self.region: NDArray[np.intp] = self._rng.permutation(
            np.repeat(np.arange(r.shape[0]), counts)
        )
        n = self.region.size
        self.pos: FloatArray = np.zeros((n, 2))
        self.vel: FloatArray = np.zeros((n, 2))
        self.age: FloatArray = np.zeros(n)
        self.life: FloatArray = np.ones(n)
        self._respawn(np.arange(n))
        self.age[:] = self._rng.uniform(0.0, 1.0, n) * self.life  # not all born at once

    @property
    def count(self) -> int:
        """Number of particles."""
        return int(self.region.size)

    def _respawn(self, idx: NDArray[np.intp]) -> None:
        if idx.size == 0:
            return
        r = self._rects[self.region[idx]]
        u = self._rng.random((idx.size, 2))
        self.pos[idx] = r[:, :2] + u * r[:, 2:]
        self.age[idx] = 0.0
        lo, hi = self._life_range
        self.life[idx] = self._rng.uniform(lo, hi, idx.size)

    def update(self, dt: float) -> None:
        """Carry every particle ``dt`` seconds along the current; respawn the old and the lost."""
        if self.count == 0 or dt <= 0:
            return
        vel, inside = self._velocity_at(self.pos)
        self.vel = vel
        self.pos += vel * dt
        self.age += dt
        r = self._rects[self.region]
        out = (
            (self.pos[:, 0] < r[:, 0])
            | (self.pos[:, 1] < r[:, 1])
            | (self.pos[:, 0] > r[:, 0] + r[:, 2])
            | (self.pos[:, 1] > r[:, 1] + r[:, 3])
        )
        still = np.hypot(vel[:, 0], vel[:, 1]) < 1.0
        dead = (self.age >= self.life) | out | ~inside | (still & (self.age > 0.5))
        self._respawn(np.flatnonzero(dead))

    def shown(self, pixel: float) -> int:
        """How many particles to draw at ``pixel`` world units per screen pixel (1 / zoom):
        all from zoom 1 up; zoomed out, as many as keep the density on the screen what it is
        at zoom 1 (``zoom**2`` of them, and at least as many as there are regions), so a map shown
        whole costs what one screen of it does. Particles are in random order and spawned in
        random places, so the first ones are an even sample of all."""
        if pixel <= 1.0:
            return self.count
        return min(self.count, max(math.ceil(self.count / (pixel * pixel)), self._rects.shape[0]))

    def fade(self) -> FloatArray:
        """(P,) opacity in [0, 1]: each particle fades in and out over its life."""
        t = np.clip(self.age / self.life, 0.0, 1.0)
        return np.asarray(np.sin(np.pi * t), dtype=np.float64)

    def streaks(self, seconds: float = 0.12) -> FloatArray:
        """(P, 4) segments from where each particle was ``seconds`` ago to where it is."""
        return np.concatenate((self.pos - self.vel * seconds, self.pos), axis=1)

    def arrows(
        self,
        seconds: float = 0.2,
        length: tuple[float, float] = (9.0, 26.0),
        barb: float = 5.0,
        full_speed: float = 120.0,
        shown: int | None = None,
    ) -> tuple[FloatArray, FloatArray]:
        """Each particle as a small arrow pointing downstream (issue 15: the play-test could
        not read a river's direction from still frames of plain streaks).

        Args:
            seconds: the tail is how far the particle moves in this time...
            length: ...kept within (shortest, longest) px, so slow noise reads too.
            barb: length (px) of the arrowhead's two barbs, at +-35 degrees.
            full_speed: currents this fast (px/s) or faster are drawn fully opaque, slower
                ones fainter (down to 30 %), so a river stands out of a gentle drift.
            shown: only the first this many particles (see :meth:`shown`); None: all.

        Returns:
            ``(P * ARROW_PARTS, 4)`` segments, particle by particle: three tail pieces from
            the tail's end to the head, then the two barbs; and ``(P * ARROW_PARTS,)`` opacity
            factors in [0, 1] (the tail fades toward its end, times :meth:`fade`, times the
            strength factor).
        """
        k = self.count if shown is None else min(max(int(shown), 0), self.count)
        vel, pos = self.vel[:k], self.pos[:k]
        speed = np.hypot(vel[:, 0], vel[:, 1])
        safe = np.where(speed > 1e-9, speed, 1.0)
        u = vel / safe[:, None]
        u[speed <= 1e-9] = (1.0, 0.0)
        span = np.clip(speed * seconds, *length)[:, None]
        head = pos
        marks = [head - u * span * f for f in (1.0, 2.0 / 3.0, 1.0 / 3.0, 0.0)]
        c, s = np.cos(np.radians(35.0)), np.sin(np.radians(35.0))
        back = -u * barb
        left = np.stack((back[:, 0] * c - back[:, 1] * s, back[:, 0] * s + back[:, 1] * c), 1)
        right = np.stack((back[:, 0] * c + back[:, 1] * s, -back[:, 0] * s + back[:, 1] * c), 1)
        parts = (
            np.concatenate((marks[0], marks[1]), 1),
            np.concatenate((marks[1], marks[2]), 1),
            np.concatenate((marks[2], marks[3]), 1),
            np.concatenate((head, head + left), 1),
            np.concatenate((head, head + right), 1),
        )
        segments = np.stack(parts, axis=1).reshape(-1, 4)
        strength = np.clip(speed / full_speed, 0.3, 1.0)
        alpha = ((self.fade()[:k] * strength)[:, None] * _ARROW_ALPHA[None, :]).reshape(-1)
        return segments, alpha
