"""Wall avoidance (Buckland's feelers): the wall set, its index, feeler forces, the skin, time."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering import AvoidWalls, Seek, TruncatedRunningSum, Walls
from steering.agents import AgentGroup, integrate
from steering.base import Debug
from steering.vec import FloatArray, length

DT = 1 / 60
SIN35 = math.sin(math.radians(35.0))


def resting(pos: tuple[float, float], radius: float = 5.0, max_force: float = 1000.0) -> AgentGroup:
    """One agent at rest facing +x: its front feeler is 60 px (the braking floor, 5 + 4 +
    1000 / 64 = 24.6 px, is shorter), its side feelers 30 px."""
    return AgentGroup.create([pos], max_speed=100.0, max_force=max_force, radius=radius)


def crosses(p0: FloatArray, p1: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Whether each motion p0 -> p1 ((N, 2) each) crosses segment a-b (touching counts)."""

    def orient(o: FloatArray, x: FloatArray, y: FloatArray) -> FloatArray:
        return np.asarray(
            (x[..., 0] - o[..., 0]) * (y[..., 1] - o[..., 1])
            - (x[..., 1] - o[..., 1]) * (y[..., 0] - o[..., 0])
        )

    a2, b2 = np.broadcast_to(a, p0.shape), np.broadcast_to(b, p0.shape)
    d1, d2 = orient(a2, b2, p0), orient(a2, b2, p1)
    d3, d4 = orient(p0, p1, a2), orient(p0, p1, b2)
    return np.asarray((d1 * d2 <= 0) & (d3 * d4 <= 0))


# -- the shared wall set ---------------------------------------------------------------------


def test_walls_precompute_direction_normal_and_length() -> None:
    walls = Walls.create([[(0, 0), (3, 4)], [(10, 10), (10, 0)]])
    np.testing.assert_allclose(walls.length, [5.0, 10.0])
    np.testing.assert_allclose(walls.direction, [[0.6, 0.8], [0.0, -1.0]])
    # The left normal is the direction turned +90 degrees: (x, y) -> (-y, x)
    np.testing.assert_allclose(walls.normal, [[-0.8, 0.6], [1.0, 0.0]])
    np.testing.assert_array_equal(walls.segments, [[(0, 0), (3, 4)], [(10, 10), (10, 0)]])
    assert len(walls) == 2 and walls.max_length == 10.0


def test_walls_validate_their_input() -> None:
    with pytest.raises(ValueError, match="finite"):
        Walls.create([[(0, 0), (np.nan, 1)]])
    with pytest.raises(ValueError, match="segments"):
        Walls.create([(0, 0), (1, 1)])
    with pytest.raises(ValueError, match="wall 1 has zero length"):
        Walls.create([[(0, 0), (1, 0)], [(5, 5), (5, 5)]])
    with pytest.raises(ValueError, match="overflows"):
        Walls.create([[(-1e308, 0), (1e308, 0)]])


def test_zero_length_walls_can_be_dropped() -> None:
    walls = Walls.create(
        [[(0, 0), (1, 0)], [(5, 5), (5, 5)], [(2, 2), (2, 3)]], drop_zero_length=True
    )
    np.testing.assert_array_equal(walls.segments, [[(0, 0), (1, 0)], [(2, 2), (2, 3)]])


def test_polylines_give_one_wall_per_edge_and_skip_repeated_points() -> None:
    # Given an open L (with a repeated point) and a closed triangle
    walls = Walls.from_polylines([[(0, 0), (10, 0), (10, 0), (10, 10)]])
    np.testing.assert_array_equal(walls.segments, [[(0, 0), (10, 0)], [(10, 0), (10, 10)]])
    room = Walls.from_polylines([[(0, 0), (4, 0), (0, 3)], [(7, 7)]], closed=True)
    np.testing.assert_allclose(room.length, [4.0, 5.0, 3.0])
    with pytest.raises(ValueError, match=r"polylines\[0\]"):
        Walls.from_polylines([[(0, 0), (np.inf, 0)]])
    assert len(Walls.from_polylines([])) == 0


