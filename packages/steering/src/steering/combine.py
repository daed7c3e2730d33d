"""Combinators: ways to blend several behaviours into one force. Each is a behaviour itself.

A tree of combinators and the parts they blend (a weighted sum, Buckland's running capped sum,
the first significant force, limits, masks) runs as one compiled loop over agents, generated
from the parts' per-agent functions (:mod:`steering.composite`).
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from . import composite
from ._checks import behaviour as check_behaviour
from ._checks import (
    finite,
    finite_values,
    limit,
    mask,
    mask_check,
    non_negative,
    out_of_step,
    time_step,
)
from ._jit import njit, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import Behaviour, Debug
from .checked import checks
from .group import Flock
from .moving import integrate
from .staggered import Staggered
from .vec import EPSILON, FloatArray

__all__ = [
    "FirstNonZero",
    "Limited",
    "Masked",
    "Staggered",
    "TruncatedRunningSum",
    "Weighted",
    "WeightedSum",
    "step",
]


def weight_value(name: str, value: Any) -> float | FloatArray:
    """A weight: one finite number, or an (N,) array of finite weights (one per agent)."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return _weights(name, value, value.shape[0])
    return finite(name, value)


def weighted_parts(name: str, value: Any) -> Any:
    """A list of behaviours or :class:`Weighted` items (see :func:`_check_parts`)."""
    _check_parts(name, value, weighted=True)
    return value


def behaviour_list(name: str, value: Any) -> Any:
    """A list of behaviours (see :func:`_check_parts`)."""
    _check_parts(name, value, weighted=False)
    return value


@dataclass
class Weighted(composite.Node):
    """A behaviour and its weight, for :class:`WeightedSum` and :class:`TruncatedRunningSum`:
    one number for every agent, or an (N,) array of a weight per agent (a fish that wanders a
    little on top of its path, another not at all).

    Raises:
        TypeError: if ``behaviour`` cannot be called or ``weight`` is not a number.
        ValueError: if ``weight`` is NaN or infinite (per-agent weights: at the call, also for
            the wrong length).
    """

    behaviour: Behaviour
    weight: float | FloatArray = 1.0

    CHECKS = checks("Weighted", behaviour=check_behaviour, weight=weight_value)


def _weights(name: str, value: Any, n: int) -> FloatArray:
    """``value`` as (n,) finite float weights; ValueError naming ``name`` otherwise."""
    if (
        type(value) is np.ndarray
        and value.dtype == np.float64
        and value.shape == (n,)
        and finite_values(value)
    ):
        return value  # the common case, checked in a compiled loop
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 1 and arr.shape[0] != n:
        raise ValueError(out_of_step(name, arr.shape[0], n))
    if arr.shape != (n,):
        raise ValueError(f"{name}: expected {n} weights, one per agent, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: expected finite weights, got {arr[~np.isfinite(arr)][0]}")
    return arr


def _check_parts(name: str, parts: Sequence[Any], weighted: bool) -> None:
    """TypeError naming the first item that is no behaviour (nor, with ``weighted``, a
    :class:`Weighted`)."""
    if isinstance(parts, (str, bytes)) or not isinstance(parts, Sequence):
        raise TypeError(f"{name}: expected a list of behaviours, got {parts!r:.40}")
    for k, part in enumerate(parts):
        if weighted and isinstance(part, Weighted):
            continue
        check_behaviour(f"{name}[{k}]", part)


