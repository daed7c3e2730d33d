"""Path following (seeds 000 and 001): geometry, following over time, editing, robustness."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from steering.agents import AgentGroup, integrate
from steering.drifting_path import DriftingPath
from steering.follow import FollowPath
from steering.path import (
    SEED_LOOKAHEAD,
    SEED_SPEED,
    SEED_TARGET_AHEAD,
    Path,
)

pytestmark = pytest.mark.filterwarnings("error")

DT = 1 / 60


# -- helpers -----------------------------------------------------------------------------------


def _wrapped_step(ds: np.ndarray, total: float) -> np.ndarray:
    """Per-step progress change on a closed path, taken the short way round."""
    return (ds + total / 2) % total - total / 2


def _lemniscate(n: int = 64, a: float = 220.0) -> np.ndarray:
    """A figure eight (lemniscate of Gerono) centred on (400, 300) that crosses itself once."""
    t = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.c_[400.0 + a * np.sin(t), 300.0 + a * np.sin(t) * np.cos(t)]


def _max_turn(nodes: np.ndarray) -> float:
    """Largest turn angle (rad) at any node of a closed polyline."""
    d = np.roll(nodes, -1, axis=0) - nodes
    ang = np.arctan2(d[:, 1], d[:, 0])
    turn = np.abs((np.diff(np.r_[ang, ang[0]]) + np.pi) % (2 * np.pi) - np.pi)
    return float(turn.max())


def _distance_to_path(path: Path, pos: np.ndarray) -> np.ndarray:
    return path.project(pos).distance


# -- construction and validation ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("nodes", "radius", "field"),
    [
        ([(0.0, 0.0)], 20.0, "nodes"),
        ([], 20.0, "nodes"),
        ([(0.0, 0.0), (math.nan, 1.0)], 20.0, "nodes"),
        ([(0.0, 0.0), (math.inf, 1.0)], 20.0, "nodes"),
        ([(0.0, 0.0, 0.0), (1.0, 1.0, 1.0)], 20.0, "nodes"),
        ([(0.0, 0.0), (1.0, 1.0)], 0.0, "radius"),
        ([(0.0, 0.0), (1.0, 1.0)], -5.0, "radius"),
        ([(0.0, 0.0), (1.0, 1.0)], math.nan, "radius"),
    ],
)
def test_invalid_path_raises_value_error_naming_the_field(
    nodes: list[tuple[float, ...]], radius: float, field: str
) -> None:
    with pytest.raises(ValueError, match=field):
        Path(nodes, radius=radius)


def test_delete_refuses_to_leave_fewer_than_two_nodes() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0)])
    with pytest.raises(ValueError, match="at least 2 nodes"):
        path.delete_node(0)
    assert path.n_nodes == 2
    assert path.version == 0


def test_edits_validate_indices_and_points() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0)])
    with pytest.raises(IndexError):
        path.move_node(3, (0.0, 0.0))
    with pytest.raises(IndexError):
        path.insert_node(4, (0.0, 0.0))
    with pytest.raises(ValueError, match="xy"):
        path.move_node(0, (math.nan, 0.0))
    with pytest.raises(ValueError, match="radius"):
        path.radius = 0.0


def test_nodes_are_read_only_so_edits_cannot_bypass_the_version() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0)])
    with pytest.raises(ValueError):
        path.nodes[0, 0] = 5.0


# -- arc length queries --------------------------------------------------------------------------


def test_arc_lengths_of_open_and_closed_paths() -> None:
    # Given a 100 x 100 square as an open path and as a closed loop
    square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    open_path = Path(square)
    loop = Path(square, closed=True)
    # Then the open one has 3 segments (300 px) and the loop 4 (400 px)
    np.testing.assert_allclose(open_path.cumulative, [0, 100, 200, 300])
    np.testing.assert_allclose(loop.cumulative, [0, 100, 200, 300, 400])
    assert open_path.length == 300.0
    assert loop.length == 400.0
    assert (open_path.n_segments, loop.n_segments) == (3, 4)


def test_point_at_clamps_open_and_wraps_closed() -> None:
    square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    open_path = Path(square)
    loop = Path(square, closed=True)
    s = np.array([-10.0, 0.0, 50.0, 150.0, 350.0, 450.0])
    np.testing.assert_allclose(
        open_path.point_at(s), [[0, 0], [0, 0], [50, 0], [100, 50], [0, 100], [0, 100]]
    )
    np.testing.assert_allclose(
        loop.point_at(s), [[0, 10], [0, 0], [50, 0], [100, 50], [0, 50], [50, 0]]
    )
    np.testing.assert_allclose(
        loop.tangent_at([50.0, 150.0, 250.0, 350.0, 450.0]),
        [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 0]],
    )


def test_duplicate_nodes_give_zero_length_segments_that_are_skipped() -> None:
    # Given a path with a repeated node in the middle and at the end
    path = Path([(0.0, 0.0), (100.0, 0.0), (100.0, 0.0), (100.0, 100.0), (100.0, 100.0)])
    # Then arc lengths ignore the duplicates and tangents never vanish
    np.testing.assert_allclose(path.cumulative, [0, 100, 100, 200, 200])
    np.testing.assert_allclose(
        path.tangent_at([0.0, 100.0, 150.0, 200.0]), [[1, 0], [0, 1], [0, 1], [0, 1]]
    )
    proj = path.project([(150.0, 50.0), (50.0, -5.0)])
    np.testing.assert_allclose(proj.point, [[100, 50], [50, 0]])
    assert path.segment_lengths[proj.segment].min() > 0.0


# -- seed 000's worked geometry --------------------------------------------------------------------


def test_normal_point_is_the_scalar_projection_on_the_segment() -> None:
    # Given the segment from (0, 0) to (400, 300): |B| = 500, unit B = (0.8, 0.6)
    path = Path([(0.0, 0.0), (400.0, 300.0)])
    # When the point (100, 200) is projected: A = (100, 200), A . uB = 80 + 120 = 200
    proj = path.project([(100.0, 200.0)])
    # Then the normal point is 0 + 200 * (0.8, 0.6) = (160, 120), 100 px away (|(-60, 80)|)
    np.testing.assert_allclose(proj.point, [[160.0, 120.0]])
    np.testing.assert_allclose(proj.s, [200.0])
    np.testing.assert_allclose(proj.distance, [100.0])
    assert proj.segment.tolist() == [0]


def test_normal_point_beyond_a_segment_end_is_replaced_by_the_end_point() -> None:
    path = Path([(0.0, 0.0), (400.0, 300.0)])
    # When (500, 400) projects to A . uB = 400 + 240 = 640 > 500, past the end,
    # and (-50, -50) to -40 - 30 = -70 < 0, before the start
    proj = path.project([(500.0, 400.0), (-50.0, -50.0)])
    # Then the normal points are the end points
    np.testing.assert_allclose(proj.point, [[400.0, 300.0], [0.0, 0.0]])
    np.testing.assert_allclose(proj.s, [500.0, 0.0])
    np.testing.assert_allclose(proj.distance, [math.hypot(100, 100), math.hypot(50, 50)])


def test_multi_segment_path_takes_the_nearest_normal_point_over_all_segments() -> None:
    # Given seed 000's Example 5.8 path
    path = Path([(0.0, 80.0), (150.0, 150.0), (450.0, 170.0), (640.0, 230.0)], radius=50.0)
    # When a point lies above the middle segment
    proj = path.project([(300.0, 100.0)])
    # Then its normal point is on segment 1: a=(150,150), B=(300,20), |B|^2 = 90400,
    # t = ((150, -50) . (300, 20)) / 90400 = 44000 / 90400
    t = 44000.0 / 90400.0
    np.testing.assert_allclose(proj.point, [[150.0 + 300.0 * t, 150.0 + 20.0 * t]])
    assert proj.segment.tolist() == [1]
    # And a point outside the corner, past segment 1's end ((10, -40) . (300, 20) > 0) and
    # before segment 2's start ((10, -40) . (190, 60) < 0), snaps to the corner node
    corner = path.project([(460.0, 130.0)])
    np.testing.assert_allclose(corner.point, [[450.0, 170.0]], atol=1e-9)


def test_defaults_reproduce_the_seed_at_the_seed_speed() -> None:
    # Given the seeds' numbers: 25 px prediction and 25 px target at 2 px/frame = 120 px/s
    follow = FollowPath(Path([(0.0, 0.0), (400.0, 300.0)]))
    assert SEED_SPEED * follow.lookahead_time == pytest.approx(SEED_LOOKAHEAD)
    assert follow.target_ahead + SEED_SPEED * follow.target_ahead_time == pytest.approx(
        SEED_TARGET_AHEAD
    )


def test_future_normal_and_target_25_px_ahead_then_seek() -> None:
    # Given the (0,0)-(400,300) path, radius 20, and an agent at (75, 200) moving at the
    # seed speed along +x: future = (75, 200) + (120, 0) * 25/120 = (100, 200)
    path = Path([(0.0, 0.0), (400.0, 300.0)], radius=20.0)
    agents = AgentGroup.create([(75.0, 200.0)], [(120.0, 0.0)], max_speed=120, max_force=1e6)
    follow = FollowPath(path, arrive_at_end=False)
    debug: dict[str, np.ndarray] = {}
    force = follow(agents, DT, debug)
    # Then the normal point is (160, 120), 100 px from the future point (> radius),
    # the target 25 px further along uB: (160, 120) + 25 * (0.8, 0.6) = (180, 135)
    np.testing.assert_allclose(debug["path.future"], [[100.0, 200.0]])
    np.testing.assert_allclose(debug["path.normal"], [[160.0, 120.0]])
    np.testing.assert_allclose(debug["path.target"], [[180.0, 135.0]])
    assert debug["path.steering"].tolist() == [True]
    # And the agent's own progress is the arc length of (75, 200): 60 + 120 = 180
    np.testing.assert_allclose(debug["path.progress"], [180.0])
    assert debug["path.radius"].tolist() == [20.0]
    # And the force is the seek: desired = 120 * (105, -65) / |(105, -65)|, minus velocity,
    # times the gain (8/s)
    desired = 120.0 * np.array([105.0, -65.0]) / math.sqrt(105.0**2 + 65.0**2)
    np.testing.assert_allclose(force, [(desired - [120.0, 0.0]) * 8.0])


def test_no_force_while_the_future_position_stays_within_the_radius() -> None:
    # Given an agent inside the path moving along it at full speed, 120 * (0.8, 0.6)
    path = Path([(0.0, 0.0), (400.0, 300.0)], radius=20.0)
    agents = AgentGroup.create([(80.0, 70.0)], [(96.0, 72.0)], max_speed=120, max_force=360)
    debug: dict[str, np.ndarray] = {}
    force = FollowPath(path)(agents, DT, debug)
    # Then its future point (100, 85) is |3 * 100 - 4 * 85| / 5 = 8 px from the path (< 20):
    # no steering at all
    np.testing.assert_allclose(debug["path.future"], [[100.0, 85.0]])
    np.testing.assert_allclose(debug["path.normal"], [[104.8, 78.6]])
    assert debug["path.steering"].tolist() == [False]
    np.testing.assert_array_equal(force, [[0.0, 0.0]])


def test_lookahead_and_target_distance_grow_with_speed() -> None:
    path = Path([(0.0, 0.0), (1000.0, 0.0)], radius=20.0)
    agents = AgentGroup.create(
        [(100.0, 50.0), (100.0, 50.0)], [(120.0, 0.0), (240.0, 0.0)], max_speed=240, max_force=360
    )
    debug: dict[str, np.ndarray] = {}
    FollowPath(path)(agents, DT, debug)
    # 25 px / 50 px predictions; targets 25 px / 10 + 240 * 0.125 = 40 px past the normal
    np.testing.assert_allclose(debug["path.future"], [[125.0, 50.0], [150.0, 50.0]])
    np.testing.assert_allclose(debug["path.target"], [[150.0, 0.0], [190.0, 0.0]])


def test_target_follows_the_path_round_a_corner() -> None:
    # Given a normal point 10 px before a corner, the 25 px target lies 15 px past it
    path = Path([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0)], radius=5.0)
    agents = AgentGroup.create([(65.0, -30.0)], [(120.0, 0.0)], max_speed=120, max_force=360)
    debug: dict[str, np.ndarray] = {}
    FollowPath(path, arrive_at_end=False)(agents, DT, debug)
    np.testing.assert_allclose(debug["path.normal"], [[90.0, 0.0]])
    np.testing.assert_allclose(debug["path.target"], [[100.0, 15.0]])


# -- windowed search and per-agent progress ------------------------------------------------------


def test_windowed_projection_ignores_a_nearer_branch_far_along_the_path() -> None:
    # Given a hairpin: out along y=0, back along y=10
    path = Path([(0.0, 0.0), (300.0, 0.0), (300.0, 10.0), (0.0, 10.0)])
    point = [(100.0, 8.0)]
    # When searched globally the return leg wins (2 px away)...
    assert path.project(point).s[0] == pytest.approx(310.0 + 200.0)
    # ...but searched near progress 95 the outbound leg is kept
    near = path.project(point, hint_s=[95.0], window=[60.0])
    assert near.s[0] == pytest.approx(100.0)
    assert near.distance[0] == pytest.approx(8.0)


def test_window_wraps_around_the_start_of_a_closed_path() -> None:
    loop = Path([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)], closed=True)
    proj = loop.project([(-3.0, 20.0), (20.0, -3.0)], hint_s=[395.0, 395.0], window=30.0)
    np.testing.assert_allclose(proj.s, [380.0, 20.0])
    np.testing.assert_allclose(proj.point, [[0.0, 20.0], [20.0, 0.0]])


def test_new_agents_search_the_whole_path_once() -> None:
    path = Path([(0.0, 0.0), (500.0, 0.0)], radius=10.0)
    agents = AgentGroup.create([(400.0, 30.0)], [(0.0, 0.0)])
    follow = FollowPath(path)
    follow(agents, DT)
    assert agents.state["path.progress"][0] == pytest.approx(400.0)


def test_two_behaviours_keep_separate_progress_by_key() -> None:
    a = Path([(0.0, 0.0), (500.0, 0.0)])
    b = Path([(0.0, 100.0), (0.0, 600.0)])
    agents = AgentGroup.create([(50.0, 110.0)], [(0.0, 0.0)])
    FollowPath(a, key="road")(agents, DT)
    FollowPath(b, key="river")(agents, DT)
    assert agents.state["road.progress"][0] == pytest.approx(50.0)
    assert agents.state["river.progress"][0] == pytest.approx(10.0)


def test_switching_to_another_path_object_restarts_the_search() -> None:
    agents = AgentGroup.create([(250.0, 5.0)], [(0.0, 0.0)])
    follow = FollowPath(Path([(0.0, 0.0), (500.0, 0.0)]))
    follow(agents, DT)
    follow.path = Path([(0.0, 500.0), (0.0, 0.0), (500.0, 0.0)])
    follow(agents, DT)
    assert agents.state["path.progress"][0] == pytest.approx(750.0)


def test_zero_agents() -> None:
    agents = AgentGroup.create(np.zeros((0, 2)))
    debug: dict[str, np.ndarray] = {}
    force = FollowPath(Path([(0.0, 0.0), (1.0, 0.0)]))(agents, DT, debug)
    assert force.shape == (0, 2)
    assert debug["path.progress"].shape == (0,)


# -- behaviour over time -------------------------------------------------------------------------


def _run(
    agents: AgentGroup, follow: FollowPath, seconds: float, column: str = "progress"
) -> tuple[np.ndarray, np.ndarray]:
    """Integrate; return (steps, N) histories of a state column and of distance to the path."""
    values, dist = [], []
    for _ in range(round(seconds / DT)):
        force = follow(agents, DT)
        assert np.isfinite(force).all()
        values.append(agents.state[f"{follow.key}.{column}"].copy())
        dist.append(_distance_to_path(follow.path, agents.pos))
        integrate(agents, force, DT)
    return np.array(values), np.array(dist)


def test_open_path_agent_enters_the_radius_then_advances() -> None:
    # Given seed 000's Example 5.8 path and an agent starting 100 px below it, at rest
    path = Path([(0.0, 80.0), (150.0, 150.0), (450.0, 170.0), (640.0, 230.0)], radius=20.0)
    agents = AgentGroup.create([(20.0, -20.0)], [(0.0, 0.0)], max_speed=120, max_force=360)
    progress, dist = _run(agents, FollowPath(path, arrive_at_end=False), 4.0)
    # Then it reaches the path within 2 s and stays within the radius (plus a little
    # corner cutting) while its progress climbs steadily
    entered = int(np.argmax(dist[:, 0] <= path.radius))
    assert 0 < entered < 120
    assert dist[entered:, 0].max() <= path.radius * 1.5
    steps = np.diff(progress[entered:, 0])
    assert (steps > -1e-9).all()
    assert steps.max() <= 1.5 * 120.0 * DT + 1e-9
    assert progress[-1, 0] - progress[entered, 0] > 0.7 * 120.0 * (4.0 - entered * DT)


def test_closed_path_agents_enter_and_circulate() -> None:
    # Given seed 001's closed path (800 x 400 window, offset 30) and 12 agents anywhere
    w, h, o = 800.0, 400.0, 30.0
    nodes = [(o, o), (w - o, o), (w - o, h - o), (w / 2, h - o * 3), (o, h - o)]
    path = Path(nodes, closed=True, radius=20.0)
    rng = np.random.default_rng(1)
    agents = AgentGroup.create(
        rng.uniform((0, 0), (w, h), (12, 2)),
        rng.normal(0, 60, (12, 2)),
        max_speed=240,
        max_force=1080,
    )
    follow = FollowPath(path)
    progress, dist = _run(agents, follow, 12.0)
    # Then after a few seconds every agent stays near the path...
    assert dist[240:].max() <= 1.5 * path.radius
    # ...and goes round it forwards, progress never moving more than 1.5 steps' travel
    # (the nearest point jumps up to 2 * offset * tan(45 deg) inside these square corners;
    # progress smooths that out)
    steps = _wrapped_step(np.diff(progress, axis=0), path.length)
    assert steps[240:].min() > -1e-6
    assert np.abs(steps).max() <= follow.progress_rate * 240.0 * DT + 1e-9
    laps = steps[240:].sum(axis=0) / path.length
    assert (laps > 0.7 * 240.0 * (12.0 - 4.0) / path.length).all()


def test_figure_eight_progress_never_jumps_at_the_crossing() -> None:
    # Given a self-crossing figure eight and 10 agents near it
    nodes = _lemniscate()
    path = Path(nodes, closed=True, radius=20.0)
    rng = np.random.default_rng(2)
    start = path.point_at(rng.uniform(0, path.length, 10)) + rng.normal(0, 25, (10, 2))
    agents = AgentGroup.create(start, max_speed=150, max_force=600)
    follow = FollowPath(path, progress_rate=math.inf)
    nearest, dist = _run(agents, follow, 16.0, column="nearest")
    # Then once on the path (within 1 s) the nearest point never moves more per step than
    # the agent travels plus the inside-corner jump 2 * offset * tan(turn / 2), with the
    # offset within the radius: about 5 px here, far less than a jump to the other branch
    assert dist[60:].max() <= path.radius
    steps = _wrapped_step(np.diff(nearest, axis=0), path.length)
    bound = 150.0 * DT + 2 * path.radius * math.tan(_max_turn(nodes) / 2) + 1e-6
    assert bound < 10.0
    assert np.abs(steps[60:]).max() <= bound
    # And every agent goes round, in order, through the crossing several times
    assert (steps[60:].min(axis=0) > -1e-6).all()
    assert (steps.sum(axis=0) > 1.2 * path.length).all()
    # (with an infinite progress rate, progress is the nearest point itself)
    np.testing.assert_array_equal(agents.state["path.progress"], agents.state["path.nearest"])


def test_progress_trails_the_nearest_point_smoothly() -> None:
    # Given the figure eight followed with the default progress rate (1.5 x travel)
    path = Path(_lemniscate(), closed=True, radius=20.0)
    rng = np.random.default_rng(4)
    start = path.point_at(rng.uniform(0, path.length, 10)) + rng.normal(0, 10, (10, 2))
    agents = AgentGroup.create(start, max_speed=150, max_force=600)
    follow = FollowPath(path)
    progress, _ = _run(agents, follow, 6.0)
    # Then progress steps stay within 1.5 x 2.5 px and it stays close to the nearest point
    steps = _wrapped_step(np.diff(progress, axis=0), path.length)
    assert np.abs(steps).max() <= 1.5 * 150.0 * DT + 1e-9
    lag = _wrapped_step(agents.state["path.nearest"] - agents.state["path.progress"], path.length)
    assert np.abs(lag).max() < 5.0


def test_global_search_would_jump_at_the_crossing() -> None:
    # Given an agent 3 px past the crossing of the figure eight and 6 px to the side of its
    # branch: the branches cross at right angles, so the other one is only 3 px away
    path = Path(_lemniscate(), closed=True, radius=20.0)
    crossing_s = path.length / 2
    tangent = path.tangent_at([crossing_s + 3.0])
    pos = path.point_at([crossing_s + 3.0]) + 6.0 * np.c_[-tangent[:, 1], tangent[:, 0]]
    # Then the global nearest point can be on the other branch, the windowed one is not
    global_s = path.project(pos).s[0]
    windowed = path.project(pos, hint_s=[crossing_s], window=60.0).s[0]
    assert abs(windowed - crossing_s) < 30.0
    assert min(abs(global_s - crossing_s), path.length - abs(global_s - crossing_s)) > 100.0


def test_reverse_follows_the_path_backwards() -> None:
    path = Path([(0.0, 0.0), (300.0, 0.0), (300.0, 300.0), (0.0, 300.0)], closed=True)
    agents = AgentGroup.create([(150.0, 10.0)], [(0.0, 0.0)], max_speed=120, max_force=360)
    progress, dist = _run(agents, FollowPath(path, reverse=True), 8.0)
    steps = _wrapped_step(np.diff(progress[:, 0]), path.length)
    assert steps[30:].max() < 1e-6
    assert -steps.sum() > 0.7 * 120.0 * 8.0
    assert dist[60:].max() <= 2.0 * path.radius


@pytest.mark.parametrize("reverse", [False, True])
def test_arrive_at_the_end_of_an_open_path(reverse: bool) -> None:
    # Given an open L-shaped path and an agent starting at the other end at rest
    nodes = np.array([(0.0, 0.0), (300.0, 0.0), (300.0, 200.0)])
    path = Path(nodes, radius=20.0)
    start, end = (nodes[-1], nodes[0]) if reverse else (nodes[0], nodes[-1])
    agents = AgentGroup.create([start], max_speed=200, max_force=400)
    follow = FollowPath(path, reverse=reverse)
    positions = []
    for _ in range(60 * 8):
        integrate(agents, follow(agents, DT), DT)
        positions.append(agents.pos[0].copy())
    pos = np.array(positions)
    # Then it comes to rest on the end node...
    assert np.linalg.norm(pos[-1] - end) < 1.0
    assert np.linalg.norm(agents.vel[0]) < 1.0
    # ...never passing it by more than the path radius along the last segment
    out = (nodes[-1] - nodes[-2]) if not reverse else (nodes[0] - nodes[1])
    out = out / np.linalg.norm(out)
    assert ((pos - end) @ out).max() <= path.radius
    assert ((pos - end) @ out).max() <= 2.0


def test_stopped_agent_on_the_path_gets_going() -> None:
    path = Path([(0.0, 0.0), (1000.0, 0.0)], radius=20.0)
    agents = AgentGroup.create([(100.0, 0.0)], [(0.0, 0.0)], max_speed=120, max_force=360)
    progress, _ = _run(agents, FollowPath(path), 2.0)
    assert progress[-1, 0] > 250.0
    assert agents.vel[0, 0] > 0.9 * 120.0


def test_agent_heading_the_wrong_way_turns_round() -> None:
    path = Path([(0.0, 0.0), (1000.0, 0.0)], radius=20.0)
    agents = AgentGroup.create([(500.0, 0.0)], [(-120.0, 0.0)], max_speed=120, max_force=360)
    progress, _ = _run(agents, FollowPath(path), 3.0)
    assert progress[-1, 0] > 500.0
    assert agents.vel[0, 0] > 0.0


# -- editing while following --------------------------------------------------------------------


def test_remap_keeps_places_across_each_kind_of_edit() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0), (200.0, 0.0), (300.0, 0.0)])
    s = np.array([50.0, 150.0, 250.0])
    v0 = path.version
    # Moving node 1 up stretches segments 0 and 1; fractions along them are kept
    path.move_node(1, (100.0, 100.0))
    seg = math.hypot(100, 100)
    np.testing.assert_allclose(path.remap(s, v0), [seg / 2, seg + seg / 2, 2 * seg + 50])
    v1 = path.version
    # Inserting a node in the first segment keeps everything at the same place
    path.insert_node(1, (50.0, 50.0))
    np.testing.assert_allclose(path.remap([seg / 2, 2 * seg + 50], v1), [seg / 2, 2 * seg + 50])
    v2 = path.version
    # Deleting the first node drops the first half-segment: points on it go to the new start,
    # points after it move back by its length
    path.delete_node(0)
    np.testing.assert_allclose(path.remap([10.0, 2 * seg + 50], v2), [0.0, 1.5 * seg + 50])
    # Chained over all three edits, and unknown versions give NaN
    np.testing.assert_allclose(path.remap([250.0], v0), [1.5 * seg + 50])
    assert np.isnan(path.remap([1.0], path.version + 5)).all()
    assert path.version == v0 + 3


def test_remap_across_closing_and_opening() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)])
    v0 = path.version
    path.set_closed(True)
    np.testing.assert_allclose(path.remap([0.0, 150.0, 300.0], v0), [0.0, 150.0, 300.0])
    v1 = path.version
    path.set_closed(False)
    # On the removed closing segment (300..400) a point goes to the nearer end
    np.testing.assert_allclose(path.remap([320.0, 390.0, 150.0], v1), [300.0, 0.0, 150.0])


def test_remap_after_deleting_node_zero_of_a_closed_path() -> None:
    loop = Path([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)], closed=True)
    v0 = loop.version
    loop.delete_node(0)
    # New loop: (100,0) -> (100,100) -> (0,100) -> back, length 200 + hypot(100, 100)
    diag = math.hypot(100, 100)
    out = loop.remap([150.0, 250.0, 350.0, 50.0], v0)
    np.testing.assert_allclose(out, [50.0, 150.0, 200.0 + diag * 0.25, 200.0 + diag * 0.75])


@pytest.mark.parametrize("closed", [False, True])
def test_progress_stays_valid_while_nodes_are_edited(closed: bool) -> None:
    # Given 20 agents following a path whose nodes are moved, inserted and deleted as they go
    rng = np.random.default_rng(7)
    t = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    nodes = np.c_[400 + 250 * np.cos(t), 300 + 180 * np.sin(t)]
    path = Path(nodes, closed=closed, radius=20.0)
    start = path.point_at(rng.uniform(0, path.length, 20)) + rng.normal(0, 10, (20, 2))
    agents = AgentGroup.create(start, max_speed=150, max_force=500)
    follow = FollowPath(path)
    worst = {"path.nearest": 0.0, "path.progress": 0.0}
    for step in range(600):
        if step % 10 == 5:
            kind = step // 10 % 3
            i = int(rng.integers(0, path.n_nodes))
            if kind == 0:
                path.move_node(i, path.nodes[i] + rng.normal(0, 15, 2))
            elif kind == 1:
                j = min(i + 1, path.n_nodes - 1)
                path.insert_node(j, (path.nodes[i] + path.nodes[j]) / 2 + rng.normal(0, 5, 2))
            elif path.n_nodes > 4:
                path.delete_node(i)
        force = follow(agents, DT)
        assert np.isfinite(force).all()
        assert (np.linalg.norm(force, axis=1) <= agents.max_force + 1e-9).all()
        # Then progress is finite and on the path; the nearest point is where the agent is
        # (never across the path), and progress trails it by little
        distance = _distance_to_path(path, agents.pos)
        for column in ("path.nearest", "path.progress"):
            s = agents.state[column]
            assert np.isfinite(s).all()
            assert (s >= 0).all()
            assert (s <= path.length).all()
            gap = np.linalg.norm(path.point_at(s) - agents.pos, axis=1) - distance
            worst[column] = max(worst[column], float(gap.max()))
        integrate(agents, force, DT)
    assert worst["path.nearest"] < 1e-6
    # (progress is rate-limited, so after the nearest point jumps inside one of the sharp
    # corners these edits make, it trails for a few steps)
    assert worst["path.progress"] < 2 * path.radius
    assert path.version > 40


@pytest.mark.parametrize("edit", ["delete", "insert", "move"])
def test_edit_far_behind_does_not_move_an_agents_progress_across_the_path(edit: str) -> None:
    # Given an agent settled 3/4 of the way along a long wavy open path
    xs = np.linspace(0.0, 1000.0, 11)
    path = Path(np.c_[xs, 40.0 * np.sin(xs / 60.0)], radius=15.0)
    s0 = 0.75 * path.length
    agents = AgentGroup.create([path.point_at(s0)], [120.0 * path.tangent_at(s0)])
    follow = FollowPath(path)
    follow(agents, DT)
    # When the start of the path changes its length a lot
    if edit == "delete":
        path.delete_node(1)
        path.delete_node(1)
    elif edit == "insert":
        path.insert_node(1, (50.0, 400.0))
    else:
        path.move_node(0, (-300.0, -300.0))
    follow(agents, DT)
    # Then its progress still points at where it is
    progress = agents.state["path.progress"]
    assert np.linalg.norm(path.point_at(progress)[0] - agents.pos[0]) < 3.0


def test_drifting_path_moves_nodes_smoothly_and_followers_keep_up() -> None:
    base = np.array([(0.0, 80.0), (150.0, 150.0), (450.0, 170.0), (640.0, 230.0)])
    drift = DriftingPath(base, amplitude=(0.0, 40.0), speed=1.5, seed=3)
    again = DriftingPath(base, amplitude=(0.0, 40.0), speed=1.5, seed=3)
    np.testing.assert_array_equal(drift.nodes_at(2.0), again.nodes_at(2.0))
    path = Path(base, radius=20.0)
    agents = AgentGroup.create([(0.0, 60.0), (10.0, 100.0)], max_speed=120, max_force=360)
    follow = FollowPath(path, arrive_at_end=False)
    last = None
    for step in range(240):
        drift.apply(path, step * DT)
        nodes = path.nodes.copy()
        # Seed Exercise 5.11: nodes move in y only, within the amplitude, a little per step
        np.testing.assert_array_equal(nodes[:, 0], base[:, 0])
        assert np.abs(nodes[:, 1] - base[:, 1]).max() <= 40.0 + 1e-9
        if last is not None:
            assert np.abs(nodes - last).max() <= 40.0 * 1.5 * 1.5 * DT + 1e-9
        last = nodes
        integrate(agents, follow(agents, DT), DT)
        assert np.isfinite(agents.state["path.progress"]).all()
    assert path.shape_version == 240 and path.version == 0  # drift records no edit
    assert (agents.state["path.progress"] > 200.0).all()


def test_set_nodes_with_another_count_restarts_the_search() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0)])
    agents = AgentGroup.create([(50.0, 5.0)])
    follow = FollowPath(path)
    follow(agents, DT)
    path.set_nodes([(0.0, 100.0), (0.0, 0.0), (100.0, 0.0)])
    follow(agents, DT)
    assert agents.state["path.progress"][0] == pytest.approx(150.0)


# -- degenerate input -----------------------------------------------------------------------------


def test_degenerate_path_is_a_point_agents_arrive_at() -> None:
    path = Path([(50.0, 50.0), (50.0, 50.0), (50.0, 50.0)], closed=True)
    assert path.degenerate
    assert path.length == 0.0
    np.testing.assert_allclose(path.point_at([0.0, 10.0]), [[50, 50], [50, 50]])
    np.testing.assert_allclose(path.tangent_at([3.0]), [[0.0, 0.0]])
    agents = AgentGroup.create([(0.0, 0.0), (50.0, 50.0), (300.0, 10.0)], [(10, 0), (0, 0), (0, 0)])
    follow = FollowPath(path)
    debug: dict[str, np.ndarray] = {}
    force = follow(agents, DT, debug)
    assert np.isfinite(force).all()
    np.testing.assert_array_equal(force[1], [0.0, 0.0])
    np.testing.assert_array_equal(debug["path.progress"], [0.0, 0.0, 0.0])
    for _ in range(600):
        integrate(agents, follow(agents, DT), DT)
    assert np.linalg.norm(agents.pos - (50.0, 50.0), axis=1).max() < 1.0


def test_duplicate_nodes_everywhere_give_finite_forces_and_progress() -> None:
    nodes = [(0, 0), (0, 0), (100, 0), (100, 0), (100, 0), (100, 100), (0, 100), (0, 100)]
    for closed in (False, True):
        path = Path(nodes, closed=closed)
        rng = np.random.default_rng(5)
        agents = AgentGroup.create(rng.uniform(-50, 150, (50, 2)), rng.normal(0, 80, (50, 2)))
        follow = FollowPath(path)
        for _ in range(120):
            force = follow(agents, DT)
            assert np.isfinite(force).all()
            integrate(agents, force, DT)
            assert np.isfinite(agents.state["path.progress"]).all()


def test_non_finite_agent_rows_get_zero_force_and_do_not_spread() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0)])
    agents = AgentGroup.create([(10.0, 10.0), (20.0, 20.0)])
    agents.pos[1] = (math.nan, 0.0)
    force = FollowPath(path)(agents, DT)
    np.testing.assert_array_equal(force[1], [0.0, 0.0])
    assert np.isfinite(force[0]).all()
    assert np.linalg.norm(force[0]) > 0.0


# -- properties ----------------------------------------------------------------------------------

_scale = st.sampled_from([1e-3, 1.0, 100.0, 1e6, 1e9])
_coord = st.floats(-1.0, 1.0, allow_nan=False)


@st.composite
def _paths(draw: st.DrawFn) -> Path:
    scale = draw(_scale)
    m = draw(st.integers(2, 8))
    pts = draw(st.lists(st.tuples(_coord, _coord), min_size=m, max_size=m))
    nodes = np.array(pts) * scale
    # duplicate some nodes, sometimes all of them
    dup = draw(st.lists(st.integers(0, m - 1), max_size=3))
    for i in dup:
        nodes = np.insert(nodes, i, nodes[i], axis=0)
    if draw(st.booleans()) and draw(st.booleans()):
        nodes[:] = nodes[0]
    radius = draw(st.floats(1e-3, 100.0)) * max(scale, 1.0) / 10.0
    return Path(nodes, closed=draw(st.booleans()), radius=radius)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=_paths(),
    seed=st.integers(0, 2**31),
    n=st.integers(1, 12),
    reverse=st.booleans(),
    arrive=st.booleans(),
    edit=st.sampled_from(["none", "move", "insert", "delete", "close", "open"]),
)
@pytest.mark.slow
def test_forces_are_finite_and_limited_and_progress_finite(
    path: Path, seed: int, n: int, reverse: bool, arrive: bool, edit: str
) -> None:
    rng = np.random.default_rng(seed)
    span = max(float(np.abs(path.nodes).max()), 1.0)
    pos = rng.uniform(-2 * span, 2 * span, (n, 2))
    pos[: n // 3] = path.nodes[rng.integers(0, path.n_nodes, n // 3)]
    vel = rng.normal(0, 1, (n, 2)) * rng.choice([0.0, 1.0, 100.0, 1e4], (n, 1))
    agents = AgentGroup.create(
        pos, vel, max_speed=rng.uniform(0, 300, n), max_force=rng.uniform(0, 1000, n)
    )
    follow = FollowPath(path, reverse=reverse, arrive_at_end=arrive)
    for step in range(4):
        if step == 2:
            i = int(rng.integers(0, path.n_nodes))
            if edit == "move":
                path.move_node(i, rng.uniform(-span, span, 2))
            elif edit == "insert":
                path.insert_node(i, path.nodes[i])
            elif edit == "delete" and path.n_nodes > 2:
                path.delete_node(i)
            elif edit in ("close", "open"):
                path.set_closed(edit == "close")
        force = follow(agents, DT)
        assert force.shape == (n, 2)
        assert np.isfinite(force).all()
        assert (np.linalg.norm(force, axis=1) <= agents.max_force + 1e-9).all()
        for column in ("path.progress", "path.nearest"):
            s = agents.state[column]
            assert np.isfinite(s).all()
            assert (s >= 0.0).all()
            assert (s <= path.length).all()
        integrate(agents, force, DT)


@settings(max_examples=200, deadline=None)
@given(
    path=_paths(),
    seed=st.integers(0, 2**31),
    hint_kind=st.sampled_from(["none", "finite", "nan", "huge"]),
    window=st.sampled_from([0.0, 1.0, 50.0, math.inf, 1e300]),
)
@pytest.mark.slow
def test_projection_is_consistent_on_any_path(
    path: Path, seed: int, hint_kind: str, window: float
) -> None:
    rng = np.random.default_rng(seed)
    span = max(float(np.abs(path.nodes).max()), 1.0)
    points = rng.uniform(-2 * span, 2 * span, (9, 2))
    hint = {
        "none": None,
        "finite": rng.uniform(-path.length, 2 * path.length + 1.0, 9),
        "nan": np.full(9, math.nan),
        "huge": np.full(9, 1e300),
    }[hint_kind]
    proj = path.project(points, hint_s=hint, window=window)
    # Then every answer is a finite place on the path, at the reported point and distance,
    # and never nearer than the true nearest point
    assert np.isfinite(proj.s).all() and (proj.s >= 0).all() and (proj.s <= path.length).all()
    np.testing.assert_allclose(path.point_at(proj.s), proj.point, atol=1e-9 * span)
    np.testing.assert_allclose(
        np.linalg.norm(points - proj.point, axis=1), proj.distance, atol=1e-9 * span
    )
    best = path.project(points).distance
    assert (proj.distance >= best - 1e-9 * span).all()
    if hint is None or hint_kind == "nan" or window >= path.length:
        np.testing.assert_allclose(proj.distance, best, atol=1e-9 * span)


# -- a radius per segment (OpenSteer's segmented pathway) -----------------------------------------

#: Two 200 px segments along y = 0: wide (50 px) then narrow (10 px).
WIDE_NARROW = [(0.0, 0.0), (200.0, 0.0), (400.0, 0.0)]


def test_per_segment_radii_are_stored_and_the_radius_is_the_largest() -> None:
    path = Path(WIDE_NARROW, radius=[50.0, 10.0])
    np.testing.assert_array_equal(path.radii, [50.0, 10.0])
    assert path.radius == 50.0 and not path.uniform
    with pytest.raises(ValueError):
        path.radii[0] = 5.0
    assert Path(WIDE_NARROW, radius=20.0).uniform
    np.testing.assert_array_equal(Path(WIDE_NARROW, radius=20.0).radii, [20.0, 20.0])
    # closed: one more segment, the closing one
    loop = Path([*WIDE_NARROW, (200.0, 100.0)], closed=True, radius=[1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(loop.radius_at([10.0, 210.0, 450.0, 700.0]), [1, 2, 3, 4])


@pytest.mark.parametrize(
    "radius",
    [[50.0], [50.0, 10.0, 5.0], [50.0, 0.0], [50.0, -1.0], [50.0, math.nan], [[1.0, 2.0]], "x"],
)
def test_per_segment_radii_must_be_one_positive_value_per_segment(radius: object) -> None:
    with pytest.raises(ValueError, match="radius"):
        Path(WIDE_NARROW, radius=radius)  # type: ignore[arg-type]


def test_agent_beside_the_wide_segment_does_not_steer_beside_the_narrow_one_does() -> None:
    # Given the wide-then-narrow path and two agents 30 px beside it, moving along it at the
    # seed speed (future points 25 px ahead, still 30 px off the centre line)
    path = Path(WIDE_NARROW, radius=[50.0, 10.0])
    agents = AgentGroup.create(
        [(100.0, 30.0), (300.0, 30.0)], [(120.0, 0.0), (120.0, 0.0)], max_speed=120
    )
    debug: dict[str, np.ndarray] = {}
    force = FollowPath(path, arrive_at_end=False)(agents, DT, debug)
    # Then the one beside the 50 px segment is inside and gets no force; the one beside the
    # 10 px segment has strayed and steers back
    assert debug["path.steering"].tolist() == [False, True]
    np.testing.assert_array_equal(debug["path.radius"], [50.0, 10.0])
    np.testing.assert_array_equal(force[0], [0.0, 0.0])
    assert force[1, 1] < 0.0
    # as it would on a path 50 px wide everywhere (no steering) or 10 px (both steer)
    for radius, expected in ((50.0, [False, False]), (10.0, [True, True])):
        FollowPath(Path(WIDE_NARROW, radius=radius), arrive_at_end=False)(agents, DT, debug)
        assert debug["path.steering"].tolist() == expected


def test_the_segment_that_counts_is_the_one_the_future_point_projects_onto() -> None:
    # Given an agent still beside the wide segment whose future point is past its end
    path = Path(WIDE_NARROW, radius=[50.0, 10.0])
    agents = AgentGroup.create([(190.0, 30.0)], [(120.0, 0.0)], max_speed=120)
    debug: dict[str, np.ndarray] = {}
    FollowPath(path, arrive_at_end=False)(agents, DT, debug)
    # Then its future (215, 30) is held to the narrow segment's radius
    np.testing.assert_allclose(debug["path.future"], [[215.0, 30.0]])
    assert debug["path.radius"].tolist() == [10.0]
    assert debug["path.steering"].tolist() == [True]


def test_equal_radii_per_segment_give_the_same_bits_as_one_radius() -> None:
    # Given 50 agents on a closed path with one radius, and the same path with that radius
    # given once per segment
    rng = np.random.default_rng(11)
    nodes = _lemniscate(24)
    a = AgentGroup.create(rng.uniform(100, 600, (50, 2)), rng.uniform(-120, 120, (50, 2)))
    b = AgentGroup.create(a.pos, a.vel)
    one = FollowPath(Path(nodes, closed=True, radius=18.0))
    each = FollowPath(Path(nodes, closed=True, radius=np.full(24, 18.0)))
    # When both step for two seconds
    for _ in range(120):
        fa, fb = one(a, DT), each(b, DT)
        # Then forces and progress are equal to the bit
        assert fa.tobytes() == fb.tobytes()
        integrate(a, fa, DT)
        integrate(b, fb, DT)
    assert one.progress(a).tobytes() == each.progress(b).tobytes()


def test_node_edits_keep_one_radius_per_segment() -> None:
    # Given an open path of three segments with radii 10, 20, 30
    path = Path([(0.0, 0.0), (100.0, 0.0), (200.0, 0.0), (300.0, 0.0)], radius=[10, 20, 30])
    v0 = path.version
    # Splitting segment 1 gives both halves its radius
    path.insert_node(2, (150.0, 0.0))
    np.testing.assert_array_equal(path.radii, [10, 20, 20, 30])
    # New ends take the radius of the end segment
    path.insert_node(0, (-100.0, 0.0))
    path.insert_node(path.n_nodes, (400.0, 0.0))
    np.testing.assert_array_equal(path.radii, [10, 10, 20, 20, 30, 30])
    # Deleting a node keeps the radius of the segment before it (of the remaining one at an end)
    path.delete_node(3)
    np.testing.assert_array_equal(path.radii, [10, 10, 20, 30, 30])
    path.delete_node(0)
    path.delete_node(-1)
    np.testing.assert_array_equal(path.radii, [10, 20, 30])
    # Closing adds a closing segment with the last radius; opening drops it
    path.set_closed(True)
    np.testing.assert_array_equal(path.radii, [10, 20, 30, 30])
    path.insert_node(0, (150.0, -50.0))  # splits the closing segment
    np.testing.assert_array_equal(path.radii, [30, 10, 20, 30, 30])
    path.delete_node(0)
    path.set_closed(False)
    np.testing.assert_array_equal(path.radii, [10, 20, 30])
    # A radius for all is an edit like any other; so is one per segment
    path.radius = 15.0
    np.testing.assert_array_equal(path.radii, [15, 15, 15])
    path.set_radius([5, 6, 7])
    np.testing.assert_array_equal(path.radii, [5, 6, 7])
    with pytest.raises(ValueError, match="radius"):
        path.set_radius([5, 6])
    assert path.version == v0 + 12
    # A copy keeps them; new nodes of another count take the radius at the same place
    np.testing.assert_array_equal(path.copy().radii, [5, 6, 7])
    path.set_nodes([(0.0, 0.0), (50.0, 0.0), (100.0, 0.0), (150.0, 0.0), (200.0, 0.0), (9, 9)])
    np.testing.assert_array_equal(path.radii, [5, 5, 6, 6, 7])


def test_followers_keep_steering_while_radii_are_edited() -> None:
    # Given agents on the wide-then-narrow path
    path = Path(WIDE_NARROW, radius=[50.0, 10.0])
    follow = FollowPath(path, arrive_at_end=False)
    agents = AgentGroup.create([(300.0, 30.0)], [(120.0, 0.0)], max_speed=120)
    debug: dict[str, np.ndarray] = {}
    follow(agents, DT, debug)
    assert debug["path.steering"].tolist() == [True]
    # When the narrow segment is widened live, the agent stops steering
    path.set_radius([50.0, 40.0])
    follow(agents, DT, debug)
    assert debug["path.steering"].tolist() == [False]
    assert np.isfinite(follow.progress(agents)).all()


def test_a_lookahead_distance_predicts_that_far_at_any_speed() -> None:
    # Given two agents at different speeds and the seeds' look-ahead as a distance (25 px)
    agents = AgentGroup.create(np.array([[0.0, 10.0], [0.0, -30.0]]), max_speed=200.0)
    agents.vel[:] = [[60.0, 80.0], [180.0, 0.0]]
    follow = FollowPath(Path([(0.0, 0.0), (500.0, 0.0)], radius=20.0), lookahead_distance=25.0)
    debug: dict[str, np.ndarray] = {}
    follow(agents, 1 / 60, debug)
    # Then each future point is 25 px along its own direction of motion
    expected = agents.pos + np.array([[0.6, 0.8], [1.0, 0.0]]) * 25.0
    np.testing.assert_allclose(debug["path.future"], expected, atol=1e-12)
