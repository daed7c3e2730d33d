"""The group rules' per-agent maths (seed 004's separation, alignment, cohesion), public so that
every loop over agents that sums neighbours calls the same functions: the behaviours of
:mod:`steering.group`, the flock's one pass and a game's own compiled loops.

Each function reads one agent's neighbours from a buffer filled by
:func:`~steering.grid.near` (rows ``(j, dx, dy, d, slot)``) and returns plain numbers.
"""

from __future__ import annotations

import math

from . import _kern as kern
from ._checks import fov as check_fov
from ._jit import njit, njit_leaf
from .vec import FloatArray

__all__ = [
    "ALL_ROUND",
    "COINCIDENT_DISTANCE",
    "FovCache",
    "agents_velocity_sum",
    "align_force",
    "alignment_sum",
    "away",
    "cohesion_sum",
    "facing",
    "flock_sums",
    "fov_cos",
    "radius_of",
    "sees",
    "separation_sum",
    "toward",
]

#: Two agents closer than this (px) count as coincident: the away vector has no direction and
#: 1/d would explode, so separation pushes them apart along a pair-specific direction instead.
COINCIDENT_DISTANCE = 1e-6
#: The cosine of half a field of view that sees all round (no heading test).
ALL_ROUND = -2.0
# Irrational multipliers (golden and plastic ratios): the push angle of a coincident pair (i, j)
# is frac(i * a + j * b) turns, deterministic and different for every pair.
PHI_I = 0.6180339887498949
PHI_J = 0.7548776662466927


# -- per-agent maths -----------------------------------------------------------------------


@njit_leaf
def radius_of(col: FloatArray, shared: float, per_agent: bool, i: int) -> float:
    """Agent ``i``'s distance: its column entry or the shared one; 0 unless finite and > 0."""
    r = col[i] if per_agent else shared
    if r > 0.0 and r < math.inf:
        return r
    return 0.0


@njit_leaf
def facing(heading: FloatArray, i: int, cos_half: float) -> tuple[float, float, bool]:
    """Agent ``i``'s unit heading and whether it sees all round (no fov, or no heading)."""
    if cos_half <= -1.5:
        return 0.0, 0.0, True
    ux, uy, ok = kern.unit(heading[i, 0], heading[i, 1])
    return ux, uy, not ok


@njit
def sees(
    ux: float, uy: float, blind: bool, dx: float, dy: float, d: float, cos_half: float
) -> bool:
    """Whether an agent facing (ux, uy) sees a neighbour at offset (dx, dy), distance ``d``:
    within half the fov of its heading; a coincident neighbour is always seen."""
    if blind or d <= COINCIDENT_DISTANCE:
        return True
    return ux * dx + uy * dy >= d * cos_half


@njit_leaf
def separation_sum(
    i: int,
    buf: FloatArray,
    k: int,
    r: float,
    ux: float,
    uy: float,
    blind: bool,
    cos_half: float,
) -> tuple[float, float, int]:
    """The seed's sum of unit away vectors weighted by 1/d over the neighbours closer than
    ``r`` in view, each term scaled by ``r`` (which keeps its direction and makes it at least
    unit length); and their count."""
    tx = 0.0
    ty = 0.0
    m = 0
    for q in range(k):
        d = buf[q, 3]
        if not d < r:
            continue
        dx = buf[q, 1]
        dy = buf[q, 2]
        if not sees(ux, uy, blind, dx, dy, d, cos_half):
            continue
        px, py = away(i, int(buf[q, 0]), dx, dy, d)
        tx += px * r
        ty += py * r
        m += 1
    return tx, ty, m


@njit
def away(i: int, j: int, dx: float, dy: float, d: float) -> tuple[float, float]:
    """The seed's unit vector away from neighbour ``j`` at offset (dx, dy), distance ``d``,
    weighted by 1/d; for a coincident neighbour a pair-specific direction (see
    :class:`Separate`)."""
    if d <= COINCIDENT_DISTANCE:
        lo = min(i, j)
        hi = max(i, j)
        turns = (lo * PHI_I + hi * PHI_J) % 1.0
        s = (1.0 if i < j else -1.0) / COINCIDENT_DISTANCE
        a = 2.0 * math.pi * turns
        return math.cos(a) * s, math.sin(a) * s
    inv = 1.0 / (d * d)
    return -dx * inv, -dy * inv


