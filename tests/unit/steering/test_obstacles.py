"""Obstacle avoidance (seed 002, Buckland): detection box, line-circle test, forces, memory."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering.agents import AgentGroup, integrate
from steering.base import Debug, desired_toward, steer_to_velocity
from steering.obstacle_set import Obstacles, candidate_pairs
from steering.obstacles import AvoidObstacles
from steering.vec import FloatArray, length, truncate

DT = 1 / 60


def seed_case(**params: float) -> AvoidObstacles:
    """The seed's raw numbers: no scaling, no margin, no force limit in the way."""
    defaults: dict[str, float] = {"min_box_length": 40.0, "force_scale": 1.0, "margin": 0.0}
    defaults.update(params)
    obstacles = Obstacles(np.array([[50.0, 5.0]]), np.array([10.0]))
    return AvoidObstacles(obstacles, **defaults)  # type: ignore[arg-type]


def still_agent(pos: tuple[float, float] = (0.0, 0.0), radius: float = 5.0) -> AgentGroup:
    """One agent at rest facing +x, so its box has the minimum length."""
    return AgentGroup.create([pos], max_speed=100.0, max_force=1e9, radius=radius)


# -- the shared obstacle data ----------------------------------------------------------------


def test_obstacles_validate_their_fields() -> None:
    with pytest.raises(ValueError, match="centers"):
        Obstacles(np.array([[0.0, np.nan]]), np.array([1.0]))
    with pytest.raises(ValueError, match="centers"):
        Obstacles(np.array([1.0, 2.0, 3.0]), np.array([1.0]))
    with pytest.raises(ValueError, match="radii"):
        Obstacles(np.array([[0.0, 0.0]]), np.array([0.0]))
    with pytest.raises(ValueError, match="radii"):
        Obstacles(np.array([[0.0, 0.0]]), np.array([np.inf]))
    with pytest.raises(ValueError, match="radii"):
        Obstacles(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1.0]))


def test_no_obstacles_is_allowed_and_gives_no_force() -> None:
    # Given no rocks at all, and an agent moving
    empty = Obstacles.empty()
    agents = AgentGroup.create([[0.0, 0.0]], [[100.0, 0.0]])
    debug: Debug = {}
    # When it avoids
    force = AvoidObstacles(empty)(agents, DT, debug)
    # Then nothing happens, and the debug data says so
    assert len(empty) == 0 and empty.max_radius == 0.0
    np.testing.assert_array_equal(force, [[0.0, 0.0]])
    np.testing.assert_array_equal(debug["avoid.obstacle"], [-1])


def test_no_agents_is_allowed() -> None:
    agents = AgentGroup.create(np.zeros((0, 2)))
    obs = Obstacles(np.array([[0.0, 0.0]]), np.array([5.0]))
    debug: Debug = {}
    force = AvoidObstacles(obs)(agents, DT, debug)
    assert force.shape == (0, 2) and debug["avoid.box"].shape == (0, 4, 2)


def test_moving_a_rock_moves_it_in_the_grid() -> None:
    # Given two rocks and their grid
    obs = Obstacles.create([[0.0, 0.0], [100.0, 0.0]], 5.0)
    grid, shift, _ = obs.index()
    assert obs.index()[0] is grid and shift == 0.0
    # When one rock moves a little by method, then far by writing the array directly
    obs.move(1, (101.0, 0.0))
    kept, shift, _ = obs.index()
    obs.centers[0] = (-5000.0, 0.0)
    rebuilt, far, _ = obs.index()
    # Then a small move keeps the grid and widens queries by the distance moved, and a far one
    # rebuilds it
    assert kept is grid and shift == pytest.approx(1.0)
    assert rebuilt is not grid and far == 0.0
    agents = AgentGroup.create([(-5000.0, 30.0)], [(0.0, -100.0)])
    force = AvoidObstacles(obs)(agents, DT)
    assert force[0, 1] > 0.0  # the moved rock, ahead at its new place, is avoided
    with pytest.raises(ValueError, match="centers"):
        obs.move(0, (np.nan, 0.0))


