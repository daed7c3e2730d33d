"""Directed neighbour candidates for some rows of a group, per neighbour distance.

Group behaviours with one distance use :meth:`AgentGroup.pairs_within` (undirected pairs, one
query shared by every behaviour of a step). With per-agent distances (enemies 40 px, NPCs
13-24 px) a single query at the largest distance finds several times the pairs the crowd needs,
and a game that updates its agents in staggered groups may want the neighbours of a subset
only. :func:`directed_candidates` answers both: it queries each distinct distance once, for the
rows that use it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from .agents import AgentGroup
from .vec import FloatArray

__all__ = ["BRUTE_FORCE_PAIRS", "MAX_CLASSES", "directed_candidates"]

IntArray = NDArray[np.intp]

#: More distinct distances than this are queried once, at the largest.
MAX_CLASSES = 8
#: A class whose members x group size is at most this is checked against every agent
#: directly: cheaper than building a k-d tree for a handful of agents.
BRUTE_FORCE_PAIRS = 32_768


def directed_candidates(
    agents: AgentGroup,
    rows: IntArray,
    distances: FloatArray,
) -> tuple[IntArray, IntArray, IntArray]:
    """Candidate neighbours of ``agents[rows]``: (index into ``rows``, receiver, neighbour).

    Each receiver ``i`` gets every other agent ``j`` closer than ``distances[i]`` (and maybe a
    few farther: the caller keeps those with ``d < distances[i]``). Rows are queried by their
    own distance, one query per distinct value (up to :data:`MAX_CLASSES`; beyond that one
    query at the largest). A class holding more than 1/16 of the group filters the group's
    cached pair list (:meth:`AgentGroup.pairs_within`: cKDTree's ``query_pairs`` measured
    faster than a subset-against-all query even for a quarter of the group); a small class
    (the enemies) queries its own tree against the group's, or, when it is tiny, measures its
    distance to every agent. Rows with a distance of 0 get no candidates.

    Args:
        agents: the group.
        rows: (R,) the receivers, distinct.
        distances: (N,) each agent's neighbour distance (finite, >= 0).
    """
    where = np.full(agents.n, -1, dtype=np.intp)
    where[rows] = np.arange(rows.size)
    mine = distances[rows]
    # np.unique costs ~10 us even on a handful of values; a set is faster for the usual few
    # receivers (the enemies of a crowd).
    values = np.array(sorted(set(mine.tolist()))) if mine.size <= 64 else np.unique(mine)
    values = values[values > 0.0]
    if values.size > MAX_CLASSES:
        classes = [(float(values[-1]), rows[distances[rows] > 0.0])]
    else:
        classes = [(float(v), rows[distances[rows] == v]) for v in values]
    parts_a: list[IntArray] = []
    parts_i: list[IntArray] = []
    parts_j: list[IntArray] = []
    for r, members in classes:
        if 16 * members.size > agents.n:
            i, j = _from_pair_list(agents, members, r)
        elif members.size * agents.n <= BRUTE_FORCE_PAIRS:
            i, j = _brute_force(agents, members, r)
        else:
            i, j = _subset_against(agents, members, agents.tree(), r)
        parts_a.append(where[i])
        parts_i.append(i)
        parts_j.append(j)
    if not parts_a:
        e = np.zeros(0, dtype=np.intp)
        return e, e, e
    return np.concatenate(parts_a), np.concatenate(parts_i), np.concatenate(parts_j)


def _subset_against(
    agents: AgentGroup, members: IntArray, tree: cKDTree, r: float
) -> tuple[IntArray, IntArray]:
    """Directed pairs (member, other) within ``r``, from a tree over the members alone."""
    sub = cKDTree(agents.pos[members], balanced_tree=False, compact_nodes=False)
    m = sub.sparse_distance_matrix(tree, r, output_type="ndarray")
    i = members[m["i"].astype(np.intp)]
    j = m["j"].astype(np.intp)
    keep = i != j
    return i[keep], j[keep]


def _brute_force(agents: AgentGroup, members: IntArray, r: float) -> tuple[IntArray, IntArray]:
    """Directed pairs (member, other) within ``r``, by measuring every member-agent pair."""
    z = np.ascontiguousarray(agents.pos).view(np.complex128).reshape(-1)
    near = np.abs(z[members][:, None] - z[None, :]) <= r
    near[np.arange(members.size), members] = False
    a, j = np.nonzero(near)
    return members[a], j.astype(np.intp)


def _from_pair_list(agents: AgentGroup, members: IntArray, r: float) -> tuple[IntArray, IntArray]:
    """Directed pairs (member, other) within ``r``, from the group's cached undirected list."""
    pairs = agents.pairs_within(r)
    lo, hi = pairs[:, 0], pairs[:, 1]
    if members.size == agents.n:
        return np.concatenate((lo, hi)), np.concatenate((hi, lo))
    member = np.zeros(agents.n, dtype=bool)
    member[members] = True
    a_lo, a_hi = member[lo], member[hi]
    return np.concatenate((lo[a_lo], hi[a_hi])), np.concatenate((hi[a_lo], lo[a_hi]))
