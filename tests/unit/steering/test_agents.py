"""AgentGroup subsets: take() and put_state() carry per-agent memory both ways."""

from __future__ import annotations

import numpy as np
import pytest

from steering.agents import AgentGroup, integrate
from steering.follow import FollowPath
from steering.path import Path
from steering.vec import truncate


def _group() -> AgentGroup:
    g = AgentGroup.create(np.arange(10.0).reshape(5, 2), max_speed=[1, 2, 3, 4, 5])
    g.column("a")[:] = [10.0, 11.0, 12.0, 13.0, 14.0]
    g.column("b", width=2)[:] = np.arange(10.0).reshape(5, 2)
    return g


def test_take_copies_rows_and_state_columns() -> None:
    # Given a group with two state columns
    g = _group()
    idx = np.array([3, 1])
    # When a subset is taken
    sub = g.take(idx)
    # Then its rows and its state columns are the parent's, in idx order
    np.testing.assert_array_equal(sub.pos, g.pos[idx])
    np.testing.assert_array_equal(sub.max_speed, [4.0, 2.0])
    assert "a" in sub.state and "b" in sub.state and "c" not in sub.state
    np.testing.assert_array_equal(sub.column("a"), [13.0, 11.0])
    np.testing.assert_array_equal(sub.state["b"], [[6.0, 7.0], [2.0, 3.0]])
    assert sub.state.get("c") is None
    with pytest.raises(KeyError):
        sub.state["c"]
    # and they are copies: writing to the subset leaves the parent alone until put_state
    sub.pos[0] = (-1.0, -1.0)
    sub.column("a")[0] = 99.0
    assert g.pos[3, 0] == 6.0 and g.state["a"][3] == 13.0


def test_put_state_writes_back_what_the_subset_used_or_made() -> None:
    # Given a subset that changes one column, creates another and never reads a third
    g = _group()
    idx = np.array([4, 0])
    sub = g.take(idx)
    sub.column("a")[:] = [-4.0, -0.0]
    sub.column("new", fill=7.0)
    # When its state is put back
    g.put_state(idx, sub)
    # Then the changed rows are written, the other rows kept, the new column filled with the
    # fill the subset declared for the agents outside it, and the unread column is untouched
    np.testing.assert_array_equal(g.state["a"], [-0.0, 11.0, 12.0, 13.0, -4.0])
    np.testing.assert_array_equal(g.state["new"], [7.0, 7.0, 7.0, 7.0, 7.0])
    assert g.fill_of("new") == 7.0
    np.testing.assert_array_equal(g.state["b"], np.arange(10.0).reshape(5, 2))


def test_take_accepts_a_boolean_mask() -> None:
    g = _group()
    mask = np.array([False, True, False, True, False])
    sub = g.take(mask)
    np.testing.assert_array_equal(sub.max_speed, [2.0, 4.0])
    np.testing.assert_array_equal(sub.pos, g.pos[mask])
    np.testing.assert_array_equal(sub.column("a"), [11.0, 13.0])


# -- adding and removing agents ----------------------------------------------------------------


def _bits(arr: np.ndarray) -> bytes:
    """The exact bytes of an array: equal bits, NaN payloads and signed zeros included."""
    return np.ascontiguousarray(arr).tobytes()


def _busy_group() -> AgentGroup:
    """Five moving agents with state columns of every kind of fill, some rows written."""
    g = AgentGroup.create(
        np.arange(10.0).reshape(5, 2),
        [(1.0, 0.0), (0.0, 2.0), (-3.0, 0.0), (0.0, 0.0), (1.0, 1.0)],
        max_speed=[1, 2, 3, 4, 5],
        max_force=[10, 20, 30, 40, 50],
        radius=[5, 6, 7, 8, 9],
        mass=[1, 2, 3, 4, 5],
    )
    g.column("zero")[:] = [1.0, -0.0, 3.0, 4.0, 5.0]
    g.column("fresh", fill=np.nan)[[1, 3]] = [0.5, -2.5]  # rows 0, 2, 4 stay NaN
    g.column("slot", fill=-1.0)[2] = 7.0
    g.column("pair", fill=np.nan, width=2)[0] = (1.0, 2.0)
    g.state["raw"] = np.array([9.0, 8.0, 7.0, 6.0, 5.0])  # no column(): fill 0.0
    return g


ALL = ("pos", "vel", "max_speed", "max_force", "radius", "mass", "heading")