def test_set_centers_keeps_m_and_validates() -> None:
    obs = Obstacles(np.array([[0.0, 0.0], [10.0, 0.0]]), np.array([1.0, 2.0]))
    obs.set_centers([[1.0, 1.0], [2.0, 2.0]])
    np.testing.assert_array_equal(obs.centers, [[1.0, 1.0], [2.0, 2.0]])
    with pytest.raises(ValueError, match="centers"):
        obs.set_centers([[1.0, 1.0]])


def test_candidate_pairs_match_brute_force() -> None:
    # Given many agents and rocks at random
    rng = np.random.default_rng(7)
    agents = AgentGroup.create(rng.uniform(0, 500, (300, 2)))
    obs = Obstacles(rng.uniform(0, 500, (40, 2)), rng.uniform(5, 30, 40))
    # When the spatial query lists the pairs within reach
    ai, oj = candidate_pairs(agents, obs, 60.0)
    # Then they are exactly the pairs a full N x M distance table finds
    dist = np.linalg.norm(agents.pos[:, None, :] - obs.centers[None, :, :], axis=2)
    expected = set(zip(*np.nonzero(dist <= 60.0), strict=True))
    assert set(zip(ai.tolist(), oj.tolist(), strict=True)) == expected


# -- the seed's worked geometry --------------------------------------------------------------


def test_seed_geometry_intersection_and_local_forces() -> None:
    # Given an agent (radius 5) at the origin facing +x at rest, so its box is 40 px long,
    # and a rock of radius 10 at (50, 5)
    agents = still_agent()
    debug: Debug = {}
    # When it avoids with the seed's unscaled numbers
    force = seed_case()(agents, DT, debug)
    # Then the expanded radius is 15 and the closest intersection x = 50 - sqrt(15^2 - 5^2)
    ip = 50.0 - math.sqrt(225.0 - 25.0)
    assert ip == pytest.approx(35.857864376)
    assert debug["avoid.intersection"][0] == pytest.approx(ip)
    assert debug["avoid.obstacle"][0] == 0
    assert debug["avoid.length"][0] == pytest.approx(40.0)
    # and multiplier = 1 + (40 - ip) / 40; lateral = -(15 - 5) * multiplier (away from the
    # rock, which is on the left); braking = (15 - 50) * 0.2 = -7
    multiplier = 1.0 + (40.0 - ip) / 40.0
    assert multiplier == pytest.approx(1.103553391)
    expected = [-7.0, -10.0 * multiplier]
    np.testing.assert_allclose(debug["avoid.local"][0], expected)
    # and with the heading along +x, world space is local space
    np.testing.assert_allclose(force[0], expected)


def test_force_scale_turns_seed_pixels_into_acceleration() -> None:
    agents = still_agent()
    base = seed_case()(still_agent(), DT)
    scaled = seed_case(force_scale=100.0)(agents, DT)
    np.testing.assert_allclose(scaled, base * 100.0)


def test_far_intersection_when_the_agent_overlaps_the_expanded_circle() -> None:
    # Given a rock (r 10) whose expanded circle (R 15) contains the agent: centre at (3, 0)
    obs = Obstacles(np.array([[3.0, 0.0]]), np.array([10.0]))
    avoid = AvoidObstacles(obs, min_box_length=40.0, force_scale=1.0, margin=0.0)
    debug: Debug = {}
    avoid(still_agent(), DT, debug)
    # Then cx - sqrt(R^2 - cy^2) = -12 <= 0, so the seed takes cx + sqrt = 18
    assert debug["avoid.intersection"][0] == pytest.approx(18.0)
    # and, dead ahead, agent 0 turns left with the full multiplier 2 (overlapping):
    # lateral = 15 * 2, braking = (15 - 3) * 0.2
    np.testing.assert_allclose(debug["avoid.local"][0], [2.4, 30.0])


