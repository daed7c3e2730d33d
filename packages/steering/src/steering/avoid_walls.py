"""Buckland's three-feeler wall avoidance: one compiled loop over agents, each reading the walls
that :class:`~steering.Walls`' grid lists near it."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from ._checks import finite, instance, non_negative
from ._jit import njit, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .checked import checks
from .composite import AgentCols, RowPart, row_function
from .debug import WallsDebug, write
from .vec import EPSILON, FloatArray
from .walls import Walls, first_piece, wall_span, within

__all__ = [
    "AvoidWalls",
    "AvoidWallsParams",
    "AvoidWallsRecord",
    "avoid_walls_agent",
    "avoid_walls_row",
]

IntArray = NDArray[np.intp]
ComplexArray = NDArray[np.complex128]

#: Debug columns of the compiled loop: wall, crossing point (2), then the three feeler tips (6).
_REC = 9


class AvoidWallsParams(NamedTuple):
    """:class:`AvoidWalls`' numbers as its compiled loop reads them (a NamedTuple: the same
    record compiled and with ``NUMBA_DISABLE_JIT=1``)."""

    feeler_length: float
    gain: float
    #: ``gain`` squared (the feelers' push per px of overshoot).
    gain2: float
    margin: float
    #: The side feelers' turn from the heading: (cos, sin) of the feeler angle.
    turn_x: float
    turn_y: float


class AvoidWallsRecord(NamedTuple):
    """:class:`AvoidWalls`' walls, numbers and debug rows for one call: the fields of a
    :class:`~steering.walls.WallIndex`, then those of :class:`AvoidWallsParams`, then ``rec``."""

    start: FloatArray
    """(M, 2) each wall's first end."""
    direction: FloatArray
    """(M, 2) its unit direction."""
    length: FloatArray
    """(M,) its length, px."""
    piece_wall: IntArray
    """Each index piece's wall."""
    piece_cell: IntArray
    """Each piece's cell, (column, row)."""
    cell_start: IntArray
    """Each cell's run into ``items``."""
    items: IntArray
    """The pieces in cell order."""
    x0: float
    """The grid's origin x."""
    y0: float
    """Its origin y."""
    inv: float
    """Its inverse cell size."""
    nx: int
    """Its cells across."""
    ny: int
    """Its cells up."""
    piece_length: float
    """The longest piece, px."""
    feeler_length: float
    """px."""
    gain: float
    """1/s."""
    gain2: float
    """``gain`` squared."""
    margin: float
    """The skin beyond the radius, px."""
    turn_x: float
    """The side feelers' half turn: cos / 2."""
    turn_y: float
    """sin / 2."""
    rec: FloatArray
    """(N, 9) debug rows when asked (wall, crossing point, three feeler tips), else (0, 9)."""


def feeler_degrees(name: str, value: Any) -> float:
    """A feeler's angle from the heading, degrees in [0, 180]."""
    x = finite(name, value)
    if not 0.0 <= x <= 180.0:
        raise ValueError(f"{name}: must be 0 to 180, got {x}")
    return x


