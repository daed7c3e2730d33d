"""Neighbours from another group (``others=``): what a group behaviour reads of the group it
searches instead of its own (gdx-ai's Proximity over another set of agents: a school of fish
keeping clear of the sharks).

A group behaviour's ``others`` is None (its own group, the default), an
:class:`~steering.AgentGroup`, or any object with ``pos`` and ``vel`` arrays of shape (M, 2)
(and optionally ``radius``, (M,)). :func:`others_of` checks those at bind time and
:func:`others_grid` finds (or builds) the neighbour grid over the others' positions, wrapped in
the searching group's world. The compiled rows then ask the grid for the others near agent
``i``'s position (:func:`~steering.grid.near_point`, nothing left out): M may exceed the
group's count, so the composite's scratch buffer is sized to it (a record's ``others`` field)
and every row also bounds its reads by the buffer.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .agents import AgentGroup
from .grid import BRUTE_MAX, Grid, GridCache, brute_grid, covering_distance
from .vec import FloatArray

__all__ = ["OWN", "Others", "others_grid", "others_of"]

#: A record's ``others`` count when the behaviour searches its own group.
OWN = -1


class Others(NamedTuple):
    """The other group's arrays, checked, as the compiled rows read them."""

    pos: FloatArray
    """(M, 2) positions, float64, C order."""
    vel: FloatArray
    """(M, 2) velocities (zeros when the object has none and the behaviour needs none)."""
    radius: FloatArray
    """(M,) radii (zeros when the object has none)."""
    world: tuple[float, float] | None
    """The world of the group that searches (the others are searched in it)."""


def _column(name: str, value: Any, rows: int | None, width: int) -> FloatArray:
    """``value`` as a float64 C-order array of ``rows`` rows (any, for None) and ``width``
    columns (0: one dimension); ValueError naming ``name``."""
    if type(value) is np.ndarray and value.dtype == np.float64 and value.flags.c_contiguous:
        arr = value
    else:
        try:
            arr = np.ascontiguousarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name}: expected an array of numbers, got {value!r:.40}") from None
    shape = (arr.shape[0] if rows is None and arr.ndim else rows,) + ((width,) if width else ())
    if arr.shape != shape:
        what = f"({'M' if rows is None else rows}, {width})" if width else f"({rows},)"
        raise ValueError(f"{name}: expected shape {what}, got {arr.shape}")
    return arr


def others_of(name: str, others: Any, agents: AgentGroup, need_vel: bool) -> Others | None:
    """The checked arrays of behaviour ``name``'s ``others`` for a call on ``agents``; None
    when it searches its own group (``others`` None, the group itself, or an object holding
    the group's own positions and velocities).

    Raises:
        ValueError: ``others`` without ``pos``, or with ``need_vel`` without ``vel``; a
            ``pos`` that is not (M, 2) numbers, a ``vel`` or ``radius`` not matching it (the
            message names ``name.others.pos`` and so on).
    """
    if others is None or others is agents:
        return None
    pos = getattr(others, "pos", None)
    vel = getattr(others, "vel", None)
    if pos is agents.pos and (vel is None or vel is agents.vel):
        return None
    if pos is None:
        raise ValueError(f"{name}.others: expected an AgentGroup or an object with pos and vel")
    p = _column(f"{name}.others.pos", pos, None, 2)
    m = p.shape[0]
    if vel is None:
        if need_vel:
            raise ValueError(f"{name}.others.vel: the others have no velocities")
        v = np.zeros((m, 2))
    else:
        v = _column(f"{name}.others.vel", vel, m, 2)
    radius = getattr(others, "radius", None)
    r = np.zeros(m) if radius is None else _column(f"{name}.others.radius", radius, m, 0)
    return Others(p, v, r, agents.world_size)


def others_grid(
    rule: Any, others: Any, seen: Others, distances: FloatArray | None, distance: float
) -> Grid:
    """The neighbour grid over the others' positions for a search to ``distance`` (or to the
    per-agent ``distances``, not None): an AgentGroup's own grid when it lives in the same
    world (shared with its own behaviours), else one kept on ``rule``; the brute-force
    marker for at most :data:`~steering.grid.BRUTE_MAX` others."""
    if seen.pos.shape[0] <= BRUTE_MAX:
        return brute_grid(seen.world)
    cell = distance if distances is None else covering_distance(distances, finite_only=True)
    own = isinstance(others, AgentGroup) and others.pos is seen.pos
    if own and others.world_size == seen.world:
        return others.neighbour_grid(cell)
    cache = rule.__dict__.get("_others_grids")
    if cache is None:
        cache = rule.__dict__["_others_grids"] = GridCache()
    return cache.get(seen.pos, seen.world, cell)
