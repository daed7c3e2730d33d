"""How the engine compiles: numba's ``njit`` with an on-disk cache, and loops over agents
compiled twice, serially and across cores.

Every kernel is written once, per agent, as the seeds write their ``Vehicle`` methods; the loop
over agents uses ``prange``. :func:`rows_kernel` compiles that one source twice: a serial
version (``prange`` is ``range``) for small crowds, where a thread launch costs more than the
work, and a parallel one from :data:`PARALLEL_MIN` rows up. Each iteration writes only its own
row, so both give bit-identical results. ``NUMBA_DISABLE_JIT=1`` runs the same source as plain
Python (for a debugger, or to test the maths without the compiler).
"""

from __future__ import annotations

import hashlib
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba

__all__ = [
    "PARALLEL_MIN",
    "RowsKernel",
    "drop_stale_caches",
    "njit",
    "njit_inline",
    "njit_leaf",
    "prange",
    "rows_kernel",
    "rows_kernel_leaf",
]

prange = numba.prange

#: Rows from which a :class:`RowsKernel` runs on every core. A parallel launch costs some tens
#: of microseconds on two cores; below a few thousand agents the serial loop is done first.
PARALLEL_MIN = 4096

# error_model="numpy": a division by zero gives inf/NaN instead of raising, which spares a
# branch per division; every kernel guards its divisions itself.
_OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy", "nogil": True}


#: Folders whose caches :func:`drop_stale_caches` checked in this process.
_CHECKED: set[Path] = set()


def drop_stale_caches(folder: Path | None = None) -> None:
    """Delete the cached kernels of ``folder`` (default: the engine's own) when any source
    they may inline changed since they were made: the engine's modules and ``folder``'s.

    numba stamps a cached kernel with its own file's time and size only, so a kernel that
    inlines a helper from another module (every kernel uses ``_kern``; a game's kernels use
    :mod:`steering.kernels`) would load stale after that helper changes. A digest of every
    such source file, kept beside the caches, catches it. Where the folder cannot be written
    (an installed, read-only package) nothing is done.
    """
    here = Path(__file__).resolve().parent
    folder = here if folder is None else Path(folder).resolve()
    if folder in _CHECKED:  # once per folder and process
        return
    _CHECKED.add(folder)
    cache = folder / "__pycache__"
    digest = hashlib.sha256()
    sources = sorted(set(here.glob("*.py")) | set(folder.glob("*.py")))
    for source in sources:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    stamp = cache / "kernels.sources"
    try:
        if stamp.read_text(encoding="ascii") == digest.hexdigest():
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for old in cache.glob("*.nb[ic]"):
            old.unlink(missing_ok=True)
        stamp.write_text(digest.hexdigest(), encoding="ascii")
    except OSError:
        return


drop_stale_caches()


def njit(func: Callable[..., Any]) -> Any:
    """Compile ``func`` with the engine's options (cached on disk beside the module)."""
    return numba.njit(**_OPTIONS)(func)


#: :func:`njit_leaf`'s options: numba's reference counting off (``_nrt``).
_LEAF_OPTIONS: dict[str, Any] = {**_OPTIONS, "_nrt": False}


def njit_leaf(func: Callable[..., Any]) -> Any:
    """:func:`njit` for a per-agent function that takes arrays and allocates none: compiled
    without numba's reference counting, so that LLVM inlines it into the loop over agents.

    With reference counting on, a compiled function that takes arrays increments and
    decrements each one's count (atomic operations) around its body, and LLVM then keeps it
    as a call: measured on this machine, a loop over 10,000 agents that calls a four-array
    integration step cost 48-55 ns an agent, the same function compiled this way 8 ns, the
    body written into the loop 8-12 ns. Such a function may read and write its arrays but
    must not create, copy or slice into new arrays (numba refuses to compile that), and must
    never return an array, not even one it was given: numba compiles that, and the caller's
    reference count then goes wrong and corrupts the heap. Return numbers.
    """
    return numba.njit(**_LEAF_OPTIONS)(func)


def njit_inline(func: Callable[..., Any]) -> Any:
    """:func:`njit`, and inlined into its callers by numba itself (before LLVM sees them): for
    per-agent functions that return several values into a loop over agents, which LLVM
    optimises better inlined (``pursue``, ``interpose``, ``offset_pursuit``)."""
    return numba.njit(inline="always", **_OPTIONS)(func)


class RowsKernel:
    """One loop over agents, compiled serially and in parallel; call it with the row count.

    ``kernel(n)(*args)`` runs the serial version below :data:`PARALLEL_MIN` rows and the
    parallel one from there up.
    """

    def __init__(self, func: Callable[..., Any], options: dict[str, Any] | None = None) -> None:
        options = _OPTIONS if options is None else options
        self.serial = numba.njit(**options)(func)
        # A copy under another name: numba's cache keys a function by its qualified name and
        # signature, not its compile options, so the twin needs its own name.
        twin = types.FunctionType(
            func.__code__, func.__globals__, func.__name__ + "_parallel", func.__defaults__
        )
        twin.__qualname__ = func.__qualname__ + "_parallel"
        twin.__module__ = func.__module__
        twin.__doc__ = func.__doc__
        self.parallel = numba.njit(parallel=True, **options)(twin)
        self.__doc__ = func.__doc__
        self.__name__ = func.__name__

    def __call__(self, n: int) -> Any:
        """The version to run over ``n`` rows."""
        return self.parallel if n >= PARALLEL_MIN else self.serial


def rows_kernel(func: Callable[..., Any]) -> RowsKernel:
    """Decorator: :class:`RowsKernel` of ``func``."""
    return RowsKernel(func)


def rows_kernel_leaf(func: Callable[..., Any]) -> RowsKernel:
    """:func:`rows_kernel` without numba's reference counting, for a loop that allocates
    nothing and reads records of arrays (each read of an array from a record inside a loop
    with reference counting costs an atomic increment and decrement)."""
    return RowsKernel(func, _LEAF_OPTIONS)