def test_add_keeps_every_agent_and_column_bit_for_bit_and_returns_the_new_rows() -> None:
    # Given a group with NaN-filled, 0-filled, -1-filled, (N, 2) and raw state columns
    g = _busy_group()
    before = {k: getattr(g, k).copy() for k in ALL}
    state = {k: v.copy() for k, v in g.state.items()}
    # When two agents are added
    rows = g.add([(50.0, 50.0), (60.0, 60.0)], [(0.0, -4.0), (0.0, 0.0)], max_speed=9.0)
    # Then they are rows 5 and 6, and the first five rows are exactly what they were
    np.testing.assert_array_equal(rows, [5, 6])
    assert g.n == 7
    for k in ALL:
        assert _bits(getattr(g, k)[:5]) == _bits(before[k]), k
    for k, col in state.items():
        assert g.state[k].shape == (7, *col.shape[1:]), k
        assert _bits(g.state[k][:5]) == _bits(col), k
    # and the new agents have their own values
    np.testing.assert_array_equal(g.pos[5:], [(50.0, 50.0), (60.0, 60.0)])
    np.testing.assert_array_equal(g.max_speed[5:], [9.0, 9.0])
    np.testing.assert_array_equal(g.max_force[5:], [360.0, 360.0])


def test_new_agents_get_each_columns_own_fill() -> None:
    # Given columns declared with different fills, and one put into state directly
    g = _busy_group()
    # When agents are added
    g.add([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)])
    # Then each new row holds its column's fill: NaN only where NaN was declared
    np.testing.assert_array_equal(g.state["zero"][5:], [0.0, 0.0, 0.0])
    assert np.isnan(g.state["fresh"][5:]).all()
    np.testing.assert_array_equal(g.state["slot"][5:], [-1.0, -1.0, -1.0])
    assert np.isnan(g.state["pair"][5:]).all() and g.state["pair"].shape == (8, 2)
    np.testing.assert_array_equal(g.state["raw"][5:], [0.0, 0.0, 0.0])
    assert (g.fill_of("slot"), g.fill_of("raw"), g.fill_of("unknown")) == (-1.0, 0.0, 0.0)
    # and column() finds the grown columns as they are
    assert g.column("slot", fill=5.0)[2] == 7.0


def test_new_agents_face_along_their_velocity_or_plus_x() -> None:
    g = AgentGroup.create([(0.0, 0.0)], [(0.0, 1.0)])
    g.add([(1.0, 0.0), (2.0, 0.0)], [(0.0, -3.0), (0.0, 0.0)])
    np.testing.assert_array_equal(g.heading, [(0.0, 1.0), (0.0, -1.0), (1.0, 0.0)])


def test_add_refuses_bad_values_and_leaves_the_group_alone() -> None:
    g = _busy_group()
    pos = g.pos
    with pytest.raises(ValueError, match="finite"):
        g.add([(np.nan, 0.0)])
    with pytest.raises(ValueError, match="max_speed"):
        g.add([(0.0, 0.0), (1.0, 0.0)], max_speed=[1.0, 2.0, 3.0])
    assert g.n == 5 and g.pos is pos and g.state["zero"].shape == (5,)


@pytest.mark.parametrize(
    "rows",
    [np.array([1, 3]), [3, 1], np.array([False, True, False, True, False])],
    ids=["indices", "list", "mask"],  # negative rows are refused (test_memory_safety)
)
def test_remove_keeps_the_others_bit_for_bit_in_order(rows: object) -> None:
    # Given a group with state columns of every kind
    g = _busy_group()
    keep = [0, 2, 4]
    before = {k: getattr(g, k)[keep].copy() for k in ALL}
    state = {k: v[keep].copy() for k, v in g.state.items()}
    # When agents 1 and 3 are removed
    g.remove(rows)  # type: ignore[arg-type]
    # Then agents 0, 2 and 4 remain, in order, every value exactly as it was
    assert g.n == 3
    for k in ALL:
        assert _bits(getattr(g, k)) == _bits(before[k]), k
    for k, col in state.items():
        assert _bits(g.state[k]) == _bits(col), k


def test_remove_nothing_and_bad_rows() -> None:
    g = _busy_group()
    pos = g.pos
    g.remove([])
    g.remove(np.zeros(5, dtype=bool))
    assert g.n == 5
    with pytest.raises(IndexError):
        g.remove([5])
    with pytest.raises(IndexError):
        g.remove(np.array([True, False]))
    with pytest.raises(TypeError):
        g.remove(np.array([1.0]))
    assert g.n == 5 and _bits(g.pos) == _bits(pos)


