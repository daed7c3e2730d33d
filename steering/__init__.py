"""Vectorised steering behaviours: pure NumPy over N agents at once; no arcade, no pymunk.

Every behaviour is a small parameter object called as ``behaviour(agents, dt, debug=None)`` that
returns an (N, 2) steering acceleration (px/s^2, each row finite and within ``max_force``).
Combinators are behaviours too, so they nest. See the README's "Steering core" section.
"""

from __future__ import annotations

from .agents import UNSET, AgentGroup, integrate, is_unset
from .avoid_agents import AvoidAgents
from .avoid_walls import AvoidWalls
from .base import DEFAULT_GAIN, Behaviour, Debug, desired_toward, steer_to_velocity
from .basic import Arrive, Contain, Evade, Flee, Pursue, Seek, Wander
from .combine import Limited, Masked, PrioritizedSum, Priority, Weighted, WeightedSum
from .flow import MAX_CELLS, FlowField, FlowSource, FollowFlow, NoiseFlow
from .follow import FollowPath
from .group import Align, Cohere, Flock, Separate
from .neighbours import directed_candidates
from .obstacles import AvoidObstacles, Obstacles
from .orientation import Face, LookWhereYouAreGoing
from .path import DriftingPath, Path
from .paths import PathSet
from .queue import Queue
from .targets import Hide, Interpose, MatchVelocity, OffsetPursuit, formation_offsets
from .vec import length, perp, safe_normalize, truncate
from .walls import Walls

__all__ = [
    "DEFAULT_GAIN",
    "MAX_CELLS",
    "UNSET",
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
    "PathSet",
    "PrioritizedSum",
    "Priority",
    "Pursue",
    "Queue",
    "Seek",
    "Separate",
    "Walls",
    "Wander",
    "Weighted",
    "WeightedSum",
    "desired_toward",
    "directed_candidates",
    "formation_offsets",
    "integrate",
    "is_unset",
    "length",
    "perp",
    "safe_normalize",
    "steer_to_velocity",
    "truncate",
]