@pytest.mark.parametrize(
    ("center", "why"),
    [
        ((-20.0, 0.0), "behind: local x < 0"),
        ((30.0, 15.0), "beside: |local y| == expanded radius"),
        ((30.0, -16.0), "beside on the right"),
        ((80.0, 0.0), "beyond the box end: 80 - 15 > 40"),
    ],
)
def test_rocks_outside_the_box_are_ignored(center: tuple[float, float], why: str) -> None:
    obs = Obstacles(np.array([center]), np.array([10.0]))
    debug: Debug = {}
    force = AvoidObstacles(obs, min_box_length=40.0, margin=0.0)(still_agent(), DT, debug)
    np.testing.assert_array_equal(force, [[0.0, 0.0]], err_msg=why)
    assert debug["avoid.obstacle"][0] == -1
    assert debug["avoid.intersection"][0] == -1.0


def test_rock_just_inside_the_box_edge_counts() -> None:
    obs = Obstacles(np.array([[30.0, 14.9]]), np.array([10.0]))
    debug: Debug = {}
    force = AvoidObstacles(obs, min_box_length=40.0, margin=0.0)(still_agent(), DT, debug)
    assert debug["avoid.obstacle"][0] == 0
    assert force[0, 1] < 0  # pushed right, away from the rock on the left


def test_the_closest_intersection_wins_not_the_closest_centre() -> None:
    # Given a big rock whose centre is farther (x 40, r 30: R 35, hit at x 5) and a small
    # one whose centre is nearer (x 20, y 3, r 2: R 7, hit at x 20 - sqrt(40) = 13.7)
    centers = np.array([[20.0, 3.0], [40.0, 0.0]])
    for order in ([0, 1], [1, 0]):
        obs = Obstacles(centers[order], np.array([2.0, 30.0])[order])
        debug: Debug = {}
        AvoidObstacles(obs, min_box_length=40.0, margin=0.0)(still_agent(), DT, debug)
        # Then the big rock is the one reacted to, whatever the order of the rocks
        assert obs.radii[debug["avoid.obstacle"][0]] == 30.0
        assert debug["avoid.intersection"][0] == pytest.approx(5.0)


@pytest.mark.parametrize("angle", [math.pi / 2, math.pi / 4, 2.0, -2.7])
def test_world_force_rotates_with_the_heading(angle: float) -> None:
    # Given the seed's scene rotated by `angle` about the agent
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    obs = Obstacles((rot @ np.array([50.0, 5.0]))[None, :], np.array([10.0]))
    agents = still_agent()
    agents.heading = (rot @ np.array([1.0, 0.0]))[None, :]
    avoid = AvoidObstacles(obs, min_box_length=40.0, force_scale=1.0, margin=0.0)
    debug: Debug = {}
    # When it avoids
    force = avoid(agents, DT, debug)
    # Then local forces are the seed's, and world = heading * fx + left * fy
    multiplier = 1.0 + (40.0 - (50.0 - math.sqrt(200.0))) / 40.0
    local = np.array([-7.0, -10.0 * multiplier])
    np.testing.assert_allclose(debug["avoid.local"][0], local)
    np.testing.assert_allclose(force[0], rot @ local, atol=1e-12)


def test_world_force_for_heading_up_by_hand() -> None:
    # Heading +y, left is -x; rock at (-5, 50) is local (50, 5): world = (+11.04, -7)
    obs = Obstacles(np.array([[-5.0, 50.0]]), np.array([10.0]))
    agents = still_agent()
    agents.heading = np.array([[0.0, 1.0]])
    avoid = AvoidObstacles(obs, min_box_length=40.0, force_scale=1.0, margin=0.0)
    force = avoid(agents, DT)
    np.testing.assert_allclose(force[0], [11.035533906, -7.0])


def test_box_grows_with_speed_and_its_corners() -> None:
    # Given three agents facing +x at 0, half and full max speed (100), radius 5
    agents = AgentGroup.create(
        [[0.0, 0.0], [0.0, 100.0], [0.0, 200.0]],
        [[0.0, 0.0], [50.0, 0.0], [100.0, 0.0]],
        max_speed=100.0,
        radius=5.0,
    )
    debug: Debug = {}
    AvoidObstacles(Obstacles.empty(), min_box_length=40.0, margin=1.0)(agents, DT, debug)
    # Then length = 40 * (1 + speed / max speed), and the box is radius + margin wide each side
    np.testing.assert_allclose(np.asarray(debug["avoid.length"], float), [40.0, 60.0, 80.0])
    np.testing.assert_allclose(
        debug["avoid.box"][1], [[0.0, 94.0], [60.0, 94.0], [60.0, 106.0], [0.0, 106.0]]
    )
    assert debug["avoid.box"].shape == (3, 4, 2)