def test_no_walls_and_no_agents_are_allowed() -> None:
    agents = AgentGroup.create([(0, 0)], [(100, 0)])
    debug: Debug = {}
    force = AvoidWalls(Walls.empty())(agents, DT, debug)
    np.testing.assert_array_equal(force, [[0.0, 0.0]])
    np.testing.assert_array_equal(debug["walls.wall"], [-1])
    nobody = AgentGroup.create(np.zeros((0, 2)))
    walls = Walls.create([[(0, 0), (1, 0)]])
    assert AvoidWalls(walls)(nobody, DT).shape == (0, 2)


def test_invalid_parameters_are_rejected() -> None:
    walls = Walls.empty()
    for kwargs in ({"feeler_length": -1.0}, {"feeler_angle": 200.0}, {"gain": math.nan}):
        with pytest.raises(ValueError):
            AvoidWalls(walls, **kwargs)  # type: ignore[arg-type]


# -- the feelers: hand-computed forces -------------------------------------------------------


def test_front_feeler_past_a_wall_pushes_along_its_normal_by_the_overshoot() -> None:
    # Given an agent at (50, 0) facing +x and a wall across x = 100
    walls = Walls.create([[(100, -50), (100, 50)]])
    debug: Debug = {}
    # When
    force = AvoidWalls(walls, gain=8.0)(resting((50.0, 0.0)), DT, debug)
    # Then the 60 px front feeler ends at (110, 0), 10 px past the wall at (100, 0): the
    # force is the wall's normal on the agent's side, (-1, 0), times 10 px times 8^2
    np.testing.assert_allclose(force, [[-640.0, 0.0]])
    np.testing.assert_allclose(debug["walls.hit"], [[100.0, 0.0]])
    np.testing.assert_array_equal(debug["walls.wall"], [0])
    np.testing.assert_allclose(debug["walls.feelers"][0, 0], [110.0, 0.0])
    # And the wall's direction does not matter: its normal is taken on the agent's side
    flipped = Walls.create([[(100, 50), (100, -50)]])
    np.testing.assert_allclose(AvoidWalls(flipped)(resting((50.0, 0.0)), DT), [[-640.0, 0.0]])


def test_a_slanted_wall_pushes_along_its_own_normal() -> None:
    # Given a wall from (80, -50) to (120, 50): it crosses y = 0 at x = 100
    walls = Walls.create([[(80, -50), (120, 50)]])
    debug: Debug = {}
    # When
    force = AvoidWalls(walls)(resting((50.0, 0.0)), DT, debug)
    # Then overshoot 10 px, direction (40, 100) / sqrt(11600), left normal (-100, 40) / ..,
    # which is the agent's side: force = (-100, 40) / 107.7033 * 640 = (-594.2, 237.7)
    np.testing.assert_allclose(force, [[-594.2260, 237.6904]], atol=1e-3)
    np.testing.assert_allclose(debug["walls.hit"], [[100.0, 0.0]], atol=1e-12)


def test_the_front_feeler_grows_with_speed_and_with_braking_distance() -> None:
    avoid = AvoidWalls(Walls.empty(), feeler_length=60.0)
    # At max speed the feeler doubles
    fast = AgentGroup.create([(0, 0)], [(100, 0)], max_speed=100.0, max_force=1000.0, radius=5)
    np.testing.assert_allclose(avoid.feeler_lengths(fast), [120.0])
    # A fast agent with a weak force needs more: v^2 / 2a + radius + margin + a / gain^2
    weak = AgentGroup.create([(0, 0)], [(300, 0)], max_speed=300.0, max_force=300.0, radius=5)
    np.testing.assert_allclose(avoid.feeler_lengths(weak), [150.0 + 5.0 + 4.0 + 300.0 / 64.0])
    # but never more than four times the feeler length
    crawl = AgentGroup.create([(0, 0)], [(300, 0)], max_speed=300.0, max_force=10.0)
    np.testing.assert_allclose(avoid.feeler_lengths(crawl), [240.0])


