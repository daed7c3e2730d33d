"""Unaligned collision avoidance (OpenSteer): closest approach, the threat, the side, crowds."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import pdist

from steering import Arrive, AvoidAgents, Seek, Separate, TruncatedRunningSum, swept_boxes
from steering import avoid_agents as avoid_module
from steering.agents import AgentGroup, integrate
from steering.base import Behaviour, Debug
from steering.vec import FloatArray, length, truncate

DT = 1 / 60


def crossing_pair(bx: float = 100.0) -> AgentGroup:
    """A at the origin moving +x at 100 px/s; B at (bx, -100) moving +y at 100 px/s."""
    return AgentGroup.create(
        [(0, 0), (bx, -100)], [(100, 0), (0, 100)], max_speed=120, max_force=1e4, radius=8
    )


# -- closest approach, worked by hand --------------------------------------------------------


def test_closest_approach_of_two_agents_on_crossing_lines() -> None:
    # Given A and B on lines that cross at (100, 0), both 1 s away from it
    agents = crossing_pair()
    debug: Debug = {}
    # When
    AvoidAgents()(agents, DT, debug)
    # Then dp = (100, -100), dv = (-100, 100): t = -dp.dv / |dv|^2 = 20000 / 20000 = 1 s,
    # and both will be at (100, 0) then: each is the other's threat
    np.testing.assert_allclose(debug["avoidagents.time"], [1.0, 1.0])
    np.testing.assert_array_equal(debug["avoidagents.threat"], [1, 0])
    np.testing.assert_allclose(debug["avoidagents.point"], [[100.0, 0.0], [100.0, 0.0]])
    np.testing.assert_allclose(debug["avoidagents.threat_point"], [[100.0, 0.0], [100.0, 0.0]])


def test_sidestep_of_a_near_miss_worked_by_hand() -> None:
    # Given B 20 px further along: dp = (120, -100), dv = (-100, 100), dp.dv = -22000, so
    # t = 22000 / 20000 = 1.1 s; A will be at (110, 0), B at (120, 10): miss (10, 10),
    # 14.14 px < clearance 8 + 8 + 2 = 18
    agents = crossing_pair(bx=120.0)
    debug: Debug = {}
    force = AvoidAgents(brake=0.0)(agents, DT, debug)
    np.testing.assert_allclose(debug["avoidagents.time"], [1.1, 1.1])
    np.testing.assert_allclose(debug["avoidagents.point"][0], [110.0, 0.0])
    np.testing.assert_allclose(debug["avoidagents.threat_point"][0], [120.0, 10.0])
    # A (heading +x) sees B 10 px ahead and 10 px to its left, more than half the clearance
    # (9 px) to the side: it steers right, away. Its sideways speed must bring B's lateral
    # offset out to the half chord w = sqrt(18^2 - 10^2) by t: (w - 10) / 1.1 px/s, steered
    # toward at gain 8
    need = (math.sqrt(18.0**2 - 10.0**2) - 10.0) / 1.1
    np.testing.assert_allclose(force[0], [0.0, -need * 8.0], atol=1e-9)
    # B (heading +y) sees A 10 px behind and 10 px to its left: it steers right, +x
    np.testing.assert_allclose(force[1], [need * 8.0, 0.0], atol=1e-9)
    np.testing.assert_array_equal(debug["avoidagents.side"], [-1.0, -1.0])
    np.testing.assert_array_equal(agents.state["avoidagents.side"], [-1.0, -1.0])


def test_braking_scales_with_urgency() -> None:
    agents = crossing_pair(bx=120.0)
    plain = AvoidAgents(brake=0.0)(agents, DT)
    braking = AvoidAgents(brake=0.5)(agents, DT)
    # -velocity * brake * (1 - t / horizon) * gain = -(100, 0) * 0.5 * (1 - 1.1 / 1.5) * 8
    np.testing.assert_allclose(braking[0] - plain[0], [-100 * 0.5 * (0.4 / 1.5) * 8, 0.0])


@pytest.mark.parametrize(
    ("pos", "vel"),
    [
        ([(0, 0), (100, 0)], [(-50, 0), (50, 0)]),  # moving apart
        ([(0, 0), (0, 10)], [(80, 0), (80, 0)]),  # in step: dv = 0, and overlapping
        ([(0, 0), (500, 0)], [(100, 0), (-100, 0)]),  # head on, 2.5 s away: beyond 1.5 s
        ([(0, 0), (200, 40)], [(100, 0), (-100, 0)]),  # passing 40 px apart
        ([(0, 0), (0, 0)], [(0, 0), (0, 0)]),  # coincident and still
    ],
)
def test_no_threat_no_force(pos: list[tuple[float, float]], vel: list[tuple[float, float]]) -> None:
    agents = AgentGroup.create(pos, vel, radius=8)
    debug: Debug = {}
    force = AvoidAgents()(agents, DT, debug)
    np.testing.assert_array_equal(force, np.zeros((2, 2)))
    np.testing.assert_array_equal(debug["avoidagents.threat"], [-1, -1])
    assert np.isnan(debug["avoidagents.point"]).all()


def test_the_most_imminent_threat_wins() -> None:
    # Given agent 0 heading +x and two oncoming agents, 1 s and 0.5 s away from it
    agents = AgentGroup.create(
        [(0, 0), (200, 2), (100, -2)], [(100, 0), (-100, 0), (-100, 0)], radius=8
    )
    debug: Debug = {}
    AvoidAgents()(agents, DT, debug)
    assert debug["avoidagents.threat"][0] == 2
    np.testing.assert_allclose(debug["avoidagents.time"][0], 0.5)


def test_head_on_both_turn_to_their_own_left() -> None:
    # Given two agents exactly head on: no side to steer from
    agents = AgentGroup.create([(0, 0), (200, 0)], [(100, 0), (-100, 0)], radius=8)
    force = AvoidAgents(brake=0.0)(agents, DT)
    # Then each turns left of its own heading: A (+x) to +y, B (-x) to -y, and they pass
    assert force[0, 1] > 0.0 > force[1, 1]
    np.testing.assert_allclose(force[:, 0], [0.0, 0.0], atol=1e-9)
    right = AvoidAgents(brake=0.0, tie_break="right")(
        AgentGroup.create([(0, 0), (200, 0)], [(100, 0), (-100, 0)], radius=8), DT
    )
    assert right[0, 1] < 0.0 < right[1, 1]


def test_overtaking_the_two_part_to_opposite_sides() -> None:
    # Given a fast agent right behind a slow one on the same line
    agents = AgentGroup.create([(0, 0), (60, 0)], [(120, 0), (30, 0)], radius=8)
    force = AvoidAgents(brake=0.0)(agents, DT)
    # Then the one behind turns left (+y) and the one ahead, whose threat is behind, right
    assert force[0, 1] > 0.0 > force[1, 1]


def test_contact_range_steers_straight_apart() -> None:
    # Given two agents already inside each other's clearance and still closing
    agents = AgentGroup.create(
        [(0, 0), (12, 5)], [(50, 0), (-50, 0)], max_speed=100, max_force=1e5, radius=8
    )
    force = AvoidAgents(brake=0.0)(agents, DT)
    # Then each is pushed along the line between them, away from the other, at max speed
    away = np.array([-12.0, -5.0]) / 13.0
    np.testing.assert_allclose(force[0], away * 100 * 8.0, atol=1e-9)
    np.testing.assert_allclose(force[1], -away * 100 * 8.0, atol=1e-9)


def test_reach_covers_the_fastest_closing_and_is_capped() -> None:
    agents = AgentGroup.create([(0, 0), (1, 0)], max_speed=[50, 80], radius=[4, 10])
    assert AvoidAgents(time_horizon=1.0, margin=2.0).reach(agents) == 2 * 80 + 20 + 2
    assert AvoidAgents(time_horizon=10.0, max_reach=250.0).reach(agents) == 250.0
    assert AvoidAgents().reach(AgentGroup.create([(0, 0)])) == 0.0


def test_invalid_parameters_are_rejected() -> None:
    for kwargs in (
        {"time_horizon": 0.0},
        {"brake": 2.0},
        {"commit": -0.1},
        {"max_reach": math.inf},
        {"tie_break": "up"},
    ):
        with pytest.raises(ValueError):
            AvoidAgents(**kwargs)  # type: ignore[arg-type]


# -- the remembered side ---------------------------------------------------------------------


def test_the_remembered_side_decides_while_the_threat_is_ambiguous() -> None:
    # Given a head-on threat 2 px to the left (ambiguous) and a remembered right turn
    agents = AgentGroup.create([(0, 0), (200, 2)], [(100, 0), (-100, 0)], radius=8)
    agents.state["avoidagents.side"] = np.array([-1.0, 0.0])
    debug: Debug = {}
    AvoidAgents()(agents, DT, debug)
    # Then agent 0 keeps turning right, toward the threat's side, while agent 1, which
    # remembers nothing, takes the convention (its left)
    np.testing.assert_array_equal(debug["avoidagents.side"], [-1.0, 1.0])
    # But a threat clearly on the remembered side (14 px to the left, more than half the
    # clearance) overrides it: agent 0 remembers left, and turns right, away
    agents.pos = np.array([[0.0, 0.0], [200.0, 14.0]])
    agents.state["avoidagents.side"] = np.array([1.0, 0.0])
    AvoidAgents()(agents, DT, debug)
    assert debug["avoidagents.side"][0] == -1.0
    # And with no threat left the memory is cleared
    agents.pos = np.array([[0.0, 0.0], [200.0, 300.0]])
    AvoidAgents()(agents, DT)
    np.testing.assert_array_equal(agents.state["avoidagents.side"], [0.0, 0.0])


def test_nan_memory_reads_as_none() -> None:
    agents = AgentGroup.create([(0, 0), (200, 0)], [(100, 0), (-100, 0)], radius=8)
    agents.state["avoidagents.side"] = np.array([np.nan, np.nan])
    force = AvoidAgents()(agents, DT)
    assert np.isfinite(force).all() and force[0, 1] > 0.0
    np.testing.assert_array_equal(agents.state["avoidagents.side"], [1.0, 1.0])


def side_changes(forget: bool) -> tuple[int, int]:
    """One agent seeking through a file of oncoming agents that do not steer (max force 0),
    each a little to one side or the other of its line; with ``forget`` its remembered side
    is wiped every step. Returns how often its side changed and how many threats it met."""
    ys = [-10.5, 3.4, 8.5, 2.2, -5.8]
    pos = [(0.0, 0.0)] + [(150.0 + 30.0 * k, y) for k, y in enumerate(ys)]
    vel = [(100.0, 0.0)] + [(-60.0, 0.0)] * len(ys)
    agents = AgentGroup.create(
        pos, vel, max_speed=[120] + [60] * 5, max_force=[360] + [0] * 5, radius=8
    )
    steer = TruncatedRunningSum([AvoidAgents(), Seek((800.0, 0.0))])
    sides: list[float] = []
    threats: set[int] = set()
    for _ in range(300):
        if forget:
            agents.state["avoidagents.side"] = np.zeros(agents.n)
        debug: Debug = {}
        integrate(agents, steer(agents, DT, debug), DT)
        if debug["avoidagents.threat"][0] >= 0:
            sides.append(float(debug["avoidagents.side"][0]))
            threats.add(int(debug["avoidagents.threat"][0]))
    return sum(x != y for x, y in itertools.pairwise(sides)), len(threats)


def test_no_jiggle_when_the_most_imminent_neighbour_changes() -> None:
    # Given an agent whose first threat is clearly to its right and whose next ones are
    # nearly dead ahead, on either side: its most imminent neighbour changes
    changes, threats = side_changes(forget=False)
    # Then it keeps the side it chose while threatened
    assert threats >= 3
    assert changes == 0
    # And without the memory (the side re-decided every step) it turns left, right, left
    forgetful, _ = side_changes(forget=True)
    assert forgetful >= 2


# -- crowds over time ------------------------------------------------------------------------


def crowds(rows: int, cols: int, spacing: float, seed: int) -> tuple[AgentGroup, FloatArray]:
    """Two blocks of rows x cols agents (radius 8) 300 px apart, walking into each other at
    full speed, each agent's goal 600 px straight on; positions jittered by up to 5 px."""
    rng = np.random.default_rng(seed)
    ys = (np.arange(rows) - (rows - 1) / 2) * spacing

    def block(x0: float, direction: float) -> FloatArray:
        xs = x0 - direction * np.arange(cols) * spacing
        grid = np.array([(x, y) for x in xs for y in ys])
        return grid + rng.uniform(-5.0, 5.0, grid.shape)

    a, b = block(0.0, 1.0), block(300.0, -1.0)
    pos = np.concatenate((a, b))
    vel = np.concatenate((np.tile([120.0, 0.0], (len(a), 1)), np.tile([-120.0, 0.0], (len(b), 1))))
    goals = np.concatenate((a + np.array([600.0, 0.0]), b - np.array([600.0, 0.0])))
    return AgentGroup.create(pos, vel, max_speed=120, max_force=360, radius=8), goals


