"""Small vector helpers over (N, 2) arrays that never produce NaN or a NumPy warning."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]

#: Lengths at or below this count as zero when normalising.
EPSILON = 1e-9

__all__ = [
    "EPSILON",
    "FloatArray",
    "as_points",
    "clamp",
    "length",
    "length_sq",
    "perp",
    "safe_normalize",
    "set_length",
    "truncate",
]


def as_points(values: ArrayLike, n: int | None = None) -> FloatArray:
    """Return ``values`` as a float64 array of shape (N, 2).

    A single point ``(x, y)`` is broadcast to ``n`` rows when ``n`` is given.

    Raises:
        ValueError: if the values cannot be read as 2-D points.
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim == 1:
        if arr.shape != (2,):
            raise ValueError(f"expected a point (x, y), got shape {arr.shape}")
        arr = arr.reshape(1, 2)
        if n is not None:
            arr = np.repeat(arr, n, axis=0)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"expected an (N, 2) array of points, got shape {arr.shape}")
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"expected {n} points, got {arr.shape[0]}")
    return arr


def clamp(x: NDArray[Any], lo: Any, hi: Any, out: NDArray[Any] | None = None) -> NDArray[Any]:
    """``np.clip`` for the hot paths: ``min(max(x, lo), hi)`` elementwise (NaN stays NaN).

    NumPy's ``clip`` goes through a Python wrapper that costs several microseconds a call,
    which adds up over the dozens of small arrays of a step.
    """
    if out is None:
        return np.minimum(np.maximum(x, lo), hi)
    np.maximum(x, lo, out=out)
    return np.minimum(out, hi, out=out)


def length_sq(v: FloatArray) -> FloatArray:
    """Squared length of each row of an (N, 2) array."""
    return np.einsum("ij,ij->i", v, v)


def length(v: FloatArray) -> FloatArray:
    """Length of each row of an (N, 2) array."""
    return np.sqrt(length_sq(v))


def safe_normalize(v: FloatArray, fallback: FloatArray | None = None) -> FloatArray:
    """Unit vectors along each row; a zero row gives ``fallback`` (or zero), never NaN.

    Args:
        v: (N, 2) vectors.
        fallback: optional (N, 2) or (2,) vectors used where a row of ``v`` is (almost) zero.
    """
    n = length(v)
    ok = n > EPSILON
    out = np.zeros_like(v)
    np.divide(v, n[:, None], out=out, where=ok[:, None])
    if fallback is not None:
        out = np.where(ok[:, None], out, fallback)
    return out


def set_length(v: FloatArray, new_length: FloatArray | float) -> FloatArray:
    """Rows of ``v`` scaled to ``new_length`` (scalar or (N,)); zero rows stay zero."""
    return safe_normalize(v) * np.asarray(new_length, dtype=np.float64).reshape(-1, 1)


def truncate(v: FloatArray, max_length: FloatArray | float) -> FloatArray:
    """Rows of ``v`` shortened to at most ``max_length`` (scalar or (N,)); shorter rows unchanged.

    Non-finite rows become zero, so one bad input cannot poison a physics body (a row whose
    squared length overflows has no usable length either and becomes zero too). Always returns
    a new array.
    """
    limit = np.broadcast_to(np.asarray(max_length, dtype=np.float64), (v.shape[0],))
    n = length(v)
    over = ~(n <= limit)  # longer than the limit, or NaN
    if not over.any():
        return v.copy()
    finite = np.isfinite(n)
    shrink = over & finite & (n > limit)
    scale = np.ones_like(n)
    np.divide(limit, n, out=scale, where=shrink)
    np.maximum(scale, 0.0, out=scale)
    out = v * scale[:, None]
    if not finite.all():
        out[~finite] = 0.0  # 0 * inf or anything * NaN would stay non-finite
    return out


def perp(v: FloatArray) -> FloatArray:
    """Each row rotated by +90 degrees (counter-clockwise with y up): (x, y) -> (-y, x)."""
    return np.stack((-v[:, 1], v[:, 0]), axis=1)