def test_a_side_feeler_pushes_off_a_wall_alongside() -> None:
    # Given a wall along y = 10, parallel to the agent's heading
    walls = Walls.create([[(0, 10), (200, 10)]])
    # When
    force = AvoidWalls(walls)(resting((50.0, 0.0)), DT)
    # Then the left feeler (30 px at 35 degrees) crosses it 10 / sin 35 = 17.434 px out and
    # overshoots by 12.566 px: force (0, -1) * 12.566 * 64, weighted by |cos 0| = 1
    np.testing.assert_allclose(force, [[0.0, -(30.0 - 10.0 / SIN35) * 64.0]], atol=1e-9)


def test_a_side_feeler_ignores_a_wall_that_faces_the_agent() -> None:
    # Given the upper jamb of a door, x = 70 from y = 10 up: the left feeler crosses it at
    # (70, 20 tan 35) but the front feeler passes below it
    walls = Walls.create([[(70, 10), (70, 100)]])
    debug: Debug = {}
    force = AvoidWalls(walls)(resting((50.0, 0.0)), DT, debug)
    # Then no force: a wall facing the agent is the front feeler's business
    np.testing.assert_array_equal(force, [[0.0, 0.0]])
    np.testing.assert_array_equal(debug["walls.wall"], [0])
    np.testing.assert_allclose(debug["walls.hit"], [[70.0, 20.0 * math.tan(math.radians(35))]])


def test_in_a_corner_the_feelers_add_up() -> None:
    # Given walls ahead (x = 100) and alongside (y = 10), the agent at (50, 0)
    walls = Walls.create([[(100, -50), (100, 50)], [(0, 10), (200, 10)]])
    force = AvoidWalls(walls)(resting((50.0, 0.0), max_force=1500.0), DT)
    # Then the front feeler's (-640, 0) and the left feeler's (0, -804.2) both count
    np.testing.assert_allclose(force, [[-640.0, -(30.0 - 10.0 / SIN35) * 64.0]], atol=1e-9)


def test_the_force_is_limited_to_max_force() -> None:
    walls = Walls.create([[(100, -50), (100, 50)]])
    force = AvoidWalls(walls)(resting((50.0, 0.0), max_force=360.0), DT)
    np.testing.assert_allclose(force, [[-360.0, 0.0]])


# -- the skin --------------------------------------------------------------------------------


def test_an_agent_touching_a_wall_is_pushed_out_at_max_force() -> None:
    # Given an agent (radius 5) 3 px above a wall, heading along it; no feelers
    walls = Walls.create([[(0, 0), (100, 0)]])
    skin_only = AvoidWalls(walls, feeler_length=0.0, margin=4.0)
    agents = AgentGroup.create([(50, 3)], [(1e-3, 0)], max_force=500.0, radius=5.0)
    # Then it is pushed straight up at max force (the disc overlaps the wall)
    np.testing.assert_allclose(skin_only(agents, DT), [[0.0, 500.0]], atol=1e-9)
    # And inside the skin but clear of the wall the push ramps: 7 px away, skin 9 px
    agents.pos = np.array([[50.0, 7.0]])
    np.testing.assert_allclose(skin_only(agents, DT), [[0.0, 500.0 * 2.0 / 4.0]])
    # Outside the skin, nothing
    agents.pos = np.array([[50.0, 9.5]])
    np.testing.assert_array_equal(skin_only(agents, DT), [[0.0, 0.0]])


def test_the_skin_pushes_away_from_a_wall_end() -> None:
    # Given an agent just beyond the end of a wall, in its skin
    walls = Walls.create([[(0, 0), (100, 0)]])
    agents = AgentGroup.create([(103, 4)], [(0, 1e-3)], max_force=500.0, radius=5.0)
    force = AvoidWalls(walls, feeler_length=0.0)(agents, DT)
    # Then it is pushed along (3, 4) / 5 from the end, at max force (distance 5 = radius)
    np.testing.assert_allclose(force, [[300.0, 400.0]], atol=1e-9)


