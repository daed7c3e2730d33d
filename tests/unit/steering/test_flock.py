"""The flock preset, group behaviours in a wrap-around world, and their argument checks."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Align,
    AvoidAgents,
    Cohere,
    Flock,
    Queue,
    Seek,
    Separate,
    Weighted,
    WeightedSum,
    integrate,
)
from steering.base import Debug
from steering.vec import FloatArray

DT = 1.0 / 60.0


def _nearest(pos: FloatArray, world: tuple[float, float] | None = None) -> FloatArray:
    d = pos[:, None, :] - pos[None, :, :]
    if world is not None:
        for axis in (0, 1):
            d[..., axis] -= world[axis] * np.floor(d[..., axis] / world[axis] + 0.5)
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    return np.asarray(dist.min(axis=1))


def _scattered(n: int, seed: int, side: float = 200.0) -> AgentGroup:
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    return AgentGroup.create(
        rng.uniform(0.0, side, (n, 2)),
        60.0 * np.column_stack((np.cos(angle), np.sin(angle))),
        max_speed=120.0,
        max_force=360.0,
    )


@pytest.mark.parametrize("n", [30, 120])
def test_a_scattered_flock_forms(n: int) -> None:
    # Given agents scattered over a square, heading every which way
    agents = _scattered(n, 0)
    assert np.hypot(*agents.heading.mean(axis=0)) < 0.3
    # When they flock for 10 s
    flock = Flock()
    for _ in range(600):
        integrate(agents, flock(agents, DT), DT)
    # Then their headings have converged
    mean = agents.heading.mean(axis=0)
    assert np.hypot(*mean) > 0.95
    # and no two agents are closer than a spacing (half the separation distance)
    assert _nearest(agents.pos).min() > 0.5 * flock.separation


def test_flock_equals_the_weighted_sum_of_its_parts() -> None:
    for n in (12, 150):  # without and with a grid
        agents = _scattered(n, 1, side=150.0)
        flock = Flock(
            separation=20.0,
            alignment=40.0,
            cohesion=60.0,
            separation_weight=2.0,
            alignment_weight=0.5,
            cohesion_weight=0.7,
            target=(500.0, 0.0),
            seek_weight=0.3,
        )
        parts = WeightedSum(
            [
                Weighted(Separate(20.0), 2.0),
                Weighted(Align(40.0), 0.5),
                Weighted(Cohere(60.0), 0.7),
                Weighted(Seek((500.0, 0.0)), 0.3),
            ]
        )
        debug: Debug = {}
        np.testing.assert_allclose(flock(agents, DT, debug), parts(agents, DT), atol=1e-9)
        assert debug["flock.count"].shape == (n, 3)


@pytest.mark.parametrize("n", [12, 150])  # without and with a grid over the others
def test_flock_with_others_equals_its_parts_with_others_called_one_by_one(n: int) -> None:
    # Given a flock whose neighbours are another group's agents (fish among sharks)
    fish = _scattered(n, 3, side=150.0)
    sharks = _scattered(n + 7, 4, side=150.0)
    settings = {"fov": 270.0, "gain": 6.0}
    flock = Flock(
        separation=20.0,
        alignment=40.0,
        cohesion=60.0,
        separation_weight=2.0,
        alignment_weight=0.5,
        cohesion_weight=0.7,
        target=(500.0, 0.0),
        seek_weight=0.3,
        others=sharks,
        **settings,
    )
    # When it is called, then it is the sum of the parts, each searching the sharks, limited
    total = (
        2.0 * Separate(20.0, others=sharks, **settings)(fish, DT)
        + 0.5 * Align(40.0, others=sharks, **settings)(fish, DT)
        + 0.7 * Cohere(60.0, others=sharks, **settings)(fish, DT)
        + 0.3 * Seek((500.0, 0.0), gain=6.0)(fish, DT)
    )
    length = np.hypot(total[:, 0], total[:, 1])
    total *= np.minimum(1.0, fish.max_force / np.maximum(length, 1e-300))[:, None]
    got = flock(fish, DT)
    np.testing.assert_allclose(got, total, atol=1e-9)
    # and not what it is with its own group as the neighbours
    assert not np.allclose(got, Flock(**{**_fields(flock), "others": None})(fish, DT))
    # A setting assigned is used at the next call; others set to the group is its own group
    flock.separation_weight = 0.0
    np.testing.assert_allclose(
        flock(fish, DT),
        WeightedSum(
            [
                Weighted(Separate(20.0, others=sharks, **settings), 0.0),
                Weighted(Align(40.0, others=sharks, **settings), 0.5),
                Weighted(Cohere(60.0, others=sharks, **settings), 0.7),
                Weighted(Seek((500.0, 0.0), gain=6.0), 0.3),
            ]
        )(fish, DT),
        atol=1e-9,
    )
    flock.others = fish
    own = Flock(**{**_fields(flock), "others": None})
    np.testing.assert_allclose(flock(fish, DT), own(fish, DT), atol=1e-9)


def _fields(flock: Flock) -> dict[str, Any]:
    names = ["separation", "alignment", "cohesion", "separation_weight", "alignment_weight",
             "cohesion_weight", "target", "seek_weight", "fov", "gain"]  # fmt: skip
    return {name: getattr(flock, name) for name in names}


def test_flock_with_others_moves_the_agents_through_step() -> None:
    from steering import step

    fish = _scattered(12, 5, side=150.0)
    sharks = _scattered(9, 6, side=150.0)
    start = fish.pos.copy()
    force = step(fish, Flock(others=sharks, target=(300.0, 0.0)), DT)
    assert force.shape == (12, 2) and not np.allclose(fish.pos, start)


def test_flock_without_a_target_has_no_seek() -> None:
    agents = AgentGroup.create([(0.0, 0.0), (1000.0, 0.0)], [(10.0, 0.0), (0.0, 10.0)])
    np.testing.assert_array_equal(Flock()(agents, DT), np.zeros((2, 2)))


# -- a wrap-around world ---------------------------------------------------------------------


def test_two_agents_on_either_side_of_the_seam_separate_across_it() -> None:
    # Given a 400 x 300 torus and agents at x = 2 and x = 396: 6 px apart across the seam
    world = (400.0, 300.0)
    agents = AgentGroup.create(
        [(2.0, 150.0), (396.0, 150.0)], max_speed=120.0, max_force=1e6, world_size=world
    )
    debug: Debug = {}
    # When
    force = Separate(24.0)(agents, DT, debug)
    # Then each is pushed away from the other across the seam: the one at x = 2 toward +x
    np.testing.assert_array_equal(debug["separate.count"], [1, 1])
    np.testing.assert_allclose(force, [[960.0, 0.0], [-960.0, 0.0]])
    np.testing.assert_array_equal(debug["separate.pairs"], [[0, 1]])
    # and over time they end a separation apart, measured across the seam
    for _ in range(60):
        integrate(agents, Separate(24.0)(agents, DT) - 4.0 * agents.vel, DT)
    assert _nearest(agents.pos, world).min() >= 0.9 * 24.0
    assert ((agents.pos >= 0.0) & (agents.pos < world)).all()
    # while in an open world they would not see each other
    open_world = AgentGroup.create([(2.0, 150.0), (396.0, 150.0)])
    np.testing.assert_array_equal(Separate(24.0)(open_world, DT), np.zeros((2, 2)))


@pytest.mark.parametrize("n", [20, 200])
def test_cohesion_and_alignment_see_across_the_seam(n: int) -> None:
    # Given a group straddling the corner of a torus: half near (0, 0), half near (W, H)
    world = (500.0, 400.0)
    rng = np.random.default_rng(2)
    pos = rng.uniform(-20.0, 20.0, (n, 2)) % world
    agents = AgentGroup.create(pos, rng.normal(0.0, 30.0, (n, 2)), world_size=world)
    debug: Debug = {}
    # When
    Cohere(60.0)(agents, DT, debug)
    Align(60.0)(agents, DT, debug)
    # Then everyone has the whole group as neighbours, and the centre lies near the corner
    assert (debug["cohere.count"] == n - 1).all()
    assert (debug["align.count"] == n - 1).all()
    centre = debug["cohere.center"]
    offset = centre - np.round(centre / world) * world
    assert np.abs(offset).max() < 25.0


def test_a_flock_on_a_torus_wraps_and_stays_a_flock() -> None:
    # Given a flock in a 300 x 300 torus seeking nothing
    world = (300.0, 300.0)
    rng = np.random.default_rng(3)
    n = 80
    agents = AgentGroup.create(
        rng.uniform(0.0, 300.0, (n, 2)),
        rng.normal(0.0, 60.0, (n, 2)),
        max_speed=120.0,
        max_force=360.0,
        world_size=world,
    )
    flock = Flock()
    crossings = 0
    for _ in range(600):
        before = agents.pos.copy()
        integrate(agents, flock(agents, DT), DT)
        crossings += int((np.abs(agents.pos - before) > 150.0).any(axis=1).sum())
    # Then agents crossed the edges, stayed in the world, kept apart across the seams, and
    # fly as one
    assert crossings > n
    assert ((agents.pos >= 0.0) & (agents.pos < 300.0)).all()
    assert _nearest(agents.pos, world).min() > 0.5 * flock.separation
    assert np.hypot(*agents.heading.mean(axis=0)) > 0.9


def test_avoid_agents_and_queue_see_across_the_seam() -> None:
    world = (400.0, 300.0)
    # Two agents head on across the seam: A at x = 380 moving +x, B at x = 20 moving -x
    agents = AgentGroup.create(
        [(380.0, 150.0), (20.0, 150.0)], [(100.0, 0.0), (-100.0, 0.0)], world_size=world
    )
    debug: Debug = {}
    AvoidAgents()(agents, DT, debug)
    np.testing.assert_array_equal(debug["avoidagents.threat"], [1, 0])
    np.testing.assert_allclose(debug["avoidagents.time"], [0.2, 0.2])
    # A slower agent just past the seam blocks one about to cross it
    line = AgentGroup.create(
        [(390.0, 150.0), (15.0, 150.0)], [(100.0, 0.0), (20.0, 0.0)], world_size=world
    )
    Queue()(line, DT, debug)
    np.testing.assert_array_equal(debug["queue.ahead"], [1, -1])


# -- argument checks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "argument"),
    [
        (lambda: Separate(distance=-1.0), "Separate.distance"),
        (lambda: Separate(distance=math.nan), "Separate.distance"),
        (lambda: Separate(gain=-1.0), "Separate.gain"),
        (lambda: Separate(fov=0.0), "Separate.fov"),
        (lambda: Align(distance=math.inf), "Align.distance"),
        (lambda: Align(fov=361.0), "Align.fov"),
        (lambda: Cohere(distance=-2.0), "Cohere.distance"),
        (lambda: Cohere(fov=-5.0), "Cohere.fov"),
        (lambda: Flock(separation=-1.0), "Flock.separation"),
        (lambda: Flock(alignment=math.nan), "Flock.alignment"),
        (lambda: Flock(cohesion=math.inf), "Flock.cohesion"),
        (lambda: Flock(separation_weight=-1.0), "Flock.separation_weight"),
        (lambda: Flock(alignment_weight=math.nan), "Flock.alignment_weight"),
        (lambda: Flock(cohesion_weight=-0.5), "Flock.cohesion_weight"),
        (lambda: Flock(seek_weight=math.inf), "Flock.seek_weight"),
        (lambda: Flock(fov=0.0), "Flock.fov"),
        (lambda: Queue(distance=-1.0), "Queue.distance"),
        (lambda: Queue(fov=400.0), "Queue.fov"),
        (lambda: Queue(brake=math.nan), "Queue.brake"),
        (lambda: AvoidAgents(time_horizon=0.0), "AvoidAgents.time_horizon"),
        (lambda: AvoidAgents(brake=2.0), "AvoidAgents.brake"),
        (lambda: AvoidAgents(commit=-0.1), "AvoidAgents.commit"),
        (lambda: AvoidAgents(max_reach=math.inf), "AvoidAgents.max_reach"),
        (lambda: AvoidAgents(margin=-1.0), "AvoidAgents.margin"),
    ],
)
def test_bad_arguments_raise_value_errors_naming_the_argument(make: Any, argument: str) -> None:
    with pytest.raises(ValueError, match=argument.replace(".", r"\.")):
        make()


def test_a_bad_flock_target_names_the_argument() -> None:
    agents = AgentGroup.create([(0.0, 0.0), (5.0, 0.0)])
    with pytest.raises(ValueError, match=r"Flock\.target"):
        Flock(target=(math.nan, 0.0))(agents, DT)
    with pytest.raises(TypeError):
        Separate(distance="far")  # type: ignore[arg-type]


def test_changed_fields_and_targets_take_effect() -> None:
    # Given a flock called once (its arrays are kept between calls)
    agents = _scattered(10, 4, side=40.0)
    flock = Flock(target=(100.0, 0.0))
    first = flock(agents, DT)
    # When a weight, the fov and the target change, the forces are those of a fresh preset
    flock.cohesion_weight = 0.0
    flock.fov = 180.0
    flock.target = (0.0, 100.0)
    fresh = Flock(cohesion_weight=0.0, fov=180.0, target=(0.0, 100.0))
    np.testing.assert_array_equal(flock(agents, DT), fresh(agents, DT))
    assert not np.array_equal(flock(agents, DT), first)
    # and an array target written in place is read anew
    target = np.array([[0.0, 0.0]])
    flock.target = target
    before = flock(agents, DT).copy()
    target[0] = (500.0, 500.0)
    assert not np.array_equal(flock(agents, DT), before)
