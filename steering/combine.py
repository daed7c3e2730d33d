"""Combinators: ways to blend several behaviours into one force. Each is a behaviour itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .base import Behaviour, Debug
from .vec import EPSILON, FloatArray, length, put_rows, scale_rows, select_rows, truncate

__all__ = ["Limited", "Masked", "PrioritizedSum", "Priority", "Weighted", "WeightedSum"]


@dataclass
class Weighted:
    """A behaviour and its weight, for :class:`WeightedSum` and :class:`PrioritizedSum`."""

    behaviour: Behaviour
    weight: float = 1.0


def _weighted(items: Sequence[Weighted | Behaviour]) -> list[Weighted]:
    return [it if isinstance(it, Weighted) else Weighted(it) for it in items]


@dataclass
class WeightedSum:
    """Weighted truncated sum: every behaviour times its weight, added, then limited.

    Simple and smooth; its weakness is that opposing forces cancel (a wall and a target behind
    it can leave an agent stuck), which :class:`PrioritizedSum` and :class:`Priority` avoid.
    """

    parts: Sequence[Weighted | Behaviour]

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the limited weighted sum of the parts' forces."""
        total = np.zeros((agents.n, 2))
        for part in _weighted(self.parts):
            total += part.weight * part.behaviour(agents, dt, debug)
        return truncate(total, agents.max_force)


@dataclass
class PrioritizedSum:
    """Buckland's prioritised truncated running sum.

    Parts are added in order, each weighted, until the running total reaches max force; the part
    that crosses the limit is added only up to it, and later parts are left out. So avoidance
    listed first always gets its share. All parts are evaluated (their memory, such as wander's
    angle, advances every step even when their force is not used).
    """

    parts: Sequence[Weighted | Behaviour]

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the running sum capped at each agent's max force."""
        total = np.zeros((agents.n, 2))
        for part in _weighted(self.parts):
            self.accumulate(total, part.behaviour(agents, dt, debug), part.weight, agents.max_force)
        return truncate(total, agents.max_force)

    @staticmethod
    def accumulate(
        total: FloatArray, force: FloatArray, weight: float, max_force: FloatArray
    ) -> None:
        """Add ``force * weight`` to the running ``total`` in place, only up to ``max_force``.

        The step of the running sum, for callers that hold some parts' forces already (a
        staggered crowd reuses its goals between updates): a non-finite part adds nothing.
        """
        if weight != 1.0:
            force = force * weight
        remaining = np.maximum(max_force - length(total), 0.0)
        flen = length(force)
        cut = ~(flen <= remaining)  # crosses the limit (or is not finite)
        if cut.any():
            # the crossing part is added only up to the limit, along its own direction
            scale = np.ones_like(flen)
            np.divide(remaining, flen, out=scale, where=cut & (flen > EPSILON))
            scale[cut & ~np.isfinite(flen)] = 0.0
            force = scale_rows(select_rows(cut & ~np.isfinite(flen), 0.0, force), scale)
        total += force


@dataclass
class Priority:
    """Per agent, the force of the first part whose force exceeds ``epsilon``; zero if none.

    Sharp: an agent switches completely from one behaviour to the next, which reads clearly
    (avoid, else follow) but can chatter at the threshold.
    """

    parts: Sequence[Behaviour]
    epsilon: float = 1e-3

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return each agent's first significant force."""
        result = np.zeros((agents.n, 2))
        chosen = np.full(agents.n, -1, dtype=np.int64)
        for k, part in enumerate(self.parts):
            force = part(agents, dt, debug)
            take = (chosen < 0) & (length(force) > self.epsilon)
            result[take] = force[take]
            chosen[take] = k
        if debug is not None:
            debug["priority.chosen"] = chosen
        return truncate(result, agents.max_force)


@dataclass
class Limited:
    """Run ``behaviour`` with other limits (gdx-ai's ``Limiter``): a patrol pace, a weak push.

    The behaviour sees a group whose ``max_speed`` and ``max_force`` are replaced (a value
    for all, or one per agent; None keeps the agents' own) and that shares everything else
    with ``agents``, state columns included; its force is truncated to the new max force.
    The agents themselves are never changed, so physics still allows their full speed.
    """

    behaviour: Behaviour
    max_speed: float | FloatArray | None = None
    max_force: float | FloatArray | None = None

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the behaviour's forces under the replaced limits."""
        limited = agents.with_limits(self.max_speed, self.max_force)
        force = self.behaviour(limited, dt, debug)
        if self.max_force is None:
            return force
        return truncate(force, limited.max_force)


@dataclass
class Masked:
    """Apply ``behaviour`` only to the agents selected by ``mask``; the others get zero.

    The selected rows are copied into a sub-group, so the behaviour sees a smaller N; their
    state columns (path progress, wander angle, ...) are written back afterwards. Debug arrays
    come back at full size, with NaN (or -1) for agents not selected.
    """

    behaviour: Behaviour
    mask: NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return forces for the masked agents, zero for the rest."""
        out = np.zeros((agents.n, 2))
        idx = np.flatnonzero(self.mask)
        if idx.size == 0:
            return out
        if idx.size == agents.n:
            return self.behaviour(agents, dt, debug)
        sub = agents.take(idx)
        sub_debug: Debug | None = {} if debug is not None else None
        put_rows(out, idx, self.behaviour(sub, dt, sub_debug))
        agents.put_state(idx, sub)
        if debug is not None and sub_debug is not None:
            for key, arr in sub_debug.items():
                debug[key] = scatter_debug(debug.get(key), arr, idx, agents.n)
        return out


def scatter_debug(
    existing: NDArray[np.generic] | None, sub: NDArray[np.generic], idx: NDArray[np.intp], n: int
) -> NDArray[np.generic]:
    """Place per-agent debug rows of a sub-group into a full-size array (merging with others;
    rows not in ``idx`` are NaN, False or -1)."""
    if sub.ndim == 0 or sub.shape[0] != idx.size:
        return sub  # not per-agent (a scalar or a pair list): keep as is
    if existing is not None and existing.shape[1:] == sub.shape[1:] and existing.shape[0] == n:
        full = existing.copy()
    elif sub.dtype == np.bool_:
        full = np.zeros((n, *sub.shape[1:]), dtype=bool)
    elif np.issubdtype(sub.dtype, np.integer):
        full = np.full((n, *sub.shape[1:]), -1, dtype=sub.dtype)
    else:
        full = np.full((n, *sub.shape[1:]), np.nan)
    full[idx] = sub
    return full
