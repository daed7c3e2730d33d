"""Argument checks shared by the behaviours: each names the argument it refuses.

A bad argument raises at construction or at the first call, never deep inside NumPy or a
compiled kernel, and never gives a silently wrong force (a NaN target used to brake).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .vec import FloatArray

__all__ = ["finite", "non_negative", "points", "positive"]


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r:.40}")
    return float(value)


def finite(name: str, value: Any) -> float:
    """``value`` as a float; TypeError if it is not a number, ValueError if NaN or infinite."""
    x = _number(name, value)
    if not math.isfinite(x):
        raise ValueError(f"{name}: must be finite, got {x}")
    return x


def non_negative(name: str, value: Any, *, allow_inf: bool = False) -> float:
    """``value`` as a float >= 0 (and finite unless ``allow_inf``)."""
    x = _number(name, value)
    if not (x >= 0.0) or (x == math.inf and not allow_inf):
        raise ValueError(f"{name}: must be {'>= 0' if allow_inf else 'finite and >= 0'}, got {x}")
    return x


def positive(name: str, value: Any) -> float:
    """``value`` as a finite float > 0."""
    x = _number(name, value)
    if not (0.0 < x < math.inf):
        raise ValueError(f"{name}: must be finite and > 0, got {x}")
    return x


def points(name: str, value: Any, n: int) -> FloatArray:
    """``value`` as finite points: a (1, 2) array for one point shared by all agents, or (n, 2).

    Raises:
        TypeError: for something that is not numbers (a string, None, objects).
        ValueError: for the wrong shape or a NaN or infinite coordinate.
    """
    if isinstance(value, np.ndarray) and value.dtype == np.float64:
        arr = value
    else:
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name}: expected a point (x, y) or (N, 2) points, got {value!r:.40}")
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{name}: expected a point (x, y) or (N, 2) points, got {value!r:.40}"
            ) from None
    if arr.shape == (2,):
        arr = arr.reshape(1, 2)
    elif arr.ndim != 2 or arr.shape[1] != 2 or arr.shape[0] not in (1, n):
        raise ValueError(
            f"{name}: expected a point (x, y) or ({n}, 2) points, got shape {arr.shape}"
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: coordinates must be finite")
    return arr


def fov(name: str, value: Any, *, allow_zero: bool = False) -> float:
    """A field of view in degrees: in (0, 360], or [0, 360] with ``allow_zero``.

    The message reads "<name> must be in (0, 360] degrees" so that the argument is named.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r:.40}")
    x = float(value)
    ok = (0.0 <= x <= 360.0) if allow_zero else (0.0 < x <= 360.0)
    if not ok:
        span = "[0, 360]" if allow_zero else "(0, 360]"
        raise ValueError(f"{name} must be in {span} degrees, got {x!r}")
    return x


def in_range(name: str, value: Any, low: float, high: float) -> float:
    """``value`` as a float in ``[low, high]`` (finite)."""
    x = finite(name, value)
    if not (low <= x <= high):
        raise ValueError(f"{name}: must be in [{low:g}, {high:g}], got {x}")
    return x