def _force(name: str, k: int, force: Any, n: int) -> FloatArray:
    """A part's output as an (n, 2) float array; ValueError naming the part (``name[k]``, or
    ``name`` when ``k`` < 0) otherwise."""
    if type(force) is np.ndarray and force.dtype == np.float64 and force.shape == (n, 2):
        return force
    who = name if k < 0 else f"{name}[{k}]"
    try:
        arr = np.asarray(force, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{who}: returned {force!r:.40}, expected ({n}, 2) forces") from None
    if arr.shape != (n, 2):
        raise ValueError(f"{who}: returned shape {arr.shape}, expected ({n}, 2) forces")
    return arr


@dataclass
class WeightedSum(composite.Node):
    """Weighted truncated sum: every behaviour times its weight, added, then limited.

    Simple and smooth; its weakness is that opposing forces cancel (a wall and a target behind
    it can leave an agent stuck), which :class:`TruncatedRunningSum` and :class:`FirstNonZero`
    avoid. The whole tree runs as one compiled loop over agents (:mod:`steering.composite`);
    its group rules (:class:`~steering.Separate`, :class:`~steering.Align`,
    :class:`~steering.Cohere` searching the group at one distance each) share one neighbour
    query per agent, at the largest of their distances.

    Raises:
        TypeError: (at construction) naming the index of an item that is not a behaviour.
    """

    parts: Sequence[Weighted | Behaviour]

    CHECKS = checks("WeightedSum", parts=weighted_parts)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the limited weighted sum of the parts' forces."""
        return composite.run(self, agents, dt, debug)

    def composite_node(
        self, w: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
    ) -> None:
        """Add this sum and its parts to a composite's walk (:mod:`steering.composite`)."""
        _add_sum(w, "sum", "WeightedSum.parts", self.parts, view, rows, self.__dict__)


def _add_sum(
    w: Any,
    kind: str,
    name: str,
    items: Sequence[Any],
    view: AgentGroup,
    rows: NDArray[np.bool_] | None,
    held: dict[str, Any],
) -> None:
    """Add a sum of weighted items (``kind`` "sum" or "running") and its parts to a walk; its
    weights array is kept in ``held`` (the node's own dict) while they stay the same, so that
    the record is the same object from call to call."""
    values = []
    parts = []
    per: list[Any] = []
    for k, item in enumerate(items):
        if isinstance(item, Weighted):
            weight = item.weight
            if type(weight) is np.ndarray:  # a node of its own: the force times each weight
                checked = _weights(f"{name}[{k}].weight", weight, view.pos.shape[0])
                if checked is not weight:
                    composite.add_copy(w)
                else:  # checked again at each replay (it may change in place)
                    composite.add_check(
                        w, _weights, f"{name}[{k}].weight", weight, view.pos.shape[0]
                    )
                per.append(checked)
                weight = 1.0
            else:
                per.append(None)
                if type(weight) is not float or not math.isfinite(weight):  # assigned later
                    weight = finite(f"{name}[{k}].weight", weight)
            part = item.behaviour
        else:
            part, weight = item, 1.0
            per.append(None)
        values.append(weight)
        parts.append(part)
    kept = held.get("_weights")
    if kept is None or kept[0] != values:
        kept = held["_weights"] = (values, (np.array(values, dtype=np.float64),))
    composite.add_node(w, kind, len(parts), kept[1])
    composite.add_parts(w, items)
    for k, part in enumerate(parts):
        if per[k] is not None:
            composite.add_node(w, "scale", 1, (per[k],))
        composite.walk_child(w, part, view, rows, f"{name}[{k}]")


def step(
    agents: AgentGroup,
    behaviour: Behaviour,
    dt: float,
    *,
    face_velocity: bool = True,
    debug: Debug | None = None,
) -> FloatArray:
    """One step of a crowd: the behaviour's forces, then :func:`~steering.integrate` under them.

    The same as ``integrate(agents, behaviour(agents, dt, debug), dt, face_velocity=...)``,
    and the way to move agents when speed counts: for a combinator, a compiled behaviour or a
    :class:`~steering.Flock` the forces and the integration are one compiled call (at a
    handful of agents that call, not the maths, is the cost of a step).

    Returns:
        The (N, 2) forces the agents were moved by.

    Raises:
        TypeError, ValueError: for a ``dt`` that is not a finite number >= 0 (before anything
            moves), and whatever the behaviour raises.
    """
    dt = time_step("step", dt)
    move = 2 if face_velocity else 1
    if type(behaviour) is Flock:
        return behaviour._run(agents, dt, debug, move)
    if composite.compiles(behaviour):
        return composite.run(behaviour, agents, dt, debug, move)
    force = _force("step: behaviour", -1, behaviour(agents, dt, debug), agents.n)
    integrate(agents, force, dt, face_velocity=face_velocity)
    return force


@dataclass
class TruncatedRunningSum(composite.Node):
    """Buckland's prioritised truncated running sum.

    Parts are added in order, each weighted, until the running total reaches max force; the part
    that crosses the limit is added only up to it, and later parts are left out. So avoidance
    listed first always gets its share. All parts are evaluated (their memory, such as wander's
    angle, advances every step even when their force is not used). The whole tree runs as one
    compiled loop over agents (:mod:`steering.composite`).

    Raises:
        TypeError: (at construction) naming the index of an item that is not a behaviour.
    """

    parts: Sequence[Weighted | Behaviour]

    CHECKS = checks("TruncatedRunningSum", parts=weighted_parts)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the running sum capped at each agent's max force."""
        return composite.run(self, agents, dt, debug)

    def composite_node(
        self, w: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
    ) -> None:
        """Add this sum and its parts to a composite's walk (:mod:`steering.composite`)."""
        _add_sum(w, "running", "TruncatedRunningSum.parts", self.parts, view, rows, self.__dict__)

    @staticmethod
    def accumulate(
        total: FloatArray, force: FloatArray, weight: float, max_force: FloatArray
    ) -> None:
        """Add ``force * weight`` to the running ``total`` in place, only up to ``max_force``.

        The step of the running sum, for callers that hold some parts' forces already (a
        staggered crowd reuses its goals between updates): a non-finite part adds nothing.

        Raises:
            ValueError: for shapes that do not match or a weight that is not finite.
        """
        n = total.shape[0]
        w = weight
        if type(w) is not float or not math.isfinite(w):
            w = finite("TruncatedRunningSum.accumulate weight", weight)
        f = _force("TruncatedRunningSum.accumulate force", -1, force, n)
        if total.shape != (n, 2) or np.shape(max_force) != (n,):
            raise ValueError(
                f"TruncatedRunningSum.accumulate: expected total ({n}, 2) and max_force ({n},), "
                f"got {total.shape} and {np.shape(max_force)}"
            )
        _accumulate_rows(n)(total, f, w, max_force, False, False)


@rows_kernel
def _accumulate_rows(
    total: FloatArray,
    force: FloatArray,
    weight: float,
    max_force: FloatArray,
    first: bool,
    cap: bool,
) -> None:
    """Buckland's running sum: add ``force * weight`` to ``total`` (``first``: to zero) only
    up to max force (the crossing part along its own direction); a non-finite part adds
    nothing. With ``cap`` the total is then limited to max force."""
    for i in prange(total.shape[0]):
        tx = 0.0 if first else total[i, 0]
        ty = 0.0 if first else total[i, 1]
        tx, ty = running_add(tx, ty, force[i, 0] * weight, force[i, 1] * weight, max_force[i])
        if cap:
            tx, ty = kern.truncate(tx, ty, max_force[i])
        total[i, 0] = tx
        total[i, 1] = ty


@njit
def running_add(
    tx: float, ty: float, fx: float, fy: float, max_force: float
) -> tuple[float, float]:
    """Buckland's ``AccumulateForce`` for one agent: the running total (tx, ty) plus the
    part (fx, fy), only up to ``max_force`` (the crossing part along its own direction); a
    non-finite part adds nothing."""
    remaining = max(max_force - hypot(tx, ty), 0.0)
    flen = hypot(fx, fy)
    if not flen <= remaining:  # crosses the limit (or is not finite)
        if not flen < math.inf:
            fx, fy = 0.0, 0.0
        elif flen > EPSILON:
            s = remaining / flen
            fx *= s
            fy *= s
    return tx + fx, ty + fy


@dataclass
class FirstNonZero(composite.Node):
    """Per agent, the force of the first part whose force exceeds ``epsilon``; zero if none.

    Sharp: an agent switches completely from one behaviour to the next, which reads clearly
    (avoid, else follow) but can chatter at the threshold. Every part is evaluated for every
    agent (their memory advances as in the other sums).

    Raises:
        TypeError: (at construction) naming the index of an item that is not a behaviour.
        ValueError: for a negative or NaN ``epsilon``.
    """

    parts: Sequence[Behaviour]
    epsilon: float = 1e-3

    CHECKS = checks("FirstNonZero", parts=behaviour_list, epsilon=non_negative)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return each agent's first significant force."""
        return composite.run(self, agents, dt, debug)

    def composite_node(
        self, w: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
    ) -> None:
        """Add this choice and its parts to a composite's walk (:mod:`steering.composite`)."""
        eps = self.epsilon
        if type(eps) is not float or not eps >= 0.0:  # assigned after construction
            eps = non_negative("FirstNonZero.epsilon", eps)
        kept = self.__dict__.get("_record")
        if kept is None or kept[0] is not eps or kept[1].shape[0] != w.n:
            kept = self.__dict__["_record"] = (eps, np.full(w.n, -1, dtype=np.int64))
        else:
            kept[1].fill(-1)
        composite.add_node(w, "first", len(self.parts), kept)
        composite.add_tick(w, kept[1].fill, -1)
        composite.add_parts(w, self.parts)
        for k, part in enumerate(self.parts):
            composite.walk_child(w, part, view, rows, f"FirstNonZero.parts[{k}]")


@dataclass
class Limited(composite.Node):
    """Run ``behaviour`` with other limits (gdx-ai's ``Limiter``): a patrol pace, a weak push.

    The behaviour sees the agents with ``max_speed`` and ``max_force`` replaced (a value for
    all, or one per agent; None keeps the agents' own) and everything else shared, state
    columns included; its force is truncated to the new max force. The agents themselves are
    never changed, so physics still allows their full speed.

    Raises:
        TypeError: (at construction) if ``behaviour`` cannot be called.
        ValueError: for a limit that is negative or not finite (per-agent limits: at the call,
            also for the wrong length).
    """

    behaviour: Behaviour
    max_speed: float | FloatArray | None = None
    max_force: float | FloatArray | None = None

    #: Each limit's last filled column, for a limit given as one number (see :meth:`_column`).
    _filled: dict[str, FloatArray] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: The last limited view and what it was made from (see :meth:`_view`).
    _last: tuple[tuple[Any, ...], AgentGroup] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    CHECKS = checks(
        "Limited",
        behaviour=check_behaviour,
        max_speed=functools.partial(limit, n=None),
        max_force=functools.partial(limit, n=None),
    )

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the behaviour's forces under the replaced limits."""
        return composite.run(self, agents, dt, debug)

    def composite_node(
        self, w: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
    ) -> None:
        """Add this limiter and its behaviour to a composite's walk (:mod:`steering.composite`):
        a compiled behaviour reads these limits' columns, an outside one gets a limited view."""
        n = view.n
        speeds = self._column(w, "max_speed", self.max_speed, view.max_speed, n)
        forces = self._column(w, "max_force", self.max_force, view.max_force, n)
        composite.add_node(w, "limit", 1, (speeds, forces, self.max_force is not None))
        limited = self._view(view, speeds, forces)
        composite.walk_child(w, self.behaviour, limited, rows, "Limited.behaviour")

    def _column(self, w: Any, which: str, value: Any, own: FloatArray, n: int) -> FloatArray:
        """The limit ``which`` as an (n,) column: the agents' own for None, a kept filled
        column for a number, the checked array otherwise."""
        if value is None:
            return own
        if type(value) is float and 0.0 <= value < math.inf:
            col = self._filled.get(which)
            if col is None or col.shape[0] != n or (n and col[0] != value):
                col = np.full(n, value)
                self._filled[which] = col
            return col
        checked: FloatArray = limit(f"Limited.{which}", value, n)
        if not isinstance(checked, np.ndarray):
            return self._column(w, which, checked, own, n)
        if checked is not value:
            composite.add_copy(w)
        else:  # checked again at each replay (it may change in place)
            composite.add_check(w, limit, f"Limited.{which}", value, n)
        return checked

    def _view(self, agents: AgentGroup, speed: FloatArray, cap: FloatArray) -> AgentGroup:
        """``agents.with_limits(speed, cap)``, made again only when one of the arrays it shares
        with ``agents`` or a limit is another object than last time (making one costs tens of
        microseconds)."""
        key = (
            agents,
            agents.pos,
            agents.vel,
            agents.radius,
            agents.mass,
            agents.heading,
            agents.state,
            agents.max_turn_rate,
            agents._fills,
            speed,
            cap,
        )
        last = self._last
        if (
            last is not None
            and all(map(operator.is_, last[0], key))
            and last[1].world_size == agents.world_size
        ):
            view = last[1]
            # Share the group's current neighbour index, as a new view would.
            view._grids = agents._grids
            return view
        view = agents.with_limits(speed, cap)
        self._last = (key, view)
        return view


@dataclass
class Masked(composite.Node):
    """Apply ``behaviour`` only to the agents selected by ``mask``; the others get zero.

    Compiled parts test the mask per row inside the one loop over agents (an agent not
    selected costs a test, and its memory does not advance); they still see every agent as a
    neighbour or a target. An outside behaviour (a plain Python function) is called on the
    selected rows as a group of its own, whose state columns are written back. Debug arrays
    come back at full size, with NaN (or -1) for agents not selected.

    Raises:
        TypeError: (at construction and whenever assigned) if ``behaviour`` cannot be called,
            or for a mask that is not booleans.
        ValueError: (at construction and whenever assigned) for a mask that is not one
            dimension; (at the call) for a mask whose length is not the number of agents.
    """

    behaviour: Behaviour
    mask: NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))

    CHECKS = checks("Masked", behaviour=check_behaviour, mask=mask_check)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return forces for the masked agents, zero for the rest."""
        return composite.run(self, agents, dt, debug)

    def composite_node(
        self, w: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
    ) -> None:
        """Add this mask and its behaviour to a composite's walk (:mod:`steering.composite`)."""
        selected = mask("Masked.mask", self.mask, view.pos.shape[0])
        if selected is not self.mask:
            composite.add_copy(w)
        composite.add_node(w, "mask", 1, (selected,))
        composite.walk_masked(w, self.behaviour, view, rows, selected, "Masked.behaviour")


#: Kept here for the callers that scatter a sub-group's debug rows themselves.
scatter_debug = composite.scatter_debug