def test_force_is_limited_to_max_force() -> None:
    agents = AgentGroup.create([[0.0, 0.0]], max_force=50.0, radius=5.0)
    force = seed_case(force_scale=1000.0)(agents, DT)
    assert length(force)[0] == pytest.approx(50.0)


def test_parameters_are_validated() -> None:
    obs = Obstacles.empty()
    for name, value in [
        ("min_box_length", 0.0),
        ("braking_weight", -1.0),
        ("force_scale", np.nan),
        ("side_memory", -0.1),
        ("margin", np.inf),
    ]:
        with pytest.raises(ValueError, match=name):
            AvoidObstacles(obs, **{name: value})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tie_break"):
        AvoidObstacles(obs, tie_break="up")  # type: ignore[arg-type]


# -- the symmetric case and the side memory --------------------------------------------------


def dead_ahead(n: int = 1) -> tuple[AgentGroup, Obstacles]:
    """n agents in a column, each with a rock of radius 10 dead ahead at x = 30."""
    ys = np.arange(n) * 100.0
    agents = AgentGroup.create(np.stack((np.zeros(n), ys), axis=1), radius=5.0, max_force=1e9)
    obs = Obstacles(np.stack((np.full(n, 30.0), ys), axis=1), np.full(n, 10.0))
    return agents, obs


@pytest.mark.parametrize(
    ("tie_break", "expected"), [("left", [1, 1]), ("right", [-1, -1]), ("parity", [1, -1])]
)
def test_dead_ahead_turns_to_a_deterministic_side(tie_break: str, expected: list[int]) -> None:
    # Given two agents each heading exactly at a rock's centre (local y == 0)
    agents, obs = dead_ahead(2)
    avoid = AvoidObstacles(obs, min_box_length=40.0, margin=0.0, tie_break=tie_break)  # type: ignore[arg-type]
    debug: Debug = {}
    # When they avoid
    avoid(agents, DT, debug)
    # Then each still gets a full lateral push, on the side the tie-break says
    np.testing.assert_array_equal(np.sign(debug["avoid.local"][:, 1]), expected)
    np.testing.assert_array_equal(debug["avoid.side"], expected)
    np.testing.assert_array_equal(agents.state["avoid.side"], expected)


def test_side_is_kept_while_reacting_then_forgotten() -> None:
    # Given an agent that chose left (+1) for a rock dead ahead
    agents, obs = dead_ahead(1)
    avoid = AvoidObstacles(obs, min_box_length=40.0, margin=0.0, force_scale=1.0, side_memory=0.5)
    avoid(agents, DT)
    assert agents.state["avoid.side"][0] == 1.0
    # When it has drifted so the rock is now a little to its left (natural side: right)
    agents.pos = np.array([[0.0, -2.0]])
    debug: Debug = {}
    avoid(agents, DT, debug)
    # Then it keeps going left, round the far side: lateral = (R + |cy|) * multiplier
    multiplier = 1.0 + (40.0 - (30.0 - math.sqrt(225.0 - 4.0))) / 40.0
    assert debug["avoid.local"][0, 1] == pytest.approx((15.0 + 2.0) * multiplier)
    # When it sees no rock for longer than the memory
    agents.pos = np.array([[0.0, -500.0]])
    for _ in range(31):
        avoid(agents, DT)
    assert agents.state["avoid.side"][0] == 0.0
    # Then the next encounter takes the natural side again
    agents.pos = np.array([[0.0, -2.0]])
    avoid(agents, DT, debug)
    assert debug["avoid.local"][0, 1] < 0.0


