"""Flow-field following (seed 003): the behaviour :class:`FollowFlow`, what it follows (any
:class:`FlowSource`: a :class:`~steering.FlowField`, a :class:`~steering.NoiseFlow`, a world's
currents), its record and per-agent function."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kern as kern
from ._checks import finite, non_negative
from ._jit import njit, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .checked import checks
from .composite import AgentCols, RowPart, row_function
from .debug import FlowDebug, write
from .flow import FlowField, inside, sample
from .noise_flow import NoiseFlow
from .vec import FloatArray

__all__ = ["FlowRecord", "FlowSource", "FollowFlow", "flow_agent", "flow_row"]


class FlowSource(Protocol):
    """Anything :class:`FollowFlow` can follow: a :class:`FlowField`, or a world's currents
    (several overlapping regions summed), as gdx-ai's ``FollowFlowField`` takes any field."""

    def lookup(self, points: ArrayLike, bilinear: bool = True) -> FloatArray:
        """(N, 2) flow vectors at the points."""
        ...

    def contains(self, points: ArrayLike) -> NDArray[np.bool_]:
        """(N,) which points the flow covers."""
        ...


class FlowRecord(NamedTuple):
    """:class:`FollowFlow`'s field (or the vectors a flow source gave) and parameters for one
    call."""

    vectors: FloatArray
    """(rows, cols, 2) the grid's vectors (:attr:`FlowField.vectors`); a stand-in when
    ``sampled`` holds the vectors."""
    cell: float
    """The grid's cell size, px."""
    ox: float
    """Its origin x."""
    oy: float
    """Its origin y."""
    sampled: FloatArray
    """(N, 2) the vectors a flow source gave at each agent's lookup point (looked up before the
    loop), or (0, 2): read from the grid in the loop."""
    inside: NDArray[np.bool_]
    """(N,) which agents a flow source covers (``outside="zero"`` only), or (0,)."""
    predict: float
    """s to look ahead."""
    bilinear: bool
    """Interpolate between cell centers."""
    scales: bool
    """Desired speed scaled by the vector's strength."""
    zero_outside: bool
    """No force for agents outside the field."""
    gain: float
    """1/s."""
    debug: FloatArray
    """(N, 4) the vector read and where, when debug output is asked, else (0, 4)."""


@row_function
def flow_agent(i: int, a: AgentCols, p: FlowRecord) -> tuple[float, float]:
    """Agent ``i``'s flow following (see :class:`FollowFlow`): the field read at its predicted
    position, then the steer; its debug row when asked."""
    px, py = a.pos[i, 0], a.pos[i, 1]
    vx, vy = a.vel[i, 0], a.vel[i, 1]
    lx = px + vx * p.predict
    ly = py + vy * p.predict
    covered = True
    if p.sampled.shape[0] > 0:
        sx, sy = p.sampled[i, 0], p.sampled[i, 1]
        if p.inside.shape[0] > 0:
            covered = p.inside[i]
    else:
        sx, sy = sample(p.vectors, p.cell, p.ox, p.oy, lx, ly, p.bilinear)
        if p.zero_outside:
            covered = inside(p.vectors, p.cell, p.ox, p.oy, px, py)
    fx, fy = _flow_force(sx, sy, vx, vy, a.max_speed[i], a.max_force[i], p.scales, p.gain)
    if p.zero_outside and not covered:
        fx, fy = 0.0, 0.0
    if p.debug.shape[0] > 0:
        p.debug[i, 0], p.debug[i, 1], p.debug[i, 2], p.debug[i, 3] = sx, sy, lx, ly
    return fx, fy