@dataclass
class AvoidWalls(RowPart):
    """Steer away from walls ahead: Buckland's three feelers, compiled per agent.

    Each agent casts three feelers from its center: one straight along its heading,
    ``feeler_length * (1 + speed / max_speed)`` long (so twice as long at full speed), and two
    at ``+-feeler_angle`` degrees of half that length. For each feeler the closest crossing
    with any wall counts; its force is the wall's normal on the side the agent's center is on
    times the feeler's overshoot past the wall (the part of the feeler beyond the crossing,
    px) times ``gain ** 2``: a desired velocity of ``overshoot * gain`` away from the wall,
    steered toward at ``gain`` (the library's usual gain, 8/s, gives 64/s^2 per px). A side
    feeler's force is further weighted by ``|cos|`` of the angle between the wall and the
    heading: full for a wall alongside, nothing for a wall that faces the agent. Feelers are
    summed, so in a corner the two walls' normals add up to the way out.

    A skin: an agent whose center comes within ``radius + margin`` of a wall is pushed
    straight out (along the line from the wall's closest point to its center), by a force
    that grows linearly from 0 at the skin's edge to max force at contact and stays at max
    force while the disc overlaps the wall. The sum of feelers and skin is limited to max
    force. A center exactly on a wall's line counts as on the side its heading faces away
    from (left if the heading runs along the wall).

    Better than the book (each change measured in a failing run first):

    * Buckland assigns the force inside the feeler loop, so the last feeler that hits wins
      and the other wall of a corner is forgotten; here the feelers add up.
    * His feelers have a fixed length, which a fast agent with a weak max force outruns
      (300 px/s at 300 px/s^2 went through a wall); here the front feeler is never shorter
      than the distance the agent needs to stop at max force plus its radius, the margin and
      the overshoot at which the force saturates (but at most ``4 * feeler_length``).
    * With the plain normal on the side feelers, the jambs of a door (walls facing the
      agent) braked it to a stop in the doorway; the ``|cos|`` weight leaves walls ahead to
      the front feeler. (Pushing across the heading instead is unstable: the feeler nearer a
      jamb wins and turns the agent further off center.)
    * Without the skin an agent whose goal lies behind a wall creeps into it: once its
      velocity turns away from the wall its feelers point away too, the goal pulls it back,
      and it chatters against the wall a step at a time.

    Trade-offs and failures: the normal force has no lateral preference, so an agent that
    meets a long wall square on with its goal straight behind it stops in front of the wall
    and stays there (the local minimum of every force-field avoidance: plan a path round);
    only the along-wall part of the goal force slides it to an end, and an agent whose line
    of travel hits a door's jamb stops there too. Never crossing a wall relies on the
    avoidance getting the whole of max force when it needs it: list it first in a
    :class:`~steering.TruncatedRunningSum` (a :class:`~steering.WeightedSum` lets a
    strong goal push through). An agent rounding the end of a wall at speed can graze it
    (the skin pushes it off; its center does not cross). "The side the center is on" is
    decided afresh each step, so an agent pushed through a wall by physics is then kept on
    the wrong side. Walls are static (build a new :class:`Walls` to change them).

    Attributes:
        walls: the shared wall set.
        feeler_length: front feeler length at rest, px; doubled at max speed. 0 disables
            the feelers (the skin stays).
        feeler_angle: angle of the two side feelers from the heading, degrees.
        gain: 1/s; the force per px of feeler overshoot is ``gain ** 2``.
        margin: thickness of the skin beyond the agent's radius, px; 0 pushes only when
            the disc overlaps a wall.
    """

    ROW = None  # set below, once the per-agent function is defined
    ROW_RECORD = AvoidWallsRecord

    walls: Walls
    feeler_length: float = 60.0
    feeler_angle: float = 35.0
    gain: float = DEFAULT_GAIN
    margin: float = 4.0

    CHECKS = checks(
        "AvoidWalls",
        walls=functools.partial(instance, cls=Walls),
        feeler_length=non_negative,
        feeler_angle=feeler_degrees,
        gain=non_negative,
        margin=non_negative,
    )

    def _turn(self) -> tuple[float, float]:
        """Half the unit turn to the left feeler, as the seeds' rotation: (cos, sin) / 2."""
        turn = np.exp(1j * math.radians(self.feeler_angle)) * 0.5
        return float(turn.real), float(turn.imag)

    def feeler_lengths(self, agents: AgentGroup) -> FloatArray:
        """(N,) front feeler lengths: ``feeler_length * (1 + speed / max_speed)``, raised to
        the stopping distance at max force plus radius, margin and the overshoot that
        saturates the force, and at most ``4 * feeler_length``."""
        out = np.empty(agents.n)
        _length_rows(agents.n)(
            agents.vel, agents.max_speed, agents.max_force, agents.radius,
            self.feeler_length, self.gain, self.gain**2, self.margin, out,
        )  # fmt: skip
        return out

    def feelers(self, agents: AgentGroup) -> ComplexArray:
        """(N, 3) feeler vectors from each agent's center (complex ``x + iy``): ahead, left,
        right."""
        n = agents.n
        out = np.empty((n, 3, 2))
        tx, ty = self._turn()
        _feeler_rows(n)(
            agents.vel, agents.heading, agents.max_speed, agents.max_force, agents.radius,
            self.feeler_length, self.gain, self.gain**2, self.margin, tx, ty, out,
        )  # fmt: skip
        return out.view(np.complex128).reshape(n, 3)

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> AvoidWallsRecord:
        """This call's record: the walls' index and the feelers' numbers (made once and kept
        until a field is assigned), and debug rows when asked.

        Debug output (:class:`~steering.debug.WallsDebug`): the feeler tips (ahead, left,
        right), the crossing of the feeler that overshoots most (NaN: none) and the wall it
        crosses (-1: none).
        """
        record: AvoidWallsRecord | None = self.__dict__.get("_record")
        if record is None:
            tx, ty = self._turn()
            params = (self.feeler_length, self.gain, self.gain**2, self.margin, tx, ty)
            record = AvoidWallsRecord._make((*self.walls.index_fields, *params, _NO_REC))
            self.__dict__["_record"] = record
        if not debug:
            return record
        # Rows a mask skips keep no wall (-1) and no points (NaN).
        rec = np.full((agents.n, _REC), np.nan)
        rec[:, 0] = -1.0
        return AvoidWallsRecord._make((*record[:-1], rec))

    def report(self, agents: AgentGroup, record: AvoidWallsRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.WallsDebug`."""
        rec = record.rec
        n = rec.shape[0]
        feelers = rec[:, 3:].reshape(n, 3, 2)
        write(WallsDebug(feelers, rec[:, 1:3].copy(), rec[:, 0].astype(np.intp)), debug)


@njit
def _feeler_length(
    vx: float,
    vy: float,
    max_speed: float,
    max_force: float,
    radius: float,
    feeler_length: float,
    gain: float,
    gain2: float,
    margin: float,
) -> float:
    """The front feeler's length (see :meth:`AvoidWalls.feeler_lengths`)."""
    speed = hypot(vx, vy)
    ratio = 0.0
    if max_speed > EPSILON:
        ratio = speed / max_speed
        if not ratio >= 0.0:
            ratio = 0.0
        elif ratio > 1.0:
            ratio = 1.0
    base = feeler_length * (1.0 + ratio)
    cap = 4.0 * feeler_length
    stop = cap
    if max_force > EPSILON:
        fast = min(speed, 1e150)  # no overflow in the square (a finite, absurd speed)
        stop = fast * fast / (2.0 * max_force)
    saturate = cap
    if gain > 0.0:
        saturate = max(max_force, 0.0) / gain2
    floor = stop + max(radius, 0.0) + margin + saturate
    return max(base, min(floor, cap))


@njit
def _feelers(
    hx: float, hy: float, length: float, tx: float, ty: float
) -> tuple[float, float, float, float, float, float]:
    """The three feeler vectors: ahead (``length`` along the unit heading), then turned left
    and right by the half turn (tx, ty)."""
    fx, fy = hx * length, hy * length
    return fx, fy, fx * tx - fy * ty, fx * ty + fy * tx, fx * tx + fy * ty, fy * tx - fx * ty


@njit
def _heading(hx: float, hy: float) -> tuple[float, float]:
    """The unit heading, (1, 0) for an agent with none."""
    ux, uy, ok = kern.unit(hx, hy)
    if ok:
        return ux, uy
    return 1.0, 0.0


@rows_kernel
def _length_rows(
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    radius: FloatArray,
    feeler_length: float,
    gain: float,
    gain2: float,
    margin: float,
    out: FloatArray,
) -> None:
    for i in prange(vel.shape[0]):
        out[i] = _feeler_length(
            vel[i, 0], vel[i, 1], max_speed[i], max_force[i], radius[i],
            feeler_length, gain, gain2, margin,
        )  # fmt: skip


@rows_kernel
def _feeler_rows(
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    radius: FloatArray,
    feeler_length: float,
    gain: float,
    gain2: float,
    margin: float,
    tx: float,
    ty: float,
    out: FloatArray,
) -> None:
    for i in prange(vel.shape[0]):
        hx, hy = _heading(heading[i, 0], heading[i, 1])
        f = _feeler_length(
            vel[i, 0], vel[i, 1], max_speed[i], max_force[i], radius[i],
            feeler_length, gain, gain2, margin,
        )  # fmt: skip
        (
            out[i, 0, 0], out[i, 0, 1], out[i, 1, 0], out[i, 1, 1], out[i, 2, 0], out[i, 2, 1]
        ) = _feelers(hx, hy, f, tx, ty)  # fmt: skip


@njit
def _crossing(
    dx: float, dy: float, apx: float, apy: float, ex: float, ey: float
) -> tuple[bool, float]:
    """Whether the feeler (dx, dy) from the center crosses the wall from the center + (apx,
    apy) along (ex, ey) (ends included), and the fraction of the feeler at the crossing.

    Feeler ``p + t d`` meets wall ``a + s e`` where ``t = (ap x e) / (d x e)`` and ``s =
    (ap x d) / (d x e)``; 0 <= t, s <= 1 are read without a division, as the numerators
    and ``denominator - numerator`` having the denominator's sign. A feeler parallel to the
    wall never crosses it (the skin covers an agent sliding along a wall)."""
    denom = dx * ey - dy * ex
    if denom > 0.0:
        sgn = 1.0
    elif denom < 0.0:
        sgn = -1.0
    else:
        return False, 0.0
    tnum = apx * ey - apy * ex
    snum = apx * dy - apy * dx
    if not (
        tnum * sgn >= 0.0
        and (denom - tnum) * sgn >= 0.0
        and snum * sgn >= 0.0
        and (denom - snum) * sgn >= 0.0
    ):
        return False, 0.0
    return True, min(max(tnum / denom, 0.0), 1.0)


@row_function
def avoid_walls_agent(i: int, a: AgentCols, r: AvoidWallsRecord) -> tuple[float, float]:
    """Agent ``i``'s wall avoidance (see :class:`AvoidWalls`): feelers, each one's closest
    crossing, the skin, the sum; and its debug row when asked."""
    start, direction, length = r.start, r.direction, r.length
    piece_wall, piece_cell, cell_start, items = r.piece_wall, r.piece_cell, r.cell_start, r.items
    x0, y0, inv, nx, ny, piece_length = r.x0, r.y0, r.inv, r.nx, r.ny, r.piece_length
    feeler_length, gain, gain2, margin, tx, ty = (
        r.feeler_length, r.gain, r.gain2, r.margin, r.turn_x, r.turn_y
    )  # fmt: skip
    heading = a.heading
    px, py = a.pos[i, 0], a.pos[i, 1]
    hx, hy = _heading(heading[i, 0], heading[i, 1])
    mf = a.max_force[i]
    rad = a.radius[i]
    f = _feeler_length(
        a.vel[i, 0], a.vel[i, 1], a.max_speed[i], mf, rad, feeler_length, gain, gain2, margin
    )
    d0x, d0y, d1x, d1y, d2x, d2y = _feelers(hx, hy, f, tx, ty)
    skin = max(rad, 0.0) + margin
    l0 = hypot(d0x, d0y)
    l1 = l2 = -1.0  # the side feelers' lengths, measured at their first crossing
    reach = max(l0, skin)  # every feeler is within the front one's length
    # Per feeler: the closest crossing so far (px ahead), its wall, fraction and the
    # wall's side normal and direction.
    a0 = a1 = a2 = math.inf
    w0 = w1 = w2 = -1
    t0 = t1 = t2 = 0.0
    n0x = n0y = n1x = n1y = n2x = n2y = 0.0
    u1x = u1y = u2x = u2y = 0.0
    skx = sky = 0.0
    if reach > 0.0 and reach < math.inf and cell_start.shape[0] > 1:
        ax, bx, ay, by = wall_span(px, py, reach, piece_length, x0, y0, inv, nx, ny)
        for cy in range(ay, by + 1):
            for cx in range(ax, bx + 1):
                c = cy * nx + cx
                for s in range(cell_start[c], cell_start[c + 1]):
                    p = items[s]
                    if not first_piece(p, piece_wall, piece_cell, ax, bx, ay, by):
                        continue
                    w = piece_wall[p]
                    ux, uy, wlen = direction[w, 0], direction[w, 1], length[w]
                    near, awx, awy, dist = within(
                        px, py, start[w, 0], start[w, 1], ux, uy, wlen, reach
                    )
                    if not near:
                        continue
                    relx, rely = px - start[w, 0], py - start[w, 1]
                    # The side of the wall the center is on: +1 left, -1 right; on the
                    # line, the side facing away from the heading (left along it).
                    cross = ux * rely - uy * relx
                    side = 1.0 if cross > 0.0 else -1.0
                    if cross == 0.0:
                        facing = ux * heading[i, 1] - uy * heading[i, 0]
                        side = 1.0 if facing <= 0.0 else -1.0
                    nwx, nwy = -uy * side, ux * side
                    # The skin: straight out from the closest point (along the side
                    # normal when the center is on the wall), ramping to max force.
                    if dist < skin:
                        if dist > EPSILON * max(skin, 1.0):
                            inv_d = 1.0 / dist
                            ox, oy = awx * inv_d, awy * inv_d
                        else:
                            ox, oy = nwx, nwy
                        ramp = min((skin - dist) / max(margin, EPSILON), 1.0)
                        push = ramp * max(mf, 0.0)
                        skx += ox * push
                        sky += oy * push
                    # The feelers: closest crossing each, ties to the lowest wall.
                    ex, ey = ux * wlen, uy * wlen
                    hit, t = _crossing(d0x, d0y, -relx, -rely, ex, ey)
                    if hit:
                        ahead = t * l0
                        if ahead < a0 or (ahead == a0 and w < w0):
                            a0, w0, t0, n0x, n0y = ahead, w, t, nwx, nwy
                    hit, t = _crossing(d1x, d1y, -relx, -rely, ex, ey)
                    if hit:
                        if l1 < 0.0:
                            l1 = hypot(d1x, d1y)
                        ahead = t * l1
                        if ahead < a1 or (ahead == a1 and w < w1):
                            a1, w1, t1, n1x, n1y, u1x, u1y = ahead, w, t, nwx, nwy, ux, uy
                    hit, t = _crossing(d2x, d2y, -relx, -rely, ex, ey)
                    if hit:
                        if l2 < 0.0:
                            l2 = hypot(d2x, d2y)
                        ahead = t * l2
                        if ahead < a2 or (ahead == a2 and w < w2):
                            a2, w2, t2, n2x, n2y, u2x, u2y = ahead, w, t, nwx, nwy, ux, uy
    # Each feeler pushes along its wall's normal by its overshoot times gain^2; a side
    # feeler's push is weighted by |cos| of the wall-heading angle (walls alongside
    # count, walls that face the agent are the front feeler's business).
    fx = fy = 0.0
    o0 = o1 = o2 = -math.inf
    if w0 >= 0:
        o0 = l0 - a0
        fx += n0x * (o0 * gain2)
        fy += n0y * (o0 * gain2)
    if w1 >= 0 or w2 >= 0:
        fhx, fhy = d0x / l0, d0y / l0  # a crossing side feeler has a length
        if w1 >= 0:
            o1 = l1 - a1
            k = abs(u1x * fhx + u1y * fhy)
            fx += (n1x * k) * (o1 * gain2)
            fy += (n1y * k) * (o1 * gain2)
        if w2 >= 0:
            o2 = l2 - a2
            k = abs(u2x * fhx + u2y * fhy)
            fx += (n2x * k) * (o2 * gain2)
            fy += (n2y * k) * (o2 * gain2)
    fx, fy = kern.truncate(fx + skx, fy + sky, mf)
    rec = r.rec
    if rec.shape[0] > 0:
        # The feeler that overshoots most (ties: the lowest wall, then ahead-left-right).
        best, bw, bt, bdx, bdy = -math.inf, -1, 0.0, 0.0, 0.0
        if w0 >= 0:
            best, bw, bt, bdx, bdy = o0, w0, t0, d0x, d0y
        if w1 >= 0 and (o1 > best or (o1 == best and w1 < bw)):
            best, bw, bt, bdx, bdy = o1, w1, t1, d1x, d1y
        if w2 >= 0 and (o2 > best or (o2 == best and w2 < bw)):
            best, bw, bt, bdx, bdy = o2, w2, t2, d2x, d2y
        rec[i, 0] = bw
        rec[i, 1] = px + bdx * bt if bw >= 0 else math.nan
        rec[i, 2] = py + bdy * bt if bw >= 0 else math.nan
        rec[i, 3], rec[i, 4] = px + d0x, py + d0y
        rec[i, 5], rec[i, 6] = px + d1x, py + d1y
        rec[i, 7], rec[i, 8] = px + d2x, py + d2y
    return fx, fy


@row_function
def avoid_walls_row(
    i: int, a: AgentCols, r: AvoidWallsRecord, buf: FloatArray
) -> tuple[float, float]:
    """Agent ``i``'s wall avoidance force in a composite."""
    return avoid_walls_agent(i, a, r)


AvoidWalls.ROW = avoid_walls_row


_NO_REC = np.zeros((0, _REC))
