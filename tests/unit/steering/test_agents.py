"""AgentGroup subsets: take() and put_state() carry per-agent memory both ways."""

from __future__ import annotations

import numpy as np
import pytest

from game.steering.agents import AgentGroup


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
    # Then the changed rows are written, the other rows kept, the new column filled with NaN
    # for the agents outside the subset, and the unread column is untouched
    np.testing.assert_array_equal(g.state["a"], [-0.0, 11.0, 12.0, 13.0, -4.0])
    np.testing.assert_array_equal(g.state["new"][[0, 4]], [7.0, 7.0])
    assert np.isnan(g.state["new"][[1, 2, 3]]).all()
    np.testing.assert_array_equal(g.state["b"], np.arange(10.0).reshape(5, 2))


def test_take_accepts_a_boolean_mask() -> None:
    g = _group()
    mask = np.array([False, True, False, True, False])
    sub = g.take(mask)
    np.testing.assert_array_equal(sub.max_speed, [2.0, 4.0])
    np.testing.assert_array_equal(sub.pos, g.pos[mask])
    np.testing.assert_array_equal(sub.column("a"), [11.0, 13.0])
