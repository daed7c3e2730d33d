"""The group rules of one composite share one neighbour query per agent, at the largest of their
distances: a random tree of them (under sums, masks and limits, some searching another group or
a distance per agent) gives what calling each rule on its own gives, also when replayed from its
kept plan after the agents moved."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering import (
    AgentGroup,
    Align,
    Cohere,
    Limited,
    Masked,
    Seek,
    Separate,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
    integrate,
)
from steering.composite import kept_plan, run
from steering.shapes import NearRecord
from steering.vec import FloatArray

DT = 1 / 60
#: Seven agents (every pair measured) and forty (through the neighbour grid).
SIZES = (7, 40)
OTHERS = AgentGroup.create(
    np.random.default_rng(3).uniform(-100, 100, (30, 2)),
    np.random.default_rng(4).uniform(-50, 50, (30, 2)),
)


def _agents(n: int) -> AgentGroup:
    r = np.random.default_rng(n)
    agents = AgentGroup.create(
        r.uniform(-100, 100, (n, 2)),
        r.uniform(-50, 50, (n, 2)),
        max_speed=r.uniform(20, 80, n),
        max_force=r.uniform(5, 60, n),
    )
    for name in ("separation", "alignment", "cohesion"):
        agents.column(name, fill=30.0)[:] = r.uniform(0, 60, n)
    return agents


def _truncate(f: FloatArray, cap: FloatArray) -> FloatArray:
    length = np.hypot(f[:, 0], f[:, 1])
    return f * np.minimum(1.0, cap / np.maximum(length, 1e-300))[:, None]


def _running(forces: list[FloatArray], weights: list[float], cap: FloatArray) -> FloatArray:
    out = np.zeros_like(forces[0])
    for i in range(out.shape[0]):
        tx = ty = 0.0
        for f, w in zip(forces, weights, strict=True):
            fx, fy = f[i, 0] * w, f[i, 1] * w
            remaining = max(cap[i] - math.hypot(tx, ty), 0.0)
            flen = math.hypot(fx, fy)
            if not flen <= remaining and flen > 1e-9:
                fx, fy = fx * remaining / flen, fy * remaining / flen
            tx, ty = tx + fx, ty + fy
        out[i] = tx, ty
    return out


def reference(node: Any, agents: AgentGroup, speed: FloatArray, cap: FloatArray) -> FloatArray:
    """``node``'s forces from its rules called on their own, combined in NumPy."""
    if isinstance(node, Masked):
        f = reference(node.behaviour, agents, speed, cap)
        f[~node.mask] = 0.0
        return f
    if isinstance(node, Limited):
        s = speed if node.max_speed is None else np.full(agents.n, node.max_speed)
        c = cap if node.max_force is None else np.full(agents.n, node.max_force)
        f = reference(node.behaviour, agents, s, c)
        return f if node.max_force is None else _truncate(f, c)
    if isinstance(node, (WeightedSum, TruncatedRunningSum)):
        # (no Weighted made here: a new combinator makes every kept plan be walked again)
        items = [
            (p.behaviour, p.weight) if isinstance(p, Weighted) else (p, 1.0) for p in node.parts
        ]
        forces = [reference(b, agents, speed, cap) for b, _ in items]
        weights = [float(w) for _, w in items]  # type: ignore[arg-type]
        if isinstance(node, TruncatedRunningSum):
            return _running(forces, weights, cap)
        return _truncate(sum(w * f for w, f in zip(weights, forces, strict=True)), cap)
    return np.asarray(node(agents.with_limits(speed, cap), DT))


distances = st.floats(0, 90)
fovs = st.sampled_from([360.0, 360.0, 240.0, 90.0])
others = st.sampled_from([None, None, None, OTHERS])
per_agent = st.sampled_from([False, False, False, True])
rules = st.one_of(
    st.tuples(distances, fovs, others, per_agent).map(
        lambda a: Separate(a[0], fov=a[1], others=a[2], per_agent=a[3])
    ),
    st.tuples(distances, fovs, others, st.booleans()).map(
        lambda a: Align(a[0], fov=a[1], others=a[2], match_speed=a[3])
    ),
    st.tuples(distances, fovs, per_agent).map(lambda a: Cohere(a[0], fov=a[1], per_agent=a[2])),
    st.tuples(st.floats(-150, 150), st.floats(-150, 150)).map(Seek),
)