def cross_over(agents: AgentGroup, steer: Behaviour, seconds: float) -> tuple[int, float]:
    """Run; return the number of (pair, step) overlaps and the deepest overlap (px)."""
    overlaps, deepest = 0, 0.0
    for _ in range(round(seconds / DT)):
        integrate(agents, steer(agents, DT), DT)
        gap = pdist(agents.pos) - 16.0
        overlaps += int(np.count_nonzero(gap < 0.0))
        deepest = max(deepest, float(-gap.min()))
    return overlaps, deepest


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_files_crossing_head_on_never_overlap(seed: int) -> None:
    # Given two files of 10 agents, 40 px apart (bodies 16 px), walking into each other
    agents, goals = crowds(10, 1, 40.0, seed)
    # When they avoid each other and arrive on the far side
    overlaps, deepest = cross_over(agents, TruncatedRunningSum([AvoidAgents(), Arrive(goals)]), 5.0)
    # Then no two bodies overlap by more than a hair, while without avoidance they collide
    # head on (a dozen agents walk straight through one another)
    assert deepest <= 0.25, (overlaps, deepest)
    plain, _ = crowds(10, 1, 40.0, seed)
    blind, blind_deepest = cross_over(plain, Arrive(goals), 5.0)
    assert blind > 50 and blind_deepest > 12.0
    assert np.linalg.norm(agents.pos - goals, axis=1).max() < 100.0


