"""A row part's last record, kept while nothing it was made from changed.

A row part's ``bind`` (:mod:`steering.composite`) runs on every call of a composite. Most of
what it builds (its columns, its settings, a path's geometry) is the same objects from one call
to the next, and rebuilding the record costs microseconds that a game stepping a handful of
agents feels. :class:`Held` keeps the last record with the objects it was made from, compared
by identity (an array changed in place is the same object: the record reads it), the step by
value; :func:`settings` gives a dataclass part's fields in one C-level call, so a setting
assigned anew (even to an equal value) makes the record again.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any

__all__ = ["PUTS", "Held", "settings"]

#: Each dataclass's field getter (one C-level call returns every field).
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def settings(part: Any) -> tuple[Any, ...]:
    """The values of ``part``'s dataclass fields, in order."""
    getter = _GETTERS.get(type(part))
    if getter is None:
        names = [f.name for f in dataclasses.fields(part)]
        one = operator.attrgetter(*names)
        getter = (lambda p: (one(p),)) if len(names) == 1 else one
        _GETTERS[type(part)] = getter
    return getter(part)


#: Counts the records kept by every :class:`Held` (while it is the same, every ``Held`` still
#: holds the record it held: see ``KEPT_BY_HELD`` in :mod:`steering.composite`).
PUTS = [0]


class Held:
    """The last record and what it was made from: objects (by identity) and a step (by
    value)."""

    __slots__ = ("dt", "key", "record")

    def __init__(self) -> None:
        self.key: tuple[Any, ...] = ()
        self.dt = float("nan")
        self.record: Any = None

    def get(self, key: tuple[Any, ...], dt: float) -> Any:
        """The held record if it was made from the objects of ``key`` and step ``dt``, else
        None."""
        held = self.key
        if dt == self.dt and len(held) == len(key) and all(map(operator.is_, key, held)):
            return self.record
        return None

    def put(self, key: tuple[Any, ...], dt: float, record: Any) -> Any:
        """Keep ``record``, made from ``key`` and ``dt``; return it."""
        PUTS[0] += 1
        self.key = key
        self.dt = dt
        self.record = record
        return record
