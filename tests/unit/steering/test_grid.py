"""The neighbour grid: the same neighbours as measuring every pair, in every mode; the cache."""

from __future__ import annotations

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Align,
    AvoidAgents,
    Cohere,
    Flock,
    Hide,
    Obstacles,
    Queue,
    Separate,
    integrate,
)
from steering import _jit as jit
from steering import grid as grid_module
from steering.grid import (
    BRUTE_MAX,
    F_MODE,
    MODE_BRUTE,
    MODE_DENSE,
    MODE_HASH,
    brute_grid,
    build_grid,
    directed_pairs,
)
from steering.vec import FloatArray

DT = 1.0 / 60.0


def every_pair(
    pos: FloatArray, radii: FloatArray, world: tuple[float, float] | None
) -> set[tuple[int, int]]:
    """(i, j) with j closer than radii[i], by measuring every pair (minimal image)."""
    out: set[tuple[int, int]] = set()
    for i in range(len(pos)):
        d = pos - pos[i]
        if world is not None:
            for axis in (0, 1):
                d[:, axis] -= world[axis] * np.floor(d[:, axis] / world[axis] + 0.5)
        near = np.flatnonzero(np.hypot(d[:, 0], d[:, 1]) < radii[i])
        out |= {(i, int(j)) for j in near if j != i}
    return out


