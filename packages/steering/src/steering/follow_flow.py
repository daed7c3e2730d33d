"""Flow-field following (seed 003): the behaviour :class:`FollowFlow`, what it follows (any
:class:`FlowSource`: a :class:`~steering.FlowField`, a :class:`~steering.NoiseFlow`, a world's
currents), and its compiled loops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _checks
from . import _kern as kern
from ._jit import njit, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .debug import FlowDebug, write
from .flow import FlowField, inside, sample
from .noise_flow import NoiseFlow
from .vec import FloatArray

__all__ = ["FlowSource", "FollowFlow"]


class FlowSource(Protocol):
    """Anything :class:`FollowFlow` can follow: a :class:`FlowField`, or a world's currents
    (several overlapping regions summed), as gdx-ai's ``FollowFlowField`` takes any field."""

    def lookup(self, points: ArrayLike, bilinear: bool = True) -> FloatArray:
        """(N, 2) flow vectors at the points."""
        ...

    def contains(self, points: ArrayLike) -> NDArray[np.bool_]:
        """(N,) which points the flow covers."""
        ...


@dataclass
class FollowFlow:
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

    field: FlowSource | NoiseFlow
    predict_time: float = 0.0
    bilinear: bool = True
    strength_scales_speed: bool = False
    outside: Literal["clamp", "zero"] = "clamp"
    gain: float = DEFAULT_GAIN

    def __post_init__(self) -> None:
        if not (
            callable(getattr(self.field, "lookup", None))
            and callable(getattr(self.field, "contains", None))
        ):
            raise TypeError(
                "FollowFlow.field: expected a FlowField, NoiseFlow or flow source with lookup "
                f"and contains, got {type(self.field).__name__}"
            )
        if self.outside not in ("clamp", "zero"):
            raise ValueError(f"FollowFlow.outside: 'clamp' or 'zero', got {self.outside!r}")
        self.predict_time = _checks.non_negative("FollowFlow.predict_time", self.predict_time)
        self.gain = _checks.finite("FollowFlow.gain", self.gain)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces that turn each agent along the field."""
        n = agents.n
        src: Any = self.field
        if isinstance(src, NoiseFlow):
            src = src.field
        out = np.empty((n, 2))
        dbg = np.empty((n, 4)) if debug is not None else _NO_DEBUG
        zero = self.outside == "zero"
        if isinstance(src, FlowField):
            ox, oy = src.origin
            _follow_field_rows(n)(
                src.vectors,
                src.cell,
                ox,
                oy,
                agents.pos,
                agents.vel,
                agents.max_speed,
                agents.max_force,
                float(self.predict_time),
                bool(self.bilinear),
                bool(self.strength_scales_speed),
                zero,
                float(self.gain),
                out,
                dbg,
            )
        else:
            look = np.empty((n, 2))
            _ahead_rows(n)(agents.pos, agents.vel, float(self.predict_time), look)
            sample = np.ascontiguousarray(src.lookup(look, self.bilinear), dtype=np.float64)
            inside = np.asarray(src.contains(agents.pos), dtype=np.bool_) if zero else _NO_MASK
            _follow_source_rows(n)(
                sample,
                inside,
                agents.vel,
                agents.max_speed,
                agents.max_force,
                bool(self.strength_scales_speed),
                float(self.gain),
                out,
            )
            if debug is not None:
                dbg[:, 0:2] = sample
                dbg[:, 2:4] = look
        if debug is not None:
            write(FlowDebug(dbg[:, 0:2].copy(), dbg[:, 2:4].copy()), debug)
        return out


_NO_DEBUG = np.zeros((0, 4))
_NO_MASK = np.zeros(0, dtype=np.bool_)


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
def _follow_field_rows(
    vec: FloatArray,
    cell: float,
    ox: float,
    oy: float,
    pos: FloatArray,
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    predict: float,
    bilinear: bool,
    scales: bool,
    zero_outside: bool,
    gain: float,
    out: FloatArray,
    dbg: FloatArray,
) -> None:
    """FollowFlow on a grid, per agent: look up at the predicted position, then steer."""
    write_dbg = dbg.shape[0] > 0
    for i in prange(pos.shape[0]):
        px, py = pos[i, 0], pos[i, 1]
        vx, vy = vel[i, 0], vel[i, 1]
        lx = px + vx * predict
        ly = py + vy * predict
        sx, sy = sample(vec, cell, ox, oy, lx, ly, bilinear)
        fx, fy = _flow_force(sx, sy, vx, vy, max_speed[i], max_force[i], scales, gain)
        if zero_outside and not inside(vec, cell, ox, oy, px, py):
            fx, fy = 0.0, 0.0
        out[i, 0] = fx
        out[i, 1] = fy
        if write_dbg:
            dbg[i, 0], dbg[i, 1], dbg[i, 2], dbg[i, 3] = sx, sy, lx, ly


@rows_kernel
def _ahead_rows(pos: FloatArray, vel: FloatArray, t: float, out: FloatArray) -> None:
    """Where each agent will be in ``t`` seconds at its velocity (overflow gives inf, with no
    warning)."""
    for i in prange(pos.shape[0]):
        out[i, 0] = pos[i, 0] + vel[i, 0] * t
        out[i, 1] = pos[i, 1] + vel[i, 1] * t


@rows_kernel
def _follow_source_rows(
    sample: FloatArray,
    inside: NDArray[np.bool_],
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    scales: bool,
    gain: float,
    out: FloatArray,
) -> None:
    """FollowFlow's steer on vectors a flow source looked up (``inside`` empty: everywhere)."""
    masked = inside.shape[0] > 0
    for i in prange(sample.shape[0]):
        fx, fy = _flow_force(
            sample[i, 0],
            sample[i, 1],
            vel[i, 0],
            vel[i, 1],
            max_speed[i],
            max_force[i],
            scales,
            gain,
        )
        if masked and not inside[i]:
            fx, fy = 0.0, 0.0
        out[i, 0] = fx
        out[i, 1] = fy
