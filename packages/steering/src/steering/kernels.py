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

To fuse whole behaviours, build a composite (:class:`~steering.TruncatedRunningSum`,
:class:`~steering.WeightedSum`, ... over the behaviours, run by :func:`steering.composite.run`
or by calling it): the tree compiles into one loop over agents, each behaviour's per-agent
function inlined, so a step that runs several behaviours pays one compiled call. A program's
own loop can also call a behaviour's per-agent function with its records: ``contain_agent(i,
AgentCols(...), ContainRecord(...))`` gives :class:`~steering.Contain`'s force on agent ``i``,
``wander_agent`` :class:`~steering.Wander`'s (and advances its angle).
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
from .basic import arrive, flee, prediction_time, pursue
from .combine import running_add
from .composite import AgentCols
from .contain import ContainRecord, contain_agent
from .flow import sample
from .moving import face_velocity, turn_reach, turn_toward
from .targets import interpose, offset_pursuit
from .vec import FloatArray
from .wander import WanderRecord, wander_agent

__all__ = [
    "EPSILON",
    "PARALLEL_MIN",
    "P_CLOSED",
    "P_COUNT",
    "P_LENGTH",
    "P_LO",
    "S_RADIUS",
    "AgentCols",
    "ContainRecord",
    "WanderRecord",
    "arrive",
    "contain_agent",
    "face",
    "flee",
    "flow_sample",
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
    "set_length",
    "steer",
    "truncate",
    "turn",
    "unit",
    "use_cache",
    "wander_agent",
    "wrap_s",
]


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
    return sample(vectors, cell, ox, oy, x, y, bilinear)


def use_cache(module_file: str) -> None:
    """Keep the on-disk cache of the kernels beside ``module_file`` (pass ``__file__``) in step
    with the engine: delete them when the engine's sources or their folder's changed.

    numba checks a cached kernel against its own file only; a kernel that inlines these
    functions would otherwise load stale after the engine changes.
    """
    drop_stale_caches(Path(module_file).resolve().parent)
