"""Argument checks shared by the behaviours: each names the argument it refuses.

A bad argument raises at construction or at the first call, never deep inside NumPy or a
compiled kernel, and never gives a silently wrong force (a NaN target used to brake).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import struct
import types
from typing import Any

import numpy as np

from ._jit import njit
from .vec import FloatArray

__all__ = [
    "finite",
    "frozen",
    "integer",
    "mask_check",
    "non_negative",
    "optional_point_array",
    "point_array",
    "points",
    "positive",
    "time_step",
]


def number(name: str, value: Any) -> float:
    """``value`` as a float; TypeError naming ``name`` if it is not a number (a bool is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r:.40}")
    return float(value)


_INF = math.inf


def time_step(who: str, dt: Any) -> float:
    """``dt`` as a float; TypeError or ValueError (naming ``who`` and dt) unless finite and
    >= 0. The check every entry point makes (a behaviour's call, a composite's run, ``step``,
    ``integrate``): a float that passes costs two compares."""
    if type(dt) is float and 0.0 <= dt < _INF:
        return dt
    dt = number(f"{who}: dt", dt)
    if not (math.isfinite(dt) and dt >= 0.0):
        raise ValueError(f"{who}: dt must be finite and >= 0, got {dt}")
    return dt


def finite(name: str, value: Any) -> float:
    """``value`` as a float; TypeError if it is not a number, ValueError if NaN or infinite."""
    x = number(name, value)
    if not math.isfinite(x):
        raise ValueError(f"{name}: must be finite, got {x}")
    return x


def non_negative(name: str, value: Any, *, allow_inf: bool = False) -> float:
    """``value`` as a float >= 0 (and finite unless ``allow_inf``)."""
    x = number(name, value)
    if not (x >= 0.0) or (x == math.inf and not allow_inf):
        raise ValueError(f"{name}: must be {'>= 0' if allow_inf else 'finite and >= 0'}, got {x}")
    return x


def size(name: str, value: Any) -> float:
    """``value`` as a float >= 0, inf allowed (a distance that may be unlimited)."""
    return non_negative(name, value, allow_inf=True)


