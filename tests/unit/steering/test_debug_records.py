"""Typed debug records (steering.debug): every behaviour writes its record whole, and what a
drawing reads back by name is what the behaviour wrote under the record's keys."""

from __future__ import annotations

import numpy as np
import pytest

import steering as st
from steering import debug as records
from steering.bench import DT, behaviour_cases

#: Each case of the bench's vocabulary and the record its behaviour writes.
WRITES = {
    "Seek": records.SeekDebug,
    "Arrive": records.ArriveDebug,
    "Pursue": records.PursueDebug,
    "Evade": records.EvadeDebug,
    "Wander": records.WanderDebug,
    "Separate": records.SeparateDebug,
    "Align": records.AlignDebug,
    "Cohere": records.CohereDebug,
    "AvoidAgents": records.AvoidAgentsDebug,
    "Queue": records.QueueDebug,
    "FollowPath": records.PathDebug,
    "FollowFlow (grid)": records.FlowDebug,
    "AvoidObstacles": records.AvoidDebug,
    "AvoidWalls": records.WallsDebug,
    "Hide": records.HideDebug,
    "Interpose": records.InterposeDebug,
    "MatchVelocity": records.MatchDebug,
    "OffsetPursuit": records.OffsetDebug,
    "Face": records.OrientationDebug,
    "LookWhereYouAreGoing": records.OrientationDebug,
    "Flock (preset)": records.FlockDebug,
}


@pytest.mark.parametrize("case", sorted(WRITES))
def test_every_behaviour_writes_its_record_whole(case: str) -> None:
    agents, behaviour = behaviour_cases(60)[case]
    debug: st.Debug = {}
    behaviour(agents, DT, debug)
    kind = WRITES[case]
    assert set(records.keys(kind)) <= set(debug)
    rec = records.read(kind, debug)
    assert rec is not None
    for name, value in zip(kind._fields, rec, strict=True):
        assert value is not None, name
        assert value is debug[records.keys(kind)[kind._fields.index(name)]]
    # per-agent fields have one row per agent
    first = rec[0]
    if kind is not records.SeparateDebug and kind is not records.HideDebug:
        assert first.shape[0] == agents.n


def test_a_field_named_as_a_tuple_method_keeps_its_key_in_the_dict() -> None:
    assert records.keys(records.SeparateDebug) == [
        "separate.count",
        "separate.pairs",
        "separate.distance",
        "separate.average",
    ]
    assert records.keys(records.FlockDebug) == ["flock.count"]


def test_read_is_none_without_the_record_and_none_per_missing_field() -> None:
    debug: st.Debug = {}
    assert records.read(records.WanderDebug, debug) is None
    debug["wander.target"] = np.zeros((2, 2))  # a crowd updated in parts may hold some only
    rec = records.read(records.WanderDebug, debug)
    assert rec is not None and rec.center is None
    assert rec.target is debug["wander.target"]


def test_a_path_record_under_its_behaviours_own_key() -> None:
    path = st.Path(np.array([[0.0, 0.0], [300.0, 0.0]]), radius=10.0)
    agents = st.AgentGroup.create(np.array([[10.0, 40.0]]), np.array([[30.0, 0.0]]))
    debug: st.Debug = {}
    st.FollowPath(path, key="lane")(agents, DT, debug)
    assert records.read(records.PathDebug, debug) is None
    rec = records.read(records.PathDebug, debug, "lane")
    assert rec is not None and rec.steering.tolist() == [True]  # 40 px off a 10 px path
    assert np.allclose(rec.normal[0], (rec.future[0, 0], 0.0))


def test_the_guides_record_example_runs() -> None:
    import re
    from pathlib import Path

    guide = Path(__file__).resolve().parents[3] / "docs" / "steering.md"
    (block,) = [
        b
        for b in re.findall(r"```py\n(.*?)```", guide.read_text(encoding="utf-8"), re.S)
        if "steering.debug" in b
    ]
    rocks = st.Obstacles.create(np.array([[100.0, 0.0]]), np.array([20.0]))
    agents = st.AgentGroup.create(np.array([[0.0, 0.0], [0.0, 300.0]]), np.array([[60.0, 0.0]] * 2))
    scope: dict[str, object] = {"agents": agents, "avoid": st.AvoidObstacles(rocks), "dt": DT}
    exec(block, scope)
    assert scope["rocks"].tolist() == [0, -1]  # type: ignore[union-attr]
    assert scope["boxes"].shape == (2, 4, 2)  # type: ignore[union-attr]
