"""Typed debug records: what each behaviour writes into a debug dict, one NamedTuple each.

A behaviour called with a ``debug`` dict writes one record (:func:`write`); the dict holds it
under ``"<key>.<field>"``, so ``debug["path.future"]`` is :attr:`PathDebug.future` (the keys
stay the transport: a program may read them, and a crowd updated in parts scatters them row
by row). A drawing reads the record back whole (:func:`read`) and uses its fields by name, so
the key strings live here only.

Per-agent fields have one row per agent of the group the behaviour was called on.

    >>> import numpy as np
    >>> debug = {}
    >>> write(SeekDebug(target=np.zeros((3, 2))), debug)
    >>> sorted(debug)
    ['seek.target']
    >>> read(SeekDebug, debug).target.shape
    (3, 2)
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from numpy.typing import NDArray

__all__ = [
    "AlignDebug",
    "ArriveDebug",
    "AvoidAgentsDebug",
    "AvoidDebug",
    "CohereDebug",
    "EvadeDebug",
    "FlockDebug",
    "FlowDebug",
    "HideDebug",
    "InterposeDebug",
    "MatchDebug",
    "OffsetDebug",
    "OrientationDebug",
    "PathDebug",
    "PriorityDebug",
    "PursueDebug",
    "QueueDebug",
    "SeekDebug",
    "SeparateDebug",
    "WallsDebug",
    "WanderDebug",
    "keys",
    "read",
    "write",
]

Array = NDArray[Any]
T = TypeVar("T")
#: Each record class's key (the prefix of its fields in a debug dict).
_KEYS: dict[type, str] = {}
#: Each record class's item names in the dict, field by field (a field named as a tuple
#: method, ``count``, is ``neighbours`` in the record and ``count`` in the dict).
_ITEMS: dict[type, tuple[str, ...]] = {}


def _keyed(key: str, **renamed: str) -> Any:
    """Class decorator: the record's key, and fields whose item in the dict is named
    otherwise (``field="item"``)."""

    def mark(cls: type[T]) -> type[T]:
        _KEYS[cls] = key
        _ITEMS[cls] = tuple(renamed.get(f, f) for f in cls._fields)  # type: ignore[attr-defined]
        return cls

    return mark


@_keyed("seek")
class SeekDebug(NamedTuple):
    """:class:`~steering.Seek`."""

    target: Array
    """(N, 2) the point each agent seeks."""


@_keyed("arrive")
class ArriveDebug(NamedTuple):
    """:class:`~steering.Arrive`."""

    target: Array
    """(N, 2) the point each agent arrives at."""


@_keyed("pursue")
class PursueDebug(NamedTuple):
    """:class:`~steering.Pursue`."""

    predicted: Array
    """(N, 2) where the quarry is predicted to be."""


@_keyed("evade")
class EvadeDebug(NamedTuple):
    """:class:`~steering.Evade`."""

    predicted: Array
    """(N, 2) where the pursuer is predicted to be."""


@_keyed("wander")
class WanderDebug(NamedTuple):
    """:class:`~steering.Wander`."""

    target: Array
    """(N, 2) the point on the wander circle."""
    center: Array
    """(N, 2) the wander circle's center."""


@_keyed("priority")
class PriorityDebug(NamedTuple):
    """:class:`~steering.FirstNonZero`: the part each agent took."""

    chosen: Array
    """(N,) the index of the part each agent took (-1: none)."""


@_keyed("flow")
class FlowDebug(NamedTuple):
    """:class:`~steering.FollowFlow`."""

    sample: Array
    """(N, 2) where each agent samples the field."""
    lookup: Array
    """(N, 2) the field's vector there."""


@_keyed("path")
class PathDebug(NamedTuple):
    """:class:`~steering.FollowPath` (its key is the behaviour's ``key``, ``"path"`` by
    default)."""

    future: Array
    """(N, 2) the predicted position."""
    normal: Array
    """(N, 2) the normal point on the path."""
    target: Array
    """(N, 2) the target ahead of it."""
    radius: Array
    """(N,) the path's radius there."""
    steering: Array
    """(N,) whether the agent steers (off the path) this step."""
    progress: Array
    """(N,) the smoothed arc length along the path."""


@_keyed("separate", neighbours="count")
class SeparateDebug(NamedTuple):
    """:class:`~steering.Separate`."""

    neighbours: Array
    """(N,) neighbours closer than the separation."""
    pairs: Array
    """(P, 2) agent index pairs that push each other apart."""
    distance: Array
    """(N,) each agent's separation distance."""
    average: Array
    """(N, 2) the averaged away vector."""


