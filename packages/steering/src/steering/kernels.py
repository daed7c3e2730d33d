"""The engine's per-agent maths as compiled functions, for programs that write their own loops.

The behaviours run one compiled loop over their agents; inside it each agent's force comes
from small functions on plain floats, the seeds' ``Vehicle`` methods. They are public here so
that a game can fuse its own per-agent logic (a state machine, a choice of goal by mode) with
the engine's maths in one compiled loop, numba's counterpart of a Burst job:

.. code-block:: python

    from steering.kernels import arrive, njit, use_cache

    use_cache(__file__)  # this module's cached kernels follow the engine's sources

    @njit
    def goals(pos, vel, target, max_speed, max_force, out):
        for i in range(pos.shape[0]):
            out[i, 0], out[i, 1] = arrive(
                pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1], target[i, 0], target[i, 1],
                max_speed[i], max_force[i], 60.0, 8.0, 0.5,
            )

Each function is the one the behaviours themselves use, so a fused loop computes the same
floats as the behaviour would. Paths are read from a :class:`~steering.PathSet`'s packed
geometry (``paths.geometry()``: ``pf``, ``pi``, ``sf``, ``real``), whose columns are named by
the ``P_*`` and ``S_*`` constants.

A game can also fuse whole behaviours: the ``*_rows`` functions here are the behaviours' own
loops over agents (their serial versions), to call from a compiled function with the
arguments that the behaviour's ``kernel_args(agents, dt)`` returns, then its outputs, as the
behaviour's own ``__call__`` does. A step that runs several behaviours then pays one compiled
call, not one per behaviour:

* ``contain_rows(*Contain.kernel_args(...), out)``;
* ``avoid_walls_rows(*AvoidWalls.kernel_args(...), out, rec)`` and
  ``avoid_obstacles_rows(*AvoidObstacles.kernel_args(...), out, rec)``, ``rec`` an empty
  ``(0, k)`` array without debug output;
* ``follow_rows(*FollowPath.kernel_args(...), force, dbg, flags, False)``, ``dbg`` an empty
  ``(0, 8)`` array and ``flags`` an (N,) uint8 array; a nonzero return means some agents'
  paths were edited, and ``FollowPath.second_pass`` must run next;
* ``separate_rows(*Separate.kernel_args(...), False, count, average, out)``, ``count`` and
  ``average`` empty arrays without debug output;
* ``wander_rows(*Wander.kernel_args(...), ahead, out)``: ``kernel_args`` draws the step's
  random numbers, so call it once per step;
* ``accumulate_rows(total, force, weight, max_force, first, cap)``, Buckland's running sum
  (:class:`~steering.TruncatedRunningSum`): ``first`` starts from zero, ``cap`` truncates the
  total to max force after adding.

Keep such loops below :data:`PARALLEL_MIN` agents (4,096): above it the behaviours run
their parallel loops, which these serial ones do not.
"""

from __future__ import annotations

from pathlib import Path

from ._jit import PARALLEL_MIN, drop_stale_caches, njit, njit_leaf
from ._kern import EPSILON, hypot, set_length, steer, truncate, unit
from ._pathkern import (
    P_CLOSED,
    P_COUNT,
    P_LENGTH,
    P_LO,
    S_RADIUS,
    locate,
    nearest,
    point_at,
    wrap_s,
)
from .avoid_walls import _avoid_walls_rows
from .basic import arrive, flee, prediction_time, pursue
from .combine import _accumulate_rows, running_add
from .composite import AgentCols
from .contain import ContainRecord, contain_agent
from .flow import _sample
from .follow import _follow_rows
from .group import _separate_rows
from .moving import face_velocity, turn_reach, turn_toward
from .obstacles import _avoid_rows
from .targets import interpose, offset_pursuit
from .vec import FloatArray
from .wander import WanderRecord, wander_agent

#: The behaviours' own loops over agents, serial (see the module's docstring).
avoid_walls_rows = _avoid_walls_rows.serial
avoid_obstacles_rows = _avoid_rows.serial
follow_rows = _follow_rows.serial
separate_rows = _separate_rows.serial
accumulate_rows = _accumulate_rows.serial

