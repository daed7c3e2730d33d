"""Group behaviours over neighbour pairs: separation (seed 004), alignment and cohesion.

All three read their neighbours from :meth:`AgentGroup.pairs_within`, the k-d tree pair list that
the group caches per step *keyed by the query distance*: behaviours that query the same distance
in one step share one tree and one pair list. Internally points are complex numbers ``x + iy``:
``np.abs`` of a complex difference is ``hypot`` (no overflow or underflow at huge or tiny
coordinates) and 1-D gathers are several times faster than NumPy's (N, 2) fancy indexing.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .neighbours import directed_candidates
from .vec import FloatArray, as_complex, as_rows, normalize_complex, truncate_complex

__all__ = ["COINCIDENT_DISTANCE", "Align", "Cohere", "Separate", "neighbour_distances"]

#: Two agents closer than this (px) count as coincident: the away vector has no direction and
#: 1/d would explode, so separation pushes them apart along a pair-specific direction instead.
COINCIDENT_DISTANCE = 1e-6

# Irrational multipliers (golden and plastic ratios): the push angle of a coincident pair (i, j)
# is frac(i * a + j * b) turns, deterministic and different for every pair.
_PHI_I = 0.6180339887498949
_PHI_J = 0.7548776662466927

ComplexArray = NDArray[np.complex128]
IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


class _Pairs(NamedTuple):
    """Undirected neighbour pairs ``i < j`` with their geometry."""

    i: IntArray
    """(P,) first index of each pair."""
    j: IntArray
    """(P,) second index of each pair (``j > i``)."""
    diff: ComplexArray
    """(P,) ``pos[i] - pos[j]`` as complex numbers: points from j to i."""
    dist: FloatArray
    """(P,) distance between the two agents."""


def neighbour_distances(
    agents: AgentGroup, distance: float, per_agent: bool, column: str
) -> FloatArray:
    """Each agent's neighbour distance: ``distance`` for all, or the state column ``column``.

    With ``per_agent`` the column is created filled with ``distance`` on first use, so a game can
    write one value per agent (enemies 40 px, NPCs 24 px) into ``agents.state[column]``.
    Non-finite or negative entries count as 0 (no neighbours).

    Args:
        agents: the group.
        distance: the shared distance (px), also the column's initial value.
        per_agent: read the distances from the state column.
        column: the state column's name.

    Returns:
        (N,) distances in px.
    """
    if per_agent:
        raw = np.asarray(agents.column(column, fill=distance), dtype=np.float64)
    else:
        raw = np.full(agents.n, float(distance))
    ok = np.isfinite(raw) & (raw > 0.0)
    return np.where(ok, raw, 0.0)


def _pairs(agents: AgentGroup, distances: FloatArray) -> _Pairs:
    """Pairs closer than the largest of ``distances``, from the group's cached query."""
    radius = float(distances.max()) if distances.size else 0.0
    pairs = agents.pairs_within(radius)
    i = np.ascontiguousarray(pairs[:, 0])
    j = np.ascontiguousarray(pairs[:, 1])
    z = as_complex(agents.pos)
    diff = z.take(i) - z.take(j)
    return _Pairs(i, j, diff, np.abs(diff))


def _gather(
    p: _Pairs,
    hit_i: BoolArray,
    hit_j: BoolArray,
    to_i: ComplexArray,
    to_j: ComplexArray | None,
    n: int,
) -> tuple[ComplexArray, IntArray]:
    """Sum ``to_i`` into agent i where ``hit_i`` and ``to_j`` into agent j where ``hit_j``.

    ``to_j=None`` means ``-to_i`` (the pair's vectors are antisymmetric: away vectors, offsets),
    which saves a temporary. One ``np.bincount`` per side and component: several times faster
    than ``np.add.at``, and no concatenated temporaries (fresh large arrays are costly here).

    Returns:
        The (N,) per-agent sums and the (N,) number of terms in each.
    """
    sign_j = 1.0
    if to_j is None:
        to_j, sign_j = to_i, -1.0
    if not hit_i.all():
        to_i = np.where(hit_i, to_i, 0.0)
    if not hit_j.all():
        to_j = np.where(hit_j, to_j, 0.0)
    count = np.bincount(p.i[hit_i], minlength=n) + np.bincount(p.j[hit_j], minlength=n)
    total = np.empty(n, dtype=np.complex128)
    total.real = np.bincount(p.i, weights=to_i.real, minlength=n)
    total.real += sign_j * np.bincount(p.j, weights=to_j.real, minlength=n)
    total.imag = np.bincount(p.i, weights=to_i.imag, minlength=n)
    total.imag += sign_j * np.bincount(p.j, weights=to_j.imag, minlength=n)
    return total, count.astype(np.intp)


