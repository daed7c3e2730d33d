"""Offset pursuit: hold a slot in a leader's frame; formation_offsets lays out the slots."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steering import Debug, OffsetPursuit, formation_offsets
from steering.agents import AgentGroup, integrate
from steering.offset_pursuit import MAX_SLOTS
from steering.vec import length

DT = 1 / 60
S2 = 40.0 / math.sqrt(2.0)  # 28.28: a 45-degree step of 40 px


# -- the slot ---------------------------------------------------------------------------------


def test_slot_is_the_offset_turned_into_the_leaders_frame() -> None:
    # Given a leader at (100, 100) facing +y: ahead is (0, 1), its left is (-1, 0)
    agents = AgentGroup.create([[0.0, 0.0]])
    debug: Debug = {}
    # When the offset is 40 behind and 20 to the left
    OffsetPursuit((100.0, 100.0), (0.0, 0.0), (0.0, 1.0), (-40.0, 20.0))(agents, DT, debug)
    # Then the slot is (100, 100) - 40 * (0, 1) + 20 * (-1, 0) = (80, 60)
    np.testing.assert_allclose(debug["offset.slot"], [[80.0, 60.0]])


def test_unnormalised_heading_is_a_direction() -> None:
    agents = AgentGroup.create([[0.0, 0.0]])
    debug: Debug = {}
    OffsetPursuit((0.0, 0.0), (0.0, 0.0), (0.0, 7.0), (-40.0, 20.0))(agents, DT, debug)
    np.testing.assert_allclose(debug["offset.slot"], [[-20.0, -40.0]])


def test_zero_heading_falls_back_to_velocity_then_plus_x() -> None:
    # Given leaders with no heading: one moving -y, one at rest
    agents = AgentGroup.create([[0.0, 0.0], [0.0, 0.0]])
    debug: Debug = {}
    OffsetPursuit([[0.0, 0.0], [0.0, 0.0]], [[0.0, -50.0], [0.0, 0.0]], (0.0, 0.0), (-40.0, 20.0))(
        agents, DT, debug
    )
    # Then the first faces -y (left is +x): -40 * (0, -1) + 20 * (1, 0) = (20, 40);
    # the second faces +x: (-40, 20)
    np.testing.assert_allclose(debug["offset.slot"], [[20.0, 40.0], [-40.0, 20.0]])


def test_looks_ahead_and_arrives_in_the_leaders_frame() -> None:
    # Given a leader at the origin moving +x at 50 px/s, the slot 50 px behind it at (-50, 0),
    # and a follower at rest at (-50, -150), max speed 100
    agents = AgentGroup.create([[-50.0, -150.0]], max_speed=100, max_force=1e9)
    force = OffsetPursuit((0.0, 0.0), (50.0, 0.0), (1.0, 0.0), (-50.0, 0.0), gain=8.0)(agents, DT)
    # Then t = 150 / (100 + 50) = 1 s: it aims at (-50, 0) + (50, 0) = (0, 0), sqrt(25000) px
    # away. Relative to the leader it moves at (-50, 0) and wants 100 * (50, 150) / 158.1 =
    # (31.62, 94.87) (beyond the 50 px slowing radius), so the force is (81.62, 94.87) * 8
    want = np.array([100.0 / math.sqrt(10.0) + 50.0, 300.0 / math.sqrt(10.0)]) * 8.0
    np.testing.assert_allclose(force, [want])


def test_on_its_slot_it_keeps_the_leaders_velocity() -> None:
    agents = AgentGroup.create([[-50.0, 0.0]], [[50.0, 0.0]], max_speed=100, max_force=1e9)
    force = OffsetPursuit((0.0, 0.0), (50.0, 0.0), (1.0, 0.0), (-50.0, 0.0))(agents, DT)
    np.testing.assert_allclose(force, [[0.0, 0.0]], atol=1e-9)


def test_followers_of_several_leaders() -> None:
    agents = AgentGroup.create([[0.0, 0.0], [0.0, 0.0]])
    debug: Debug = {}
    offsets = [[-10.0, 0.0], [0.0, 10.0]]
    OffsetPursuit([[100.0, 0.0], [0.0, 100.0]], (0.0, 0.0), [[1.0, 0.0], [-1.0, 0.0]], offsets)(
        agents, DT, debug
    )
    np.testing.assert_allclose(debug["offset.slot"], [[90.0, 0.0], [0.0, 90.0]])


def test_wedge_holds_its_slots_behind_a_leader_on_a_circle() -> None:
    # Given a leader going round a 250 px circle at 60 px/s and four followers in a wedge
    # (40 px spacing), starting in a clump 80 px off
    offsets = formation_offsets("wedge", 4, 40.0)
    radius, speed = 250.0, 60.0
    agents = AgentGroup.create([[250.0, -80.0]] * 4, max_speed=150, max_force=400, radius=8.0)
    worst_late = 0.0
    # When they follow it for eight seconds (a third of the way round)
    for step in range(60 * 8):
        a = speed / radius * step * DT
        leader = radius * np.array([math.cos(a), math.sin(a)])
        velocity = speed * np.array([-math.sin(a), math.cos(a)])
        debug: Debug = {}
        force = OffsetPursuit(leader, velocity, velocity, offsets)(agents, DT, debug)
        integrate(agents, force, DT)
        if step >= 60 * 3:
            worst_late = max(worst_late, float(length(agents.pos - debug["offset.slot"]).max()))
    # Then from three seconds on every follower stays within 10 px of its turning slot
    assert worst_late < 10.0


# -- formation_offsets ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [10**9, MAX_SLOTS + 1])
def test_a_count_it_cannot_allocate_is_refused_naming_n_and_the_bound(n: int) -> None:
    # Given a count far past any formation (10**9 slots would ask for 16 GB)
    # When the slots are asked for / Then a ValueError names n and the bound, before allocating
    with pytest.raises(ValueError, match=r"formation n: at most 10,000,000 slots \(MAX_SLOTS\)"):
        formation_offsets("circle", n, 50.0)


def test_the_bound_itself_is_allowed() -> None:
    assert MAX_SLOTS == 10_000_000
    assert formation_offsets("column", 1000, 1.0).shape == (1000, 2)


def test_line_is_abreast_centred_one_spacing_behind() -> None:
    np.testing.assert_allclose(
        formation_offsets("line", 3, 40.0), [[-40.0, 40.0], [-40.0, 0.0], [-40.0, -40.0]]
    )
    np.testing.assert_allclose(formation_offsets("line", 2, 10.0), [[-10.0, 5.0], [-10.0, -5.0]])


def test_column_is_one_behind_another() -> None:
    np.testing.assert_allclose(
        formation_offsets("column", 3, 40.0), [[-40.0, 0.0], [-80.0, 0.0], [-120.0, 0.0]]
    )


def test_wedge_alternates_left_and_right_along_a_v() -> None:
    # Each slot is 40 px from the one before it on its arm, the leader heading both arms
    np.testing.assert_allclose(
        formation_offsets("wedge", 5, 40.0),
        [[-S2, S2], [-S2, -S2], [-2 * S2, 2 * S2], [-2 * S2, -2 * S2], [-3 * S2, 3 * S2]],
    )


def test_circle_neighbours_are_spacing_apart() -> None:
    # Given 12 slots 30 px apart: radius 30 / (2 sin(15 deg)) = 57.96, the first straight behind
    slots = formation_offsets("circle", 12, 30.0)
    np.testing.assert_allclose(slots[0], [-30.0 / (2 * math.sin(math.pi / 12)), 0.0])
    gaps = np.linalg.norm(slots - np.roll(slots, 1, axis=0), axis=1)
    np.testing.assert_allclose(gaps, 30.0)
    # 6 slots 40 px apart sit on a 40 px ring; fewer keep that ring, clear of the leader
    np.testing.assert_allclose(np.linalg.norm(formation_offsets("circle", 6, 40.0), axis=1), 40.0)
    np.testing.assert_allclose(
        formation_offsets("circle", 2, 40.0), [[-40.0, 0.0], [40.0, 0.0]], atol=1e-9
    )
    np.testing.assert_allclose(formation_offsets("circle", 1, 40.0), [[-40.0, 0.0]], atol=1e-9)


@pytest.mark.parametrize("kind", ["line", "column", "wedge", "circle"])
def test_no_slots(kind: str) -> None:
    slots = formation_offsets(kind, 0, 40.0)
    assert slots.shape == (0, 2) and slots.dtype == np.float64


@pytest.mark.parametrize(
    ("kind", "n", "spacing", "names"),
    [
        ("vee", 3, 40.0, "formation kind:"),
        ("Line", 3, 40.0, "formation kind:"),
        ("line", -1, 40.0, "formation n:"),
        ("line", 2.5, 40.0, "formation n:"),
        ("line", True, 40.0, "formation n:"),
        ("line", 3, 0.0, "formation spacing:"),
        ("line", 3, -5.0, "formation spacing:"),
        ("line", 3, math.nan, "formation spacing:"),
        ("line", 3, math.inf, "formation spacing:"),
        ("line", 3, "wide\nx", "formation spacing:"),
    ],
)
def test_bad_arguments_are_one_line_value_errors(
    kind: str, n: int, spacing: float, names: str
) -> None:
    with pytest.raises(ValueError, match=names) as err:
        formation_offsets(kind, n, spacing)
    assert "\n" not in str(err.value)


# -- properties -------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    pos=st.lists(st.tuples(st.floats(-500, 500), st.floats(-500, 500)), min_size=1, max_size=6),
    data=st.data(),
)
def test_forces_are_finite_and_within_max_force(
    pos: list[tuple[float, float]], data: st.DataObject
) -> None:
    # Given any followers (coincident, on the leader) and leaders with or without a heading
    n = len(pos)
    if n > 1 and data.draw(st.booleans()):
        pos[1] = pos[0]
    vector = st.sampled_from([(0.0, 0.0), (1e-12, 0.0), (90.0, -200.0), (-3.0, 4.0)])
    leader = data.draw(st.sampled_from([pos[0], (0.0, 0.0), (1e6, -1e6)]))
    offset = formation_offsets(
        data.draw(st.sampled_from(["line", "column", "wedge", "circle"])), n, 40.0
    )
    if data.draw(st.booleans()):
        offset = np.zeros((n, 2))
    agents = AgentGroup.create(
        pos,
        np.full((n, 2), data.draw(st.sampled_from([0.0, 80.0]))),
        max_speed=data.draw(st.sampled_from([0.0, 1.0, 150.0])),
        max_force=data.draw(st.sampled_from([0.0, 1.0, 400.0, 1e6])),
    )
    follow = OffsetPursuit(
        leader,
        data.draw(vector),
        data.draw(vector),
        offset,
        slowing_radius=data.draw(st.sampled_from([0.0, 50.0])),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            debug: Debug = {}
            force = follow(agents, DT, debug)
            # Then every force is finite and within max force
            assert force.shape == (n, 2)
            assert np.isfinite(force).all()
            assert (length(force) <= agents.max_force + 1e-9).all()
            assert np.isfinite(debug["offset.slot"]).all()
            integrate(agents, force, DT)


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("leader", "boss", TypeError),
        ("leader_velocity", (math.nan, 0.0), ValueError),
        ("leader_heading", (math.inf, 0.0), ValueError),
        ("offset", np.zeros((3, 2)), ValueError),
    ],
)
def test_a_bad_argument_is_named_at_the_call(
    field: str, value: object, error: type[Exception]
) -> None:
    # Given followers of a leader, one argument replaced by a string, a NaN, an inf or too many
    agents = AgentGroup.create([[0.0, 0.0], [5.0, 0.0]])
    args: dict[str, object] = {
        "leader": (0.0, 0.0),
        "leader_velocity": (1.0, 0.0),
        "leader_heading": (1.0, 0.0),
        "offset": (-10.0, 0.0),
    }
    args[field] = value
    # When / Then the call names it
    with pytest.raises(error, match=rf"OffsetPursuit\.{field}"):
        OffsetPursuit(**args)(agents, DT)  # type: ignore[arg-type]


def test_a_negative_slowing_radius_is_refused() -> None:
    with pytest.raises(ValueError, match=r"OffsetPursuit\.slowing_radius"):
        OffsetPursuit((0.0, 0.0), (0.0, 0.0), (1.0, 0.0), (0.0, 0.0), slowing_radius=-1.0)
