"""Check an object's (or the map's) properties against its class's :class:`PropSpec` table:
Tiled's property types, numbers in range, ``floats`` lists, enums and text.

The tables themselves live in :mod:`game.level.schema`, the one source for the loader, the
editor's panel and docs/levels.md.
"""

from __future__ import annotations

import math
from typing import Any

from game.level.errors import Where
from game.level.schema import MAX_PATH_POINTS, ClassSpec, PropSpec
from game.level.text import PLAIN_NUMBER, TEXT_LIMITS, plain_number, text_problem
from game.level.tiled import tiled_float
from game.level.values import MAX_MAGNITUDE, is_number, show_number, suggest
from game.strict_json import describe

__all__ = ["WARN_LIMIT", "UnknownTally", "number_list", "property_value", "warn_unknown"]


#: One number of a ``floats`` property (a JSON number; no ``nan``, ``inf`` or ``1_000``).
_NUMBER = PLAIN_NUMBER  # ASCII digits only

#: Property types each kind of property accepts. ``qlonglong`` is what Tiled writes for a
#: whole number that had no type in the file it read (a hand-written map).
_TILED_TYPES = {
    "float": ("float", "int", "qlonglong"),
    "int": ("int", "float", "qlonglong"),
    "bool": ("bool",),
    "string": ("string",),
    "enum": ("string",),
    "file": ("file", "string"),
    "floats": ("string",),
}


def number_list(text: str) -> tuple[float, ...] | None:
    """Read the numbers of a ``floats`` property (``"40, 40,12.5"``; blank: none).

    Args:
        text: The property's string.

    Returns:
        The numbers, or None when an item is not a finite plain number.
    """
    if not text.strip():
        return ()
    numbers: list[float] = []
    for item in text.split(","):
        word = item.strip()
        if not _NUMBER.fullmatch(word):
            return None
        number = float(word)
        if not math.isfinite(number):
            return None
        numbers.append(number)
    return tuple(numbers)


def _floats(value: str, spec: PropSpec, where: Where) -> tuple[float, ...]:
    """Check and read a ``floats`` property, naming the first bad item."""
    if not value.strip():
        return ()
    items = value.split(",")
    if len(items) > MAX_PATH_POINTS:
        raise where.error(f"{len(items):,} values; at most {MAX_PATH_POINTS:,}", spec.name)
    numbers: list[float] = []
    for k, item in enumerate(items, 1):
        word = item.strip()
        if not _NUMBER.fullmatch(word):
            raise where.error(
                f"expected numbers separated by commas; value {k} is {describe(word)}",
                spec.name,
            )
        number = float(word)
        if not math.isfinite(number) or abs(number) > MAX_MAGNITUDE:
            raise where.error(f"value {k} ({word[:40]}) is absurdly large", spec.name)
        _check_range(number, spec, where, f"value {k} ")
        numbers.append(number)
    return tuple(numbers)


def property_value(
    props: dict[str, tuple[str | None, Any]], spec: PropSpec, where: Where
) -> float | int | bool | str | tuple[float, ...]:
    """Return a property's checked value, or its default when absent.

    Args:
        props: Properties from :func:`read_properties`.
        spec: The property's specification.
        where: Location for errors.

    Returns:
        A float, int, bool, str or (``floats``) tuple of floats according to ``spec.kind``.

    Raises:
        LevelError: on a wrong type or an out-of-range value.
    """
    if spec.name not in props:
        default = spec.default
        if spec.kind == "float" and isinstance(default, int | float):
            return float(default)
        return default
    declared, value = props[spec.name]
    field = spec.name
    allowed = _TILED_TYPES[spec.kind]
    if declared is not None and declared not in allowed:
        raise where.error(
            f"expected a {allowed[0]} property, got a {declared} property ({describe(value)})",
            field,
        )
    if spec.kind in ("float", "int"):
        if not is_number(value):
            raise where.error(f"expected a number, got {describe(value)}", field)
        if abs(value) > MAX_MAGNITUDE:
            raise where.error(f"{show_number(value)} is absurdly large", field)
        fraction = isinstance(value, float) and not value.is_integer()
        if spec.kind == "float" and declared in ("int", "qlonglong") and fraction:
            raise where.error(
                f"{value!r} in an {declared} property (Tiled rounds it to a whole number); "
                "make it a float property",
                field,
            )
        number: float | int
        if spec.kind == "int":
            if isinstance(value, float) and not value.is_integer():
                raise where.error(f"expected an integer, got {value!r}", field)
            number = int(value)
        else:
            number = tiled_float(value)
        _check_range(number, spec, where)
        return number
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise where.error(f"expected true or false, got {describe(value)}", field)
        return value
    if not isinstance(value, str):
        expected = "numbers separated by commas in a string" if spec.kind == "floats" else ""
        raise where.error(f"expected {expected or 'a string'}, got {describe(value)}", field)
    if spec.kind == "floats":
        return _floats(value, spec, where)
    problem = text_problem(value, field)
    if problem:
        raise where.error(problem, field)
    if spec.kind == "enum" and value not in spec.choices:
        choices = ", ".join(spec.choices)
        raise where.error(
            f"unknown value {value!r} (one of {choices}){suggest(value, spec.choices)}", field
        )
    return value


def _check_range(value: float, spec: PropSpec, where: Where, what: str = "") -> None:
    """Refuse a number outside the property's range (``what`` names an item of a list)."""
    low, high, got = spec.minimum, spec.maximum, plain_number(value)
    if low is not None:
        if spec.exclusive and value <= low:
            raise where.error(f"{what}must be > {plain_number(low)}, got {got}", spec.name)
        if not spec.exclusive and value < low:
            raise where.error(f"{what}must be >= {plain_number(low)}, got {got}", spec.name)
    if high is not None and value > high:
        raise where.error(f"{what}must be at most {plain_number(high)}, got {got}", spec.name)


#: Unknown properties warned about one by one in a level; the rest are counted in one line.
WARN_LIMIT = 10


class UnknownTally:
    """The unknown properties of one level: the first :data:`WARN_LIMIT` are logged one line
    each (often typos, with the nearest known name), the rest counted in one line by
    :meth:`finish` (25,000 unknown properties printed 27 MB of warnings)."""

    def __init__(self) -> None:
        self.count = 0

    def note(self, name: str, spec: ClassSpec, where: Where) -> None:
        """One unknown property ``name`` of an object of ``spec``'s class at ``where``."""
        self.count += 1
        if self.count <= WARN_LIMIT:
            known = [p.name for p in spec.props]
            hint = suggest(name, known) if len(name) <= TEXT_LIMITS["name"] else ""
            where.warn(f"unknown {spec.name} property, ignored{hint}", name)

    def finish(self, where: Where) -> None:
        """Log how many unknown properties were not named one by one."""
        if self.count > WARN_LIMIT:
            where.warn(f"{self.count - WARN_LIMIT:,} more unknown properties, ignored")


def warn_unknown(
    props: dict[str, tuple[str | None, Any]],
    spec: ClassSpec,
    where: Where,
    tally: UnknownTally | None = None,
) -> None:
    """Log properties the class does not know (often a typo), with the nearest known name;
    into ``tally`` when given (a level counts past its first few), else each one."""
    known = {p.name for p in spec.props}
    own = tally if tally is not None else UnknownTally()
    for name in props:
        if name not in known:
            own.note(name, spec, where)
    if tally is None:
        own.finish(where)
