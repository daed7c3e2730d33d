"""Debug drawing for the steering vocabulary: one small function per behaviour, from its debug
dict, onto a :class:`Canvas`. No world needed.

Each ``draw_*`` function reads its behaviour's typed record (:mod:`steering.debug`: the
behaviour writes it, ``read`` gives it back by name, no key strings here) and the (N, 2)
positions of the agents the rows belong to; it appends to a :class:`Canvas` and
changes nothing else, so the F1 overlay (:class:`~game.render.overlay.DebugOverlay`, through a
:class:`Pen` over its GPU batches) and the Lab (:class:`~game.lab.sketch.Sketch`, plain NumPy)
draw each behaviour with the same function. Missing records or fields, arrays of the wrong
shape and NaN rows (agents a behaviour did not run on) are skipped, never an error. ``show``,
when given, is an (N,) mask of the agents to draw (the ones on screen).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from steering import Debug, Walls
from steering.debug import (
    AvoidAgentsDebug,
    HideDebug,
    InterposeDebug,
    MatchDebug,
    OffsetDebug,
    QueueDebug,
    WallsDebug,
    read,
)

from . import theme
from .batch import DiscBatch, HairlineBatch, LineBatch

__all__ = [
    "Canvas",
    "Pen",
    "draw_avoid_agents",
    "draw_avoid_walls",
    "draw_behaviours",
    "draw_formation",
    "draw_heading",
    "draw_hide",
    "draw_interpose",
    "draw_match_velocity",
    "draw_queue",
]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: A velocity is drawn as the distance covered in this many seconds (the overlay's ticks).
VELOCITY_SECONDS = 0.25


class Canvas(Protocol):
    """Where the ``draw_*`` functions draw: world coordinates, with sizes given in screen
    pixels so that marks keep their size at any zoom.

    Attributes:
        px: World units per screen pixel (1 / camera zoom).
    """

    px: float

    def thin(self, segments: ArrayLike, color: ArrayLike) -> None:
        """(K, 4) one-pixel segments."""

    def thick(self, segments: ArrayLike, color: ArrayLike, width_px: float = 2.4) -> None:
        """(K, 4) segments ``width_px`` screen pixels wide."""

    def dot(
        self, centres: ArrayLike, radius_px: float, color: ArrayLike, ring_px: float = 0.0
    ) -> None:
        """Discs (rings ``ring_px`` thick when > 0) of ``radius_px`` screen pixels."""

    def disc(
        self, centres: ArrayLike, radius: ArrayLike, color: ArrayLike, ring_px: float = 0.0
    ) -> None:
        """Discs (or rings) of ``radius`` world units, one or (K,)."""


@dataclass
class Pen:
    """A :class:`Canvas` over the overlay's three GPU batches.

    Attributes:
        hairlines: one-pixel lines (the bulk of the drawing).
        lines: antialiased thick lines (what an agent reacts to now).
        dots: discs and rings.
        px: world units per screen pixel (1 / camera zoom): dot sizes and thick widths are
            given in screen pixels and stay that size at any zoom.
    """

    hairlines: HairlineBatch
    lines: LineBatch
    dots: DiscBatch
    px: float = 1.0

    def thin(self, segments: ArrayLike, color: ArrayLike) -> None:
        """Queue (K, 4) one-pixel segments."""
        self.hairlines.add(segments, color)

    def thick(self, segments: ArrayLike, color: ArrayLike, width_px: float = 2.4) -> None:
        """Queue (K, 4) segments ``width_px`` screen pixels wide."""
        self.lines.add(segments, color, width_px * self.px)

    def dot(
        self, centres: ArrayLike, radius_px: float, color: ArrayLike, ring_px: float = 0.0
    ) -> None:
        """Queue discs (rings when ``ring_px`` > 0) of ``radius_px`` screen pixels."""
        self.dots.add(centres, radius_px * self.px, color, ring=ring_px * self.px)

    def disc(
        self, centres: ArrayLike, radius: ArrayLike, color: ArrayLike, ring_px: float = 0.0
    ) -> None:
        """Queue discs (or rings) of ``radius`` world units."""
        self.dots.add(centres, radius, color, ring=ring_px * self.px)


def _rows(raw: ArrayLike | None, n: int) -> FloatArray | None:
    """A record's field as (n, 2) floats, or None when it is missing or shaped otherwise."""
    if raw is None:
        return None
    arr = np.asarray(raw, dtype=np.float64)
    return arr if arr.shape == (n, 2) else None