def test_an_agent_centred_on_a_wall_is_pushed_to_the_side_its_heading_leaves() -> None:
    # Given an agent exactly on the wall's line, heading down through it
    walls = Walls.create([[(0, 0), (100, 0)]])
    agents = AgentGroup.create([(50, 0)], [(0, -10)], max_force=500.0, radius=5.0)
    force = AvoidWalls(walls, feeler_length=0.0)(agents, DT)
    # Then the skin pushes it back up, the side it came from; heading along the wall: left
    assert force[0, 1] > 0.0 and np.isfinite(force).all()
    along = AgentGroup.create([(50, 0)], [(10, 0)], max_force=500.0, radius=5.0)
    skin_only = AvoidWalls(walls, feeler_length=0.0)
    np.testing.assert_allclose(skin_only(along, DT), [[0.0, 500.0]], atol=1e-9)


# -- the spatial index ------------------------------------------------------------------------


def test_candidates_are_exactly_the_walls_within_reach() -> None:
    # Given random agents and walls, one wall much longer than the others
    rng = np.random.default_rng(7)
    starts = rng.uniform(0, 500, (60, 2))
    ends = starts + rng.uniform(-40, 40, (60, 2))
    segments = np.concatenate((np.stack((starts, ends), 1), [[(-100, 250), (600, 250)]]))
    walls = Walls.create(segments)
    agents = AgentGroup.create(rng.uniform(0, 500, (80, 2)))
    reach = rng.uniform(0, 60, 80)
    # When
    ai, wj = walls.candidates(agents, reach)
    # Then the pairs are those a brute force finds, once each, sorted
    all_a, all_w = np.divmod(np.arange(80 * 61), 61)
    dist = walls.distances(agents.pos[all_a], all_w)
    expected = set(zip(all_a[dist <= reach[all_a]], all_w[dist <= reach[all_a]], strict=True))
    assert set(zip(ai.tolist(), wj.tolist(), strict=True)) == expected
    assert len(ai) == len(expected)
    assert np.all(np.diff(ai * 61 + wj) > 0)
    # And the long wall is indexed in pieces, so it does not widen the query
    assert walls.piece_length < 100.0


def test_a_thousand_walls_and_a_thousand_agents_use_the_index() -> None:
    # Given 1,000 random short walls and 1,000 moving agents on a 2,000 px square
    rng = np.random.default_rng(0)
    starts = rng.uniform(0, 2000, (1000, 2))
    angle = rng.uniform(0, 2 * np.pi, 1000)
    ends = starts + np.stack((np.cos(angle), np.sin(angle)), 1) * rng.uniform(10, 80, 1000)[:, None]
    walls = Walls.create(np.stack((starts, ends), 1))
    agents = AgentGroup.create(rng.uniform(0, 2000, (1000, 2)), rng.uniform(-120, 120, (1000, 2)))
    avoid = AvoidWalls(walls)
    # When
    force = avoid(agents, DT)
    # Then the result is sane, and only a few walls per agent were examined
    assert force.shape == (1000, 2) and np.isfinite(force).all()
    assert (length(force) <= agents.max_force + 1e-9).all()
    assert np.count_nonzero(length(force)) > 100
    reach = np.maximum(np.abs(avoid.feelers(agents)[:, 0]), agents.radius + avoid.margin)
    ai, _ = walls.candidates(agents, reach)
    assert 0 < ai.size < 0.02 * 1000 * 1000


# -- behaviour over time ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("speed", "max_force", "radius", "start", "goal"),
    [
        (120.0, 360.0, 8.0, (0.0, 0.0), (400.0, 0.0)),  # square on, goal dead behind
        (200.0, 360.0, 10.0, (0.0, 60.0), (400.0, -30.0)),  # slanting in
        (220.0, 1080.0, 14.0, (0.0, -140.0), (400.0, 140.0)),  # round the end
        (300.0, 300.0, 5.0, (0.0, 0.0), (400.0, 40.0)),  # fast and weak
    ],
)
def test_an_agent_seeking_behind_a_long_wall_never_crosses_it(
    speed: float,
    max_force: float,
    radius: float,
    start: tuple[float, float],
    goal: tuple[float, float],
) -> None:
    # Given an agent at full speed toward a goal behind a 300 px wall
    a, b = np.array([200.0, -150.0]), np.array([200.0, 150.0])
    walls = Walls.create([[a, b]])
    agents = AgentGroup.create(
        [start], [(speed, 0.0)], max_speed=speed, max_force=max_force, radius=radius
    )
    steer = TruncatedRunningSum([AvoidWalls(walls), Seek(goal)])
    # When it avoids first and seeks with what is left, for 10 s
    for _ in range(600):
        before = agents.pos.copy()
        integrate(agents, steer(agents, DT), DT)
        # Then no step's motion crosses the wall
        assert not crosses(before, agents.pos, a, b).any()