def test_without_memory_the_side_follows_the_seed_every_step() -> None:
    agents, obs = dead_ahead(1)
    avoid = AvoidObstacles(obs, min_box_length=40.0, margin=0.0, side_memory=0.0)
    avoid(agents, DT)
    agents.pos = np.array([[0.0, -2.0]])
    debug: Debug = {}
    avoid(agents, DT, debug)
    assert debug["avoid.side"][0] == -1.0


def test_agents_outside_a_subset_have_no_memory_after_put_state() -> None:
    # Given avoidance run on a sub-group only (the parent has no memory columns yet)
    agents, obs = dead_ahead(2)
    avoid = AvoidObstacles(obs, tie_break="right")
    rows = np.array([0])
    sub = agents.take(rows)
    avoid(sub, DT)
    # When its memory is put back
    agents.put_state(rows, sub)
    # Then the other agent holds the columns' own fill, 0.0 (no side, no time), not NaN
    assert agents.state["avoid.side"][1] == 0.0 and agents.state["avoid.timer"][1] == 0.0
    assert agents.state["avoid.timer"][0] > 0.0
    # and the whole group then steps with finite forces, agent 1 choosing its side afresh
    force = avoid(agents, DT)
    assert np.isfinite(force).all() and force[1, 1] < 0.0


# -- behaviour over time ---------------------------------------------------------------------


def run(
    agents: AgentGroup, avoid: AvoidObstacles, goal: tuple[float, float], seconds: float
) -> dict[str, FloatArray]:
    """Avoid first, seek the goal with what is left of max force (Buckland's prioritised
    running sum); record the closest approach to any rock, to the goal, and sign flips."""
    obs = avoid.obstacles
    n = agents.n
    clearance = np.full(n, np.inf)
    to_goal = np.full(n, np.inf)
    flips = np.zeros(n)
    last = np.zeros(n)
    target = np.asarray(goal, dtype=np.float64)
    for _ in range(round(seconds / DT)):
        debug: Debug = {}
        force = avoid(agents, DT, debug)
        seek = steer_to_velocity(agents, desired_toward(agents, target - agents.pos))
        budget = np.maximum(agents.max_force - length(force), 0.0)
        integrate(agents, force + truncate(seek, budget), DT)
        gaps = np.linalg.norm(agents.pos[:, None, :] - obs.centers[None, :, :], axis=2)
        gaps -= obs.radii[None, :] + agents.radius[:, None]
        clearance = np.minimum(clearance, gaps.min(axis=1))
        to_goal = np.minimum(to_goal, np.linalg.norm(agents.pos - target, axis=1))
        sign = np.sign(debug["avoid.local"][:, 1])
        flips += (sign != 0) & (last != 0) & (sign != last)
        last = np.where(sign != 0, sign, last)
    return {"clearance": clearance, "to_goal": to_goal, "flips": flips}


@pytest.mark.parametrize(
    ("speed", "max_force", "agent_r", "rock_r"),
    [(200.0, 360.0, 10.0, 30.0), (120.0, 360.0, 8.0, 15.0), (220.0, 1080.0, 14.0, 60.0)],
)
def test_agent_aimed_at_a_rock_centre_clears_it_and_reaches_the_goal(
    speed: float, max_force: float, agent_r: float, rock_r: float
) -> None:
    # Given an agent at full speed aimed exactly at a rock's centre, its goal beyond the rock
    agents = AgentGroup.create(
        [[0.0, 0.0]], [[speed, 0.0]], max_speed=speed, max_force=max_force, radius=agent_r
    )
    avoid = AvoidObstacles(Obstacles(np.array([[300.0, 0.0]]), np.array([rock_r])))
    # When it avoids and seeks for long enough to get there
    out = run(agents, avoid, (600.0, 0.0), seconds=600.0 / speed + 2.0)
    # Then it never touches the rock, turns one way only, and gets to the goal
    assert out["clearance"][0] >= 0.0
    assert out["flips"][0] == 0
    assert out["to_goal"][0] < 5.0