def _flags(raw: ArrayLike | None, n: int) -> NDArray[np.generic] | None:
    """A record's per-agent field as (n,), or None when it is missing or shaped otherwise."""
    if raw is None or np.shape(raw) != (n,):
        return None
    return np.asarray(raw)


def _shown(show: ArrayLike | None, n: int) -> BoolArray:
    if show is None:
        return np.ones(n, dtype=bool)
    mask = np.asarray(show, dtype=bool)
    return mask if mask.shape == (n,) else np.ones(n, dtype=bool)


def _finite(points: FloatArray) -> BoolArray:
    return np.asarray(np.isfinite(points).all(axis=-1))


def _links(a: FloatArray, b: FloatArray) -> FloatArray:
    return np.concatenate((a, b), axis=1)


def _points(pos: ArrayLike) -> FloatArray:
    return np.asarray(pos, dtype=np.float64).reshape(-1, 2)


def draw_hide(pen: Canvas, debug: Debug, pos: ArrayLike, show: ArrayLike | None = None) -> None:
    """:class:`~steering.Hide`: a ring at every rock's hiding spot (``HideDebug.spots``), and
    for each hiding agent a dot at its chosen spot (``HideDebug.spot``) linked to it."""
    p = _points(pos)
    rec = read(HideDebug, debug)
    if rec is None:
        return
    spots = rec.spots
    if spots is not None and np.ndim(spots) == 2 and np.shape(spots)[1] == 2:
        s = np.asarray(spots, dtype=np.float64)
        pen.dot(s[_finite(s)], 5.0, theme.DEBUG["hide_spot"], ring_px=1.5)
    chosen = _rows(rec.spot, p.shape[0])
    if chosen is None:
        return
    on = np.flatnonzero(_shown(show, p.shape[0]) & _finite(chosen))
    pen.thin(_links(p[on], chosen[on]), theme.DEBUG["hide_chosen"])
    pen.dot(chosen[on], 3.5, theme.DEBUG["hide_chosen"])


def draw_interpose(
    pen: Canvas, debug: Debug, pos: ArrayLike, show: ArrayLike | None = None
) -> None:
    """:class:`~steering.Interpose`: the predicted point between the two movers
    (``InterposeDebug.point``), a dot linked to each agent."""
    p = _points(pos)
    rec = read(InterposeDebug, debug)
    point = None if rec is None else _rows(rec.point, p.shape[0])
    if point is None:
        return
    on = np.flatnonzero(_shown(show, p.shape[0]) & _finite(point))
    pen.thin(_links(p[on], point[on]), theme.DEBUG["interpose"])
    pen.dot(point[on], 3.5, theme.DEBUG["interpose"])


def draw_formation(
    pen: Canvas, debug: Debug, pos: ArrayLike, show: ArrayLike | None = None
) -> None:
    """:class:`~steering.OffsetPursuit`: each agent's slot in the world
    (``OffsetDebug.slot``), a ring linked to the agent that holds it."""
    p = _points(pos)
    rec = read(OffsetDebug, debug)
    slot = None if rec is None else _rows(rec.slot, p.shape[0])
    if slot is None:
        return
    on = np.flatnonzero(_shown(show, p.shape[0]) & _finite(slot))
    pen.thin(_links(p[on], slot[on]), theme.DEBUG["slot"])
    pen.dot(slot[on], 4.5, theme.DEBUG["slot"], ring_px=1.5)


