"""The crowd's steering as the world runs it: whether it runs, whether it writes its debug
arrays, and the last ones written (the forces themselves are columns of the agents' state)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from steering import Debug

__all__ = ["CrowdSteering"]


@dataclass(eq=False)
class CrowdSteering:
    """The steer system's switches and its debug output.

    Attributes:
        enabled: False turns the crowd's steering off (tests, debugging): physics, currents,
            perception and the player still run.
        debug_enabled: collect the steering debug arrays each step into :attr:`debug` (the
            F1 overlay turns it on and off while the world runs).
        debug: the last step's steering debug arrays (when enabled), keyed as the core's
            behaviours key them (``avoid.box``, ``path.future``, ``wander.target``, ...) plus
            ``separate.count``; per-agent arrays have one row per agent of :attr:`debug_rows`.
        debug_rows: the agent rows the last step's debug arrays cover: all non-player agents,
            or this step's staggered group (empty until a step collects them).
    """

    enabled: bool = True
    debug_enabled: bool = False
    debug: Debug = field(default_factory=dict)
    debug_rows: NDArray[np.intp] = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