@row_function
def flow_row(i: int, a: AgentCols, p: FlowRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s flow following force in a composite."""
    return flow_agent(i, a, p)


def flow_source(name: str, value: Any) -> Any:
    """An object with ``lookup`` and ``contains`` (a flow field or source)."""
    if not (
        callable(getattr(value, "lookup", None)) and callable(getattr(value, "contains", None))
    ):
        raise TypeError(
            f"{name}: expected a FlowField, NoiseFlow or flow source with lookup "
            f"and contains, got {type(value).__name__}"
        )
    return value


def outside_mode(name: str, value: Any) -> Any:
    """What the flow is outside its field: "clamp" or "zero"."""
    if value not in ("clamp", "zero"):
        raise ValueError(f"{name}: 'clamp' or 'zero', got {value!r}")
    return value


@dataclass
class FollowFlow(RowPart):
    """Flow-field following (seed 003): desired velocity = the field's direction at max speed.

    Reads the field at ``pos + vel * predict_time`` (0: at the agent, as in the seed; > 0:
    Reynolds' original, which turns earlier into a changing current), then steers
    ``desired - velocity`` limited to max force.

    Trade-offs: the field knows nothing of walls or other agents, so combine it with avoidance
    and separation. Still water (a zero vector, or opposing vectors averaged by bilinear lookup)
    makes agents brake to a stop. Nearest-cell lookup turns agents abruptly at cell edges;
    bilinear (the default) does not, but blurs features finer than a cell. A field that converges
    on a point (a sink) piles agents up there.

    A :class:`FlowField` or a :class:`NoiseFlow` (read at its current time) is looked up and
    followed in one compiled loop over the agents; any other :class:`FlowSource` is asked for
    its vectors, then the steer is compiled.

    Attributes:
        field: the shared :class:`FlowField`, a :class:`NoiseFlow`, or any
            :class:`FlowSource` (the world's currents).
        predict_time: seconds to look ahead, >= 0.
        bilinear: interpolate between cell centers (False: the seed's nearest cell).
        strength_scales_speed: desired speed = max speed * min(|vector|, 1) instead of max speed.
        outside: agents outside the field's rectangle: "clamp" reads the nearest border cell
            (the seed); "zero" gives them no force at all, leaving them to other behaviours.
        gain: steering gain (1/s), see :func:`~steering.steer_to_velocity`.

    Debug: ``"flow.sample"`` (N, 2) the field vector read; ``"flow.lookup"`` (N, 2) where.

    Raises:
        TypeError: for a field without ``lookup`` and ``contains``, or a non-number.
        ValueError: for a bad ``outside``, a negative or non-finite ``predict_time`` or a
            non-finite ``gain``.
    """

    ROW = flow_row
    ROW_RECORD = FlowRecord

    field: FlowSource | NoiseFlow
    predict_time: float = 0.0
    bilinear: bool = True
    strength_scales_speed: bool = False
    outside: Literal["clamp", "zero"] = "clamp"
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "FollowFlow",
        field=flow_source,
        outside=outside_mode,
        predict_time=non_negative,
        gain=finite,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> FlowRecord:
        """This call's record: the grid of a :class:`FlowField` or :class:`NoiseFlow` (read
        at its current time; kept while the field and the settings are the same: a field
        cannot change but in its vectors), or the vectors any other source gives at the
        agents' lookup points (and, with ``outside="zero"``, which agents it covers)."""
        src: Any = self.field
        if isinstance(src, NoiseFlow):
            src = src.field
        kept = self.__dict__.get("_record")
        if kept is not None and kept[0] is src and not debug:
            return kept[1]
        n = agents.n
        zero = self.outside == "zero"
        predict = float(self.predict_time)
        rows = np.full((n, 4), np.nan) if debug else _NO_DEBUG
        grid = isinstance(src, FlowField)
        if grid:
            ox, oy = src.origin
            vectors, cell, sampled, covered = src.vectors, src.cell, _NO_SAMPLE, _NO_MASK
        else:
            look = np.empty((n, 2))
            _ahead_rows(n)(agents.pos, agents.vel, predict, look)
            sampled = np.ascontiguousarray(src.lookup(look, self.bilinear), dtype=np.float64)
            covered = np.asarray(src.contains(agents.pos), dtype=np.bool_) if zero else _NO_MASK
            vectors, cell, ox, oy = _NO_GRID, 1.0, 0.0, 0.0
            if not debug:
                return self._sampled_record(src, sampled, covered, predict, zero)
        record = FlowRecord(
            vectors,
            cell,
            ox,
            oy,
            sampled,
            covered,
            predict,
            bool(self.bilinear),
            bool(self.strength_scales_speed),
            zero,
            float(self.gain),
            rows,
        )
        if grid and not debug:
            self.__dict__["_record"] = (src, record)
        return record

    def _sampled_record(
        self, src: Any, sampled: FloatArray, covered: Any, predict: float, zero: bool
    ) -> FlowRecord:
        """The record of vectors sampled this call, written into the last call's arrays when
        the source, the count and the settings are the same (the record then stays the same
        object from call to call, and the composite's loop reads it in place)."""
        key = (src, predict, bool(self.bilinear), bool(self.strength_scales_speed), zero)
        gain = float(self.gain)
        held = self.__dict__.get("_sampled")
        if (
            held is not None
            and held[1].sampled.shape == sampled.shape
            and held[1].inside.shape == covered.shape
            and held[1].gain == gain
            and all(map(operator.eq, key, held[0]))
        ):
            record: FlowRecord = held[1]
            record.sampled[:] = sampled
            record.inside[:] = covered
            return record
        record = FlowRecord(
            _NO_GRID, 1.0, 0.0, 0.0, sampled, covered, predict, key[2], key[3], zero, gain,
            _NO_DEBUG,
        )  # fmt: skip
        self.__dict__["_sampled"] = (key, record)
        return record

    def report(self, agents: AgentGroup, record: FlowRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.FlowDebug`."""
        rows = record.debug
        write(FlowDebug(rows[:, 0:2].copy(), rows[:, 2:4].copy()), debug)


_NO_DEBUG = np.zeros((0, 4))
_NO_MASK = np.zeros(0, dtype=np.bool_)
_NO_SAMPLE = np.zeros((0, 2))
#: The grid a record holds when a flow source's vectors were looked up before the loop.
_NO_GRID = np.zeros((1, 1, 2))


@njit
def _flow_force(
    sx: float,
    sy: float,
    vx: float,
    vy: float,
    max_speed: float,
    max_force: float,
    scales: bool,
    gain: float,
) -> tuple[float, float]:
    """The seed's flow steer: desired = the sample at max speed (times its strength, at most
    1, when ``scales``), steer = (desired - velocity) * gain limited to max force."""
    speed = max_speed
    if scales:
        speed = max_speed * min(hypot(sx, sy), 1.0)
    dx, dy = kern.set_length(sx, sy, speed)
    return kern.steer(dx, dy, vx, vy, gain, max_force)


@rows_kernel
def _ahead_rows(pos: FloatArray, vel: FloatArray, t: float, out: FloatArray) -> None:
    """Where each agent will be in ``t`` seconds at its velocity (overflow gives inf, with no
    warning)."""
    for i in prange(pos.shape[0]):
        out[i, 0] = pos[i, 0] + vel[i, 0] * t
        out[i, 1] = pos[i, 1] + vel[i, 1] * t