def test_add_and_remove_invalidate_the_neighbour_cache() -> None:
    # Given a group whose pair query is cached
    g = AgentGroup.create([(0.0, 0.0), (100.0, 0.0)])
    assert g.pairs_within(10.0).shape == (0, 2)
    # When an agent is added beside agent 1, its pair is found
    g.add([(105.0, 0.0)])
    np.testing.assert_array_equal(g.pairs_within(10.0), [[1, 2]])
    # and when agent 0 is removed the pair is renumbered
    g.remove([0])
    np.testing.assert_array_equal(g.pairs_within(10.0), [[0, 1]])


def test_behaviours_see_new_agents_as_fresh_and_others_keep_their_memory() -> None:
    # Given followers that have walked a path for a while
    path = Path([(0.0, 0.0), (400.0, 0.0)], radius=10.0)
    follow = FollowPath(path, arrive_at_end=False)
    g = AgentGroup.create([(10.0, 5.0), (50.0, -5.0)], [(60.0, 0.0), (60.0, 0.0)])
    for _ in range(5):
        integrate(g, follow(g, 1 / 60), 1 / 60)
    progress = follow.progress(g).copy()
    # When one agent is added and the first removed
    g.add([(200.0, 3.0)], [(60.0, 0.0)])
    g.remove([0])
    # Then the old agent's progress is kept, the new one's unset, and a step finds it
    assert _bits(follow.progress(g)[:1]) == _bits(progress[1:])
    assert np.isnan(follow.progress(g)[1])
    follow(g, 1 / 60)
    assert follow.progress(g)[1] == pytest.approx(200.0)


def test_integrate_updates_arrays_in_place() -> None:
    # Given a group and views of its rows (as the world's crowd holds)
    g = AgentGroup.create([(0.0, 0.0), (10.0, 0.0)], [(1.0, 0.0), (0.0, 1.0)])
    pos, vel, heading = g.pos, g.vel, g.heading
    tail = AgentGroup(
        pos=g.pos[1:],
        vel=g.vel[1:],
        max_speed=g.max_speed[1:],
        max_force=g.max_force[1:],
        radius=g.radius[1:],
        mass=g.mass[1:],
        heading=g.heading[1:],
    )
    expected_vel = truncate(g.vel + np.array([[60.0, 0.0], [0.0, -120.0]]) * 0.5, g.max_speed)
    expected_pos = g.pos + expected_vel * 0.5
    # When integrated
    integrate(g, np.array([[60.0, 0.0], [0.0, -120.0]]), 0.5)
    # Then the arrays are the same objects, with the step's values, and the views see them
    assert g.vel is vel and g.pos is pos and g.heading is heading
    assert _bits(g.vel) == _bits(expected_vel) and _bits(g.pos) == _bits(expected_pos)
    assert _bits(tail.pos) == _bits(expected_pos[1:])
    np.testing.assert_array_equal(tail.heading, [(0.0, -1.0)])


def test_add_and_remove_carry_the_turn_rate() -> None:
    agents = AgentGroup.create([[0.0, 0.0], [10.0, 0.0]], max_turn_rate=[1.0, 2.0])
    agents.add([[20.0, 0.0]], max_turn_rate=3.0)
    agents.remove([0])
    assert agents.max_turn_rate.tolist() == [2.0, 3.0]


def test_integrate_divides_the_force_by_the_mass() -> None:
    # Given two agents at rest, the second four times as heavy, pushed by the same force
    agents = AgentGroup.create([(0.0, 0.0), (0.0, 10.0)], mass=[1.0, 4.0], max_speed=1e9)
    force = np.array([(40.0, 0.0), (40.0, 0.0)])
    # When the force acts for half a second
    for _ in range(30):
        integrate(agents, force, 1.0 / 60.0)
    # Then each gained force / mass * t of speed: 20 and 5 px/s
    np.testing.assert_allclose(agents.vel, [(20.0, 0.0), (5.0, 0.0)], rtol=1e-12)


@pytest.mark.parametrize(
    ("argument", "value"),
    [("pos", [[1 + 2j, 0.0]]), ("pos", [["1", "2"]]), ("radius", 3j), ("max_speed", ["9"])],
)
def test_create_refuses_complex_numbers_and_numbers_as_text_by_name(
    argument: str, value: object
) -> None:
    from steering import AgentGroup

    kwargs: dict[str, object] = {"pos": [[0.0, 0.0]], argument: value}
    with pytest.raises(TypeError, match=argument):
        AgentGroup.create(**kwargs)  # type: ignore[arg-type]
