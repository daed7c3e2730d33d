"""A WeightedSum runs as one compiled loop over agents (steering.composite), its group rules
sharing one neighbour query, and steering.step moves agents under it in the same call: both
must equal calling the parts one by one."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from steering import (
    AgentGroup,
    Align,
    Arrive,
    Cohere,
    Debug,
    Flee,
    Flock,
    Seek,
    Separate,
    Wander,
    Weighted,
    WeightedSum,
    integrate,
    step,
)
from steering.composite import kept_plan
from steering.shapes import NearRecord

DT = 1 / 60


def _crowd(n: int, seed: int = 4, world: tuple[float, float] | None = None) -> AgentGroup:
    rng = np.random.default_rng(seed)
    side = math.sqrt(900.0 * n)
    return AgentGroup.create(
        rng.uniform(0.0, side, (n, 2)),
        rng.normal(0.0, 40.0, (n, 2)),
        max_speed=rng.uniform(60.0, 140.0, n),
        max_force=rng.uniform(80.0, 300.0, n),
        world_size=world,
    )


def _parts(n: int) -> list[Any]:
    """Every behaviour the plan computes itself, with shared and per-agent targets, a field of
    view, matched speed, and a negative weight."""
    rng = np.random.default_rng(9)
    side = math.sqrt(900.0 * n)
    return [
        Weighted(Separate(25.0, fov=270.0), 1.5),
        Weighted(Align(50.0, match_speed=True), 0.7),
        Weighted(Cohere(70.0, gain=3.0), 0.4),
        Weighted(Seek((side / 2, side / 3)), 1.0),
        Weighted(Flee(rng.uniform(0.0, side, (n, 2)), panic_distance=80.0), 0.8),
        Weighted(Arrive(np.array([[side / 4, side / 5]]), slowing_radius=60.0), -0.3),
    ]


def _one_by_one(parts: list[Any], agents: AgentGroup) -> np.ndarray:
    """What the sum must equal: each part called as itself, weighted, added, limited."""
    total = np.zeros((agents.n, 2))
    for p in parts:
        b, w = (p.behaviour, p.weight) if isinstance(p, Weighted) else (p, 1.0)
        total += w * b(agents, DT)
    length = np.hypot(total[:, 0], total[:, 1])
    scale = np.minimum(1.0, agents.max_force / np.maximum(length, 1e-300))
    return total * scale[:, None]


@pytest.mark.parametrize("n", [1, 2, 12, 150])  # 150: through the neighbour grid
@pytest.mark.parametrize("world", [None, (400.0, 300.0)])
def test_the_plan_equals_the_parts_called_one_by_one(
    n: int, world: tuple[float, float] | None
) -> None:
    agents = _crowd(n, world=world)
    parts = _parts(n)
    got = WeightedSum(parts)(agents, DT)
    np.testing.assert_allclose(got, _one_by_one(parts, agents), rtol=0, atol=1e-9)
    assert np.abs(got).max() > 1.0  # the parts really pushed


def test_a_part_the_plan_cannot_hold_is_called_as_itself_in_its_place() -> None:
    agents = _crowd(30)
    wander = Wander(np.random.default_rng(1))
    twin = Wander(np.random.default_rng(1))  # wander keeps memory in its group: a twin of both
    sep = Separate(25.0)
    got = WeightedSum([Weighted(sep, 2.0), Weighted(wander, 0.5), Seek((0.0, 0.0))])(agents, DT)
    want = _one_by_one([Weighted(sep, 2.0), Weighted(twin, 0.5), Seek((0.0, 0.0))], _crowd(30))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    # a per-agent separation column is read by Separate itself, so it is called too
    per = Separate(25.0, per_agent=True)
    agents.column("separation", fill=25.0)[:5] = 60.0
    np.testing.assert_allclose(
        WeightedSum([per, Seek((0.0, 0.0))])(agents, DT),
        _one_by_one([per, Seek((0.0, 0.0))], agents),
        rtol=0,
        atol=1e-9,
    )


def test_a_changed_parameter_is_used_on_the_next_call() -> None:
    agents = _crowd(40)
    seek = Seek((0.0, 0.0))
    sep = Separate(10.0)
    blend = WeightedSum([sep, Weighted(seek, 1.0)])
    blend(agents, DT)
    seek.target = (900.0, -300.0)
    sep.distance = 45.0
    blend.parts[1].weight = 2.5
    parts = [sep, Weighted(seek, 2.5)]
    np.testing.assert_allclose(blend(agents, DT), _one_by_one(parts, agents), atol=1e-9)
    # a per-agent target array changed in place is read as it is now
    targets = np.zeros((40, 2))
    seek.target = targets
    blend(agents, DT)
    targets[:] = (500.0, 500.0)
    np.testing.assert_allclose(blend(agents, DT), _one_by_one(parts, agents), atol=1e-9)


def _mutations() -> list[tuple[str, Any]]:
    """Ways a programmer changes a sum between calls: each must be seen on the next call, also
    once the sum is replayed from its kept plan because nothing changed."""

    def target(parts: list[Any]) -> None:
        parts[1].behaviour.target = (900.0, -300.0)

    def target_array_in_place(parts: list[Any]) -> None:
        parts[1].behaviour.target[0] = 900.0

    def distance(parts: list[Any]) -> None:
        parts[0].distance = 45.0

    def fov(parts: list[Any]) -> None:
        parts[0].fov = 90.0

    def weight(parts: list[Any]) -> None:
        parts[1].weight = 2.5

    def behaviour(parts: list[Any]) -> None:
        parts[1].behaviour = Flee((100.0, 100.0), 500.0)

    def replace_item(parts: list[Any]) -> None:
        parts[0] = Separate(45.0)

    def append(parts: list[Any]) -> None:
        parts.append(Weighted(Cohere(60.0), 0.5))

    def remove(parts: list[Any]) -> None:
        del parts[0]

    def equal_behaviour_then_its_field(parts: list[Any]) -> None:
        # an equal behaviour in its place (dataclass == says the same), then changed
        parts[1].behaviour = Seek(parts[1].behaviour.target)

    def freed_then_replaced(parts: list[Any]) -> None:
        # the old item freed before a new one is made: it may get the old one's id
        del parts[0]
        parts.insert(0, Separate(45.0))

    return [(f.__name__, f) for f in (target, target_array_in_place, distance, fov, weight,
                                       behaviour, replace_item, append, remove,
                                       equal_behaviour_then_its_field,
                                       freed_then_replaced)]  # fmt: skip


@pytest.mark.parametrize(("name", "change"), _mutations())
def test_a_change_after_the_plan_is_kept_is_used_on_the_next_call(name: str, change: Any) -> None:
    # Given a sum called several times with nothing changed (its table then kept)
    agents = _crowd(40)
    target: Any = np.zeros(2) if name == "target_array_in_place" else (0.0, 0.0)
    parts: list[Any] = [Separate(10.0), Weighted(Seek(target), 1.0)]
    blend = WeightedSum(parts)
    for _ in range(3):
        np.testing.assert_allclose(blend(agents, DT), _one_by_one(parts, agents), atol=1e-9)
    before = blend(agents, DT)
    assert kept_plan(blend) is not None  # (replayed from its kept plan)
    # When one thing changes, the next call uses it
    change(parts)
    if name == "equal_behaviour_then_its_field":
        blend(agents, DT)  # (a step with the equal behaviour, before its field changes)
        parts[1].behaviour.target = (-700.0, 400.0)
    got = blend(agents, DT)
    np.testing.assert_allclose(got, _one_by_one(parts, agents), atol=1e-9)
    assert not np.allclose(got, before)


def test_with_debug_every_part_writes_its_own_keys() -> None:
    agents = _crowd(12)
    debug: Debug = {}
    parts = _parts(12)
    got = WeightedSum(parts)(agents, DT, debug)
    np.testing.assert_allclose(got, _one_by_one(parts, agents), atol=1e-9)
    assert {"separate.count", "align.count", "cohere.center", "seek.target"} <= set(debug)


def test_bad_values_assigned_after_construction_are_refused_by_name() -> None:
    agents = _crowd(3)
    seek = Seek((0.0, 0.0))
    blend = WeightedSum([Weighted(seek, 1.0)])
    # Assigned: refused there, by the setting's own name, the old value kept
    with pytest.raises(ValueError, match=r"^Seek\.target: coordinates must be finite"):
        seek.target = (math.nan, 0.0)
    with pytest.raises(TypeError, match=r"^Seek\.target: "):
        seek.target = "here"
    with pytest.raises(TypeError, match=r"^Seek\.gain: "):
        seek.gain = "fast"  # type: ignore[assignment]
    with pytest.raises(ValueError, match=r"^Weighted\.weight: "):
        blend.parts[0].weight = math.inf  # type: ignore[union-attr]
    assert blend(agents, DT).shape == (3, 2)
    # Changed in place (past any assignment): refused at the call, by the part's place
    seek.target = np.zeros((1, 2))
    seek.target[0, 0] = math.nan
    with pytest.raises(ValueError, match=r"WeightedSum.parts\[0\].target"):
        blend(agents, DT)


@pytest.mark.parametrize("face", [True, False])
@pytest.mark.parametrize("world", [None, (400.0, 300.0)])
def test_step_equals_the_forces_then_integrate(face: bool, world: tuple[float, float]) -> None:
    ours = _crowd(60, world=world)
    theirs = _crowd(60, world=world)
    blend = WeightedSum(_parts(60))
    for _ in range(20):
        force = step(ours, blend, DT, face_velocity=face)
        want = blend(theirs, DT)
        integrate(theirs, want, DT, face_velocity=face)
        np.testing.assert_allclose(force, want, rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.pos, theirs.pos, rtol=0, atol=1e-6)
    np.testing.assert_allclose(ours.vel, theirs.vel, rtol=0, atol=1e-6)
    np.testing.assert_allclose(ours.heading, theirs.heading, rtol=0, atol=1e-6)
    if world is not None:
        assert (ours.pos >= 0).all() and (ours.pos < world).all()


@pytest.mark.parametrize("face", [True, False])
@pytest.mark.parametrize("world", [None, (400.0, 300.0)])
@pytest.mark.parametrize("n", [3, 60])
def test_step_of_a_flock_equals_its_forces_then_integrate(
    face: bool, world: tuple[float, float] | None, n: int
) -> None:
    # The Flock preset also moves its agents in the same compiled call
    ours = _crowd(n, world=world)
    theirs = _crowd(n, world=world)
    flock = Flock(target=(100.0, 80.0), fov=270.0)
    for _ in range(20):
        force = step(ours, flock, DT, face_velocity=face)
        want = flock(theirs, DT)
        integrate(theirs, want, DT, face_velocity=face)
        np.testing.assert_array_equal(force, want)
    np.testing.assert_array_equal(ours.pos, theirs.pos)
    np.testing.assert_array_equal(ours.vel, theirs.vel)
    np.testing.assert_array_equal(ours.heading, theirs.heading)


def test_step_takes_any_behaviour_and_refuses_a_bad_dt_before_moving() -> None:
    agents = _crowd(5)
    before = agents.pos.copy()
    force = step(agents, Seek((0.0, 0.0)), DT)
    assert force.shape == (5, 2)
    assert not np.array_equal(agents.pos, before)
    moved = agents.pos.copy()
    for bad, error in ((-1.0, ValueError), (math.nan, ValueError), ("x", TypeError)):
        with pytest.raises(error, match="step: dt"):
            step(agents, WeightedSum([Seek((0.0, 0.0))]), bad)  # type: ignore[arg-type]
    np.testing.assert_array_equal(agents.pos, moved)


@pytest.mark.parametrize("fov", [360.0, 240.0])
@pytest.mark.parametrize("world", [None, (400.0, 300.0)])
def test_group_rules_summed_in_one_shared_pass_equal_the_parts(
    fov: float, world: tuple[float, float] | None
) -> None:
    # Given separation, alignment, cohesion and a second separation (another distance), each
    # searching the group at one distance: they share one neighbour query per agent, at the
    # largest distance, and each keeps the neighbours within its own and its fov
    n = 150
    agents = _crowd(n, world=world)
    parts = [
        Weighted(Separate(25.0, fov=fov), 1.5),
        Weighted(Align(50.0, fov=fov), 1.0),
        Weighted(Cohere(70.0, fov=fov), 1.0),
        Weighted(Separate(40.0, fov=fov), 0.5),
        Weighted(Seek((100.0, 100.0)), 0.5),
    ]
    blend = WeightedSum(parts)
    # When the sum is called (and then replayed from its kept plan)
    for _ in range(2):
        got = blend(agents, DT)
        # Then it equals its parts called one by one
        np.testing.assert_allclose(got, _one_by_one(parts, agents), rtol=0, atol=1e-9)
    assert np.abs(got).max() > 1.0
    plan = kept_plan(blend)
    assert plan is not None
    near = plan.records[0]
    assert isinstance(near, NearRecord)
    assert near.reach == 70.0 and near.shares.tolist() == [1, 1, 1, 1]
    # When a fov is changed on one of them, and one searches a distance per agent
    parts[1].behaviour.fov = 300.0
    got = blend(agents, DT)
    np.testing.assert_allclose(got, _one_by_one(parts, agents), rtol=0, atol=1e-9)
    parts[3].behaviour.per_agent = True
    agents.column("separation", fill=40.0)[:5] = 60.0
    got = blend(agents, DT)
    # Then the others still share the query and the per-agent one searches itself
    np.testing.assert_allclose(got, _one_by_one(parts, agents), rtol=0, atol=1e-9)
    plan = kept_plan(blend)
    assert plan is not None
    assert plan.records[0].shares.tolist() == [1, 1, 1, 0]
