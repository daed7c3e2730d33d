"""Directed neighbours of some rows of a group, each at its own distance, from the group's grid.

The group behaviours walk the neighbour grid (:mod:`~steering.grid`) inside their own compiled
loops. :func:`directed_candidates` is the same search as index arrays, for code outside the
engine that wants the neighbours of a subset of agents (a game that updates its agents in
staggered groups, debug drawing).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .grid import BRUTE_MAX, covering_distance, directed_pairs
from .vec import FloatArray

__all__ = ["directed_candidates"]

IntArray = NDArray[np.intp]


def directed_candidates(
    agents: AgentGroup,
    rows: IntArray,
    distances: FloatArray,
) -> tuple[IntArray, IntArray, IntArray]:
    """Neighbours of ``agents[rows]``: (index into ``rows``, receiver, neighbour).

    Each receiver ``i`` gets every other agent ``j`` closer than ``distances[i]`` (minimal
    image in a wrap-around world), receivers in the order of ``rows``. Rows with a distance
    that is not positive and finite get none. The group's cached neighbour grid is used (cells
    sized for the distances most rows share; the few with a larger one visit more cells).

    Args:
        agents: the group.
        rows: (R,) the receivers, distinct.
        distances: (N,) each agent's neighbour distance.
    """
    rows = np.asarray(rows, dtype=np.intp)
    radii = np.asarray(distances, dtype=np.float64)
    radii = np.where(np.isfinite(radii) & (radii > 0.0), radii, 0.0)
    cell = 0.0 if agents.n <= BRUTE_MAX else covering_distance(radii[rows])
    grid = agents.neighbour_grid(cell)
    i, j = directed_pairs(grid, agents.pos, radii, rows)
    where = np.full(agents.n, -1, dtype=np.intp)
    where[rows] = np.arange(rows.size)
    return where[i], i, j
