"""One small working instance of every behaviour :mod:`steering` exports, for the tests that
go over them all (dt checked at every entry point, settings checked on assignment)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import steering
from steering import (
    AgentGroup,
    Align,
    Arrive,
    AvoidAgents,
    AvoidObstacles,
    AvoidWalls,
    Cohere,
    Contain,
    Evade,
    Face,
    FirstNonZero,
    Flee,
    Flock,
    FlowField,
    FollowFlow,
    FollowPath,
    Hide,
    Interpose,
    Limited,
    LookWhereYouAreGoing,
    Masked,
    MatchVelocity,
    Obstacles,
    OffsetPursuit,
    Path,
    Pursue,
    Queue,
    Seek,
    Separate,
    Staggered,
    TruncatedRunningSum,
    Walls,
    Wander,
    Weighted,
    WeightedSum,
)


def four() -> AgentGroup:
    """Four agents a few px apart, moving right."""
    return AgentGroup.create(
        [(0.0, 0.0), (10.0, 0.0), (20.0, 5.0), (5.0, 12.0)],
        [(10.0, 0.0)] * 4,
        max_speed=100.0,
        max_force=200.0,
    )


def _obstacles() -> Obstacles:
    return Obstacles.create([(60.0, 0.0)], [10.0])


def _walls() -> Walls:
    return Walls.create([((50.0, -50.0), (50.0, 50.0))])


#: Each exported behaviour, made with working arguments (a fresh instance per call).
BEHAVIOURS: dict[str, Callable[[], object]] = {
    "Align": lambda: Align(),
    "Arrive": lambda: Arrive((100.0, 0.0)),
    "AvoidAgents": lambda: AvoidAgents(),
    "AvoidObstacles": lambda: AvoidObstacles(_obstacles()),
    "AvoidWalls": lambda: AvoidWalls(_walls()),
    "Cohere": lambda: Cohere(),
    "Contain": lambda: Contain(-100.0, -100.0, 100.0, 100.0),
    "Evade": lambda: Evade((50.0, 0.0)),
    "Face": lambda: Face((50.0, 50.0)),
    "FirstNonZero": lambda: FirstNonZero([Seek((0.0, 0.0))]),
    "Flee": lambda: Flee((50.0, 0.0)),
    "Flock": lambda: Flock(),
    "FollowFlow": lambda: FollowFlow(FlowField(np.ones((4, 4, 2)), 50.0)),
    "FollowPath": lambda: FollowPath(Path([(0.0, 0.0), (400.0, 0.0)], radius=10.0)),
    "Hide": lambda: Hide((80.0, 0.0), _obstacles()),
    "Interpose": lambda: Interpose((0.0, 50.0), (50.0, 0.0)),
    "Limited": lambda: Limited(Seek((0.0, 0.0)), max_speed=50.0),
    "LookWhereYouAreGoing": lambda: LookWhereYouAreGoing(),
    "Masked": lambda: Masked(Seek((0.0, 0.0)), np.ones(4, dtype=bool)),
    "MatchVelocity": lambda: MatchVelocity((5.0, 5.0)),
    "OffsetPursuit": lambda: OffsetPursuit((0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (-20.0, 0.0)),
    "Pursue": lambda: Pursue((50.0, 0.0)),
    "Queue": lambda: Queue(),
    "Seek": lambda: Seek((100.0, 0.0)),
    "Separate": lambda: Separate(),
    "Staggered": lambda: Staggered(Seek((0.0, 0.0)), every=2),
    "TruncatedRunningSum": lambda: TruncatedRunningSum([Weighted(Seek((0.0, 0.0)), 0.5)]),
    "Wander": lambda: Wander(np.random.default_rng(1)),
    "WeightedSum": lambda: WeightedSum([Weighted(Seek((0.0, 0.0)), 0.5)]),
}


def exported_behaviours() -> list[str]:
    """The names of the classes :mod:`steering` exports that are called as behaviours."""
    return [
        name
        for name in steering.__all__
        if isinstance(getattr(steering, name), type) and name not in _NOT_BEHAVIOURS
    ]


#: Exported classes that are data or protocols, not behaviours.
_NOT_BEHAVIOURS = frozenset(
    {
        "AgentGroup",
        "Behaviour",
        "DriftingPath",
        "FlowField",
        "FlowSource",
        "NoiseFlow",
        "Obstacles",
        "Path",
        "PathParam",
        "PathSet",
        "Walls",
        "Weighted",
        "Debug",
    }
)
