"""The environment's options, checked once: each bad one is one line naming it
(:class:`EnvOptionError`)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from game.level import Level, LevelError, load_level, resolve_level

__all__ = [
    "DEFAULT_HOLD",
    "DEFAULT_RAYS",
    "DEFAULT_RAY_RANGE",
    "DEFAULT_TIME_COST",
    "DEFAULT_TIME_LIMIT",
    "MAX_RAYS",
    "RENDER_MODES",
    "EnvOptionError",
    "EnvOptions",
]

#: Rays in the ring round the player.
DEFAULT_RAYS = 16
#: The most rays a ring may have (one every quarter degree).
MAX_RAYS = 1440
#: Fixed steps (1/60 s each) one action is held for.
DEFAULT_HOLD = 4
#: How far a ray sees (px): farther is reported as this far.
DEFAULT_RAY_RANGE = 640.0
#: Simulated seconds before an episode is truncated (the curve's limit).
DEFAULT_TIME_LIMIT = 120.0
#: Reward taken away per simulated second (small: the whole time limit, 0.12, costs less
#: than being caught).
DEFAULT_TIME_COST = 0.001
#: What ``render_mode`` may be.
RENDER_MODES = ("rgb_array", "human")


class EnvOptionError(ValueError):
    """A bad option of the environment: one line, ``option: what is wrong``.

    Attributes:
        option: The option's name.
        reason: What is wrong with it.
    """

    def __init__(self, option: str, reason: str) -> None:
        self.option = option
        self.reason = reason
        super().__init__(f"{option}: {reason}")


@dataclass(frozen=True)
class EnvOptions:
    """What an environment was made with, checked (:meth:`of`).

    Attributes:
        path: The level file (None for a level given as data).
        level: The level.
        rays: Rays in the ring.
        hold: Fixed steps each action is held.
        continuous: Box thrust actions instead of the nine key directions.
        ray_range: How far a ray sees (px).
        time_limit: Simulated seconds before truncation.
        time_cost: Reward taken away per simulated second.
        render_mode: None, ``"rgb_array"`` or ``"human"``.
        render_size: The rendered frame's (width, height) in pixels.
    """

    path: Path | None
    level: Level
    rays: int
    hold: int
    continuous: bool
    ray_range: float
    time_limit: float
    time_cost: float
    render_mode: str | None
    render_size: tuple[int, int]

    @classmethod
    def of(
        cls,
        level: str | os.PathLike[str] | Level,
        *,
        rays: int = DEFAULT_RAYS,
        hold: int = DEFAULT_HOLD,
        continuous: bool = False,
        ray_range: float = DEFAULT_RAY_RANGE,
        time_limit: float = DEFAULT_TIME_LIMIT,
        time_cost: float = DEFAULT_TIME_COST,
        render_mode: str | None = None,
        render_size: tuple[int, int] = (640, 360),
    ) -> EnvOptions:
        """Check every option.

        Raises:
            EnvOptionError: the first bad option, named.
        """
        path, data = _level(level)
        return cls(
            path,
            data,
            _count("rays", rays, 1, MAX_RAYS),
            _count("hold", hold, 1, 3600),
            _flag("continuous", continuous),
            _positive("ray_range", ray_range, 1e6),
            _positive("time_limit", time_limit, 3600.0),
            _cost(time_cost),
            _render_mode(render_mode),
            _size(render_size),
        )


def _level(level: object) -> tuple[Path | None, Level]:
    if isinstance(level, Level):
        return level.source, level
    if not isinstance(level, str | os.PathLike):
        raise EnvOptionError(
            "level", f"expected a level file or a shipped level's name, got {type(level).__name__}"
        )
    try:
        path = resolve_level(level)
        return path, load_level(path)
    except (LevelError, OSError) as err:
        raise EnvOptionError("level", str(err)) from None


def _count(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise EnvOptionError(name, f"expected an integer in {low}..{high}, got {value!r}")
    if not low <= int(value) <= high:
        raise EnvOptionError(name, f"expected an integer in {low}..{high}, got {value}")
    return int(value)


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise EnvOptionError(name, f"expected True or False, got {value!r}")
    return value


def _positive(name: str, value: object, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EnvOptionError(name, f"expected a number in (0, {high:g}], got {value!r}")
    if not (math.isfinite(value) and 0.0 < value <= high):
        raise EnvOptionError(name, f"expected a number in (0, {high:g}], got {value!r}")
    return float(value)


def _cost(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EnvOptionError("time_cost", f"expected a number in [0, 1000], got {value!r}")
    if not (math.isfinite(value) and 0.0 <= value <= 1000.0):
        raise EnvOptionError("time_cost", f"expected a number in [0, 1000], got {value!r}")
    return float(value)


def _render_mode(value: object) -> str | None:
    if value is not None and value not in RENDER_MODES:
        raise EnvOptionError("render_mode", f"expected None, 'rgb_array' or 'human', got {value!r}")
    return value


def _size(value: object) -> tuple[int, int]:
    ok = (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= 8192 for v in value)
    )
    if not ok:
        raise EnvOptionError(
            "render_size", f"expected (width, height) in pixels, 16..8192 each, got {value!r}"
        )
    return (int(value[0]), int(value[1]))  # type: ignore[index]
