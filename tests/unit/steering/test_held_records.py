"""Row parts keep their last record between calls only while nothing it was made from
changed: a setting assigned, rocks moved in place, a path edited, agents added or a column
replaced make it again, so a kept record never gives another force than a fresh behaviour."""

from __future__ import annotations

import numpy as np

from steering import AgentGroup, AvoidObstacles, FollowPath, Obstacles, Path
from steering.records import Held, settings

DT = 1.0 / 60.0


def _agents(n: int = 12) -> AgentGroup:
    rng = np.random.default_rng(4)
    return AgentGroup.create(
        rng.uniform(0, 400, (n, 2)), vel=rng.uniform(-60, 60, (n, 2)), max_force=400.0
    )


def _same_as_fresh(kept: object, fresh: object, agents: AgentGroup, twin: AgentGroup) -> None:
    np.testing.assert_array_equal(kept(agents, DT), fresh(twin, DT))  # type: ignore[operator]


def test_avoidance_keeps_its_record_only_while_the_rocks_and_settings_stay() -> None:
    # Given rocks, a kept behaviour and a twin group
    rocks = Obstacles([(200.0, 200.0), (120.0, 300.0), (330.0, 90.0)], [30.0, 25.0, 40.0])
    agents, twin = _agents(), _agents()
    kept = AvoidObstacles(rocks)
    kept(agents, DT)
    first = kept.__dict__["_held"].record
    kept(agents, DT)
    assert kept.__dict__["_held"].record is first  # nothing changed: the same record
    # When a setting is assigned, Then the next call equals a fresh behaviour with it
    kept.min_box_length = 140.0
    twin_rocks = Obstacles(rocks.centers.copy(), rocks.radii.copy())
    _same_as_fresh(kept, AvoidObstacles(twin_rocks, min_box_length=140.0), agents, twin)
    assert kept.__dict__["_held"].record is not first
    # When the rocks move in place (the same arrays), Then too
    rocks.centers[0] += (6.0, -4.0)
    twin_rocks.centers[0] += (6.0, -4.0)
    for group in (agents, twin):
        group.state["avoid.side"][:] = 0.0
        group.state["avoid.timer"][:] = 0.0
    _same_as_fresh(kept, AvoidObstacles(twin_rocks, min_box_length=140.0), agents, twin)


def test_path_following_keeps_its_record_only_while_paths_and_settings_stay() -> None:
    path = Path([(0.0, 0.0), (300.0, 0.0), (300.0, 300.0)], radius=20.0)
    agents = _agents()
    kept = FollowPath(path)
    kept(agents, DT)
    first = kept.__dict__["_held"].record
    kept(agents, DT)
    assert kept.__dict__["_held"].record is first
    # A setting assigned makes a new record that reads it
    kept.lookahead_time = 0.8
    kept(agents, DT)
    assert kept.__dict__["_held"].record is not first
    assert kept.__dict__["_held"].record.lookahead == 0.8
    # An edit of the path makes a new record (its geometry), and so do new agents
    second = kept.__dict__["_held"].record
    path.set_nodes([(0.0, 10.0), (300.0, 10.0), (300.0, 300.0)])
    kept(agents, DT)
    third = kept.__dict__["_held"].record
    assert third is not second
    agents.add(np.array([[10.0, 10.0]]))
    out = kept(agents, DT)
    assert kept.__dict__["_held"].record is not third and out.shape == (13, 2)


def test_held_compares_objects_by_identity_and_the_step_by_value() -> None:
    held = Held()
    a, b = np.zeros(2), np.zeros(2)
    held.put((a,), 0.1, "record")
    assert held.get((b,), 0.1) is None
    key = (a, b)
    held.put(key, 0.1, "record")
    assert held.get((a, b), 0.1) == "record"
    assert held.get((a, b), 0.2) is None
    assert held.get((b, a), 0.1) is None
    assert settings(AvoidObstacles(Obstacles([(0.0, 0.0)], [1.0])))[1:3] == (50.0, 0.2)