def _mean(total: ComplexArray, count: IntArray) -> ComplexArray:
    out = np.zeros_like(total)
    np.divide(total, count, out=out, where=count > 0)
    return out


def _limit(v: ComplexArray, max_length: FloatArray, keep: BoolArray) -> FloatArray:
    """``v`` shortened to ``max_length`` where ``keep``, zero elsewhere or where not finite."""
    out = truncate_complex(v, max_length)  # finite, so zeroing by a multiply is safe
    out *= keep
    return as_rows(out)


def _steer(agents: AgentGroup, desired: ComplexArray, gain: float, count: IntArray) -> FloatArray:
    """The seeds' steer ``(desired - velocity) * gain`` limited to max force, for agents with
    neighbours; zero force for the others (same numbers as ``base.steer_to_velocity``)."""
    steer = (desired - as_complex(agents.vel)) * gain
    return _limit(steer, agents.max_force, count > 0)


def _unscaled_average(total: ComplexArray, count: IntArray, sep: FloatArray) -> FloatArray:
    """The seed's average of 1/d-weighted away vectors, from sums scaled by the separation."""
    unscaled = np.zeros_like(total)
    np.divide(_mean(total, count), sep, out=unscaled, where=sep > COINCIDENT_DISTANCE)
    return as_rows(unscaled)


def _check_distance(name: str, distance: float) -> None:
    if not (math.isfinite(distance) and distance >= 0.0):
        raise ValueError(f"{name} distance must be finite and >= 0, got {distance}")


def _fov_cos(name: str, fov: float) -> float | None:
    """The cosine of half the field of view ``fov`` (degrees); None for 360 (see everything).

    Raises:
        ValueError: unless ``0 < fov <= 360``.
    """
    if not (isinstance(fov, numbers.Real) and 0.0 < fov <= 360.0):
        raise ValueError(f"{name} fov must be in (0, 360] degrees, got {fov!r}")
    if fov >= 360.0:
        return None
    c = math.cos(math.radians(fov / 2.0))
    # cos(90 deg) is 6e-17 in floating point: snap it, so fov=180 sees a neighbour exactly
    # abeam (angle == fov/2 counts).
    return 0.0 if abs(c) < 1e-12 else c


class _View(NamedTuple):
    """Every agent's unit heading, for field-of-view tests."""

    heading: ComplexArray
    """(N,) unit headings as complex numbers (zero where an agent has none)."""
    blind: BoolArray | None
    """(N,) agents without a heading, who see all round; None when every agent has one."""

    @classmethod
    def of(cls, agents: AgentGroup) -> _View:
        heading = normalize_complex(as_complex(agents.heading))
        blind = heading == 0.0
        return cls(heading, blind if blind.any() else None)

    def sees(
        self, who: IntArray, diff: ComplexArray, dist: FloatArray, cos_half: float, sign: float
    ) -> BoolArray:
        """Whether agent ``who`` sees the neighbour at offset ``sign * diff`` (neighbour minus
        agent) at distance ``dist``: the angle between its heading and the offset is at most
        half the fov (``cos >= cos_half``). A coincident neighbour has no direction and is
        always seen, as is every neighbour of an agent without a heading."""
        h = self.heading.take(who)
        dot = h.real * diff.real
        dot += h.imag * diff.imag
        reach = dist * cos_half
        # sign * dot >= reach without negating a pair-sized array
        seen = dot >= reach if sign > 0.0 else dot <= -reach
        near = dist <= COINCIDENT_DISTANCE
        if near.any():
            seen |= near
        if self.blind is not None:
            seen |= self.blind.take(who)
        return seen


def _fov_filter(
    agents: AgentGroup, p: _Pairs, hit_i: BoolArray, hit_j: BoolArray, cos_half: float
) -> tuple[BoolArray, BoolArray]:
    """``hit_i`` and ``hit_j`` keeping only the neighbours each receiver sees."""
    view = _View.of(agents)
    # diff points from j to i: i sees j along -diff, j sees i along +diff.
    hit_i = hit_i & view.sees(p.i, p.diff, p.dist, cos_half, -1.0)
    hit_j = hit_j & view.sees(p.j, p.diff, p.dist, cos_half, 1.0)
    return hit_i, hit_j


