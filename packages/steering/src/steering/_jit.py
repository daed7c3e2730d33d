"""How the engine compiles: numba's ``njit`` with an on-disk cache, and loops over agents
compiled twice, serially and across cores.

Every kernel is written once, per agent, as the seeds write their ``Vehicle`` methods; the loop
over agents uses ``prange``. :func:`rows_kernel` compiles that one source twice: a serial
version (``prange`` is ``range``) for small crowds, where a thread launch costs more than the
work, and a parallel one from :data:`PARALLEL_MIN` rows up. Each iteration writes only its own
row, so both give bit-identical results. ``NUMBA_DISABLE_JIT=1`` runs the same source as plain
Python (for a debugger, or to test the maths without the compiler).

Where compiled kernels are kept (:class:`EngineCache`): in the first of ``NUMBA_CACHE_DIR``,
the package's own ``__pycache__`` and the user's cache folder that can be written, as numba
does; a folder that cannot be written is still read when it was warmed for that kernel
(``python -m steering.warmup`` before it became read-only), and with no folder at all the
kernels compile in memory for this process, with one warning. Writes are locked, so several
processes may warm one folder at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numba
from numba.core import caching, config

try:
    import fcntl
except ImportError:  # Windows: no lock; warm in one process there
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "PARALLEL_MIN",
    "EngineCache",
    "RowsKernel",
    "compile_kernel",
    "drop_stale_caches",
    "engine_caching",
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

log = logging.getLogger("steering")


def _numba_class(*names: str) -> Any:
    """A class of ``numba.core.caching`` by its current name or an older one (numba 0.60
    prefixed the locators with an underscore)."""
    for name in names:
        found = getattr(caching, name, None)
        if found is not None:
            return found
    raise ImportError(f"numba.core.caching has none of {names}")


_UserProvided = _numba_class("UserProvidedCacheLocator", "_UserProvidedCacheLocator")
_InTree = _numba_class("InTreeCacheLocator", "_InTreeCacheLocator")
_UserWide = _numba_class("UserWideCacheLocator", "_UserWideCacheLocator")
_Zip = getattr(caching, "ZipCacheLocator", None)


def _index_name(py_func: Callable[..., Any], py_file: str) -> str:
    """The name of numba's index file for ``py_func`` (``CacheImpl.get_filename_base``)."""
    modname = os.path.splitext(os.path.basename(py_file))[0]
    fullname = f"{modname}.{py_func.__qualname__}".replace("<", "").replace(">", "")
    line = py_func.__code__.co_firstlineno
    version = f"{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    return f"{fullname}-{line}.py{version}.nbi"


class _ReadOnly:
    """A locator for a cache folder this process cannot write, chosen only where that folder
    already holds the kernel's index (it was warmed there); new signatures compile in memory."""

    def ensure_cache_path(self: Any) -> None:
        if not os.path.isdir(self.get_cache_path()):
            raise OSError(f"no cache folder {self.get_cache_path()}")

    @classmethod
    def from_function(cls, py_func: Callable[..., Any], py_file: str) -> Any:
        no_dir = issubclass(cls, _UserProvided) and not getattr(config, "CACHE_DIR", "")
        if no_dir or not os.path.exists(py_file):
            return None
        make: Any = cls
        locator = make(py_func, py_file)
        index = os.path.join(locator.get_cache_path(), _index_name(py_func, py_file))
        return locator if os.path.isfile(index) else None


class _ReadOnlyUserProvided(_ReadOnly, _UserProvided):  # type: ignore[misc, valid-type]
    pass


class _ReadOnlyInTree(_ReadOnly, _InTree):  # type: ignore[misc, valid-type]
    pass


class _EngineCacheImpl(caching.CompileResultCacheImpl):
    # numba's order (NUMBA_CACHE_DIR, beside the module, the user's folder), each read-only
    # folder right after its writable kind, so a warmed read-only install is read before
    # the user's empty folder is filled.
    _locator_classes = [  # noqa: RUF012 (numba's own class attribute)
        _UserProvided,
        _ReadOnlyUserProvided,
        _InTree,
        _ReadOnlyInTree,
        _UserWide,
        *([_Zip] if _Zip is not None else []),
    ]