def test_a_column_of_agents_all_clear_the_rock() -> None:
    # Given seven agents side by side, heading for goals beyond one big rock
    ys = np.linspace(-60.0, 60.0, 7)
    agents = AgentGroup.create(
        np.stack((np.zeros(7), ys), axis=1),
        np.tile([200.0, 0.0], (7, 1)),
        max_speed=200.0,
        max_force=500.0,
        radius=10.0,
    )
    avoid = AvoidObstacles(Obstacles(np.array([[300.0, 0.0]]), np.array([40.0])))
    out = run(agents, avoid, (700.0, 0.0), seconds=3.0)
    assert (out["clearance"] >= 0.0).all()
    assert (out["flips"] <= 1).all()


@pytest.mark.parametrize("start_y", [0.0, 10.0])
def test_two_rocks_with_a_narrow_gap_no_jiggle(start_y: float) -> None:
    # Given two rocks (r 25) 10 px apart, a gap narrower than the agent (r 10), and an agent
    # aimed at the gap: both rocks are in its box and compete for the closest place
    rocks = Obstacles(np.array([[300.0, 30.0], [300.0, -30.0]]), np.array([25.0, 25.0]))
    agents = AgentGroup.create(
        [[0.0, start_y]], [[200.0, 0.0]], max_speed=200.0, max_force=360.0, radius=10.0
    )
    # When it avoids and seeks a goal beyond the gap
    out = run(agents, AvoidObstacles(rocks), (600.0, 0.0), seconds=4.0)
    # Then it commits to one side (the lateral force flips at most once), goes round both
    # rocks without touching either, and still reaches the goal
    assert out["flips"][0] <= 1
    assert out["clearance"][0] >= 0.0
    assert out["to_goal"][0] < 5.0


def test_the_seed_without_memory_jiggles_in_the_narrow_gap() -> None:
    # The same scene with side_memory=0 (the seed's per-step choice) flips side again and
    # again and ends up pressed into the rocks: what the memory is for
    rocks = Obstacles(np.array([[300.0, 30.0], [300.0, -30.0]]), np.array([25.0, 25.0]))
    agents = AgentGroup.create(
        [[0.0, 0.0]], [[200.0, 0.0]], max_speed=200.0, max_force=360.0, radius=10.0
    )
    out = run(agents, AvoidObstacles(rocks, side_memory=0.0), (600.0, 0.0), seconds=4.0)
    assert out["flips"][0] > 10
    assert out["clearance"][0] < 0.0


@pytest.mark.parametrize("start_y", [0.0, 10.0, 20.0])
def test_two_rocks_with_a_passable_gap_go_through_without_jiggle(start_y: float) -> None:
    # Given a 40 px gap between two rocks, wide enough for the agent (20 px + margins)
    rocks = Obstacles(np.array([[300.0, 45.0], [300.0, -45.0]]), np.array([25.0, 25.0]))
    agents = AgentGroup.create(
        [[0.0, start_y]], [[200.0, 0.0]], max_speed=200.0, max_force=360.0, radius=10.0
    )
    out = run(agents, AvoidObstacles(rocks), (600.0, 0.0), seconds=4.0)
    assert out["flips"][0] <= 1
    assert out["clearance"][0] >= 0.0
    assert out["to_goal"][0] < 5.0


def test_agent_does_not_park_in_front_of_a_rock_bigger_than_its_box() -> None:
    # A rock of radius 80 (more than the 50 px box): the seed's multiplier, measured from the
    # rock's centre, would go negative here; the agent must still get round
    agents = AgentGroup.create(
        [[0.0, 0.0]], [[120.0, 0.0]], max_speed=120.0, max_force=360.0, radius=12.0
    )
    avoid = AvoidObstacles(Obstacles(np.array([[300.0, 0.0]]), np.array([80.0])))
    out = run(agents, avoid, (600.0, 0.0), seconds=7.0)
    assert out["clearance"][0] >= 0.0
    assert out["to_goal"][0] < 5.0


# -- against a plain loop, and properties ----------------------------------------------------


