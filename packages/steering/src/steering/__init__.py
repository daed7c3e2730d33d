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

import warnings
from typing import Any

from .agents import AgentGroup, integrate, is_unset
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
    "is_unset",
    "step",
]

#: This release (a literal, so that a source tree or a stale editable install reads the same);
#: kept equal to packages/steering/pyproject.toml's by a test.
__version__ = "0.4.0"

#: Names kept for old code: each warns once per use and gives the new object.
_DEPRECATED = {"PrioritizedSum": ("TruncatedRunningSum", TruncatedRunningSum)}


def __getattr__(name: str) -> Any:
    """``steering.PrioritizedSum``: the old name of :class:`TruncatedRunningSum` (until 0.5)."""
    old = _DEPRECATED.get(name)
    if old is None:
        raise AttributeError(f"module 'steering' has no attribute {name!r}")
    warnings.warn(
        f"steering.{name} is deprecated: use steering.{old[0]} (the same class)",
        DeprecationWarning,
        stacklevel=2,
    )
    return old[1]