def test_a_line_of_agents_passes_a_door_without_touching_its_jambs() -> None:
    # Given a door 32 px wide in a wall, and agents 16 px wide in a line heading for it
    walls = Walls.create([[(200, -300), (200, -16)], [(200, 16), (200, 300)]])
    n = 6
    start = np.stack((-np.arange(n) * 40.0, np.linspace(-3.0, 3.0, n)), 1)
    agents = AgentGroup.create(start, np.tile([120.0, 0.0], (n, 1)), max_force=360, radius=8)
    steer = TruncatedRunningSum([AvoidWalls(walls), Seek((3000.0, 0.0))])
    clearance = np.inf
    for _ in range(300):
        integrate(agents, steer(agents, DT), DT)
        gaps = [walls.distances(agents.pos, np.full(n, k)) for k in range(2)]
        clearance = min(clearance, float(np.min(gaps)) - 8.0)
    # Then all of them are through, none touched a jamb (the side feelers do not brake for
    # walls that face the agent)
    assert (agents.pos[:, 0] > 200.0).all()
    assert clearance > 0.0


# -- properties ------------------------------------------------------------------------------

coord = st.floats(-100.0, 100.0, allow_nan=False)
point = st.tuples(coord, coord)


@settings(max_examples=120, deadline=None)
@given(
    agent_pos=st.lists(point, min_size=1, max_size=8),
    wall_ends=st.lists(st.tuples(point, point), min_size=0, max_size=6),
    data=st.data(),
)
@pytest.mark.slow
def test_forces_are_finite_and_within_max_force(
    agent_pos: list[tuple[float, float]],
    wall_ends: list[tuple[tuple[float, float], tuple[float, float]]],
    data: st.DataObject,
) -> None:
    # Given random agents (some coincident, some on a wall, some at rest) and walls
    n = len(agent_pos)
    if n > 1 and data.draw(st.booleans()):
        agent_pos[1] = agent_pos[0]
    if wall_ends and data.draw(st.booleans()):
        (x0, y0), (x1, y1) = wall_ends[0]
        agent_pos[0] = ((x0 + x1) / 2, (y0 + y1) / 2)  # centred on a wall
    walls = Walls.create(
        np.reshape(np.array(wall_ends, dtype=np.float64), (-1, 2, 2)), drop_zero_length=True
    )
    vel = data.draw(
        st.lists(st.sampled_from([0.0, 1e-12, 50.0, -300.0]), min_size=2 * n, max_size=2 * n)
    )
    agents = AgentGroup.create(
        agent_pos,
        np.reshape(vel, (n, 2)),
        max_speed=data.draw(st.sampled_from([0.0, 1.0, 200.0])),
        max_force=data.draw(st.sampled_from([0.0, 1.0, 360.0, 1e6])),
        radius=data.draw(st.sampled_from([0.0, 8.0, 30.0])),
    )
    avoid = AvoidWalls(
        walls,
        feeler_length=data.draw(st.sampled_from([0.0, 1e-3, 60.0, 400.0])),
        feeler_angle=data.draw(st.sampled_from([0.0, 35.0, 90.0, 180.0])),
        margin=data.draw(st.sampled_from([0.0, 4.0])),
    )
    for _ in range(2):
        debug: Debug = {}
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            force = avoid(agents, DT, debug)
        # Then every force is finite and no longer than max force
        assert force.shape == (n, 2)
        assert np.isfinite(force).all()
        assert (length(force) <= agents.max_force * (1 + 1e-12) + 1e-9).all()
        assert np.isfinite(debug["walls.feelers"]).all()
        hit = np.asarray(debug["walls.wall"])
        assert ((hit >= -1) & (hit < max(len(walls), 1))).all()
        assert (np.isnan(debug["walls.hit"]).all(axis=1) == (hit == -1)).all()
        integrate(agents, force, DT)