def seed_loop(agents: AgentGroup, avoid: AvoidObstacles) -> FloatArray:
    """The seed's per-agent, per-obstacle loop (with this module's documented changes:
    expanded radius in both forces, multiplier from the intersection, left on a tie)."""
    out = np.zeros((agents.n, 2))
    obs = avoid.obstacles
    for i in range(agents.n):
        hx, hy = agents.heading[i]
        speed = math.hypot(*agents.vel[i])
        box = avoid.min_box_length * (1.0 + min(speed / agents.max_speed[i], 1.0))
        half_w = agents.radius[i] + avoid.margin
        best, found = math.inf, None
        for j in range(len(obs)):
            dx, dy = obs.centers[j] - agents.pos[i]
            cx, cy = dx * hx + dy * hy, dy * hx - dx * hy
            r = obs.radii[j] + half_w
            if cx < 0 or abs(cy) >= r:
                continue
            root = math.sqrt(r * r - cy * cy)
            if cx - root > box:
                continue
            ip = cx - root if cx - root > 0 else cx + root
            if ip < best:
                best, found = ip, (cx, cy, r, max(cx - root, 0.0))
        if found is None:
            continue
        cx, cy, r, gap = found
        side = -1.0 if cy > 0 else 1.0
        multiplier = 1.0 + (box - min(gap, box)) / box
        lateral = side * (r + side * cy) * multiplier * avoid.force_scale
        braking = (r - cx) * avoid.braking_weight * avoid.force_scale
        fx, fy = hx * braking - hy * lateral, hy * braking + hx * lateral
        scale = min(1.0, agents.max_force[i] / max(math.hypot(fx, fy), 1e-300))
        out[i] = fx * scale, fy * scale
    return out


def test_vectorised_result_equals_the_seed_loop() -> None:
    rng = np.random.default_rng(3)
    for _ in range(5):
        n, m = 60, 25
        agents = AgentGroup.create(
            rng.uniform(0, 400, (n, 2)),
            rng.uniform(-200, 200, (n, 2)),
            max_speed=200.0,
            max_force=rng.uniform(100, 2000, n),
            radius=rng.uniform(5, 15, n),
        )
        obs = Obstacles(rng.uniform(0, 400, (m, 2)), rng.uniform(5, 50, m))
        avoid = AvoidObstacles(obs, side_memory=0.0, tie_break="left")
        np.testing.assert_allclose(avoid(agents, DT), seed_loop(agents, avoid), atol=1e-9)


coord = st.floats(-60.0, 60.0, allow_nan=False)
point = st.tuples(coord, coord)


@settings(max_examples=150, deadline=None)
@given(
    agent_pos=st.lists(point, min_size=1, max_size=8),
    rock_pos=st.lists(point, min_size=0, max_size=6),
    data=st.data(),
)
@pytest.mark.slow
def test_forces_are_finite_and_within_max_force(
    agent_pos: list[tuple[float, float]],
    rock_pos: list[tuple[float, float]],
    data: st.DataObject,
) -> None:
    # Given random agents and rocks, some coincident, some agents inside rocks, some at rest
    n, m = len(agent_pos), len(rock_pos)
    if m and data.draw(st.booleans()):
        rock_pos[0] = agent_pos[0]  # a rock centred exactly on an agent
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
    radii = data.draw(st.lists(st.floats(1e-3, 80.0), min_size=m, max_size=m))
    obs = Obstacles(np.reshape(np.array(rock_pos, dtype=np.float64), (m, 2)), np.array(radii))
    avoid = AvoidObstacles(
        obs,
        min_box_length=data.draw(st.sampled_from([1e-3, 50.0, 400.0])),
        side_memory=data.draw(st.sampled_from([0.0, 0.5])),
    )
    # When it avoids twice (the second time with memory)
    for _ in range(2):
        debug: Debug = {}
        force = avoid(agents, data.draw(st.sampled_from([0.0, DT, 1.0])), debug)
        # Then every force is finite and no longer than max force, and so is the debug data
        assert force.shape == (n, 2)
        assert np.isfinite(force).all()
        assert (length(force) <= agents.max_force + 1e-9).all()
        for key in ("avoid.box", "avoid.length", "avoid.local", "avoid.intersection"):
            assert np.isfinite(debug[key]).all(), key
        target = np.asarray(debug["avoid.obstacle"], dtype=np.intp)
        assert ((target >= -1) & (target < max(m, 1))).all()
        integrate(agents, force, DT)
