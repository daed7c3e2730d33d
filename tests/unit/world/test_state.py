"""The world's per-agent state as one object of columns: take and put move the rows of some
agents (crowd columns follow their agents; the player has none)."""

from __future__ import annotations

import numpy as np
import pytest

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
    assert names == set(AGENT_COLUMNS) | set(CROWD_COLUMNS) | {"memory", "fills", "minds"}
    assert not set(AGENT_COLUMNS) & set(CROWD_COLUMNS)
    assert len(set(AGENT_COLUMNS)) == len(AGENT_COLUMNS)


def test_a_worlds_state_holds_every_column_the_engine_and_the_minds_work_on() -> None:
    from game.level import load_level, shipped_levels
    from game.world import World

    # Given a running world with enemies (Squadron: patrols and a formation)
    path = next(p for p in shipped_levels() if "squadron" in p.stem)
    world = World(load_level(path))
    for _ in range(30):
        world.step((1.0, 0.0))
    state = world.state
    # Then the engine's groups are views of the state's columns, not copies
    for name in ("pos", "vel", "heading", "max_speed", "max_force", "radius", "mass"):
        assert getattr(state, name) is getattr(world.agents, name), name
        assert np.shares_memory(getattr(world.crowd, name), getattr(state, name)), name
    assert state.memory is world.crowd.state and state.minds is world.minds
    assert state.kind is world.kind and state.path_index is world.path_index
    # And one take holds every column of the agents taken, the behaviours' and minds' too
    enemies = world.minds.rows
    part = state.take(enemies[::-1])
    np.testing.assert_array_equal(part.pos, world.agents.pos[enemies[::-1]])
    assert set(part.memory) == set(world.crowd.state)
    np.testing.assert_array_equal(
        part.memory["path.index"], world.crowd.state["path.index"][enemies[::-1] - 1]
    )
    assert part.minds is not None
    np.testing.assert_array_equal(part.minds.last_seen, world.minds.last_seen[::-1])


def test_put_writes_the_named_columns_only_and_refuses_unknown_names() -> None:
    old = _numbered(6)
    new = AgentState.empty(6, np.zeros(6, dtype=np.int8))
    old.pos[:] = np.arange(12, dtype=float).reshape(6, 2)
    old.memory["wander.angle"] = np.arange(5, dtype=float)
    old.fills["wander.angle"] = 0.5
    rows = np.array([0, 2, 5])
    # When only the motion is put, the modes stay and no memory column appears
    new.put(rows, old.take(rows), ("pos", "vel", "heading"))
    np.testing.assert_array_equal(new.pos[rows], old.pos[rows])
    assert (new.mode == 0).all() and not new.memory
    # When what is remembered is put, a memory column is made with its fill
    new.put(rows, old.take(rows), ("mode", "memory"))
    assert new.mode.tolist() == [0, 0, 2, 0, 0, 5]
    np.testing.assert_array_equal(new.memory["wander.angle"], [0.5, 1.0, 0.5, 0.5, 4.0])
    with pytest.raises(ValueError, match="no column"):
        new.put(rows, old.take(rows), ("position",))


def test_a_timed_step_is_the_same_step() -> None:
    from game.level import load_level, shipped_levels
    from game.world import World
    from game.world.world import SYSTEMS

    # Given two worlds of one level, one with the bench's timing hook on
    path = next(p for p in shipped_levels() if "patrol" in p.stem)
    plain, timed = World(load_level(path)), World(load_level(path))
    seen: list[str] = []
    timed.timer = lambda name, seconds: seen.append(name)
    # When both step
    for _ in range(20):
        plain.step((1.0, 0.5))
        timed.step((1.0, 0.5))
    # Then the hook saw every system in order each step, and the worlds are alike
    assert seen == list(SYSTEMS) * 20
    np.testing.assert_array_equal(plain.agents.pos, timed.agents.pos)
    np.testing.assert_array_equal(plain.agents.vel, timed.agents.vel)