@_keyed("align", neighbours="count")
class AlignDebug(NamedTuple):
    """:class:`~steering.Align`."""

    neighbours: Array
    """(N,) neighbours counted."""
    velocity: Array
    """(N, 2) their mean velocity."""


@_keyed("cohere", neighbours="count")
class CohereDebug(NamedTuple):
    """:class:`~steering.Cohere`."""

    neighbours: Array
    """(N,) neighbours counted."""
    center: Array
    """(N, 2) their center."""


@_keyed("flock", neighbours="count")
class FlockDebug(NamedTuple):
    """:class:`~steering.Flock`."""

    neighbours: Array
    """(N, 3) neighbours counted by separation, alignment and cohesion."""


@_keyed("avoid")
class AvoidDebug(NamedTuple):
    """:class:`~steering.AvoidObstacles`."""

    box: Array
    """(N, 4, 2) the detection box's corners (rear right, front right, front left, rear
    left)."""
    obstacle: Array
    """(N,) the rock reacted to (-1: none)."""
    length: Array
    """(N,) the box's length."""
    local: Array
    """(N, 2) the force in local space (braking, lateral) after truncation."""
    side: Array
    """(N,) the side used (0: none)."""
    intersection: Array
    """(N,) the seed's closest intersection, px ahead (-1: none)."""


@_keyed("walls")
class WallsDebug(NamedTuple):
    """:class:`~steering.AvoidWalls`."""

    feelers: Array
    """(N, F, 2) the feelers' tips."""
    hit: Array
    """(N, 2) the nearest hit point (NaN: none)."""
    wall: Array
    """(N,) the wall hit (-1: none)."""


@_keyed("avoidagents")
class AvoidAgentsDebug(NamedTuple):
    """:class:`~steering.AvoidAgents`."""

    threat: Array
    """(N,) the agent avoided (-1: none)."""
    point: Array
    """(N, 2) the agent's own position at closest approach (NaN: none)."""
    threat_point: Array
    """(N, 2) the threat's position then."""
    time: Array
    """(N,) the time of closest approach (inf: none)."""
    side: Array
    """(N,) the side steered to (+1 left, -1 right, 0 none)."""


@_keyed("queue")
class QueueDebug(NamedTuple):
    """:class:`~steering.Queue`."""

    braking: Array
    """(N,) whether the agent brakes for one ahead."""
    ahead: Array
    """(N,) the agent it queues behind (-1: none)."""


@_keyed("hide")
class HideDebug(NamedTuple):
    """:class:`~steering.Hide`."""

    spot: Array
    """(N, 2) the chosen spot (NaN when evading or calm)."""
    spots: Array
    """(M, 2) every rock's spot for the (first agent's) hunter."""


@_keyed("interpose")
class InterposeDebug(NamedTuple):
    """:class:`~steering.Interpose`."""

    point: Array
    """(N, 2) the point between the two movers."""


@_keyed("offset")
class OffsetDebug(NamedTuple):
    """:class:`~steering.OffsetPursuit`."""

    slot: Array
    """(N, 2) the slot in the world."""


@_keyed("match")
class MatchDebug(NamedTuple):
    """:class:`~steering.MatchVelocity`."""

    velocity: Array
    """(N, 2) the velocity matched."""


@_keyed("orientation")
class OrientationDebug(NamedTuple):
    """:class:`~steering.Face` and :class:`~steering.LookWhereYouAreGoing`."""

    desired: Array
    """(N, 2) the heading each agent turns toward."""


R = TypeVar("R", bound=NamedTuple)


def write(record: NamedTuple, debug: dict[str, Any], key: str | None = None) -> None:
    """Put ``record``'s fields into ``debug`` under ``"<key>.<field>"`` (``key``: the
    record class's own unless given)."""
    prefix = key if key is not None else _KEYS[type(record)]
    for name, value in zip(_ITEMS[type(record)], record, strict=True):
        debug[f"{prefix}.{name}"] = value


def read(kind: type[R], debug: dict[str, Any], key: str | None = None) -> R | None:
    """The ``kind`` record in ``debug`` (under ``key``, default the class's own), or None when
    none of its fields is there. A field that is missing reads as None (a crowd updated in
    parts, or a caller that wrote some items itself, may hold some only): check a field
    before use."""
    prefix = key if key is not None else _KEYS[kind]
    values = [debug.get(f"{prefix}.{name}") for name in _ITEMS[kind]]
    if all(v is None for v in values):
        return None
    return kind._make(values)


def keys(kind: type[NamedTuple], key: str | None = None) -> list[str]:
    """The debug keys of a ``kind`` record (for documentation and tests)."""
    prefix = key if key is not None else _KEYS[kind]
    return [f"{prefix}.{name}" for name in _ITEMS[kind]]
