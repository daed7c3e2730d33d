"""Drifting plankton that make currents visible: particles carried by the flow, respawned
inside their region when they age out or leave it (NumPy, and two compiled loops for what
runs every frame; drawn as small arrows: a tail that brightens toward an arrowhead, so the
current's direction reads in a still frame)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from steering.kernels import njit, use_cache

__all__ = ["ARROW_PARTS", "FlowParticles", "VelocityAt"]

#: Segments per particle drawn by :meth:`FlowParticles.arrows`: three tail pieces, two barbs.
ARROW_PARTS = 5
#: Opacity of each of those segments, tail to head (the head's barbs fully opaque).
_ARROW_ALPHA = np.array([0.2, 0.5, 1.0, 1.0, 1.0])

FloatArray = NDArray[np.float64]
#: (K, 2) points -> ((K, 2) current velocity in px/s, (K,) inside any region).
VelocityAt = Callable[[FloatArray], tuple[FloatArray, NDArray[np.bool_]]]

use_cache(__file__)


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
        self.vel = np.ascontiguousarray(vel, dtype=np.float64)
        inside = np.ascontiguousarray(inside, dtype=np.bool_)
        dead = _advance(
            self.pos, self.vel, inside, self.age, self.life, self._rects, self.region, dt
        )
        self._respawn(dead)

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
        out = np.empty(self.count)
        _fades(self.age, self.life, out)
        return out

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
        segments = np.empty((k * ARROW_PARTS, 4))
        alpha = np.empty(k * ARROW_PARTS)
        lo, hi = length
        _arrow_rows(
            self.pos,
            self.vel,
            self.age,
            self.life,
            k,
            float(seconds),
            float(lo),
            float(hi),
            float(barb),
            float(full_speed),
            _ARROW_ALPHA,
            segments,
            alpha,
        )
        return segments, alpha


@njit
def _fade(age: float, life: float) -> float:
    """A particle's opacity in [0, 1]: it fades in and out over its life."""
    t = min(max(age / life, 0.0), 1.0)
    return math.sin(math.pi * t)


@njit
def _fades(age: FloatArray, life: FloatArray, out: FloatArray) -> None:
    """:func:`_fade` of every particle, into ``out``."""
    for i in range(out.shape[0]):
        out[i] = _fade(age[i], life[i])


@njit
def _advance(
    pos: FloatArray,
    vel: FloatArray,
    inside: NDArray[np.bool_],
    age: FloatArray,
    life: FloatArray,
    rects: FloatArray,
    region: NDArray[np.intp],
    dt: float,
) -> NDArray[np.intp]:
    """Move every particle ``dt`` along its velocity and age it; the particles to respawn:
    old, out of their region's rectangle, outside every current, or still (slower than
    1 px/s) after half a second."""
    n = pos.shape[0]
    dead = np.empty(n, dtype=np.intp)
    k = 0
    for i in range(n):
        vx = vel[i, 0]
        vy = vel[i, 1]
        x = pos[i, 0] + vx * dt
        y = pos[i, 1] + vy * dt
        pos[i, 0] = x
        pos[i, 1] = y
        age[i] += dt
        r = region[i]
        out = (
            x < rects[r, 0]
            or y < rects[r, 1]
            or x > rects[r, 0] + rects[r, 2]
            or y > rects[r, 1] + rects[r, 3]
        )
        still = math.hypot(vx, vy) < 1.0
        if age[i] >= life[i] or out or not inside[i] or (still and age[i] > 0.5):
            dead[k] = i
            k += 1
    return dead[:k]


@njit
def _arrow_rows(
    pos: FloatArray,
    vel: FloatArray,
    age: FloatArray,
    life: FloatArray,
    k: int,
    seconds: float,
    shortest: float,
    longest: float,
    barb: float,
    full_speed: float,
    part_alpha: FloatArray,
    segments: FloatArray,
    alpha: FloatArray,
) -> None:
    """The first ``k`` particles as arrows (see :meth:`FlowParticles.arrows`)."""
    c = math.cos(math.radians(35.0))
    s = math.sin(math.radians(35.0))
    for i in range(k):
        vx = vel[i, 0]
        vy = vel[i, 1]
        speed = math.hypot(vx, vy)
        if speed > 1e-9:
            ux = vx / speed
            uy = vy / speed
        else:
            ux = 1.0
            uy = 0.0
        span = min(max(speed * seconds, shortest), longest)
        hx = pos[i, 0]
        hy = pos[i, 1]
        # The tail's marks from its end to the head, then the barbs (back, turned +-35 deg).
        row = i * ARROW_PARTS
        for j in range(3):
            f0 = 1.0 - j / 3.0
            f1 = 1.0 - (j + 1) / 3.0
            segments[row + j, 0] = hx - ux * span * f0
            segments[row + j, 1] = hy - uy * span * f0
            segments[row + j, 2] = hx - ux * span * f1
            segments[row + j, 3] = hy - uy * span * f1
        bx = -ux * barb
        by = -uy * barb
        segments[row + 3, 0] = hx
        segments[row + 3, 1] = hy
        segments[row + 3, 2] = hx + bx * c - by * s
        segments[row + 3, 3] = hy + bx * s + by * c
        segments[row + 4, 0] = hx
        segments[row + 4, 1] = hy
        segments[row + 4, 2] = hx + bx * c + by * s
        segments[row + 4, 3] = hy - bx * s + by * c
        strength = min(max(speed / full_speed, 0.3), 1.0)
        fade = _fade(age[i], life[i]) * strength
        for j in range(ARROW_PARTS):
            alpha[row + j] = fade * part_alpha[j]
