"""Craig Reynolds' steering behaviours for N agents at once, compiled with numba.

Every behaviour is a small parameter object called as ``behaviour(agents, dt, debug=None)`` that
returns an (N, 2) steering force (px/s^2 x mass: the acceleration for a mass of 1; each row finite
and within ``max_force``); :func:`integrate` divides it by mass and moves the agents, and
:func:`step` does both in one call (one compiled call for a :class:`WeightedSum`). Combinators are
behaviours too, so they nest. Each behaviour's per-agent maths is a compiled kernel (see
``steering/_jit.py``).
No arcade, pymunk or pyglet is imported; the adapters :mod:`steering.arcade` and
:mod:`steering.pymunk` import theirs when used. The guide is the repository's docs/steering.md.
"""

from __future__ import annotations

from .agents import AgentGroup, integrate
from .avoid_agents import AvoidAgents
from .avoid_walls import AvoidWalls
from .base import DEFAULT_GAIN, Behaviour, Debug
from .basic import Arrive, Contain, Evade, Flee, Pursue, Seek, Wander
from .combine import (
    FirstNonZero,
    Limited,
    Masked,
    Staggered,
    TruncatedRunningSum,
    Weighted,
    WeightedSum,
    step,
)
from .drifting_path import DriftingPath
from .flow import FlowField
from .follow import FollowPath, PathParam
from .follow_flow import FlowSource, FollowFlow
from .group import Align, Cohere, Flock, Separate
from .hide import Hide
from .interpose import Interpose
from .match_velocity import MatchVelocity
from .noise_flow import NoiseFlow
from .obstacles import AvoidObstacles, Obstacles
from .offset_pursuit import OffsetPursuit, formation_offsets
from .orientation import Face, LookWhereYouAreGoing
from .path import Path
from .paths import PathSet
from .queue import Queue
from .walls import Walls

__all__ = [
    "DEFAULT_GAIN",
    "AgentGroup",
    "Align",
    "Arrive",
    "AvoidAgents",
    "AvoidObstacles",
    "AvoidWalls",
    "Behaviour",
    "Cohere",
    "Contain",
    "Debug",
    "DriftingPath",
    "Evade",
    "Face",
    "FirstNonZero",
    "Flee",
    "Flock",
    "FlowField",
    "FlowSource",
    "FollowFlow",
    "FollowPath",
    "Hide",
    "Interpose",
    "Limited",
    "LookWhereYouAreGoing",
    "Masked",
    "MatchVelocity",
    "NoiseFlow",
    "Obstacles",
    "OffsetPursuit",
    "Path",
    "PathParam",
    "PathSet",
    "Pursue",
    "Queue",
    "Seek",
    "Separate",
    "Staggered",
    "TruncatedRunningSum",
    "Walls",
    "Wander",
    "Weighted",
    "WeightedSum",
    "formation_offsets",
    "integrate",
    "step",
]
