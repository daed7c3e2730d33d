"""Short history trails (seed 001): a ring buffer of recent positions per agent."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["Trails"]

FloatArray = NDArray[np.float64]


class Trails:
    """The last ``length`` positions of every agent, sampled every ``every`` updates.

    Args:
        length: Samples kept per agent.
        every: Updates between samples (at 60 updates a second, 4 keeps ~1.3 s with 20).
    """

    def __init__(self, length: int = 20, every: int = 4) -> None:
        self.length = max(int(length), 2)
        self.every = max(int(every), 1)
        self._buf: FloatArray = np.zeros((self.length, 0, 2))
        self._count = 0
        self._head = 0
        self._tick = 0

    def reset(self) -> None:
        """Forget every sample."""
        self._buf = np.zeros((self.length, 0, 2))
        self._count = 0
        self._head = 0
        self._tick = 0

    def update(self, pos: FloatArray) -> None:
        """Offer the positions now ((N, 2)); a change in N starts afresh."""
        if pos.shape[0] != self._buf.shape[1]:
            self.reset()
            self._buf = np.repeat(pos[None].astype(np.float64), self.length, axis=0)
        self._tick += 1
        if self._tick < self.every and self._count:
            return
        self._tick = 0
        self._head = (self._head + 1) % self.length
        self._buf[self._head] = pos
        self._count = min(self._count + 1, self.length)

    def ordered(self) -> FloatArray:
        """(K, N, 2) samples, oldest first (K <= length)."""
        k = self._count
        idx = (self._head - np.arange(k)[::-1]) % self.length
        return self._buf[idx]

    def segments(
        self, pos: FloatArray, rows: NDArray[np.intp] | None = None, stride: int = 1
    ) -> FloatArray:
        """(S, 4) line segments along each trail, ending at the current positions ``pos``,
        agent after agent within each step back in time (oldest first).

        Args:
            pos: (N, 2) current positions.
            rows: Only these agents (None: all).
            stride: Join every ``stride``-th sample, counted back from now (a level of
                detail: zoomed out, a trail's samples are a few screen pixels apart).
        """
        hist = self.ordered()
        if hist.shape[0] == 0 or hist.shape[1] != pos.shape[0]:
            return np.zeros((0, 4))
        pts = np.concatenate((hist, pos[None]), axis=0)
        if stride > 1:
            pts = pts[np.arange(pts.shape[0] - 1, -1, -int(stride))[::-1]]
            if pts.shape[0] < 2:
                return np.zeros((0, 4))
        if rows is not None:
            pts = pts[:, rows]
        seg = np.concatenate((pts[:-1], pts[1:]), axis=2)  # (K, N, 4)
        return seg.reshape(-1, 4)