@njit_leaf
def flock_sums(
    i: int,
    svel: FloatArray,
    buf: FloatArray,
    k: int,
    rs: float,
    ra: float,
    rc: float,
    ux: float,
    uy: float,
    blind: bool,
    cos_half: float,
) -> tuple[float, float, int, float, float, int, float, float, int]:
    """:func:`separation_sum`, :func:`alignment_sum` and :func:`cohesion_sum` (radii
    ``rs``, ``ra``, ``rc``, one fov) in one pass over the neighbours: the same terms added in
    the same order, so the same sums, for one read of the buffer instead of three."""
    sx = 0.0
    sy = 0.0
    ms = 0
    ax = 0.0
    ay = 0.0
    ma = 0
    cx = 0.0
    cy = 0.0
    mc = 0
    for q in range(k):
        d = buf[q, 3]
        dx = buf[q, 1]
        dy = buf[q, 2]
        if not sees(ux, uy, blind, dx, dy, d, cos_half):
            continue
        if d < rs:
            px, py = away(i, int(buf[q, 0]), dx, dy, d)
            sx += px * rs
            sy += py * rs
            ms += 1
        if d < ra:
            slot = int(buf[q, 4])
            ax += svel[slot, 0]
            ay += svel[slot, 1]
            ma += 1
        if d < rc:
            cx += dx
            cy += dy
            mc += 1
    return sx, sy, ms, ax, ay, ma, cx, cy, mc


@njit_leaf
def alignment_sum(
    svel: FloatArray,
    buf: FloatArray,
    k: int,
    r: float,
    ux: float,
    uy: float,
    blind: bool,
    cos_half: float,
) -> tuple[float, float, int]:
    """The sum of the velocities of the neighbours closer than ``r`` in view, and their count
    (``svel``: the velocities in grid order, read by slot)."""
    tx = 0.0
    ty = 0.0
    m = 0
    for q in range(k):
        d = buf[q, 3]
        if d < r and sees(ux, uy, blind, buf[q, 1], buf[q, 2], d, cos_half):
            slot = int(buf[q, 4])
            tx += svel[slot, 0]
            ty += svel[slot, 1]
            m += 1
    return tx, ty, m


@njit_leaf
def agents_velocity_sum(
    vel: FloatArray,
    buf: FloatArray,
    k: int,
    r: float,
    ux: float,
    uy: float,
    blind: bool,
    cos_half: float,
) -> tuple[float, float, int]:
    """:func:`alignment_sum` reading each neighbour's velocity by its index (``vel``: the
    agents' own column), for neighbours found in a grid whose order the velocities are not
    in."""
    tx = 0.0
    ty = 0.0
    m = 0
    for q in range(k):
        d = buf[q, 3]
        if d < r and sees(ux, uy, blind, buf[q, 1], buf[q, 2], d, cos_half):
            j = int(buf[q, 0])
            tx += vel[j, 0]
            ty += vel[j, 1]
            m += 1
    return tx, ty, m


@njit_leaf
def cohesion_sum(
    buf: FloatArray, k: int, r: float, ux: float, uy: float, blind: bool, cos_half: float
) -> tuple[float, float, int]:
    """The sum of the offsets to the neighbours closer than ``r`` in view, and their count."""
    tx = 0.0
    ty = 0.0
    m = 0
    for q in range(k):
        d = buf[q, 3]
        if d < r and sees(ux, uy, blind, buf[q, 1], buf[q, 2], d, cos_half):
            tx += buf[q, 1]
            ty += buf[q, 2]
            m += 1
    return tx, ty, m


@njit
def toward(
    tx: float, ty: float, m: int, vx: float, vy: float, speed: float, gain: float, force: float
) -> tuple[float, float]:
    """Steer toward direction (tx, ty) at max ``speed`` (zero force without neighbours)."""
    if m == 0:
        return 0.0, 0.0
    dx, dy = kern.set_length(tx, ty, speed)
    return kern.steer(dx, dy, vx, vy, gain, force)


@njit
def align_force(
    tx: float,
    ty: float,
    m: int,
    vx: float,
    vy: float,
    speed: float,
    gain: float,
    force: float,
    match_speed: bool,
) -> tuple[float, float]:
    """Steer toward the mean velocity's direction at max speed, or with ``match_speed`` toward
    the mean velocity limited to max speed."""
    if m == 0:
        return 0.0, 0.0
    if not match_speed:
        return toward(tx, ty, m, vx, vy, speed, gain, force)
    ax = tx / m
    ay = ty / m
    if kern.hypot(ax, ay) > speed:
        ax, ay = kern.set_length(ax, ay, speed)
    return kern.steer(ax, ay, vx, vy, gain, force)


def fov_cos(name: str, fov: float) -> float:
    """The cosine of half the field of view ``fov`` (degrees); :data:`ALL_ROUND` for 360.

    Raises:
        ValueError: unless ``0 < fov <= 360`` (the message names ``name``).
    """
    x = check_fov(name, fov)
    if x >= 360.0:
        return ALL_ROUND
    c = math.cos(math.radians(x / 2.0))
    # cos(90 deg) is 6e-17 in floating point: snap it, so fov=180 sees a neighbour exactly
    # abeam (angle == fov/2 counts).
    return 0.0 if abs(c) < 1e-12 else c


class FovCache:
    """The cosine of half a behaviour's fov, recomputed only when the fov changes."""

    __slots__ = ("cos", "fov")

    def __init__(self) -> None:
        self.fov: float = math.nan
        self.cos: float = ALL_ROUND

    def of(self, name: str, fov: float) -> float:
        if fov != self.fov:
            self.cos = fov_cos(name, fov)
            self.fov = fov
        return self.cos
