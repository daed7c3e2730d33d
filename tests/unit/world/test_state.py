"""The world's per-agent state as one object of columns: take and put move the rows of some
agents (crowd columns follow their agents; the player has none)."""

from __future__ import annotations

import numpy as np

from game.world.state import AGENT_COLUMNS, CROWD_COLUMNS, AgentState


def _numbered(n: int) -> AgentState:
    state = AgentState.empty(n, np.arange(n, dtype=np.int8))
    state.reverse[:] = np.arange(n) >= 3
    state.target[:] = np.arange(2 * n, dtype=float).reshape(n, 2)
    state.steer[:] = 100.0 + np.arange(2 * (n - 1), dtype=float).reshape(n - 1, 2)
    return state


def test_take_then_put_moves_agents_and_their_crowd_rows() -> None:
    old = _numbered(6)
    new = AgentState.empty(5, np.zeros(5, dtype=np.int8))
    # Agents 0 (the player), 4 and 2 of the old world are agents 0, 1 and 3 of the new one
    part = old.take(np.array([0, 4, 2]))
    new.put(np.array([0, 1, 3]), part)
    assert new.mode.tolist() == [0, 4, 0, 2, 0]
    assert new.reverse.tolist() == [False, True, False, False, False]
    np.testing.assert_array_equal(new.target[[0, 1, 3]], old.target[[0, 4, 2]])
    # crowd rows: old agent 4 is crowd row 3, agent 2 crowd row 1; new agents 1, 3 are 0, 2
    np.testing.assert_array_equal(new.steer[[0, 2]], old.steer[[3, 1]])
    assert (new.steer[[1, 3]] == 0.0).all()
    # and take copies: changing the part leaves the old world alone
    part.target[:] = -1.0
    assert (old.target >= 0.0).all()


def test_every_column_is_listed_once() -> None:
    names = set(AgentState.__dataclass_fields__)
    assert names == set(AGENT_COLUMNS) | set(CROWD_COLUMNS)
    assert not set(AGENT_COLUMNS) & set(CROWD_COLUMNS)