def _layout(kind: str, n: int, rng: np.random.Generator) -> tuple[FloatArray, tuple | None]:
    if kind == "box":
        return rng.uniform(0.0, 300.0, (n, 2)), None
    if kind == "far apart":  # two clusters 1e7 px apart: the box has far too many cells
        pos = rng.uniform(0.0, 50.0, (n, 2))
        pos[n // 2 :] += 1e7
        return pos, None
    if kind == "torus":
        world = (300.0, 200.0)
        return rng.uniform(0.0, 1.0, (n, 2)) * world, world
    # a thin torus: fewer cells across than a disc spans, and a huge sparse one along
    world = (40.0, 5e4)
    return rng.uniform(0.0, 1.0, (n, 2)) * world, world


@pytest.mark.parametrize("kind", ["box", "far apart", "torus", "thin torus"])
@pytest.mark.parametrize("seed", [0, 1])
def test_grid_finds_exactly_the_pairs_of_the_all_pairs_loop(kind: str, seed: int) -> None:
    # Given agents with mixed distances (0, NPC-like, enemy-like, huge) and various cells
    rng = np.random.default_rng(seed)
    n = 300
    pos, world = _layout(kind, n, rng)
    radii = rng.choice([0.0, 13.0, 24.0, 40.0, 500.0], n)
    want = every_pair(pos, radii, world)
    for cell in (5.0, 24.0, 60.0):
        # When
        grid = build_grid(pos, cell, world)
        i, j = directed_pairs(grid, pos, radii)
        # Then: every pair once, none missing, none extra
        got = list(zip(i.tolist(), j.tolist(), strict=True))
        assert len(got) == len(set(got))
        assert set(got) == want
    # and without a grid too
    i, j = directed_pairs(brute_grid(world), pos, radii)
    assert set(zip(i.tolist(), j.tolist(), strict=True)) == want


def test_sparse_crowds_hash_their_cells_and_compact_ones_do_not() -> None:
    rng = np.random.default_rng(0)
    compact = build_grid(rng.uniform(0.0, 300.0, (300, 2)), 24.0, None)
    sparse = build_grid(rng.uniform(0.0, 1e6, (300, 2)), 24.0, None)
    assert compact.floats[F_MODE] == MODE_DENSE
    assert sparse.floats[F_MODE] == MODE_HASH
    assert brute_grid(None).floats[F_MODE] == MODE_BRUTE


def test_huge_and_tiny_coordinates_do_not_break_the_grid() -> None:
    # Given agents at +-1e300 and a pair 1e-300 apart among 100 agents
    rng = np.random.default_rng(2)
    pos = rng.uniform(-1.0, 1.0, (100, 2)) * 1e300
    pos[:2] = [(0.0, 0.0), (1e-300, 0.0)]
    radii = np.full(100, 24.0)
    grid = build_grid(pos, 24.0, None)
    i, j = directed_pairs(grid, pos, radii)
    assert set(zip(i.tolist(), j.tolist(), strict=True)) == {(0, 1), (1, 0)}


def test_the_grid_is_built_once_per_step_per_cell_size() -> None:
    rng = np.random.default_rng(3)
    n = 4 * BRUTE_MAX
    agents = AgentGroup.create(rng.uniform(0.0, 300.0, (n, 2)), rng.normal(0.0, 30.0, (n, 2)))
    for behaviour in (Separate(24.0), Align(24.0), Cohere(24.0), Queue(24.0)):
        behaviour(agents, DT)
    Cohere(50.0)(agents, DT)
    assert agents._grids.builds == 2
    # Positions written in place, or a new array: rebuilt
    agents.pos[0, 0] += 1.0
    Separate(24.0)(agents, DT)
    assert agents._grids.builds == 3
    agents.pos = agents.pos.copy()
    Separate(24.0)(agents, DT)
    assert agents._grids.builds == 3  # same values: still valid
    agents.pos = agents.pos + 1.0
    Separate(24.0)(agents, DT)
    assert agents._grids.builds == 4


def _big_crowd(n: int, seed: int) -> AgentGroup:
    rng = np.random.default_rng(seed)
    side = np.sqrt(n) * 25.0
    vel = rng.normal(0.0, 60.0, (n, 2))
    # The constructor: AgentGroup.create's heading kernel (vec) does not run in parallel yet.
    return AgentGroup(
        pos=rng.uniform(0.0, side, (n, 2)),
        vel=vel,
        max_speed=np.full(n, 120.0),
        max_force=np.full(n, 360.0),
        radius=np.full(n, 8.0),
        mass=np.ones(n),
        heading=vel / np.hypot(vel[:, :1], vel[:, 1:]),
    )


@pytest.mark.slow
def test_serial_and_parallel_kernels_give_bit_identical_forces() -> None:
    # Given a crowd large enough for the parallel kernels
    agents = _big_crowd(jit.PARALLEL_MIN + 100, 4)
    agents.state["separation"] = np.where(np.arange(agents.n) % 10 == 0, 40.0, 20.0)
    rocks = np.random.default_rng(5).uniform(0.0, 1600.0, (60, 2))
    behaviours = [
        Separate(24.0),
        Separate(per_agent=True, fov=270.0),
        Align(40.0, match_speed=True),
        Cohere(40.0, fov=200.0),
        AvoidAgents(),
        Queue(),
        Flock(target=(0.0, 0.0)),
        # a grid of spots (some agents find none and evade), and no rock at all (all evade)
        Hide((800.0, 800.0), Obstacles.create(rocks, np.full(60, 15.0)), (10.0, 0.0)),
        Hide((800.0, 800.0), Obstacles.create(np.zeros((0, 2)), np.zeros(0))),
    ]
    for behaviour in behaviours:
        if isinstance(behaviour, AvoidAgents):
            agents.column("avoidagents.side", fill=0.0)[:] = 0.0  # both start unremembered
        parallel = behaviour(agents, DT)
        saved = jit.PARALLEL_MIN
        try:
            jit.PARALLEL_MIN = 10**9
            if isinstance(behaviour, AvoidAgents):
                agents.state["avoidagents.side"][:] = 0.0
            serial = behaviour(agents, DT)
        finally:
            jit.PARALLEL_MIN = saved
        np.testing.assert_array_equal(parallel, serial, err_msg=type(behaviour).__name__)
        assert np.isfinite(serial).all()


def test_forces_are_the_same_run_to_run_and_with_or_without_a_grid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a crowd just above the brute-force size, and the same crowd in a copy
    def crowd() -> AgentGroup:
        rng = np.random.default_rng(5)
        n = BRUTE_MAX + 30
        return AgentGroup.create(rng.uniform(0.0, 120.0, (n, 2)), rng.normal(0.0, 50.0, (n, 2)))

    a, b = crowd(), crowd()
    for _ in range(30):
        fa = Flock(target=(60.0, 60.0))(a, DT)
        fb = Flock(target=(60.0, 60.0))(b, DT)
        np.testing.assert_array_equal(fa, fb)
        integrate(a, fa, DT)
        integrate(b, fb, DT)
    # And the grid answers as measuring every pair does (sums in another order: allclose)
    small = crowd()
    with_grid = Separate(24.0)(small, DT)
    monkeypatch.setattr(grid_module, "BRUTE_MAX", 10**6)
    np.testing.assert_allclose(Separate(24.0)(small, DT), with_grid, rtol=1e-12, atol=1e-9)


def test_the_cache_stays_small_when_cell_sizes_vary_at_fixed_positions() -> None:
    # AvoidAgents sizes its cells by the current speeds: velocities that change while the
    # positions stand still must not grow the cache without end
    rng = np.random.default_rng(6)
    n = 4 * BRUTE_MAX
    agents = AgentGroup.create(rng.uniform(0.0, 300.0, (n, 2)))
    for k in range(50):
        agents.neighbour_grid(10.0 + k)
    assert len(agents._grids.grids) <= 8


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("world", [None, (400.0, 300.0)])
def test_a_point_that_is_not_finite_has_no_neighbours(
    bad: float, world: tuple[float, float] | None
) -> None:
    # (int() of a NaN cell index read the grid out of bounds: a crash or garbage)
    rng = np.random.default_rng(2)
    pos = rng.uniform(0.0, 300.0, (200, 2))
    grid = grid_module.build_grid(pos, 20.0, world)
    buf = np.empty((64, grid_module.BUF_COLS))
    for x, y in ((bad, 10.0), (10.0, bad), (bad, bad)):
        assert grid_module.near_point(grid.ints, grid.floats, pos, x, y, -1, 30.0, buf) == 0
    # and a crowd with a stray agent keeps its other agents' forces finite
    agents = AgentGroup.create(pos, np.zeros((200, 2)), world_size=world)
    agents.pos[0] = (bad, 50.0)
    for behaviour in (Separate(25.0), Flock(), Align(50.0), Cohere(50.0)):
        force = behaviour(agents, 1 / 60)
        assert np.isfinite(force[1:]).all()
