"""Recording a world run as a NumPy ``.npz`` trace (the format is in docs/world.md).

Arrays: ``t`` (F,) s; ``pos`` and ``vel`` (F, A, 2) float32 world coordinates, one row per agent
(row 0 the player); ``radius`` (A,); ``kind`` (A,) ``player``/``enemy``/``npc``; ``spawn_id``
(A,) Tiled ids; ``obstacle_pos`` (F, M, 2); ``obstacle_radius`` (M,); ``obstacle_id`` (M,);
``outcome`` (0-d string); ``seed`` (0-d int). Strings are NumPy unicode arrays, so
``np.load(file)`` needs no pickle.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from game.safe_io import atomic_write

if TYPE_CHECKING:
    from .world import World

__all__ = ["TRACE_KEYS", "TraceRecorder", "load_trace"]

#: Every array of a trace file, in the order of docs/world.md's table.
TRACE_KEYS = (
    "t",
    "pos",
    "vel",
    "radius",
    "kind",
    "spawn_id",
    "obstacle_pos",
    "obstacle_radius",
    "obstacle_id",
    "outcome",
    "seed",
)


class TraceRecorder:
    """Samples a world every ``every``-th frame: frame 0 (before the first step), frames
    ``every, 2*every, ...``, and the last frame when :meth:`finish` is called (so the frame
    that decided the outcome is always in the trace).

    Args:
        world: the world to record; its initial state is sampled at once.
        every: keep one frame in ``every`` (>= 1).
    """

    def __init__(self, world: World, every: int = 1) -> None:
        if every < 1:
            raise ValueError(f"every must be >= 1, got {every}")
        self.every = int(every)
        self._t: list[float] = []
        self._frames: list[int] = []
        self._pos: list[NDArray[np.float32]] = []
        self._vel: list[NDArray[np.float32]] = []
        self._obs: list[NDArray[np.float32]] = []
        self._static = {
            "radius": world.agents.radius.astype(np.float64),
            "kind": world.kind_names.astype(np.str_),
            "spawn_id": world.roster.spawn_id.astype(np.int64),
            "obstacle_radius": world.obstacle_radius.astype(np.float64),
            "obstacle_id": world.obstacle_id.astype(np.int64),
        }
        self._outcome = world.outcome
        self._seed = world.options.seed
        self.sample(world)

    @property
    def frames(self) -> int:
        """Number of frames recorded so far."""
        return len(self._t)

    def sample(self, world: World) -> None:
        """Record the world's current state (once per frame number)."""
        if self._frames and self._frames[-1] == world.frame:
            return
        self._frames.append(world.frame)
        self._t.append(world.time)
        self._pos.append(world.agents.pos.astype(np.float32))
        self._vel.append(world.agents.vel.astype(np.float32))
        self._obs.append(world.obstacle_pos.astype(np.float32))
        self._outcome = world.outcome

    def after_step(self, world: World) -> None:
        """Call after every step: samples when the frame number is a multiple of ``every``."""
        if world.frame % self.every == 0:
            self.sample(world)
        self._outcome = world.outcome

    def finish(self, world: World) -> None:
        """Sample the final frame (if not already) and the final outcome."""
        self.sample(world)

    def arrays(self) -> dict[str, NDArray[np.generic]]:
        """The trace as a dict of arrays (see the module docstring)."""
        a = len(self._static["radius"])
        m = len(self._static["obstacle_radius"])
        f = len(self._t)
        return {
            "t": np.asarray(self._t, dtype=np.float64),
            "pos": np.stack(self._pos) if f else np.zeros((0, a, 2), np.float32),
            "vel": np.stack(self._vel) if f else np.zeros((0, a, 2), np.float32),
            "radius": self._static["radius"],
            "kind": self._static["kind"],
            "spawn_id": self._static["spawn_id"],
            "obstacle_pos": np.stack(self._obs) if f else np.zeros((0, m, 2), np.float32),
            "obstacle_radius": self._static["obstacle_radius"],
            "obstacle_id": self._static["obstacle_id"],
            "outcome": np.array(self._outcome, dtype=np.str_),
            "seed": np.array(self._seed, dtype=np.int64),
        }

    @staticmethod
    def bytes_per_frame(agents: int, rocks: int) -> int:
        """Memory a kept frame costs until the trace is saved (saving stacks a second copy)."""
        return 2 * (agents * 2 * 2 * 4 + rocks * 2 * 4)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the trace to ``path`` (``.npz``, uncompressed: fast to write) atomically;
        return the path.

        Raises:
            OutputError: if the file cannot be written (the old file is kept, no temporary
                file is left).
        """
        out = Path(path)
        arrays: dict[str, Any] = dict(self.arrays())
        atomic_write(out, lambda fh: np.savez(fh, **arrays))
        return out


def load_trace(path: str | os.PathLike[str]) -> dict[str, NDArray[np.generic]]:
    """Read a trace written by :meth:`TraceRecorder.save` into a dict of arrays."""
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}