def trees(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    weighted = st.tuples(children, st.floats(-2, 2)).map(lambda a: Weighted(a[0], a[1]))
    parts = st.lists(st.one_of(children, weighted), min_size=1, max_size=4)
    return st.one_of(
        parts.map(WeightedSum),
        parts.map(TruncatedRunningSum),
        st.tuples(children, st.integers(0, 2**31)).map(
            lambda a: Masked(a[0], np.random.default_rng(a[1]).random(max(SIZES)) < 0.6)
        ),
        st.tuples(children, st.floats(0, 100), st.floats(0, 100)).map(
            lambda a: Limited(a[0], a[1], a[2])
        ),
    )


def _sized(tree: Any, n: int) -> Any:
    """``tree`` with its masks cut to ``n`` rows."""
    if isinstance(tree, Masked):
        tree.mask = tree.mask[:n].copy()
        _sized(tree.behaviour, n)
    elif isinstance(tree, Limited):
        _sized(tree.behaviour, n)
    elif isinstance(tree, (WeightedSum, TruncatedRunningSum)):
        for p in tree.parts:
            _sized(p.behaviour if isinstance(p, Weighted) else p, n)
    return tree


# Derandomized: each new shape of tree compiles once and is cached.
@pytest.mark.parametrize("n", SIZES)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.recursive(rules, trees, max_leaves=5))
def test_a_tree_of_group_rules_equals_its_rules_called_alone(n: int, tree: Any) -> None:
    # Given agents and a random tree of group rules
    tree = _sized(tree, n)
    agents = _agents(n)
    for _ in range(3):
        # When the tree runs (walked, then replayed from its kept plan after the agents moved)
        got = tree(agents, DT)
        want = reference(tree, agents, agents.max_speed, agents.max_force)
        # Then it equals its rules called alone, combined
        assert np.isfinite(got).all()
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
        integrate(agents, got, DT)


def test_a_flock_of_rules_shares_one_query_at_the_largest_distance() -> None:
    # Given separation, alignment and cohesion in one sum, and a second sum whose alignment
    # searches another group
    agents = _agents(40)
    shared = WeightedSum([Separate(25.0), Weighted(Align(50.0), 0.5), Cohere(70.0, fov=240.0)])
    apart = WeightedSum([Separate(25.0), Align(50.0, others=OTHERS)])
    # When each runs
    for tree in (shared, apart):
        tree(agents, DT)
    # Then the first shares one query at 70 px, the second has only one rule able to
    plan = kept_plan(shared)
    assert plan is not None and isinstance(plan.records[0], NearRecord)
    assert plan.records[0].reach == 70.0
    assert plan.records[0].shares.tolist() == [1, 1, 1]
    plan = kept_plan(apart)
    assert plan is not None and plan.records[0].shares.tolist() == [0, 0]


def test_one_rule_met_twice_searches_by_itself() -> None:
    # Given one separation met twice, before and after a seek, under masks that split the
    # crowd (the world's separation around its goal)
    agents = _agents(40)
    first = np.arange(40) % 3 == 0
    sep = Separate(25.0)
    seek = Seek(np.array([10.0, -20.0]))
    tree = TruncatedRunningSum([Masked(sep, first), seek, Masked(sep, ~first)])
    # When it runs
    force = tree(agents, DT).copy()
    # Then no query is shared (one part gains nothing from it: a shared loop cost the world's
    # large crowds 7-9 %), and the forces are the parts' own
    plan = kept_plan(tree)
    assert plan is not None and not isinstance(plan.records[0], NearRecord)
    alone = sep(agents, DT)
    pull = seek(agents, DT)
    expect = np.zeros((40, 2))
    for f in (np.where(first[:, None], alone, 0.0), pull, np.where(first[:, None], 0.0, alone)):
        TruncatedRunningSum.accumulate(expect, f, 1.0, agents.max_force)
    np.testing.assert_allclose(force, expect, rtol=0, atol=1e-9)


@pytest.mark.parametrize("shared", [False, True])
def test_rules_in_a_grid_replayed_under_an_unchanged_stamp_follow_the_moving_agents(
    shared: bool,
) -> None:
    # Given forty agents (a neighbour grid) and a sum of separation and seek (with alignment:
    # the two rules share a query) run under a caller's stamp that never changes
    agents = _agents(40)
    parts: list[Any] = [Separate(25.0), Seek((0.0, 0.0))]
    if shared:
        parts.append(Weighted(Align(40.0), 0.5))
    tree = TruncatedRunningSum(parts)
    jumps = np.random.default_rng(8).uniform(-30.0, 30.0, (6, 40, 2))
    for jump in jumps:
        # When the agents move between calls, far (the stamp does not cover the contents of
        # the agents' columns)
        got = run(tree, agents, DT, stamp=1)
        agents.pos[:] += jump  # (in place: the same column)
        # Then every call searches the grid of the agents' current positions
        got = run(tree, agents, DT, stamp=1)
        want = reference(tree, agents, agents.max_speed, agents.max_force)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