def positive(name: str, value: Any) -> float:
    """``value`` as a finite float > 0."""
    x = number(name, value)
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
        arr = value if value.flags.writeable else np.array(value)  # numba: no read-only type
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
    elif arr.ndim == 2 and arr.shape[1] == 2 and arr.shape[0] not in (1, n):
        raise ValueError(out_of_step(name, arr.shape[0], n, ", axis=0"))
    elif arr.ndim != 2 or arr.shape[1] != 2 or arr.shape[0] not in (1, n):
        raise ValueError(
            f"{name}: expected a point (x, y) or ({n}, 2) points, got shape {arr.shape}"
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: coordinates must be finite")
    return arr


#: The number types a point's coordinates may have without a closer look.
_NUMBERS = (float, int)

_PAIR = struct.Struct("=dd").pack
_FROM_BYTES = np.frombuffer  # float64 by default


def frozen(value: Any) -> bool:
    """Whether ``value`` is an array whose numbers cannot change: read-only over an immutable
    ``bytes`` buffer (as :func:`point_array` makes from a tuple or a list), so that what was
    made from it (a kept record, :class:`~steering.WeightedSum`'s table) holds while it is the
    same object, as for a tuple. Such an array is never passed to a compiled kernel (a
    read-only array is another type to numba: another compile): :func:`fast_points` copies
    it."""
    return type(value) is np.ndarray and type(value.base) is bytes


def _frozen_array(arr: FloatArray) -> FloatArray:
    """A frozen copy (see :func:`frozen`) of ``arr``."""
    return np.ndarray(arr.shape, np.float64, arr.tobytes())


def point_array(name: str, value: Any) -> FloatArray:
    """``value`` as finite points to keep in a behaviour's setting: a point (x, y) read back
    as a (2,) array, or (k, 2) points (the count is checked at the call, as a group's count
    changes); TypeError or ValueError as :func:`points` otherwise.

    A float64 array of those shapes is kept as the same object (changes made in place are
    read, and checked, at the call); anything else (a tuple, a Vec2d, a list, integers) is
    converted once into a new :func:`frozen` array, which cannot change in place, as the
    tuple could not (so what is made from it is kept between calls)."""
    if (
        type(value) is np.ndarray
        and value.dtype == np.float64
        and ((value.ndim == 2 and value.shape[1] == 2) or value.shape == (2,))
    ):
        if type(value.base) is bytes and not np.isfinite(value).all():  # cannot change
            raise ValueError(f"{name}: coordinates must be finite")
        return value  # in-place changes are checked at the call anyway
    if isinstance(value, tuple) and len(value) == 2:  # a point, a Vec2d: the common case
        x, y = value
        if type(x) in _NUMBERS and type(y) in _NUMBERS and math.isfinite(x) and math.isfinite(y):
            return _FROM_BYTES(_PAIR(x, y))  # a (2,) float64 array over the bytes
    if value is None:
        raise TypeError(f"{name}: expected a point (x, y) or (N, 2) points, got None")
    shape: tuple[int, ...] = ()
    if not isinstance(value, (str, bytes)):
        with contextlib.suppress(ValueError):  # ragged: points() says what it expected
            shape = np.shape(value)
    rows = points(name, value, shape[0] if len(shape) == 2 else 1)
    return _frozen_array(rows.reshape(shape) if shape == (2,) else rows)


def optional_point_array(name: str, value: Any) -> FloatArray | None:
    """None, or :func:`point_array` of ``value``."""
    return None if value is None else point_array(name, value)


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


# -- fast paths and the checks of the compiled behaviours (basic, combine, hide, ...) --------


@njit
def _all_finite(arr: FloatArray) -> bool:
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            if not math.isfinite(arr[i, j]):
                return False
    return True


def fast_points(name: str, value: Any, n: int) -> FloatArray:
    """:func:`points` for the per-call path: a float64 (1, 2) or (n, 2) array is tested by one
    compiled loop and a pair of plain numbers without NumPy; anything else goes through
    :func:`points` (same errors)."""
    if type(value) is np.ndarray:
        if not value.flags.writeable:  # frozen, or the user's read-only: a copy for numba
            value = np.array(value)
        shape = value.shape
        if (
            value.dtype == np.float64
            and len(shape) == 2
            and shape[1] == 2
            and (shape[0] == n or shape[0] == 1)
        ):
            if _all_finite(value):
                return value
            raise ValueError(f"{name}: coordinates must be finite")
        if value.dtype == np.float64 and shape == (2,):
            row = value.reshape(1, 2)
            if _all_finite(row):
                return row
            raise ValueError(f"{name}: coordinates must be finite")
    elif type(value) is tuple and len(value) == 2:
        x, y = value
        if type(x) is float and type(y) is float:
            if math.isfinite(x) and math.isfinite(y):
                return np.array(((x, y),))
            raise ValueError(f"{name}: coordinates must be finite")
    elif value is None:
        raise TypeError(f"{name}: expected a point (x, y) or (N, 2) points, got None")
    return points(name, value, n)


#: How every part of a combinator is called (positionally).
CALLED_AS = "(agents, dt, debug=None)"

#: Each behaviour class whose ``__call__`` was found to take ``(agents, dt, debug)``.
_CALLABLE_TYPES: set[type] = set()


def behaviour(name: str, value: Any) -> Any:
    """``value`` if it can be called as a behaviour, ``value(agents, dt, debug)``; TypeError
    naming ``name`` and the signature expected otherwise.

    The signature is read with :func:`inspect.signature` (functions, lambdas, bound methods,
    objects with ``__call__``, ``functools.partial``); a callable taking ``*args`` passes, and
    so does one whose signature cannot be read (a builtin). A class whose instances passed is
    not read again.
    """
    if not callable(value):
        raise TypeError(
            f"{name}: expected a behaviour called as {CALLED_AS}, "
            f"got {type(value).__name__} {value!r:.40}"
        )
    kind = type(value)
    if kind in _CALLABLE_TYPES:
        return value
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):  # no signature to read (a builtin): called as it is
        return value
    try:
        sig.bind(None, 0.0, None)
    except TypeError:
        what = getattr(value, "__qualname__", None) or kind.__name__
        raise TypeError(
            f"{name}: expected a behaviour called as {CALLED_AS}, got {what} with signature "
            f"{sig}: it cannot take the three arguments every part is given"
        ) from None
    if not isinstance(value, _PER_OBJECT):
        _CALLABLE_TYPES.add(kind)
    return value


#: Callables whose signature belongs to the object, not its class.
_PER_OBJECT = (
    types.FunctionType,
    types.MethodType,
    types.BuiltinFunctionType,
    functools.partial,
    type,
)


def generator(name: str, value: Any) -> np.random.Generator:
    """``value`` if it is a ``numpy.random.Generator``; TypeError naming ``name`` otherwise."""
    if not isinstance(value, np.random.Generator):
        raise TypeError(
            f"{name}: expected a numpy.random.Generator such as np.random.default_rng(seed), "
            f"got {type(value).__name__} {value!r:.40}"
        )
    return value


_BOOL = np.dtype(np.bool_)


