"""What an edit does to a path's numbers: the checks of nodes, radii and points, the
per-segment radii after a node is inserted or deleted or the path closed, and how arc lengths
on the path before an edit map to arc lengths after it (:class:`ArcRemap`). :class:`~steering.Path`
uses them; an editor uses the radii rules to keep its own copy of the radii in step."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .vec import EPSILON, FloatArray, clamp

__all__ = [
    "ArcRemap",
    "check_nodes",
    "check_point",
    "check_radii",
    "check_radius",
    "radii_after_close",
    "radii_after_delete",
    "radii_after_insert",
]


@dataclass(frozen=True)
class ArcRemap:
    """How arc lengths on the path before one edit map to arc lengths after it.

    Nodes that survive the edit are anchors (their old and new arc lengths); arc lengths in
    between are interpolated, so a point at fraction t of a segment stays at fraction t of
    it, and a point on a segment that was split or merged keeps its proportional place.
    """

    old_anchor: FloatArray
    new_anchor: FloatArray
    old_length: float
    new_length: float
    old_closed: bool
    new_closed: bool

    def apply(self, s: FloatArray) -> FloatArray:
        a, b = self.old_anchor, self.new_anchor
        lo, ln = self.old_length, self.new_length
        if ln <= EPSILON:
            return np.zeros_like(s)
        if lo <= EPSILON or a.size == 0:
            return np.full_like(s, np.nan)
        if not self.old_closed:
            out = np.interp(s, a, b)
        else:
            sm = np.mod(s, lo)
            if self.new_closed:
                laps = np.concatenate(([0.0], np.cumsum(np.diff(b) < 0)))
                bu = b + laps * ln
                xp = np.concatenate(([a[-1] - lo], a, [a[0] + lo]))
                fp = np.concatenate(([bu[-1] - ln], bu, [bu[0] + ln]))
                out = np.interp(sm, xp, fp)
            else:
                # The closing segment is gone: a point on it goes to the nearer end.
                out = np.interp(sm, a, b)
                gap = (sm > a[-1]) | (sm < a[0])
                after = np.mod(sm - a[-1], lo)
                before = np.mod(a[0] - sm, lo)
                out = np.where(gap, np.where(after <= before, b[-1], b[0]), out)
        if self.new_closed:
            out = np.mod(out, ln)
            return np.where(out >= ln, 0.0, out)
        return clamp(out, 0.0, ln)


def check_nodes(nodes: ArrayLike) -> FloatArray:
    try:
        arr = np.array(nodes, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"nodes: cannot read as (M, 2) points ({exc})") from exc
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"nodes: expected an (M, 2) array, got shape {arr.shape}")
    if arr.shape[0] < 2:
        raise ValueError(f"nodes: a path needs at least 2 nodes, got {arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise ValueError("nodes: values must be finite")
    return arr


def check_radius(radius: float) -> float:
    r = float(radius)
    if not np.isfinite(r) or r <= 0.0:
        raise ValueError(f"radius: must be finite and > 0, got {radius!r}")
    return r


def check_radii(radius: float | ArrayLike, segments: int) -> FloatArray:
    """(S,) per-segment radii from one radius for all or one per segment."""
    try:
        arr = np.array(radius, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"radius: cannot read as a number or numbers ({exc})") from exc
    if arr.ndim == 0:
        return np.full(segments, check_radius(float(arr)))
    if arr.shape != (segments,):
        raise ValueError(
            f"radius: expected one value or one per segment ({segments}), got shape {arr.shape}"
        )
    if not (np.isfinite(arr).all() and (arr > 0.0).all()):
        raise ValueError(f"radius: every value must be finite and > 0, got {arr.tolist()!r}")
    return arr


def radii_after_insert(radii: ArrayLike, i: int, closed: bool) -> FloatArray:
    """Per-segment radii after a node is inserted so that it becomes node ``i``: both halves
    of a split segment keep its radius; a new end segment takes the radius of the end's."""
    r = np.asarray(radii, dtype=np.float64)
    s = r.shape[0]
    if closed:
        return np.insert(r, i, r[(i - 1) % s])
    return np.insert(r, min(i, s), r[min(max(i - 1, 0), s - 1)])


def radii_after_delete(radii: ArrayLike, i: int, closed: bool) -> FloatArray:
    """Per-segment radii after node ``i`` is deleted: the two segments it joined become one
    with the radius of the first (of the remaining one at an open path's end)."""
    r = np.asarray(radii, dtype=np.float64)
    return np.delete(r, i if closed else min(i, r.shape[0] - 1))


def radii_after_close(radii: ArrayLike, closed: bool) -> FloatArray:
    """Per-segment radii after a path is closed (the closing segment takes the radius of the
    last one) or opened (the closing segment goes)."""
    r = np.asarray(radii, dtype=np.float64)
    return np.append(r, r[-1]) if closed else r[:-1].copy()


def check_point(xy: ArrayLike, name: str = "xy") -> FloatArray:
    p = np.array(xy, dtype=np.float64)
    if p.shape != (2,) or not np.isfinite(p).all():
        raise ValueError(f"{name}: expected a finite point (x, y), got {xy!r}")
    return p
