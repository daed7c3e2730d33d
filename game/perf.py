"""Process-level speed settings for the simulation's hot loop."""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import sys

__all__ = ["quiet_gl", "tune_allocator"]

log = logging.getLogger(__name__)

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_done = False


def tune_allocator() -> bool:
    """Keep NumPy's temporary arrays on the heap instead of fresh ``mmap`` pages (glibc only).

    glibc maps every allocation above 128 KiB afresh and unmaps it on free, so each (10000, 2)
    temporary costs dozens of page faults; on this machine that was most of a 10,000-agent
    separation step (6.3 ms against 1.0 ms with the thresholds raised). Safe to call repeatedly;
    returns whether the setting took effect.
    """
    global _done
    if _done:
        return True
    name = ctypes.util.find_library("c")
    if not name or "libc.so" not in name:
        return False
    try:
        libc = ctypes.CDLL(name)
        ok = bool(libc.mallopt(_M_MMAP_THRESHOLD, 32 << 20)) and bool(
            libc.mallopt(_M_TRIM_THRESHOLD, 256 << 20)
        )
    except (OSError, AttributeError) as exc:
        log.debug("mallopt unavailable: %s", exc)
        return False
    _done = ok
    return ok


def quiet_gl() -> bool:
    """Turn off pyglet's check for an OpenGL error after every GL call (``debug_gl``), as
    pyglet advises for a shipped program: about 300 extra calls a frame, some 0.8 ms of a
    Finale frame on this machine. It only takes effect before ``pyglet.gl`` is imported (the
    checks are attached to the GL functions then), so the game calls it first thing; the tests
    keep the checks. Returns whether it took effect."""
    if "pyglet.gl" in sys.modules:
        return False
    import pyglet

    pyglet.options["debug_gl"] = False
    return True