def test_dense_blocks_overlap_drastically_less_with_separation() -> None:
    # Given two blocks three deep, 36 px apart: too tight for everyone to sidestep (a
    # sidestep meets a second agent), so alone avoidance still touches now and then
    agents, goals = crowds(4, 3, 36.0, 0)

    def steer(agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        return truncate(avoid(agents, dt, debug) + separate(agents, dt), agents.max_force)

    avoid, separate = AvoidAgents(), Separate(20.0)
    overlaps, deepest = cross_over(agents, TruncatedRunningSum([steer, Arrive(goals)]), 5.0)
    plain, _ = crowds(4, 3, 36.0, 0)
    blind, _ = cross_over(plain, Arrive(goals), 5.0)
    # Then with separation for the touching ones: over 20 times fewer overlaps, all shallow
    assert overlaps * 20 < blind, (overlaps, blind)
    assert deepest < 2.0


# -- properties ------------------------------------------------------------------------------


@st.composite
def groups(draw: st.DrawFn) -> AgentGroup:
    """Random groups: coincident agents, zero velocities, tiny and large coordinates."""
    n = draw(st.integers(1, 16))
    scale = draw(st.sampled_from([1e-9, 1.0, 30.0, 300.0, 1e6]))
    pool = draw(st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=1, max_size=n))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    pos = np.array([pool[k] for k in picks]) * scale
    speed = st.floats(-300, 300)
    vel = np.array(draw(st.lists(st.tuples(speed, speed), min_size=n, max_size=n)))
    if draw(st.booleans()):
        vel[: n // 2] = 0.0
    agents = AgentGroup.create(
        pos,
        vel,
        max_speed=draw(st.lists(st.floats(0, 400), min_size=n, max_size=n)),
        max_force=draw(st.lists(st.floats(0, 3000), min_size=n, max_size=n)),
        radius=draw(st.lists(st.sampled_from([0.0, 1.0, 8.0, 30.0]), min_size=n, max_size=n)),
    )
    memory = st.sampled_from([0.0, 1.0, -1.0, np.nan])
    agents.state["avoidagents.side"] = np.array(draw(st.lists(memory, min_size=n, max_size=n)))
    return agents


@settings(max_examples=100, deadline=None)
@given(
    agents=groups(),
    horizon=st.sampled_from([1e-3, 0.5, 1.5, 10.0]),
    brake=st.sampled_from([0.0, 0.5, 1.0]),
)
@pytest.mark.slow
def test_forces_are_finite_and_within_max_force(
    agents: AgentGroup, horizon: float, brake: float
) -> None:
    avoid = AvoidAgents(time_horizon=horizon, brake=brake)
    for _ in range(2):
        debug: Debug = {}
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            force = avoid(agents, DT, debug)
        assert force.shape == (agents.n, 2)
        assert np.isfinite(force).all()
        assert (length(force) <= agents.max_force * (1 + 1e-12) + 1e-9).all()
        threat = np.asarray(debug["avoidagents.threat"])
        assert ((threat >= -1) & (threat < agents.n) & (threat != np.arange(agents.n))).all()
        assert np.isin(agents.state["avoidagents.side"], [-1.0, 0.0, 1.0]).all()
        integrate(agents, force, DT)


# -- the swept-box search finds what testing every pair finds --------------------------------


def _every_pair(agents: AgentGroup, monkeypatch: pytest.MonkeyPatch) -> tuple[FloatArray, Debug]:
    """AvoidAgents' forces and debug with every pair tested (no grid)."""
    with monkeypatch.context() as patch:
        patch.setattr(avoid_module, "BRUTE_MAX", 10**9)
        debug: Debug = {}
        return AvoidAgents()(agents, DT, debug), debug


SEARCH_CASES = {
    "a crowd": (300, 80.0, None),
    "a torus": (300, 80.0, (400.0, 300.0)),
    "fast agents in a small torus": (200, 900.0, (250.0, 200.0)),
    "agents outside the torus": (200, 60.0, (300.0, 300.0)),
    "standing still": (200, 0.0, None),
    "one still agent": (200, 80.0, None),
    "a NaN radius": (200, 80.0, None),
    "an infinite radius": (200, 80.0, None),
    "a stray agent": (200, 80.0, None),
    "a sparse crowd": (200, 80.0, None),
    "a few very fast agents": (300, 80.0, None),
}


@pytest.mark.parametrize("case", list(SEARCH_CASES))
def test_the_swept_box_search_finds_what_every_pair_finds(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a crowd above the size tested pair by pair, in this case
    n, spread, world = SEARCH_CASES[case]
    rng = np.random.default_rng(sum(map(ord, case)))
    size = world or (400.0, 300.0)
    pos = rng.uniform(0.0, 1.0, (n, 2)) * size
    vel = rng.normal(0.0, spread, (n, 2))
    if case == "agents outside the torus":
        pos += rng.integers(-3, 4, (n, 2)) * size
    if case == "one still agent":
        vel[5] = 0.0
    if case == "a sparse crowd":
        pos *= 1e4  # far more area than cells
    if case == "a few very fast agents":
        vel[:4] *= 1e4  # boxes across the whole crowd
    agents = AgentGroup.create(pos, vel, max_speed=120.0, radius=8.0, world_size=world)
    if case == "a NaN radius":
        agents.radius[7] = math.nan
    if case == "an infinite radius":
        agents.radius[7] = math.inf
    if case == "a stray agent":
        agents.pos[3] = (math.nan, 5.0)
        agents.vel[4] = (math.inf, 0.0)
    assert n > avoid_module.BRUTE_MAX
    # When the grid searches it, and when every pair is tested instead
    debug: Debug = {}
    force = AvoidAgents()(agents, DT, debug)
    side = debug["avoidagents.side"]
    agents.state["avoidagents.side"][:] = 0.0
    every, every_debug = _every_pair(agents, monkeypatch)
    # Then the threats, times, sides and forces are the same, bit for bit
    np.testing.assert_array_equal(every, force)
    for key in ("avoidagents.threat", "avoidagents.time"):
        np.testing.assert_array_equal(every_debug[key], debug[key])
    np.testing.assert_array_equal(every_debug["avoidagents.side"], side)
    if case in ("a crowd", "a torus", "fast agents in a small torus"):
        assert (debug["avoidagents.threat"] >= 0).sum() > n // 4  # plenty of threats


def test_the_search_grid_stays_within_its_memory_bound() -> None:
    # Given crowds whose boxes would need far more cells or entries than agents: spread
    # over a vast area, and every agent crossing the whole crowd within the horizon
    rng = np.random.default_rng(3)
    n = 400
    for pos, vel in (
        (rng.uniform(0.0, 1e7, (n, 2)), rng.normal(0.0, 50.0, (n, 2))),
        (rng.uniform(0.0, 500.0, (n, 2)), rng.normal(0.0, 1e5, (n, 2))),
    ):
        box = np.empty((n, 4))
        status = np.empty(n, dtype=np.int8)
        radius = np.full(n, 8.0)
        side, scale = swept_boxes.swept_boxes(pos, vel, radius, 1.5, 2.0, 0.0, 0.0, box, status)
        # When the grid is built
        grid = swept_boxes.box_grid(pos, vel, radius, box, status, side, scale, 0.0, 0.0, False)
        start, items = grid.start, grid.items
        # Then it holds at most its cells and entries per agent
        assert start.size - 1 <= 4 * (swept_boxes.CELLS_PER_AGENT * n + 64)
        assert items.size <= swept_boxes.ENTRIES_PER_AGENT * n + 64


def _threats_by_hand(agents: AgentGroup, avoid: AvoidAgents) -> tuple[list[int], list[float]]:
    """Each agent's threat and time by the class docstring's maths, in plain Python floats,
    every pair tested: no grid and none of the kernels' shortcuts."""
    n = agents.n
    w, h = agents.world_size or (0.0, 0.0)
    reach = avoid.reach(agents)
    threat, when = [], []
    for i in range(n):
        best, t = -1, math.inf
        xi, yi = float(agents.pos[i, 0]), float(agents.pos[i, 1])
        vx, vy = float(agents.vel[i, 0]), float(agents.vel[i, 1])
        for j in range(n):
            if j == i:
                continue
            dx = float(agents.pos[j, 0]) - xi
            dy = float(agents.pos[j, 1]) - yi
            if w > 0.0:
                dx -= w * math.floor(dx / w + 0.5)
                dy -= h * math.floor(dy / h + 0.5)
            if not dx * dx + dy * dy < reach * reach:
                continue
            dvx = float(agents.vel[j, 0]) - vx
            dvy = float(agents.vel[j, 1]) - vy
            closing = -(dx * dvx + dy * dvy)
            dv2 = dvx * dvx + dvy * dvy
            if not (closing > 0.0 and closing <= avoid.time_horizon * dv2):
                continue
            tj = closing / dv2
            mx, my = dx + dvx * tj, dy + dvy * tj
            cl = max(float(agents.radius[i]), 0.0) + max(float(agents.radius[j]), 0.0)
            cl += avoid.margin
            if mx * mx + my * my < cl * cl and (tj < t or (tj == t and j < best)):
                best, t = j, tj
        threat.append(best)
        when.append(t)
    return threat, when


HAND_CASES = ("capped spans in a torus", "a thin torus", "half a world apart", "overflowing")


@pytest.mark.parametrize("case", HAND_CASES)
def test_the_search_finds_the_threats_worked_out_by_hand(case: str) -> None:
    # Given crowds at the search's edges: boxes wider than a third of a torus, a torus one
    # cell wide, agents exactly half a world apart, and products that overflow
    rng = np.random.default_rng(sum(map(ord, case)))
    n = 120
    world: tuple[float, float] | None = (400.0, 300.0)
    pos = rng.uniform(0.0, 1.0, (n, 2)) * (400.0, 300.0)
    vel = rng.normal(0.0, 80.0, (n, 2))
    if case == "capped spans in a torus":
        vel[:6] *= 6.0
    elif case == "a thin torus":
        world = (30.0, 3000.0)
        pos = rng.uniform(0.0, 1.0, (n, 2)) * world
    elif case == "half a world apart":
        pos = np.array([(20.0 * (k % 10), 30.0 * (k // 10)) for k in range(n)], dtype=float)
        vel = rng.choice([-50.0, 0.0, 50.0], (n, 2))
    else:
        world = None
        vel[:3] = ((-4.36e152, 0.0), (0.0, 1e153), (1e152, -1e152))
        pos[3] = pos[0] + (-30.0, 10.0)  # |dp|^2 |dv|^2 overflows: 0 passes 3 at 10 px
        vel[3] = 0.0
    agents = AgentGroup.create(pos, vel, max_speed=120.0, radius=8.0, world_size=world)
    avoid = AvoidAgents()
    # When the group searches itself
    debug: Debug = {}
    avoid(agents, DT, debug)
    # Then every threat and time is the one worked out by hand
    threat, when = _threats_by_hand(agents, avoid)
    assert debug["avoidagents.threat"].tolist() == threat
    assert debug["avoidagents.time"].tolist() == when
    assert sum(t >= 0 for t in threat) > n // 10


def test_a_few_very_fast_agents_are_searched_apart_from_the_grid() -> None:
    # Given a crowd with four agents a thousand times faster than the rest
    rng = np.random.default_rng(4)
    n = 2000
    pos = rng.uniform(0.0, 1800.0, (n, 2))
    vel = rng.normal(0.0, 40.0, (n, 2))
    vel[:4] *= 1000.0
    radius = np.full(n, 8.0)
    box = np.empty((n, 4))
    status = np.empty(n, dtype=np.int8)
    # When the grid is built
    typical, scale = swept_boxes.swept_boxes(pos, vel, radius, 1.5, 2.0, 0.0, 0.0, box, status)
    grid = swept_boxes.box_grid(pos, vel, radius, box, status, typical, scale, 0.0, 0.0, False)
    # Then those four are tested against everyone, and the rest sit in cells of their own
    # size (a few entries each), not in cells as wide as the fast agents' paths
    assert np.flatnonzero(status == swept_boxes.WILD).tolist() == [0, 1, 2, 3]
    assert 30.0 < typical < 150.0
    assert grid.items.size < 6 * n
    assert grid.gx * grid.gy > n // 4
