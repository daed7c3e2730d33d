"""Reynolds' staggered updates as a combinator: :class:`Staggered` runs its behaviour for one
agent in ``every`` at each call and holds the others' forces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import composite
from ._checks import behaviour as check_behaviour
from ._checks import integer
from .agents import AgentGroup
from .base import Behaviour, Debug
from .checked import checks
from .vec import FloatArray

__all__ = ["Staggered", "whole_count"]


def whole_count(name: str, value: Any) -> int:
    """A whole number >= 1."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name}: expected a whole number >= 1, got {value!r:.40}")
    return int(value)


@dataclass
class Staggered(composite.Node):
    """Reynolds' staggered updates: each call runs ``behaviour`` for one agent in ``every``
    (agent ``i`` when ``i % every`` is the call's turn), with a time step ``every`` times the
    call's, and gives every other agent its force from its last update. Motion stays smooth
    while the behaviour costs about ``1 / every`` of its price a call.

    On its first call, and whenever the number of agents changes, every agent is updated (no
    agent starts from a zero force). The turn advances with each call; ``turn`` may be set
    (a game can tie it to its frame count). Compiled parts skip the rows not in turn inside
    the one loop; an outside behaviour is called on the rows in turn only.

    Raises:
        TypeError: (at construction) if ``behaviour`` cannot be called.
        ValueError: for ``every`` below 1.
    """

    PER_CALL = frozenset({"turn"})

    behaviour: Behaviour
    every: int = 1
    turn: int = 0
    _store: FloatArray = field(
        default_factory=lambda: np.zeros((0, 2)), init=False, repr=False, compare=False
    )

    CHECKS = checks("Staggered", behaviour=check_behaviour, every=whole_count, turn=integer)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return each agent's force: fresh for the agents in turn, held for the others."""
        return composite.run(self, agents, dt, debug)

    def composite_node(
        self, w: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
    ) -> None:
        """Add this node and its behaviour to a composite's walk (:mod:`steering.composite`):
        the behaviour is walked with the longer time step."""
        k = self.every
        n = view.pos.shape[0]
        store = self._store
        held = self.__dict__.get("_held")
        if store.shape[0] != n or held is None:
            store = self._store = np.zeros((n, 2))
            held = self.__dict__["_held"] = (np.ones(n, dtype=bool), store)
            selected = held[0]
        else:
            selected = held[0]
            self._select(n, k)
        self.__dict__["turn"] = self.turn + 1  # not through the check: once a call
        composite.add_node(w, "held", 1, held)
        composite.add_tick(w, self._tick, n, k)
        composite.add_guard(w, self._holds, held)
        inner = selected if rows is None else rows & selected
        dt = w.dt
        w.dt = dt * k
        try:
            composite.walk_child(w, self.behaviour, view, inner, "Staggered.behaviour")
        finally:
            w.dt = dt

    def _select(self, n: int, k: int) -> None:
        """Select the agents in this call's turn."""
        np.equal(_rows(n) % k, self.turn % k, out=self.__dict__["_held"][0])

    def _holds(self, held: tuple[NDArray[np.bool_], FloatArray]) -> bool:
        """Whether the node's selection and store are still ``held`` (a tree of a group of
        another size, sharing this node, makes them anew)."""
        return self.__dict__.get("_held") is held

    def _tick(self, n: int, k: int) -> None:
        """A kept plan's call: select the agents in turn, then the next turn."""
        self._select(n, k)
        self.__dict__["turn"] = self.turn + 1  # not through the check: once a call


def _rows(n: int) -> NDArray[np.int64]:
    """``np.arange(n)``, kept."""
    rows = _ROWS.get(n)
    if rows is None:
        if len(_ROWS) > 64:
            _ROWS.clear()
        rows = _ROWS[n] = np.arange(n)
    return rows


_ROWS: dict[int, NDArray[np.int64]] = {}