@dataclass
class Separate:
    """Keep away from neighbours closer than ``distance`` (Nature of Code 6.11, seed 004).

    For every other agent closer than the agent's desired separation: the unit vector away from
    it, weighted by 1/d; these are summed, averaged by their count, set to max speed as the
    desired velocity, and the steer is ``(desired - velocity) * gain`` limited to max force.
    Agents with no neighbour that close get zero force. Neighbours come from the group's cached
    k-d tree pairs (no N^2 loop); a pair (i, j) counts for i when ``d < distance_i``, so mixed
    groups (enemies 40 px, NPCs 24 px) keep their own spacing.

    With ``fov`` below 360 a neighbour counts for agent i only where the angle between i's
    heading and the direction to it is at most ``fov / 2`` (coincident neighbours are always
    seen): agents ignore what is behind them.

    Trade-offs: the 1/d weighting lets the nearest neighbour dominate, and the desired speed is
    always max speed, so a crowd keeps flying apart at full speed while anyone is too close and
    keeps its velocity afterwards; combine it with arrive/seek or some braking so it settles.
    Where the weighted away vectors cancel exactly (an agent boxed in symmetrically) the desired
    velocity is zero and the agent brakes, as in the seed. Two coincident agents (closer than
    :data:`COINCIDENT_DISTANCE`) have no away direction: each such pair gets a deterministic
    pair-specific direction and the two are pushed opposite ways with weight
    1/COINCIDENT_DISTANCE, so a stack of agents always comes apart.

    Attributes:
        distance: desired separation in px (the seed's ``desiredseparation``).
        gain: how fast the steer closes the gap to the desired velocity (1/s).
        per_agent: read each agent's separation from ``agents.state[column]`` (created filled
            with ``distance`` on first use). Mixed values are queried once per distinct value
            (see :func:`~steering.neighbours.directed_candidates`), not all at the
            largest.
        column: the state column holding per-agent separations.
        fov: field of view in degrees, in (0, 360]; 360 sees all round.
    """

    distance: float = 24.0
    gain: float = DEFAULT_GAIN
    per_agent: bool = False
    column: str = "separation"
    fov: float = 360.0

    def __post_init__(self) -> None:
        _check_distance("separation", self.distance)
        _fov_cos("separation", self.fov)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the (N, 2) separation forces (see the class docstring).

        Debug keys: ``separate.count`` (N,) neighbours that pushed, ``separate.pairs`` (P, 2)
        pairs ``i < j`` where at least one pushed the other, ``separate.distance`` (N,) each
        agent's separation, ``separate.average`` (N, 2) the seed's averaged 1/d-weighted sum.
        """
        n = agents.n
        sep = neighbour_distances(agents, self.distance, self.per_agent, self.column)
        # One undirected pair list serves every agent whose separation is at most `cover`;
        # the few with a larger one (enemies among NPCs) get directed queries of their own.
        cover = _covering_distance(sep) if self.per_agent else self.distance
        p = _pairs(agents, np.array([cover]))
        sep_i = sep.take(p.i)
        sep_j = sep.take(p.j)
        hit_i = p.dist < sep_i
        hit_j = p.dist < sep_j
        rest = np.flatnonzero(sep > cover)
        if rest.size:
            hit_i &= sep_i <= cover
            hit_j &= sep_j <= cover
        cos_half = _fov_cos("separation", self.fov)
        if cos_half is not None:
            hit_i, hit_j = _fov_filter(agents, p, hit_i, hit_j, cos_half)

        # The normalised away vector weighted by 1/d is diff / d^2.
        coincident = p.dist <= COINCIDENT_DISTANCE
        d_safe = np.where(coincident, 1.0, p.dist)
        push = p.diff / (d_safe * d_safe)
        if coincident.any():
            ci = p.i[coincident].astype(np.float64)
            cj = p.j[coincident].astype(np.float64)
            turns = np.mod(ci * _PHI_I + cj * _PHI_J, 1.0)
            push[coincident] = np.exp(2j * np.pi * turns) / COINCIDENT_DISTANCE

        # Scaling each term by the receiver's own separation keeps the direction (the sum is
        # normalised) and makes every term at least unit length, so a huge separation cannot
        # shrink the sum below EPSILON.
        if self.per_agent:
            total, count = _gather(p, hit_i, hit_j, push * sep_i, -push * sep_j, n)
        else:
            push *= self.distance
            total, count = _gather(p, hit_i, hit_j, push, None, n)
        pairs = np.column_stack((p.i, p.j))[hit_i | hit_j] if debug is not None else None
        if rest.size:
            rest_total, rest_count, i, j = _directed_sums(agents, rest, sep, cos_half)
            total[rest] += rest_total
            count[rest] += rest_count
            if pairs is not None:
                more = np.column_stack((np.minimum(i, j), np.maximum(i, j)))
                pairs = np.unique(np.concatenate((pairs, more)), axis=0).reshape(-1, 2)
        # The seed averages the sum before sum.setMag(maxspeed); dividing by the count does not
        # change the direction, so the sum is scaled directly.
        desired = normalize_complex(total) * agents.max_speed
        force = _steer(agents, desired, self.gain, count)

        if debug is not None and pairs is not None:
            debug["separate.count"] = count
            debug["separate.pairs"] = pairs
            debug["separate.distance"] = sep
            debug["separate.average"] = _unscaled_average(total, count, sep)
        return force


def _covering_distance(sep: FloatArray) -> float:
    """The smallest separation that at most 1/16 of the agents exceed (0 if none is set)."""
    positive = sep[sep > 0.0]
    if positive.size == 0:
        return 0.0
    smallest = positive.min()
    if 16 * np.count_nonzero(positive > smallest) <= sep.size:
        return float(smallest)  # the usual crowd: most agents share the smallest value
    values, counts = np.unique(positive, return_counts=True)
    above = np.cumsum(counts[::-1])[::-1] - counts  # agents with a larger separation
    return float(values[np.argmax(16 * above <= sep.size)])


def _directed_sums(
    agents: AgentGroup, rows: IntArray, sep: FloatArray, cos_half: float | None = None
) -> tuple[ComplexArray, IntArray, IntArray, IntArray]:
    """Separation sums of ``rows`` from directed candidate pairs (receiver i, neighbour j),
    keeping only neighbours in view when ``cos_half`` (see :func:`_fov_cos`) is given.

    Returns the (R,) sums of 1/d-weighted away vectors (complex, each term scaled by the
    receiver's separation, as in :meth:`Separate.__call__`), the (R,) neighbour counts and the
    (Q,) receivers and neighbours of the pairs that pushed.
    """
    z = as_complex(agents.pos)
    a, i, j = directed_candidates(agents, rows, sep)
    diff = z.take(i) - z.take(j)
    d = np.abs(diff)
    sep_i = sep.take(i)
    keep = d < sep_i
    if cos_half is not None:
        keep &= _View.of(agents).sees(i, diff, d, cos_half, -1.0)
    if not keep.all():
        a, i, j, d, diff, sep_i = a[keep], i[keep], j[keep], d[keep], diff[keep], sep_i[keep]
    coincident = d <= COINCIDENT_DISTANCE
    d_safe = np.where(coincident, 1.0, d)
    push = diff / (d_safe * d_safe)
    if coincident.any():
        lo = np.minimum(i, j)[coincident].astype(np.float64)
        hi = np.maximum(i, j)[coincident].astype(np.float64)
        turns = np.mod(lo * _PHI_I + hi * _PHI_J, 1.0)
        sign = np.where(i[coincident] < j[coincident], 1.0, -1.0)
        push[coincident] = np.exp(2j * np.pi * turns) * (sign / COINCIDENT_DISTANCE)
    push *= sep_i
    n = rows.size
    count = np.bincount(a, minlength=n).astype(np.intp)
    total = np.empty(n, dtype=np.complex128)
    total.real = np.bincount(a, weights=push.real, minlength=n)
    total.imag = np.bincount(a, weights=push.imag, minlength=n)
    return total, count, i, j


@dataclass
class Align:
    """Match the average velocity of the neighbours within ``distance`` (Reynolds' alignment).

    The neighbours' velocities are averaged; the desired velocity is that average's direction at
    max speed (Nature of Code's ``align``), or with ``match_speed`` the average itself limited to
    max speed. Steer is ``(desired - velocity) * gain`` limited to max force; agents with no
    neighbour get zero force. Coincident agents are neighbours like any other.

    Trade-offs: stopped neighbours add nothing to the direction, and neighbours whose velocities
    cancel (two streams head-on) give a zero desired velocity, so the agent brakes. A pair (i, j)
    counts for i when ``d < distance_i`` (and, with ``fov`` below 360, when j lies within
    ``fov / 2`` of i's heading, as in :class:`Separate`). Uses the same cached pair query as
    :class:`Separate` and :class:`Cohere`, shared when the distances are equal.

    Attributes:
        distance: neighbourhood radius in px.
        gain: how fast the steer closes the gap to the desired velocity (1/s).
        match_speed: desire the neighbours' average velocity itself rather than its direction
            at max speed.
        per_agent: read each agent's radius from ``agents.state[column]``.
        column: the state column holding per-agent radii.
        fov: field of view in degrees, in (0, 360]; 360 sees all round.
    """

    distance: float = 50.0
    gain: float = DEFAULT_GAIN
    match_speed: bool = False
    per_agent: bool = False
    column: str = "alignment"
    fov: float = 360.0

    def __post_init__(self) -> None:
        _check_distance("alignment", self.distance)
        _fov_cos("alignment", self.fov)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the (N, 2) alignment forces (see the class docstring).

        Debug keys: ``align.count`` (N,) neighbours, ``align.velocity`` (N, 2) their mean
        velocity.
        """
        n = agents.n
        radius = neighbour_distances(agents, self.distance, self.per_agent, self.column)
        p = _pairs(agents, radius)
        vel = as_complex(agents.vel)
        hit_i = p.dist < radius.take(p.i)
        hit_j = p.dist < radius.take(p.j)
        cos_half = _fov_cos("alignment", self.fov)
        if cos_half is not None:
            hit_i, hit_j = _fov_filter(agents, p, hit_i, hit_j, cos_half)
        total, count = _gather(p, hit_i, hit_j, vel.take(p.j), vel.take(p.i), n)
        average = _mean(total, count)
        if self.match_speed:
            mag = np.abs(average)
            desired = np.where(
                mag > agents.max_speed, normalize_complex(average) * agents.max_speed, average
            )
        else:
            desired = normalize_complex(average) * agents.max_speed
        force = _steer(agents, desired, self.gain, count)

        if debug is not None:
            debug["align.count"] = count
            debug["align.velocity"] = as_rows(average)
        return force


@dataclass
class Cohere:
    """Seek the centre of mass of the neighbours within ``distance`` (Reynolds' cohesion).

    The centre is the agent's position plus the mean offset to its neighbours (offsets keep
    precision at huge coordinates); the desired velocity points at it at max speed and the steer
    is ``(desired - velocity) * gain`` limited to max force. Agents with no neighbour get zero
    force.

    Trade-offs: seeking at max speed overshoots the centre and makes tight groups pulse; use it
    with separation so the group holds a spacing. An agent exactly at the centre desires zero
    velocity and brakes. Neighbours beyond ``distance`` are invisible, so two groups further
    apart than that never merge. A pair (i, j) counts for i when ``d < distance_i`` (and, with
    ``fov`` below 360, when j lies within ``fov / 2`` of i's heading, as in :class:`Separate`).

    Attributes:
        distance: neighbourhood radius in px.
        gain: how fast the steer closes the gap to the desired velocity (1/s).
        per_agent: read each agent's radius from ``agents.state[column]``.
        column: the state column holding per-agent radii.
        fov: field of view in degrees, in (0, 360]; 360 sees all round.
    """

    distance: float = 50.0
    gain: float = DEFAULT_GAIN
    per_agent: bool = False
    column: str = "cohesion"
    fov: float = 360.0

    def __post_init__(self) -> None:
        _check_distance("cohesion", self.distance)
        _fov_cos("cohesion", self.fov)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the (N, 2) cohesion forces (see the class docstring).

        Debug keys: ``cohere.count`` (N,) neighbours, ``cohere.centre`` (N, 2) their centre of
        mass (the agent's own position where it has none).
        """
        n = agents.n
        radius = neighbour_distances(agents, self.distance, self.per_agent, self.column)
        p = _pairs(agents, radius)
        hit_i = p.dist < radius.take(p.i)
        hit_j = p.dist < radius.take(p.j)
        cos_half = _fov_cos("cohesion", self.fov)
        if cos_half is not None:
            hit_i, hit_j = _fov_filter(agents, p, hit_i, hit_j, cos_half)
        # diff points from j to i: i gets +diff and j -diff, the sum of offsets from each
        # neighbour to the receiver; the centre lies the other way.
        total, count = _gather(p, hit_i, hit_j, p.diff, None, n)
        to_centre = -_mean(total, count)
        desired = normalize_complex(to_centre) * agents.max_speed
        force = _steer(agents, desired, self.gain, count)

        if debug is not None:
            debug["cohere.count"] = count
            debug["cohere.centre"] = agents.pos + as_rows(to_centre)
        return force
