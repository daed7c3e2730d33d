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


def float_array(name: str, value: Any) -> FloatArray:
    """``value`` as a new float64 array (any shape).

    Raises:
        TypeError: for something that is not numbers (a string, None, objects).
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name}: expected numbers, got {value!r:.40}")
    try:
        return np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers, got {value!r:.40}") from None


def all_finite(name: str, arr: FloatArray) -> FloatArray:
    """``arr`` itself; ValueError naming ``name`` if a value is NaN or infinite."""
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: values must be finite")
    return arr


def choice(name: str, value: Any, options: tuple[str, ...]) -> str:
    """``value`` if it is one of ``options``; ValueError naming ``name`` otherwise."""
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name}: expected one of {listed}, got {value!r:.40}")
    return value


def instance(name: str, value: Any, cls: type) -> Any:
    """``value`` if it is a ``cls``; TypeError naming ``name`` otherwise."""
    if not isinstance(value, cls):
        raise TypeError(f"{name}: expected {cls.__name__}, got {type(value).__name__}")
    return value