def draw_avoid_agents(
    pen: Canvas, debug: Debug, pos: ArrayLike, show: ArrayLike | None = None
) -> None:
    """:class:`~steering.AvoidAgents`: for each agent with a threat, where it will be at
    closest approach (``AvoidAgentsDebug.point``, linked to it) and where the threat will be then
    (``AvoidAgentsDebug.threat_point``), joined by a thick line: the predicted miss."""
    p = _points(pos)
    n = p.shape[0]
    rec = read(AvoidAgentsDebug, debug)
    if rec is None:
        return
    own = _rows(rec.point, n)
    other = _rows(rec.threat_point, n)
    if own is None or other is None:
        return
    on = np.flatnonzero(_shown(show, n) & _finite(own) & _finite(other))
    pen.thin(_links(p[on], own[on]), theme.DEBUG["approach"])
    pen.thick(_links(own[on], other[on]), theme.DEBUG["threat"], 1.6)
    pen.dot(own[on], 3.0, theme.DEBUG["approach"])
    pen.dot(other[on], 3.0, theme.DEBUG["threat"])


def _wall_segments(walls: Walls | ArrayLike | None) -> FloatArray | None:
    if walls is None:
        return None
    seg = walls.segments if isinstance(walls, Walls) else np.asarray(walls, dtype=np.float64)
    return seg.reshape(-1, 4) if seg.ndim == 3 and seg.shape[1:] == (2, 2) else None


def draw_avoid_walls(
    pen: Canvas,
    debug: Debug,
    pos: ArrayLike,
    walls: Walls | ArrayLike | None = None,
    show: ArrayLike | None = None,
) -> None:
    """:class:`~steering.AvoidWalls`: the three feelers of every agent
    (``WallsDebug.feelers``), brighter for an agent whose feeler crosses a wall; a dot where the
    deepest one crosses (``WallsDebug.hit``) and, given the walls ((M, 2, 2) segments or a
    :class:`~steering.Walls`), the wall it crosses (``WallsDebug.wall``) drawn thick."""
    p = _points(pos)
    n = p.shape[0]
    rec = read(WallsDebug, debug)
    if rec is None:
        return
    tips = rec.feelers
    wall = _flags(rec.wall, n)
    hitting = np.asarray(wall, dtype=np.intp) >= 0 if wall is not None else np.zeros(n, dtype=bool)
    shown = _shown(show, n)
    if tips is not None and np.shape(tips) == (n, 3, 2):
        t = np.asarray(tips, dtype=np.float64)
        on = shown & np.isfinite(t).all(axis=(1, 2))
        for mask, color in ((on & ~hitting, "feeler"), (on & hitting, "feeler_hit")):
            rows = np.flatnonzero(mask)
            base = np.repeat(p[rows], 3, axis=0)
            pen.thin(_links(base, t[rows].reshape(-1, 2)), theme.DEBUG[color])
    hit = _rows(rec.hit, n)
    if hit is not None:
        pen.dot(hit[shown & _finite(hit)], 3.0, theme.DEBUG["wall_hit"])
    seg = _wall_segments(walls)
    if wall is not None and seg is not None:
        ids = np.asarray(wall, dtype=np.intp)[shown & hitting]
        ids = np.unique(ids[ids < seg.shape[0]])
        pen.thick(seg[ids], theme.DEBUG["wall_hit"])


