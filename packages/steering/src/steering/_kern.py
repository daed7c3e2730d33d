"""Per-agent vector maths for the compiled kernels: the seeds' ``PVector`` calls on two floats.

Each function takes and returns plain floats, so numba inlines it into the loop over agents.
The rules are the ones every behaviour promises: lengths never overflow (:func:`hypot`), a zero or
non-finite vector has no direction and normalises to zero, and a non-finite force becomes zero
so that one bad input cannot poison a physics body.
"""

from __future__ import annotations

import math
from typing import Any

from ._jit import njit

__all__ = ["EPSILON", "hypot", "row_step", "set_length", "steer", "truncate", "unit"]

#: Lengths at or below this count as zero when normalising (as ``vec.EPSILON``).
EPSILON = 1e-9


@njit
def hypot(x: float, y: float) -> float:
    """The length of (x, y), without overflow: the one place that decides how every kernel
    measures.

    ``sqrt(x^2 + y^2)`` where the squares neither overflow nor lose precision (lengths between
    about 1e-145 and 1e145), ``math.hypot`` beyond: the square root costs some 3 ns in compiled
    code against 25 ns for ``math.hypot``, and a step measures several vectors per agent. The
    two agree to an ulp.
    """
    ax = abs(x)
    ay = abs(y)
    # Squares only of components that can neither overflow nor underflow (no operation here
    # raises a floating-point warning, which matters when NUMBA_DISABLE_JIT runs it on NumPy
    # scalars): each one zero or within 1e-145..1e145.
    if (ax == 0.0 or 1e-145 < ax < 1e145) and (ay == 0.0 or 1e-145 < ay < 1e145):
        return math.sqrt(x * x + y * y)
    return math.hypot(x, y)


@njit
def unit(x: float, y: float) -> tuple[float, float, bool]:
    """(x, y) scaled to length 1 and whether it had a direction; (0, 0, False) when its length
    is at most :data:`EPSILON` or not finite."""
    n = hypot(x, y)
    if n > EPSILON and n < math.inf:
        inv = 1.0 / n
        return x * inv, y * inv, True
    return 0.0, 0.0, False


@njit
def set_length(x: float, y: float, length: float) -> tuple[float, float]:
    """(x, y) scaled to ``length``; zero for a vector with no direction."""
    ux, uy, _ = unit(x, y)
    return ux * length, uy * length


@njit
def truncate(x: float, y: float, limit: float) -> tuple[float, float]:
    """(x, y) shortened to at most ``limit`` (a negative limit counts as zero); a non-finite
    vector becomes zero; a shorter one is returned unchanged."""
    n = hypot(x, y)
    if not n < math.inf:  # NaN or infinite
        return 0.0, 0.0
    if limit < 0.0:
        limit = 0.0
    if n > limit:
        s = limit / n
        return x * s, y * s
    return x, y


@njit
def steer(
    desired_x: float, desired_y: float, vx: float, vy: float, gain: float, max_force: float
) -> tuple[float, float]:
    """Reynolds' steer: ``(desired - velocity) * gain`` limited to ``max_force``."""
    return truncate((desired_x - vx) * gain, (desired_y - vy) * gain, max_force)


@njit
def row_step(values: Any) -> int:
    """0 for an argument shared by every agent (one row), else 1: index it as ``values[i * step]``.

    Not ``values[0 if shared else i]``: inside ``prange`` the loop index is unsigned, and numba
    unifies it with a signed 0 as a float (a typing error), while ``f = i; if shared: f = 0``
    compiles and reads garbage in the parallel version (numba 0.68). A multiply keeps the
    index's own type.
    """
    return 0 if values.shape[0] == 1 else 1
