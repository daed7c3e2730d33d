"""Hide: Buckland's hiding spots behind rocks, the nearest usable one, evade when there is none."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering import Debug, Hide, Masked, Obstacles, WeightedSum, composite
from steering import hide as hide_module
from steering.agents import AgentGroup, integrate
from steering.basic import Arrive, Evade
from steering.vec import length

DT = 1 / 60
NAN_ROW = [math.nan, math.nan]


def hidden(hunter: np.ndarray, agent: np.ndarray, rocks: Obstacles) -> bool:
    """Whether the segment hunter -> agent passes through some rock (line of sight blocked)."""
    d = agent - hunter
    dd = float(d @ d)
    for c, r in zip(rocks.centers, rocks.radii, strict=True):
        t = 0.0 if dd == 0 else min(max(float((c - hunter) @ d) / dd, 0.0), 1.0)
        if np.linalg.norm(hunter + t * d - c) < r:
            return True
    return False


def test_hiding_spot_is_bucklands_formula() -> None:
    # Given a rock at (100, 0), r = 20, a hunter at the origin and distance 30 from the rock
    rocks = Obstacles.create([[100.0, 0.0]], 20.0)
    agents = AgentGroup.create([[200.0, 10.0]])
    debug: Debug = {}
    # When the agent behind it hides
    Hide((0.0, 0.0), rocks, distance_from_boundary=30.0)(agents, DT, debug)
    # Then the spot is centre + unit(centre - hunter) * (20 + 30) = (150, 0), and it is chosen
    np.testing.assert_allclose(debug["hide.spots"], [[150.0, 0.0]])
    np.testing.assert_allclose(debug["hide.spot"], [[150.0, 0.0]])


def test_force_is_arrive_at_the_spot() -> None:
    # Given an agent at rest 100 px from the spot (150, 0), max speed 100, unlimited force
    rocks = Obstacles.create([[100.0, 0.0]], 20.0)
    agents = AgentGroup.create([[150.0, 100.0]], max_speed=100, max_force=1e9)
    force = Hide((0.0, 0.0), rocks, gain=8.0)(agents, DT)
    # Then it arrives: outside the 50 px slowing radius, desired (0, -100), gain
    # max(8, 4 * 100 / 50) = 8, so (0, -800) -- the same as Arrive at the spot
    np.testing.assert_allclose(force, [[0.0, -800.0]])
    np.testing.assert_allclose(force, Arrive((150.0, 0.0), 50.0, 8.0)(agents, DT))


def test_each_agent_takes_its_nearest_spot() -> None:
    # Given rocks at (100, 0) and (0, 100), r = 20: spots (150, 0) and (0, 150)
    rocks = Obstacles.create([[100.0, 0.0], [0.0, 100.0]], 20.0)
    agents = AgentGroup.create([[140.0, 60.0], [60.0, 140.0]])
    debug: Debug = {}
    Hide((0.0, 0.0), rocks)(agents, DT, debug)
    # Then (140, 60) is 60.8 px from (150, 0) and 166 px from (0, 150), and the reverse
    np.testing.assert_allclose(debug["hide.spot"], [[150.0, 0.0], [0.0, 150.0]])
    np.testing.assert_allclose(debug["hide.spots"], [[150.0, 0.0], [0.0, 150.0]])


def test_spot_inside_another_rock_is_skipped() -> None:
    # Given rock A's spot (150, 0) lies inside rock B at (160, 0), r = 20 (10 px from its centre)
    rocks = Obstacles.create([[100.0, 0.0], [160.0, 0.0]], 20.0)
    agents = AgentGroup.create([[150.0, 60.0]])
    debug: Debug = {}
    Hide((0.0, 0.0), rocks)(agents, DT, debug)
    # Then the agent takes B's spot (160 + 50, 0), 84.9 px away, not A's, 60 px away
    np.testing.assert_allclose(debug["hide.spots"], [[150.0, 0.0], [210.0, 0.0]])
    np.testing.assert_allclose(debug["hide.spot"], [[210.0, 0.0]])


def test_evades_when_the_hunter_is_nearer_every_spot() -> None:
    # Given the agent at (-50, 0) on the hunter's side: the spot (150, 0) is 150 px from the
    # hunter and 200 px from the agent, so the hunter would get there first
    rocks = Obstacles.create([[100.0, 0.0]], 20.0)
    agents = AgentGroup.create([[-50.0, 0.0]], max_speed=100, max_force=1e9)
    debug: Debug = {}
    force = Hide((0.0, 0.0), rocks)(agents, DT, debug)
    # Then it evades: flee along -x at full speed, (-100 - 0) * 8
    np.testing.assert_allclose(force, [[-800.0, 0.0]])
    np.testing.assert_allclose(force, Evade((0.0, 0.0))(agents, DT))
    np.testing.assert_array_equal(debug["hide.spot"], [NAN_ROW])


def test_evades_without_rocks() -> None:
    agents = AgentGroup.create([[30.0, 40.0]], [[10.0, 0.0]], max_speed=100, max_force=50)
    debug: Debug = {}
    force = Hide((0.0, 0.0), Obstacles.empty(), (5.0, 5.0))(agents, DT, debug)
    np.testing.assert_allclose(force, Evade((0.0, 0.0), (5.0, 5.0))(agents, DT))
    assert debug["hide.spots"].shape == (0, 2)
    np.testing.assert_array_equal(debug["hide.spot"], [NAN_ROW])


def test_calm_beyond_panic_distance() -> None:
    # Given agents 100 px and 300 px from the hunter, panic distance 200
    rocks = Obstacles.create([[0.0, 500.0]], 20.0)
    agents = AgentGroup.create([[0.0, 100.0], [0.0, -300.0]], [[10.0, 0.0], [10.0, 0.0]])
    debug: Debug = {}
    force = Hide((0.0, 0.0), rocks, panic_distance=200.0)(agents, DT, debug)
    # Then the near one hides and the far one does nothing (zero force, no spot)
    assert np.linalg.norm(force[0]) > 0
    np.testing.assert_array_equal(force[1], [0.0, 0.0])
    np.testing.assert_allclose(debug["hide.spot"], [[0.0, 550.0], NAN_ROW])


def test_prefers_a_spot_it_reaches_without_nearing_the_hunter() -> None:
    # Given an agent at (0, 300), the hunter at the origin, and two rocks (r = 20, distance 30):
    # A at (240, 180): spot (280, 210), 294 px away. The path to it comes within
    #   sqrt(300^2 - 27000^2 / 86500) = 285.6 px of the hunter: 14.4 px nearer than now.
    # B at (-300, 400): spot (-330, 440), 358 px away, straight away from the hunter.
    rocks = Obstacles.create([[240.0, 180.0], [-300.0, 400.0]], 20.0)
    agents = AgentGroup.create([[0.0, 300.0]], radius=8.0)
    debug: Debug = {}
    Hide((0.0, 0.0), rocks)(agents, DT, debug)
    np.testing.assert_allclose(debug["hide.spots"], [[280.0, 210.0], [-330.0, 440.0]])
    # Then it takes the farther, safe B
    np.testing.assert_allclose(debug["hide.spot"], [[-330.0, 440.0]])
    # And with A alone, A's spot is still better than evading (hunter 349 px from it, agent 294)
    debug = {}
    Hide((0.0, 0.0), Obstacles.create([[240.0, 180.0]], 20.0))(agents, DT, debug)
    np.testing.assert_allclose(debug["hide.spot"], [[280.0, 210.0]])


def test_one_hunter_per_agent() -> None:
    # Given one rock at the origin and two agents with hunters on opposite sides
    rocks = Obstacles.create([[0.0, 0.0]], 20.0)
    agents = AgentGroup.create([[100.0, 0.0], [-100.0, 0.0]])
    debug: Debug = {}
    Hide([[-200.0, 0.0], [200.0, 0.0]], rocks, [[0.0, 0.0], [1.0, 0.0]])(agents, DT, debug)
    # Then each hides on the side away from its own hunter; "hide.spots" is the first hunter's
    np.testing.assert_allclose(debug["hide.spot"], [[50.0, 0.0], [-50.0, 0.0]])
    np.testing.assert_allclose(debug["hide.spots"], [[50.0, 0.0]])


def test_hunter_inside_a_rock_makes_no_spot() -> None:
    rocks = Obstacles.create([[0.0, 0.0]], 20.0)
    agents = AgentGroup.create([[100.0, 0.0]], max_speed=100, max_force=1e9)
    debug: Debug = {}
    force = Hide((5.0, 0.0), rocks)(agents, DT, debug)
    np.testing.assert_array_equal(debug["hide.spots"], [NAN_ROW])
    np.testing.assert_allclose(force, Evade((5.0, 0.0))(agents, DT))


def reference_spots(
    pos: np.ndarray, hunters: np.ndarray, rocks: Obstacles, distance: float
) -> np.ndarray:
    """The choice rule written as a loop over agents and rocks, as the docstring states it."""
    out = np.full(pos.shape, np.nan)
    for i, (a, h) in enumerate(zip(pos, hunters, strict=True)):
        safe, usable = [], []
        for j, (c, r) in enumerate(zip(rocks.centers, rocks.radii, strict=True)):
            if np.linalg.norm(c - h) <= r:
                continue
            s = c + (c - h) / np.linalg.norm(c - h) * (r + distance)
            others = [k for k in range(len(rocks)) if k != j]
            if any(np.linalg.norm(s - rocks.centers[k]) < rocks.radii[k] for k in others):
                continue
            d = np.linalg.norm(s - a)
            if np.linalg.norm(s - h) < d:
                continue
            usable.append((d, j, s))
            w = s - a
            t = 0.0 if d == 0 else min(max(float((h - a) @ w) / (d * d), 0.0), 1.0)
            if np.linalg.norm(a + t * w - h) >= np.linalg.norm(h - a) - max(8.0, 1.0):
                safe.append((d, j, s))
        pick = min(safe or usable, default=None, key=lambda x: (x[0], x[1]))
        if pick is not None:
            out[i] = pick[2]
    return out


@pytest.mark.parametrize("dedup_work", [0, 1 << 30])
def test_matches_a_loop_over_agents_and_rocks(
    dedup_work: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given 40 agents, 8 rocks (some overlapping) and three hunters shared among the agents
    rng = np.random.default_rng(0)
    pos = rng.uniform(-400, 400, (40, 2))
    rocks = Obstacles.create(rng.uniform(-250, 250, (8, 2)), rng.uniform(10, 60, 8))
    hunters = rng.uniform(-300, 300, (3, 2))[rng.integers(0, 3, 40)]
    agents = AgentGroup.create(pos, radius=8.0)
    # When the spots are computed once per distinct hunter, or once per agent
    monkeypatch.setattr(hide_module, "_DEDUP_WORK", dedup_work)
    debug: Debug = {}
    Hide(hunters, rocks)(agents, DT, debug)
    # Then every agent picks what the plain loop picks (9 of them evade)
    expected = reference_spots(pos, hunters, rocks, 30.0)
    assert np.isnan(expected).any() and not np.isnan(expected).all()
    np.testing.assert_allclose(debug["hide.spot"], expected, atol=1e-9)


def test_hider_gets_out_of_sight_behind_a_rock() -> None:
    # Given a hider in the open 170 px from a still hunter, and two rocks
    rocks = Obstacles.create([[200.0, 0.0], [-150.0, 200.0]], [30.0, 40.0])
    hunter = np.array([0.0, 0.0])
    agents = AgentGroup.create([[150.0, 80.0]], max_speed=150, max_force=400)
    assert not hidden(hunter, agents.pos[0], rocks)
    hide = Hide(hunter, rocks)
    # When it hides for three seconds
    for _ in range(180):
        integrate(agents, hide(agents, DT), DT)
    # Then it rests at (260, 0), and the hunter's line of sight to it crosses the rock
    np.testing.assert_allclose(agents.pos[0], [260.0, 0.0], atol=1.0)
    assert hidden(hunter, agents.pos[0], rocks)


def test_hider_stays_hidden_from_a_hunter_circling_the_rock() -> None:
    # Given a hunter circling a rock at 300 px, 0.25 rad/s, and a hider starting in the open
    rocks = Obstacles.create([[0.0, 0.0]], 30.0)
    agents = AgentGroup.create([[150.0, 150.0]], max_speed=150, max_force=400)
    seen_late = 0
    for step in range(60 * 8):
        a = 0.25 * step * DT
        hunter = 300.0 * np.array([math.cos(a), math.sin(a)])
        hunter_vel = 75.0 * np.array([-math.sin(a), math.cos(a)])
        integrate(agents, Hide(hunter, rocks, hunter_vel)(agents, DT), DT)
        # Then after three seconds the rock always stands between them
        if step > 180 and not hidden(hunter, agents.pos[0], rocks):
            seen_late += 1
    assert seen_late == 0


@settings(max_examples=60, deadline=None)
@given(
    pos=st.lists(st.tuples(st.floats(-300, 300), st.floats(-300, 300)), min_size=1, max_size=6),
    rocks=st.lists(st.tuples(st.floats(-300, 300), st.floats(-300, 300)), max_size=5),
    data=st.data(),
)
def test_forces_are_finite_and_within_max_force(
    pos: list[tuple[float, float]], rocks: list[tuple[float, float]], data: st.DataObject
) -> None:
    # Given any agents (some coincident, one on the hunter), rocks and hunters
    n = len(pos)
    if n > 1 and data.draw(st.booleans()):
        pos[1] = pos[0]
    hunter: tuple[float, float] | list[tuple[float, float]] = data.draw(
        st.sampled_from([pos[0], (0.0, 0.0), (1e6, -1e6)])
    )
    if data.draw(st.booleans()):
        hunter = [data.draw(st.sampled_from([p, (0.0, 0.0), (7.0, 7.0)])) for p in pos]
    if rocks and data.draw(st.booleans()):
        rocks[0] = pos[0]
    obstacles = Obstacles.create(
        np.reshape(np.array(rocks, dtype=np.float64), (-1, 2)),
        data.draw(st.floats(1e-3, 100.0)),
    )
    vel = data.draw(st.sampled_from([0.0, 1e-12, 80.0]))
    agents = AgentGroup.create(
        pos,
        np.full((n, 2), vel),
        max_speed=data.draw(st.sampled_from([0.0, 1.0, 150.0])),
        max_force=data.draw(st.sampled_from([0.0, 1.0, 400.0, 1e6])),
        radius=data.draw(st.sampled_from([0.0, 8.0])),
    )
    hide = Hide(
        hunter,
        obstacles,
        hunter_velocity=data.draw(st.sampled_from([(0.0, 0.0), (-50.0, 20.0)])),
        distance_from_boundary=data.draw(st.sampled_from([0.0, 30.0])),
        panic_distance=data.draw(st.sampled_from([math.inf, 100.0, 0.0])),
    )
    # When it hides for a few steps
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            debug: Debug = {}
            force = hide(agents, DT, debug)
            # Then every force is finite and within max force
            assert force.shape == (n, 2)
            assert np.isfinite(force).all()
            assert (length(force) <= agents.max_force + 1e-9).all()
            spot = debug["hide.spot"]
            assert spot.shape == (n, 2)
            assert (np.isfinite(spot).all(axis=1) | np.isnan(spot).all(axis=1)).all()
            assert debug["hide.spots"].shape == (len(obstacles), 2)
            integrate(agents, force, DT)


@pytest.mark.parametrize(
    ("hunter", "velocity", "error", "name"),
    [
        ("player", (0.0, 0.0), TypeError, r"Hide\.hunter"),
        ((math.nan, 0.0), (0.0, 0.0), ValueError, r"Hide\.hunter"),
        ((0.0, 0.0), (math.inf, 0.0), ValueError, r"Hide\.hunter_velocity"),
        ([(0.0, 0.0)] * 3, (0.0, 0.0), ValueError, r"Hide\.hunter"),
    ],
)
def test_a_bad_hunter_is_named(
    hunter: object, velocity: object, error: type[Exception], name: str
) -> None:
    # Given two agents near a rock
    agents = AgentGroup.create([[100.0, 0.0], [0.0, 100.0]])
    # When / Then a string, NaN or infinite hunter (when given), or the wrong count (at the
    # call), is refused by name
    with pytest.raises(error, match=name):
        hide = Hide(hunter, Obstacles.create([[50.0, 50.0]], 10.0), velocity)
        hide(agents, DT)


def test_bad_parameters_are_named_at_construction() -> None:
    rocks = Obstacles.create([[50.0, 50.0]], 10.0)
    with pytest.raises(TypeError, match=r"Hide\.obstacles"):
        Hide((0.0, 0.0), [[50.0, 50.0]])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"Hide\.slowing_radius"):
        Hide((0.0, 0.0), rocks, slowing_radius=-1.0)
    with pytest.raises(ValueError, match=r"Hide\.panic_distance"):
        Hide((0.0, 0.0), rocks, panic_distance=math.nan)
    with pytest.raises(ValueError, match=r"Hide\.distance_from_boundary"):
        Hide((0.0, 0.0), rocks, distance_from_boundary=math.inf)


def test_per_agent_hunters_of_a_big_crowd_match_one_hunter_each() -> None:
    # Given 300 agents, 30 rocks and two hunters (the spots are worked out per distinct one)
    rng = np.random.default_rng(5)
    pos = rng.uniform(-400, 400, (300, 2))
    rocks = Obstacles.create(rng.uniform(-300, 300, (30, 2)), rng.uniform(10, 40, 30))
    two = np.array([[-200.0, 50.0], [150.0, -100.0]])
    hunters = two[rng.integers(0, 2, 300)]
    agents = AgentGroup.create(pos, radius=8.0)
    # When they hide
    debug: Debug = {}
    force = Hide(hunters, rocks)(agents, DT, debug)
    # Then each agent does what it does alone with its hunter
    for k in range(2):
        rows = np.flatnonzero((hunters == two[k]).all(axis=1))
        alone: Debug = {}
        sub = agents.take(rows)
        np.testing.assert_array_equal(force[rows], Hide(tuple(two[k]), rocks)(sub, DT, alone))
        np.testing.assert_array_equal(debug["hide.spot"][rows], alone["hide.spot"])
    np.testing.assert_allclose(
        debug["hide.spot"], reference_spots(pos, hunters, rocks, 30.0), atol=1e-9
    )


@pytest.mark.parametrize("seed", range(6))
def test_searching_a_grid_of_spots_picks_what_weighing_every_spot_picks(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many agents and rocks with one hunter: the spots go into a grid searched outward from
    # each agent. It must choose exactly what weighing every spot chooses: the nearest safe
    # spot, else the nearest usable one, ties to the lower rock.
    rng = np.random.default_rng(seed)
    side = 600.0
    m = int(rng.integers(40, 160))
    rocks = Obstacles.create(rng.uniform(0.0, side, (m, 2)), rng.uniform(4.0, 30.0, m))
    n = 400
    pos = rng.uniform(-100.0, side + 100.0, (n, 2))  # some far outside the rocks' box
    vel = rng.normal(0.0, 40.0, (n, 2))
    hunter = tuple(rng.uniform(0.0, side, 2).tolist())
    hide = Hide(hunter, rocks, (10.0, -5.0), distance_from_boundary=float(rng.uniform(5, 40)))
    grid_debug: Debug = {}
    got = hide(AgentGroup.create(pos.copy(), vel.copy()), 1 / 60, grid_debug)
    monkeypatch.setattr(hide_module, "_GRID_SPOTS", 10**9)
    whole_debug: Debug = {}
    want = hide(AgentGroup.create(pos.copy(), vel.copy()), 1 / 60, whole_debug)
    assert np.array_equal(got, want)
    assert np.array_equal(grid_debug["hide.spot"], whole_debug["hide.spot"], equal_nan=True)
    chosen = ~np.isnan(whole_debug["hide.spot"][:, 0])
    assert chosen.sum() > n // 2  # most agents really hide (the grid path was exercised)


def test_the_grid_is_used_for_one_hunter_and_many_rocks(monkeypatch: pytest.MonkeyPatch) -> None:
    built = []
    real = hide_module.build_grid
    monkeypatch.setattr(hide_module, "build_grid", lambda *a: built.append(1) or real(*a))
    rng = np.random.default_rng(3)
    rocks = Obstacles.create(rng.uniform(0.0, 500.0, (50, 2)), np.full(50, 10.0))
    agents = AgentGroup.create(rng.uniform(0.0, 500.0, (100, 2)), np.zeros((100, 2)))
    Hide((250.0, 250.0), rocks)(agents, 1 / 60)
    assert built == [1]
    Hide(rng.uniform(0.0, 500.0, (100, 2)), rocks)(agents, 1 / 60)  # a hunter per agent
    assert built == [1]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -1.5e308])
def test_an_agent_at_a_position_that_is_not_finite_does_not_stall_the_grid(
    bad: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One hunter, many rocks and agents: the grid path. An agent whose position is NaN,
    # infinite or too large to measure gets what weighing every spot gives it, and the call
    # returns (it crashed on NaN and never returned on inf).
    rng = np.random.default_rng(5)
    rocks = Obstacles.create(rng.uniform(0.0, 500.0, (40, 2)), np.full(40, 10.0))
    pos = rng.uniform(0.0, 500.0, (100, 2))
    hide = Hide((250.0, 250.0), rocks)

    def crowd() -> AgentGroup:
        agents = AgentGroup.create(pos.copy(), np.zeros((100, 2)))
        agents.pos[0] = (bad, bad)  # as a step gone wrong leaves it (create refuses it)
        return agents

    got = hide(crowd(), 1 / 60)
    monkeypatch.setattr(hide_module, "_GRID_SPOTS", 10**9)
    want = hide(crowd(), 1 / 60)
    assert np.array_equal(got, want, equal_nan=True)
    assert np.isfinite(got[1:]).all()


@pytest.mark.parametrize("scene", ["far outside the rocks", "hunter between"])
def test_agents_without_a_safe_spot_get_the_whole_scans_choice(
    scene: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Scenes where few or no agents have a safe spot: their discs grow until they weigh
    # every spot, and the choice is still the whole scan's
    rng = np.random.default_rng(8)
    rocks = Obstacles.create(rng.uniform(0.0, 400.0, (60, 2)), rng.uniform(5.0, 15.0, 60))
    if scene == "far outside the rocks":
        pos = rng.uniform(3000.0, 5000.0, (300, 2))
        hunter = (200.0, 200.0)
    else:
        pos = rng.uniform(-2000.0, -1000.0, (300, 2))
        hunter = (-200.0, 200.0)
    hide = Hide(hunter, rocks)
    got_debug: Debug = {}
    got = hide(AgentGroup.create(pos.copy(), np.zeros((300, 2))), 1 / 60, got_debug)
    monkeypatch.setattr(hide_module, "_GRID_SPOTS", 10**9)
    want_debug: Debug = {}
    want = hide(AgentGroup.create(pos.copy(), np.zeros((300, 2))), 1 / 60, want_debug)
    assert np.array_equal(got, want)
    assert np.array_equal(got_debug["hide.spot"], want_debug["hide.spot"], equal_nan=True)


def test_masked_in_a_composite_it_gives_its_own_forces_on_the_masked_rows() -> None:
    # Given six agents, three rocks, a hunter per agent and a mask selecting three agents
    rng = np.random.default_rng(4)
    rocks = Obstacles.create([[100.0, 0.0], [0.0, 100.0], [-80.0, -60.0]], 20.0)
    agents = AgentGroup.create(rng.uniform(-200, 200, (6, 2)), rng.normal(0, 30, (6, 2)))
    hide = Hide(rng.uniform(-250, 250, (6, 2)), rocks, rng.normal(0, 20, (6, 2)))
    mask = np.array([True, False, True, False, False, True])
    # When it runs masked in a sum, and alone over every agent
    tree = WeightedSum([Masked(hide, mask)])
    debug: Debug = {}
    masked = tree(agents, DT, debug)
    alone_debug: Debug = {}
    alone = hide(agents, DT, alone_debug)
    # Then the masked rows get its forces and spots to the bit, the others none
    assert composite.compiles(hide)
    np.testing.assert_array_equal(masked[mask], alone[mask])
    np.testing.assert_array_equal(masked[~mask], 0.0)
    np.testing.assert_array_equal(debug["hide.spot"][mask], alone_debug["hide.spot"][mask])
    assert np.isnan(debug["hide.spot"][~mask]).all()
    np.testing.assert_array_equal(debug["hide.spots"], alone_debug["hide.spots"])


@pytest.mark.parametrize("hunters", ["one for all", "one per agent", "distinct ones"])
def test_hunters_moved_in_place_are_read_at_every_stamped_replay(
    hunters: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given hunters in arrays a caller moves in place (as the world's threat columns), the
    # forces that new trees given copies of them compute at each of six steps, and a tree
    # replayed under a stamp that never changes (the caller keeps the arrays valid)
    rng = np.random.default_rng(6)
    if hunters == "distinct ones":  # spots worked out per distinct hunter before the loop
        monkeypatch.setattr(hide_module, "_DEDUP_WORK", 0)
    shape = (1 if hunters == "one for all" else 8, 2)
    moves = [rng.normal(0, 60, shape) for _ in range(6)]
    velocities = [rng.normal(0, 30, shape) for _ in range(6)]
    rocks = Obstacles.create(rng.uniform(-200, 200, (5, 2)), 25.0)
    agents = AgentGroup.create(rng.uniform(-250, 250, (8, 2)))
    mask = np.ones(8, dtype=bool)
    hunter = np.cumsum(moves, axis=0)
    want = [
        WeightedSum([Masked(Hide(at, rocks, vel), mask)])(agents, DT)
        for at, vel in zip(hunter, velocities, strict=True)
    ]
    hunter, hunter_vel = np.zeros(shape), np.zeros(shape)
    tree = WeightedSum([Masked(Hide(hunter, rocks, hunter_vel), mask)])
    quiet = 0
    for step in range(6):
        # When the hunters move in place between calls
        hunter += moves[step]
        hunter_vel[:] = velocities[step]
        plan = composite.kept_plan(tree)
        quiet += plan is not None and plan.holds_quiet(tree, agents, DT, 1)
        got = composite.run(tree, agents, DT, stamp=1)
        # Then each call gives what the new tree gave, quiet replays included
        np.testing.assert_array_equal(got, want[step])
    assert quiet >= 4
