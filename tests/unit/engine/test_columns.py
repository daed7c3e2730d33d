"""An agent group's columns are checked wherever they are set: a short column would be read,
and by integrate written, past its end inside the kernels."""

from __future__ import annotations

import numpy as np
import pytest

from steering import AgentGroup, Limited, Seek, integrate


def test_a_group_made_directly_refuses_columns_of_other_lengths() -> None:
    with pytest.raises(ValueError, match=r"vel: expected \(5, 2\)"):
        AgentGroup(
            pos=np.zeros((5, 2)),
            vel=np.zeros((2, 2)),
            max_speed=np.ones(5),
            max_force=np.ones(5),
            radius=np.ones(5),
            mass=np.ones(5),
        )


def test_a_column_assigned_later_is_checked_and_a_scalar_fills_it() -> None:
    # Given a group of five
    agents = AgentGroup.create(np.zeros((5, 2)))
    # When a velocity of two rows is assigned, it is refused by name
    with pytest.raises(ValueError, match=r"vel: expected \(5, 2\)"):
        agents.vel = np.zeros((2, 2))
    # And a read-only position, which integrate could not move
    frozen = np.zeros((5, 2))
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="pos: must be a writeable array"):
        agents.pos = frozen
    # And a scalar limit becomes one value per agent that the kernels accept
    agents.max_speed = 200.0
    assert agents.max_speed.shape == (5,)
    integrate(agents, Seek((1000.0, 0.0))(agents, 0.1), 0.1)
    np.testing.assert_allclose(agents.vel[:, 0], 36.0)  # 360 px/s^2 for 0.1 s, under 200


def test_a_view_assigned_as_a_column_stays_a_view() -> None:
    # Given the world's way: a group over rows of bigger arrays
    pos = np.zeros((4, 2))
    agents = AgentGroup.create(np.zeros((3, 2)))
    agents.pos = pos[1:]
    # When integrated, the big array moves too
    integrate(agents, np.full((3, 2), 60.0), 0.5)
    assert (pos[1:] != 0.0).all()


def test_limits_in_a_limited_behaviour_are_checked() -> None:
    agents = AgentGroup.create(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="max_speed"):
        agents.with_limits(max_speed=-1.0)
    with pytest.raises(ValueError, match="max_speed"):
        Limited(Seek((1.0, 0.0)), max_speed=np.ones(2))(agents, 0.1)
