"""OpenSimplex noise over grids, and noise turned into flow directions: what the noise flow
fields (:meth:`FlowField.noise <steering.FlowField.noise>`, :class:`~steering.NoiseFlow`) are
made of. Needs opensimplex (the ``noise`` extra), imported when the first noise grid is made."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from ._jit import PARALLEL_MIN, engine_caching, njit
from .vec import FloatArray

__all__ = ["NoiseGrid", "angle_vectors", "noise_angles", "write_noise_rows"]


class NoiseGrid:
    """OpenSimplex noise on grids, through opensimplex's public array functions
    (``noise2array``, ``noise3array``), which opensimplex compiles with numba (parallel, cached
    beside its code) when numba is installed, as it is with this package: a 40 x 25 grid of
    3-D noise in about 0.1 ms."""

    def __init__(self, seed: int) -> None:
        # Imported here: only noise fields need opensimplex (``import steering`` does not).
        try:
            with engine_caching():  # opensimplex caches its kernels too (read-only installs)
                from opensimplex import OpenSimplex
        except ImportError as exc:
            raise ImportError(
                "noise flow fields need opensimplex: pip install 'reynolds-steering[noise]' "
                f"(or pip install opensimplex); {exc}"
            ) from exc
        self.gen = OpenSimplex(int(seed))

    def grid2(self, xs: FloatArray, ys: FloatArray) -> FloatArray:
        """(len(ys), len(xs)) values of 2-D noise at every (x, y)."""
        arr = _sized_call(xs.size * ys.size, self.gen.noise2array, xs, ys)
        return np.asarray(arr, dtype=np.float64)

    def grid3(self, xs: FloatArray, ys: FloatArray, z: float) -> FloatArray:
        """(len(ys), len(xs)) values of 3-D noise at every (x, y) and the one ``z``."""
        zs = np.array([z], dtype=np.float64)
        arr = _sized_call(xs.size * ys.size, self.gen.noise3array, xs, ys, zs)
        return np.asarray(arr, dtype=np.float64)[0]


def _sized_call(points: int, kernel: Callable[..., Any], *args: Any) -> Any:
    """``kernel(*args)``, one of opensimplex's parallel kernels, run on this thread alone below
    :data:`~steering._jit.PARALLEL_MIN` points, as the engine's own kernels are: waking the
    other threads for a few hundred points (a noise current's rows each step) cost more than
    the noise, and, stepped between other work on two cores, sometimes milliseconds."""
    if points >= PARALLEL_MIN:
        return kernel(*args)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return kernel(*args)
    finally:
        numba.set_num_threads(before)


def noise_angles(values: FloatArray, base_angle: float, turns: float) -> FloatArray:
    """The flow direction's angle for each noise value: ``base_angle + pi * turns * value``."""
    # The seed's 180 * (noise + 1) degrees is pi + pi * noise: base_angle pi, one turn.
    return base_angle + math.pi * turns * values


def angle_vectors(angle: FloatArray) -> FloatArray:
    """Unit vectors at the angles (radians), one per angle: shape ``angle.shape + (2,)``."""
    return np.stack((np.cos(angle), np.sin(angle)), axis=-1)


@njit
def write_noise_rows(
    values: FloatArray, base_angle: float, turns: float, vectors: FloatArray, first: int, step: int
) -> None:
    """Rows ``first, first + step, ...`` of ``vectors`` from noise ``values`` (one row of
    values per row written): :func:`angle_vectors` of :func:`noise_angles`, in place."""
    for r in range(values.shape[0]):
        row = first + r * step
        for c in range(values.shape[1]):
            a = base_angle + math.pi * turns * values[r, c]
            vectors[row, c, 0] = math.cos(a)
            vectors[row, c, 1] = math.sin(a)