__all__ = [
    "EPSILON",
    "PARALLEL_MIN",
    "P_CLOSED",
    "P_COUNT",
    "P_LENGTH",
    "P_LO",
    "S_RADIUS",
    "accumulate_rows",
    "arrive",
    "avoid_obstacles_rows",
    "avoid_walls_rows",
    "contain_rows",
    "face",
    "flee",
    "flow_sample",
    "follow_rows",
    "hypot",
    "interpose",
    "locate",
    "nearest",
    "njit",
    "njit_leaf",
    "offset_pursuit",
    "point_at",
    "prediction_time",
    "pursue",
    "running_add",
    "separate_rows",
    "set_length",
    "steer",
    "truncate",
    "turn",
    "unit",
    "use_cache",
    "wander_rows",
    "wrap_s",
]


@njit_leaf
def contain_rows(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    left: float,
    bottom: float,
    right: float,
    top: float,
    margin: float,
    lookahead: float,
    gain: float,
    out: FloatArray,
) -> None:
    """:class:`~steering.Contain`'s forces over every agent, its per-agent function's own loop
    (the arguments :meth:`Contain.kernel_args <steering.Contain.kernel_args>` returns)."""
    # The mass and heading columns are not read: any (N,) and (N, 2) arrays stand for them.
    a = AgentCols(pos, vel, max_speed, max_force, radius, max_speed, vel)
    p = ContainRecord(left, bottom, right, top, margin, lookahead, gain)
    for i in range(pos.shape[0]):
        out[i, 0], out[i, 1] = contain_agent(i, a, p)


@njit_leaf
def wander_rows(
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    angle: FloatArray,
    noise: FloatArray,
    sigma: float,
    distance: float,
    radius: float,
    gain: float,
    ahead: FloatArray,
    out: FloatArray,
) -> None:
    """:class:`~steering.Wander`'s forces over every agent, its per-agent function's own loop
    (the arguments :meth:`Wander.kernel_args <steering.Wander.kernel_args>` returns), and in
    ``ahead`` each agent's point on its circle, from the agent."""
    # The position, radius and mass columns are not read: any arrays of their shapes stand
    # for them; nor is the record's debug buffer (``ahead`` stands for it).
    a = AgentCols(vel, vel, max_speed, max_force, max_speed, max_speed, heading)
    p = WanderRecord(angle, noise, sigma, distance, radius, gain, ahead)
    for i in range(vel.shape[0]):
        fx, fy, ax, ay = wander_agent(i, a, p)
        ahead[i, 0] = ax
        ahead[i, 1] = ay
        out[i, 0] = fx
        out[i, 1] = fy


@njit
def face(vx: float, vy: float, hx: float, hy: float, rate: float, dt: float) -> tuple[float, float]:
    """The heading (hx, hy) after one step of turning, at most ``rate`` rad/s, toward the
    velocity (vx, vy); kept while the agent stands (as :meth:`AgentGroup.update_heading`)."""
    return face_velocity(vx, vy, hx, hy, rate, dt)


@njit
def turn(hx: float, hy: float, wx: float, wy: float, rate: float, dt: float) -> tuple[float, float]:
    """The heading (hx, hy) turned toward the direction (wx, wy) by at most ``rate * dt``
    radians, the short way; a zero direction keeps it (as :meth:`AgentGroup.turn_toward`)."""
    return turn_toward(hx, hy, wx, wy, turn_reach(rate, dt))


@njit_leaf
def flow_sample(
    vectors: FloatArray, cell: float, ox: float, oy: float, x: float, y: float, bilinear: bool
) -> tuple[float, float]:
    """A :class:`~steering.FlowField`'s vector at (x, y), as :meth:`FlowField.lookup` reads it
    (``vectors``, ``cell`` and ``origin`` of the field)."""
    return _sample(vectors, cell, ox, oy, x, y, bilinear)


def use_cache(module_file: str) -> None:
    """Keep the on-disk cache of the kernels beside ``module_file`` (pass ``__file__``) in step
    with the engine: delete them when the engine's sources or their folder's changed.

    numba checks a cached kernel against its own file only; a kernel that inlines these
    functions would otherwise load stale after the engine changes.
    """
    drop_stale_caches(Path(module_file).resolve().parent)
