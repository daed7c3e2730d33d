"""The bench's result model: the options of a run, everything it measured, and its JSON.

:meth:`BenchResult.to_json` writes (``python -m game bench --json FILE``):

* ``machine``: ``python``, ``numpy``, ``scipy``, ``pymunk``, ``platform``, ``cpu``,
  ``cpu_count``, ``malloc_tuned``;
* ``options``: ``level``, ``sizes``, ``reference_sizes``, ``steps``, ``warmup``,
  ``reference_steps``, ``reference_max_steps``, ``reference_budget_s``, ``reference_warmup``,
  ``stagger``, ``step_limit_s``;
* ``weights``: the blend (``path``, ``flow``, ``avoid``, ``separate``);
* ``rows``: one per size, ``agents``, ``steered``, ``reference`` (``steering_ms``, ``total_ms``,
  ``steps``, ``note``; null figures where it did not run), ``ours`` (``steering_ms``,
  ``steering_p95_ms``, ``world``: per stagger ``median_ms``, ``p95_ms``, ``steering_ms`` (the
  world's ``steer`` system), ``physics_ms`` (its ``physics`` system), ``systems_ms`` (every
  system by name)), ``speedup`` (``steering``, ``total``
  per stagger; reference / ours);
* ``exponents``: ``ours_steering``, ``ours_world`` (per stagger), ``reference_steering``,
  ``reference_total`` (null with fewer than two sizes);
* ``notes``: what was skipped and why;
* ``frames``: the whole-frame measurement with ``--frames`` (see :mod:`benchmarks.harness.frames`),
  else null;
* ``behaviours``: with ``--behaviours`` (or ``--behaviour-sizes``), each behaviour of the
  steering vocabulary timed on its own (see :mod:`benchmarks.harness.behaviours`): ``sizes``,
  ``rocks``, ``walls``, ``steps``, ``warmup`` and ``rows`` of ``behaviour``, ``detail``,
  ``agents``, ``median_ms``, ``p95_ms``, ``steps``; else null;
* ``profile``: the profile file written with ``--profile``, else null.
"""

from __future__ import annotations

import math
import os
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .timing import (
    REFERENCE_BUDGET_S,
    REFERENCE_MAX_STEPS,
    REFERENCE_STEPS,
    REFERENCE_WARMUP,
    STEP_LIMIT_S,
    CoreTiming,
    ReferenceTiming,
    WorldTiming,
    median_or_none,
)

if TYPE_CHECKING:
    from game.level import Level

    from .behaviours import BehaviourTiming
    from .frames import FrameReport

__all__ = [
    "FRAME_AGENTS",
    "FRAME_COUNT",
    "FRAME_WARMUP",
    "BenchOptions",
    "BenchResult",
    "fit_exponent",
    "machine_info",
]

#: ``--frames``: crowd size of the whole-frame measurement, frames timed and warm-up.
FRAME_AGENTS = 1_000
FRAME_COUNT = 200
FRAME_WARMUP = 30


def fit_exponent(sizes: Sequence[float], ms: Sequence[float | None]) -> float | None:
    """The exponent k of the least-squares fit ``log ms = k log N + c``.

    Sizes without a (positive, finite) figure are left out; None with fewer than two distinct
    sizes left.
    """
    pts = [
        (math.log(n), math.log(t))
        for n, t in zip(sizes, ms, strict=True)
        if t is not None and math.isfinite(t) and t > 0 and n > 0
    ]
    if len({x for x, _ in pts}) < 2:
        return None
    x = np.array([p[0] for p in pts])
    y = np.array([p[1] for p in pts])
    slope = np.polyfit(x, y, 1)[0]
    return float(slope)


@dataclass(frozen=True)
class BenchOptions:
    """Validated options of one run (``--quick`` resolved)."""

    level: Level
    sizes: tuple[int, ...]
    reference_sizes: tuple[int, ...]
    steps: int
    warmup: int
    stagger: tuple[int, ...]
    json: Path | None = None
    profile: Path | None = None
    frames: bool = False
    frame_count: int = FRAME_COUNT
    frame_warmup: int = FRAME_WARMUP
    tune: bool = True
    #: Sizes of the per-behaviour table (empty: not measured).
    behaviour_sizes: tuple[int, ...] = ()

    @property
    def reference_steps(self) -> int:
        """Timed reference steps per size."""
        return min(self.steps, REFERENCE_STEPS)

    @property
    def reference_warmup(self) -> int:
        """Untimed reference steps per size."""
        return min(self.warmup, REFERENCE_WARMUP)

    def jobs(self) -> int:
        """How many measurements the run makes (for the progress bar)."""
        jobs = len(self.reference_sizes) + len(self.sizes) * (1 + len(self.stagger))
        if self.behaviour_sizes:
            from .behaviours import behaviour_cases

            jobs += len(behaviour_cases()) * len(self.behaviour_sizes)
        return jobs + (self.profile is not None) + (2 if self.frames else 0)


