"""Per-distance neighbour queries and separation for a subset of rows."""

from __future__ import annotations

import numpy as np

from steering import AgentGroup, Separate
from steering.neighbours import directed_candidates
from steering.vec import FloatArray, truncate

DT = 1.0 / 60.0


def crowd(n: int, seed: int) -> AgentGroup:
    """A crowd with enemy-like (40 px), NPC-like (24 px, 13 px) and no separations."""
    rng = np.random.default_rng(seed)
    group = AgentGroup.create(
        rng.uniform(0, 400, (n, 2)),
        rng.normal(0, 60, (n, 2)),
        max_speed=rng.uniform(80, 200, n),
        max_force=rng.uniform(100, 500, n),
    )
    sep = rng.choice([0.0, 13.0, 24.0], n)
    sep[:6] = 40.0
    group.state["separation"] = sep
    group.pos[9] = group.pos[10]  # a coincident pair
    return group


def brute_force_separation(agents: AgentGroup, gain: float = 8.0) -> FloatArray:
    """The seed's loop over every other agent, written out over an N x N matrix."""
    sep = agents.state["separation"]
    diff = agents.pos[:, None, :] - agents.pos[None, :, :]
    d = np.hypot(diff[..., 0], diff[..., 1])
    near = (d < sep[:, None]) & ~np.eye(agents.n, dtype=bool) & (d > 1e-6)
    with np.errstate(invalid="ignore", divide="ignore"):
        away = np.where(near[..., None], diff / (d * d)[..., None], 0.0)
    total = away.sum(axis=1)
    count = near.sum(axis=1)
    mag = np.hypot(total[:, 0], total[:, 1])
    unit = np.divide(total, mag[:, None], out=np.zeros_like(total), where=mag[:, None] > 0)
    steer = (unit * agents.max_speed[:, None] - agents.vel) * gain
    return np.where(count[:, None] > 0, truncate(steer, agents.max_force), 0.0)


def test_mixed_separations_match_the_seeds_loop_over_every_pair() -> None:
    # Given 400 agents with separations 40, 24, 13 and 0 (no coincident pair in this one)
    agents = crowd(400, 0)
    agents.pos[9] += 3.0
    # When
    got = Separate(per_agent=True)(agents, DT)
    # Then every force equals the N^2 loop's
    np.testing.assert_allclose(got, brute_force_separation(agents), atol=1e-9)


def test_each_distance_is_queried_at_its_own_radius() -> None:
    # Given a line of agents 20 px apart: only the 45 px agent reaches two neighbours
    agents = AgentGroup.create([(20.0 * k, 0.0) for k in range(5)])
    sep = np.array([45.0, 13.0, 13.0, 13.0, 13.0])
    # When
    a, i, j = directed_candidates(agents, np.arange(5), sep)
    d = np.hypot(*(agents.pos[i] - agents.pos[j]).T)
    kept = {(int(x), int(y)) for x, y, dd in zip(i, j, d, strict=True) if dd < sep[x]}
    # Then
    assert kept == {(0, 1), (0, 2)}
    np.testing.assert_array_equal(a, i)  # rows are the whole group: index = receiver


def test_more_distances_than_classes_are_queried_at_the_largest() -> None:
    # Given 20 distinct separations
    agents = crowd(200, 3)
    agents.pos[9] += 3.0
    agents.state["separation"] = np.linspace(5.0, 30.0, agents.n)
    # When / Then the answer is still the seed's
    got = Separate(per_agent=True)(agents, DT)
    np.testing.assert_allclose(got, brute_force_separation(agents), atol=1e-9)