def out_of_step(name: str, rows: int, n: int, axis0: str = "") -> str:
    """The message for a per-agent array ``name`` held by a behaviour whose ``rows`` no longer
    match the group's ``n`` agents: what to do after ``agents.remove`` or ``agents.add``."""
    short = name.rsplit(".", 1)[-1]
    return (
        f"{name} has {rows} rows, the group {n} agents: after agents.remove(rows), remove the "
        f"same rows from the {short}, e.g. {short} = np.delete({short}, rows{axis0}); after "
        f"agents.add(...), append a row for each new agent (docs/steering.md, 'Per-agent "
        f"arrays when the group changes')"
    )


def mask(name: str, value: Any, n: int) -> np.ndarray:
    """``value`` as an (n,) boolean array. TypeError for another dtype (integers could be
    indices), ValueError for another length."""
    if type(value) is np.ndarray and value.dtype is _BOOL and value.shape == (n,):
        return value  # the common case, without NumPy's slower comparisons
    arr = value if type(value) is np.ndarray else np.asarray(value)
    if arr.dtype != np.bool_:
        raise TypeError(f"{name}: expected {n} booleans, got dtype {arr.dtype}")
    if arr.ndim == 1 and arr.shape[0] != n:
        raise ValueError(out_of_step(name, arr.shape[0], n))
    if arr.shape != (n,):
        raise ValueError(f"{name}: expected {n} booleans, one per agent, got shape {arr.shape}")
    return arr


def mask_check(name: str, value: Any) -> Any:
    """``value`` itself if it can be a mask, checked as far as it can be without the group:
    booleans (a bool array, or a sequence of bools) in one dimension; the length is checked
    at the call (:func:`mask`), when the group's count is known. TypeError for another dtype
    (integers could be indices), ValueError for another number of dimensions."""
    if type(value) is np.ndarray and value.dtype is _BOOL and value.ndim == 1:
        return value  # the common case, kept as the same object (changes in place are read)
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(
            f"{name}: expected booleans, one per agent (a bool array), got {value!r:.40}"
        )
    try:
        arr = value if type(value) is np.ndarray else np.asarray(value)
    except (TypeError, ValueError):  # ragged
        raise TypeError(
            f"{name}: expected booleans, one per agent (a bool array), got {value!r:.40}"
        ) from None
    if arr.dtype != np.bool_:
        raise TypeError(
            f"{name}: expected booleans, one per agent, got dtype {arr.dtype} (for rows by "
            f"index, make a mask: mask = np.zeros(n, bool); mask[rows] = True)"
        )
    if arr.ndim != 1:
        raise ValueError(
            f"{name}: expected booleans in one dimension, one per agent, got shape {arr.shape}"
        )
    return value


def limit(name: str, value: Any, n: int | None) -> Any:
    """None, a number >= 0, or (with ``n``) an (n,) array of finite numbers >= 0."""
    if value is None:
        return None
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        return non_negative(name, value)
    if n is None:
        return value
    arr = value if value.dtype == np.float64 else value.astype(np.float64)
    if arr.ndim == 1 and arr.shape[0] != n:
        raise ValueError(out_of_step(name, arr.shape[0], n))
    if arr.shape != (n,):
        raise ValueError(f"{name}: expected a number or {n} values, got shape {arr.shape}")
    if not _all_finite_non_negative(arr):
        raise ValueError(f"{name}: values must be finite and >= 0")
    return arr


@njit
def finite_values(arr: FloatArray) -> bool:
    """Whether every value of the (n,) ``arr`` is finite (a compiled loop: a few agents'
    weights are checked at every call in a fraction of NumPy's time)."""
    for i in range(arr.shape[0]):  # noqa: SIM110 (numba compiles no generator)
        if not math.isfinite(arr[i]):
            return False
    return True


@njit
def _all_finite_non_negative(arr: FloatArray) -> bool:
    for i in range(arr.shape[0]):
        x = arr[i]
        if not (x >= 0.0 and x < math.inf):
            return False
    return True


def integer(name: str, value: Any) -> int:
    """``value`` as an int; TypeError if it is not an integer (a bool, a float, a string)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__} {value!r:.40}")
    return int(value)


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


def in_unit(name: str, value: Any) -> float:
    """``value`` as a float in [0, 1]."""
    return in_range(name, value, 0.0, 1.0)


def in_range(name: str, value: Any, low: float, high: float) -> float:
    """``value`` as a float in ``[low, high]`` (finite)."""
    x = finite(name, value)
    if not (low <= x <= high):
        raise ValueError(f"{name}: must be in [{low:g}, {high:g}], got {x}")
    return x