class EngineCache(caching.FunctionCache):
    """numba's on-disk cache of one kernel, with read-only folders read (see the module's
    docstring), writes locked across processes, and a write that fails (a read-only folder)
    leaving the kernel compiled in memory."""

    _impl_class = _EngineCacheImpl

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            with _locked(Path(self._cache_path)):
                super().save_overload(sig, data)
        except OSError as exc:
            log.debug("steering: %s kept in memory only (%s)", self._name, exc)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (numba reads, extends and rewrites a kernel's index
    file as it saves a signature: two processes doing so at once would lose one's entry)."""
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(folder / ".steering-lock", os.O_RDWR | os.O_CREAT, 0o666)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # a read-only folder: the save fails and is skipped anyway
            pass
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)


#: Whether the warning that kernels compile uncached was given in this process.
_WARNED: list[bool] = []


def compile_kernel(func: Callable[..., Any], options: dict[str, Any]) -> Any:
    """``numba.njit(**options)(func)``, cached through :class:`EngineCache` when
    ``options["cache"]``; with no cache folder to read or write, compiled in memory (one
    warning a process)."""
    options = dict(options)
    cache = options.pop("cache", False)
    dispatcher = numba.njit(**options)(func)
    if cache and hasattr(dispatcher, "_cache"):  # not under NUMBA_DISABLE_JIT=1
        _cache_like_engine(dispatcher)
    return dispatcher


def _cache_like_engine(dispatcher: Any) -> None:
    try:
        dispatcher._cache = EngineCache(dispatcher.py_func)
    except RuntimeError:  # numba: "cannot cache function ...: no locator available"
        if not _WARNED:
            _WARNED.append(True)
            log.warning(
                "steering: no cache folder can be written (NUMBA_CACHE_DIR, the package's "
                "__pycache__, the user's cache): kernels not warmed before compile in memory, "
                "uncached (see 'Read-only installs' in the steering README)"
            )


@contextlib.contextmanager
def engine_caching() -> Iterator[None]:
    """Within it, numba functions made with ``cache=True`` (a dependency's, imported inside)
    are cached as the engine's kernels are, so they too load where no folder is writable."""
    dispatcher_class: Any = numba.core.dispatcher.Dispatcher
    original = dispatcher_class.enable_caching
    dispatcher_class.enable_caching = _cache_like_engine
    try:
        yield
    finally:
        dispatcher_class.enable_caching = original


def njit(func: Callable[..., Any]) -> Any:
    """Compile ``func`` with the engine's options (cached on disk, see :class:`EngineCache`)."""
    return compile_kernel(func, _OPTIONS)


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
    return compile_kernel(func, _LEAF_OPTIONS)


def njit_inline(func: Callable[..., Any]) -> Any:
    """:func:`njit`, and inlined into its callers by numba itself (before LLVM sees them): for
    per-agent functions that return several values into a loop over agents, which LLVM
    optimises better inlined (``pursue``, ``interpose``, ``offset_pursuit``)."""
    return compile_kernel(func, {"inline": "always", **_OPTIONS})


class RowsKernel:
    """One loop over agents, compiled serially and in parallel; call it with the row count.

    ``kernel(n)(*args)`` runs the serial version below :data:`PARALLEL_MIN` rows and the
    parallel one from there up.
    """

    def __init__(self, func: Callable[..., Any], options: dict[str, Any] | None = None) -> None:
        options = _OPTIONS if options is None else options
        self.serial = compile_kernel(func, options)
        # A copy under another name: numba's cache keys a function by its qualified name and
        # signature, not its compile options, so the twin needs its own name.
        twin = types.FunctionType(
            func.__code__, func.__globals__, func.__name__ + "_parallel", func.__defaults__
        )
        twin.__qualname__ = func.__qualname__ + "_parallel"
        twin.__module__ = func.__module__
        twin.__doc__ = func.__doc__
        self.parallel = compile_kernel(twin, {"parallel": True, **options})
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
