"""What :class:`~steering.AvoidAgents` does about a threat once found, shared by its search of
the group's own agents (:mod:`steering.avoid_agents`) and of another group's
(:mod:`steering.avoid_others`): its numbers, the threat record and the reaction."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from . import _kern as kern
from ._jit import njit, njit_leaf
from .vec import EPSILON, FloatArray

__all__ = ["NO_THREAT", "AvoidAgentsParams", "Threat", "react"]


class AvoidAgentsParams(NamedTuple):
    """:class:`AvoidAgents`' numbers and the call's world as its compiled loop reads them (a
    NamedTuple: the same record compiled and with ``NUMBA_DISABLE_JIT=1``)."""

    time_horizon: float
    gain: float
    margin: float
    brake: float
    commit: float
    #: The tie-break side: +1 left, -1 right.
    prefer: float
    max_reach: float
    #: The torus's size (0, 0: an open plane).
    world_w: float
    world_h: float
    #: No grid: every pair is tested (small groups).
    brute: bool


class Threat(NamedTuple):
    """An agent's most imminent threat found so far, as the search carries it."""

    #: The threatening agent (-1: none yet).
    agent: int
    #: Its time of closest approach, s (inf: none yet).
    time: float
    #: Its offset from the agent now.
    px: float
    py: float
    #: Its offset from the agent at closest approach (the miss).
    mx: float
    my: float
    #: The clearance the pair needs: both radii and the margin.
    clear: float


#: No threat (yet).
NO_THREAT = Threat(-1, math.inf, 0.0, 0.0, 0.0, 0.0, 0.0)


@njit
def _sign(x: float) -> float:
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return 0.0


@njit_leaf
def react(
    heading: FloatArray,
    side_col: FloatArray,
    i: int,
    vx: float,
    vy: float,
    speed_max: float,
    force_max: float,
    threat: Threat,
    p: AvoidAgentsParams,
) -> tuple[float, float]:
    """Agent ``i``'s steer away from its ``threat``; records the side taken in
    ``side_col``."""
    t, px, py, mx, my, clear = threat.time, threat.px, threat.py, threat.mx, threat.my, threat.clear
    horizon, gain, brake = p.time_horizon, p.gain, p.brake
    hx, hy, ok = kern.unit(heading[i, 0], heading[i, 1])
    if not ok:
        hx = 1.0
        hy = 0.0
    # The threat at closest approach in the agent's frame (ahead, to the left), and
    # where it is now, to the left.
    ahead = mx * hx + my * hy
    lateral = my * hx - mx * hy
    now = hx * py - hy * px
    band = p.commit * clear
    if abs(lateral) <= band and abs(now) <= band:
        # Ambiguous (head on, overtaking): the remembered side, else the convention:
        # a threat in front passed on the preferred side, one behind on the other.
        remembered = side_col[i]
        remembered = _sign(remembered) if math.isfinite(remembered) else 0.0
        if remembered == 0.0:
            remembered = p.prefer if px * hx + py * hy >= 0.0 else -p.prefer
        side = remembered
    elif abs(lateral) > band:
        side = -_sign(lateral)
    else:
        side = -_sign(now)
    side_col[i] = side
    speed_max = max(speed_max, 0.0)
    w = math.sqrt(max(clear * clear - ahead * ahead, 0.0))
    need = min((side * lateral + w) / max(t, EPSILON), speed_max)
    sx = -hy * (side * need * gain)
    sy = hx * (side * need * gain)
    gap = kern.hypot(px, py)
    if gap < clear:
        # At contact range: straight away from the threat.
        if gap > EPSILON * clear:
            ax = -px / gap
            ay = -py / gap
        else:
            ax = -hy * side
            ay = hx * side
        sx = ax * (speed_max * gain)
        sy = ay * (speed_max * gain)
    if brake > 0.0:
        urgency = 1.0 - t / horizon
        sx -= vx * (brake * urgency * gain)
        sy -= vy * (brake * urgency * gain)
    return kern.truncate(sx, sy, force_max)


@njit_leaf
def respond(
    i: int,
    imminent: Threat,
    p: AvoidAgentsParams,
    heading: FloatArray,
    side_col: FloatArray,
    motion: tuple[float, float, float, float],
    limits: tuple[float, float],
    out: FloatArray,
    debug: bool,
    threat: Any,
    point: FloatArray,
    other: FloatArray,
    when: FloatArray,
) -> None:
    """Agent ``i``'s force from its most imminent threat (none: zero, its side forgotten) into
    ``out``, and its debug row when asked: the two ends of the search, its own group or
    another's. ``motion`` is the agent's (x, y, vx, vy), ``limits`` its (max speed, max
    force)."""
    xi, yi, vx, vy = motion
    if imminent.agent < 0:
        side_col[i] = 0.0
        out[i, 0] = 0.0
        out[i, 1] = 0.0
        if debug:
            threat[i] = -1
            point[i, 0] = math.nan
            point[i, 1] = math.nan
            other[i, 0] = math.nan
            other[i, 1] = math.nan
            when[i] = math.inf
        return
    out[i, 0], out[i, 1] = react(heading, side_col, i, vx, vy, limits[0], limits[1], imminent, p)
    if debug:
        t = imminent.time
        threat[i] = imminent.agent
        point[i, 0] = xi + vx * t
        point[i, 1] = yi + vy * t
        other[i, 0] = point[i, 0] + imminent.mx
        other[i, 1] = point[i, 1] + imminent.my
        when[i] = t