@dataclass
class BenchResult:
    """Everything one run measured."""

    options: BenchOptions
    machine: dict[str, Any]
    reference: dict[int, ReferenceTiming] = field(default_factory=dict)
    core: dict[int, CoreTiming] = field(default_factory=dict)
    world: dict[tuple[int, int], WorldTiming] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    frames: FrameReport | None = None
    profile: Path | None = None
    behaviours: list[BehaviourTiming] = field(default_factory=list)

    @property
    def all_sizes(self) -> list[int]:
        """Every size measured by either engine, ascending."""
        return sorted(set(self.options.sizes) | set(self.options.reference_sizes))

    def speedup(self, n: int) -> tuple[float | None, dict[int, float | None]]:
        """Reference / ours at ``n``: for steering, and for steering + physics per stagger."""
        ref = self.reference.get(n)
        core = self.core.get(n)
        steer = _ratio(
            median_or_none(ref.steering_ms) if ref else None, core.steering_ms if core else None
        )
        total = {
            k: _ratio(
                median_or_none(ref.total_ms) if ref else None,
                self.world[n, k].median_ms if (n, k) in self.world else None,
            )
            for k in self.options.stagger
        }
        return steer, total

    def exponents(self) -> dict[str, Any]:
        """Fitted exponents of every series."""
        sizes = list(self.options.sizes)
        ref_sizes = sorted(self.reference)
        return {
            "ours_steering": fit_exponent(
                sizes, [self.core[n].steering_ms if n in self.core else None for n in sizes]
            ),
            "ours_world": {
                str(k): fit_exponent(
                    sizes,
                    [self.world[n, k].median_ms if (n, k) in self.world else None for n in sizes],
                )
                for k in self.options.stagger
            },
            "reference_steering": fit_exponent(
                ref_sizes, [median_or_none(self.reference[n].steering_ms) for n in ref_sizes]
            ),
            "reference_total": fit_exponent(
                ref_sizes, [median_or_none(self.reference[n].total_ms) for n in ref_sizes]
            ),
        }

    def to_json(self) -> dict[str, Any]:
        """The documented JSON (see the module docstring)."""
        o = self.options
        rows = []
        for n in self.all_sizes:
            ref = self.reference.get(n)
            core = self.core.get(n)
            steer, total = self.speedup(n)
            rows.append(
                {
                    "agents": n,
                    "steered": n - 1,
                    "reference": (
                        ref.to_json()
                        if ref
                        else {"steering_ms": None, "total_ms": None, "steps": 0, "note": ""}
                    ),
                    "ours": {
                        "steering_ms": core.steering_ms if core else None,
                        "steering_p95_ms": core.p95_ms if core else None,
                        "world": {
                            str(k): self.world[n, k].to_json()
                            for k in o.stagger
                            if (n, k) in self.world
                        },
                    },
                    "speedup": {"steering": steer, "total": {str(k): v for k, v in total.items()}},
                }
            )
        from .scenario import WEIGHTS

        return {
            "machine": self.machine,
            "options": {
                "level": o.level.source.name if o.level.source else "",
                "sizes": list(o.sizes),
                "reference_sizes": list(o.reference_sizes),
                "steps": o.steps,
                "warmup": o.warmup,
                "reference_steps": o.reference_steps,
                "reference_max_steps": REFERENCE_MAX_STEPS,
                "reference_budget_s": REFERENCE_BUDGET_S,
                "reference_warmup": o.reference_warmup,
                "stagger": list(o.stagger),
                "step_limit_s": STEP_LIMIT_S,
            },
            "weights": WEIGHTS._asdict(),
            "rows": rows,
            "exponents": self.exponents(),
            "notes": list(self.notes),
            "frames": self.frames.to_json() if self.frames else None,
            "profile": str(self.profile) if self.profile else None,
            "behaviours": self._behaviours_json(),
        }

    def _behaviours_json(self) -> dict[str, Any] | None:
        o = self.options
        if not o.behaviour_sizes:
            return None
        from .behaviours import ROCKS, WALLS

        return {
            "sizes": list(o.behaviour_sizes),
            "rocks": ROCKS,
            "walls": WALLS,
            "steps": o.steps,
            "warmup": o.warmup,
            "rows": [r.to_json() for r in self.behaviours],
        }


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b is not None and b > 0 else None


def machine_info(tuned: bool) -> dict[str, Any]:
    """Versions, CPU and allocator setting of this run."""
    import pymunk
    import scipy

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "pymunk": pymunk.version,
        "platform": platform.platform(),
        "cpu": _cpu_name(),
        "cpu_count": os.cpu_count(),
        "malloc_tuned": tuned,
    }


def _cpu_name() -> str:
    """The CPU model from /proc/cpuinfo, else what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
