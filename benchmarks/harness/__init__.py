"""The benchmark of ``python -m game bench``: the steering core and ``World.step`` against a
seed-style reference on the sandbox scenario and on whole levels.

Pure (no arcade; :mod:`.frames` imports it only when whole frames are measured).
``python -m game bench`` (or ``python -m benchmarks.harness``) runs it (:mod:`.cli`: the
measuring in :mod:`.timing`, the whole run in :mod:`.measure`, the result model and its JSON in
:mod:`.results`, the table in :mod:`.report`); the reference engine is :mod:`.reference`, the
shared starting state :mod:`.scenario`. Names are loaded on first use, so the command line does
not pay for pymunk and SciPy until it benches.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .reference import SeedFlowField, SeedObstacle, SeedPath, SeedWorld, Vehicle, Weights
    from .results import BenchResult, fit_exponent
    from .scenario import WEIGHTS, Scenario, build_scenario, load_sandbox
    from .timing import predict_step_seconds, time_reference

__all__ = [
    "WEIGHTS",
    "BenchResult",
    "Scenario",
    "SeedFlowField",
    "SeedObstacle",
    "SeedPath",
    "SeedWorld",
    "Vehicle",
    "Weights",
    "build_scenario",
    "fit_exponent",
    "load_sandbox",
    "predict_step_seconds",
    "time_reference",
]

_HOME = {
    "SeedFlowField": "reference",
    "SeedObstacle": "reference",
    "SeedPath": "reference",
    "SeedWorld": "reference",
    "Vehicle": "reference",
    "Weights": "reference",
    "BenchResult": "results",
    "fit_exponent": "results",
    "predict_step_seconds": "timing",
    "time_reference": "timing",
    "WEIGHTS": "scenario",
    "Scenario": "scenario",
    "build_scenario": "scenario",
    "load_sandbox": "scenario",
}


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)