def draw_queue(
    pen: Canvas,
    debug: Debug,
    pos: ArrayLike,
    radius: ArrayLike = 8.0,
    show: ArrayLike | None = None,
) -> None:
    """:class:`~steering.Queue`: a ring round every braking agent (``QueueDebug.braking``)
    and a line to the neighbour ahead that blocks it (``QueueDebug.ahead``, an index into
    ``pos``). ``radius`` is the agents' radius, one or (N,)."""
    p = _points(pos)
    n = p.shape[0]
    rec = read(QueueDebug, debug)
    braking = None if rec is None else _flags(rec.braking, n)
    if rec is None or braking is None:
        return
    r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (n,))
    on = _shown(show, n) & braking.astype(bool)
    rows = np.flatnonzero(on)
    pen.disc(p[rows], r[rows] + 3.0 * pen.px, theme.DEBUG["queue_brake"], ring_px=1.5)
    ahead = _flags(rec.ahead, n)
    if ahead is None:
        return
    j = np.asarray(ahead, dtype=np.intp)
    ok = rows[(j[rows] >= 0) & (j[rows] < n)]
    pen.thin(_links(p[ok], p[j[ok]]), theme.DEBUG["queue_ahead"])


def draw_match_velocity(
    pen: Canvas, debug: Debug, pos: ArrayLike, show: ArrayLike | None = None
) -> None:
    """:class:`~steering.MatchVelocity`: the target velocity (``MatchDebug.velocity``) as a
    tick the length of a quarter second's travel."""
    p = _points(pos)
    rec = read(MatchDebug, debug)
    v = None if rec is None else _rows(rec.velocity, p.shape[0])
    if v is None:
        return
    on = np.flatnonzero(_shown(show, p.shape[0]) & _finite(v))
    pen.thin(_links(p[on], p[on] + v[on] * VELOCITY_SECONDS), theme.DEBUG["heading_desired"])


def draw_heading(
    pen: Canvas,
    pos: ArrayLike,
    heading: ArrayLike,
    vel: ArrayLike,
    length: ArrayLike = 20.0,
    desired: ArrayLike | None = None,
    show: ArrayLike | None = None,
) -> None:
    """Heading against velocity: a line ``length`` long (world units, one or (N,)) along each
    heading, a tick of a quarter second's travel along the velocity and, when given, a
    fainter line along the desired heading (:class:`~steering.Face` and
    :class:`~steering.LookWhereYouAreGoing` write it as ``orientation.desired``; zero
    rows, "keep the heading", are skipped)."""
    p = _points(pos)
    n = p.shape[0]
    shown = _shown(show, n)
    ln = np.broadcast_to(np.asarray(length, dtype=np.float64), (n,))

    def along(direction: FloatArray, rows: NDArray[np.intp]) -> FloatArray:
        d = direction[rows]
        norm = np.hypot(d[:, 0], d[:, 1])
        unit = d / np.where(norm > 0.0, norm, 1.0)[:, None]
        return _links(p[rows], p[rows] + unit * ln[rows, None])

    v = _points(vel)
    if v.shape == (n, 2):
        rows = np.flatnonzero(shown & _finite(v))
        pen.thin(_links(p[rows], p[rows] + v[rows] * VELOCITY_SECONDS), theme.DEBUG["velocity"])
    if desired is not None:
        want = _points(desired)
        if want.shape == (n, 2):
            ok = shown & _finite(want) & (np.abs(want) > 0.0).any(axis=1)
            pen.thin(along(want, np.flatnonzero(ok)), theme.DEBUG["heading_desired"])
    h = _points(heading)
    if h.shape == (n, 2):
        ok = shown & _finite(h) & (np.abs(h) > 0.0).any(axis=1)
        pen.thin(along(h, np.flatnonzero(ok)), theme.DEBUG["heading"])


def draw_behaviours(
    pen: Canvas,
    debug: Debug,
    pos: ArrayLike,
    walls: Walls | ArrayLike | None = None,
    radius: ArrayLike = 8.0,
    show: ArrayLike | None = None,
) -> None:
    """Everything above that ``debug`` has keys for (heading aside: it is agent state, see
    :func:`draw_heading`)."""
    draw_hide(pen, debug, pos, show)
    draw_interpose(pen, debug, pos, show)
    draw_formation(pen, debug, pos, show)
    draw_match_velocity(pen, debug, pos, show)
    draw_avoid_agents(pen, debug, pos, show)
    draw_avoid_walls(pen, debug, pos, walls, show)
    draw_queue(pen, debug, pos, radius, show)
