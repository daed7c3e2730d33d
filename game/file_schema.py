"""Typed schemas for the game's own JSON files (tuning, replays, progress), on pydantic v2: the
field types they share and the one mapping of a pydantic error onto our one-line reasons.

Why pydantic v2 and not msgspec, measured on this machine (2 cores shared with three other
workers, so two runs give a range; medians; msgspec with the same constraints on equivalent
types):

=================================  ==============  ==============
                                   pydantic 2.14   msgspec 0.22
=================================  ==============  ==============
import (21 fresh interpreters)     86-126 ms       18-19 ms
building our three schemas         9.5 ms          none
tuning.json (300 runs)             5.8-9.2 us      4.1-6.4 us
a 1,135-keyframe replay            155-231 us      69-95 us
an hour's replay, 216,001 frames   50-68 ms        36-41 ms
a 10-level progress file           19-23 us        13-16 us
=================================  ==============  ==============

Both validate fast enough that no player waits (the hour-long replay spends five times longer
in ``json.loads``); msgspec imports 70-110 ms sooner, once per start of a game that also
imports numpy, scipy and arcade. The choice is the errors: pydantic's
``ValidationError.errors()`` lists every problem with its location as a tuple (``("patrol",
"leash")``, ``("inputs", 3, 0)``), a type (``less_than_equal``), the bound (``ctx``) and the
value, which is all our one-line messages need ("must be at most 180 deg, got 200"). msgspec
stops at the first problem and gives one English sentence with a ``$.inputs[3][0]`` path and
neither the value nor the bound as data (and ``$[...]`` for a value in a dict, naming no key):
each message would be rebuilt by parsing its text, which breaks when its wording changes.
pydantic also validates our stdlib dataclasses as they are (the tuning sections,
``LevelRecord``), refusing unknown fields; msgspec reads dataclasses but ignores their unknown
fields, so the public classes would have to become its ``Struct`` types.

The words a message needs beyond pydantic's (a unit, what ``null`` means, a field's own
phrase) live with the field, in its ``json_schema_extra``: :func:`finite`, :func:`integer`.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar, Union

from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic.json_schema import JsonDict

from game.strict_json import JsonPath, describe, non_finite_reason, plain_number, show

__all__ = [
    "EXTRA",
    "RANGE",
    "Problem",
    "ValidationError",
    "finite",
    "first_problem",
    "integer",
    "text",
    "validate",
]

T = TypeVar("T")

#: Error types for a name the schema does not know (a model's; a dataclass's).
EXTRA = frozenset({"extra_forbidden", "unexpected_keyword_argument"})
#: Error types for a value out of its range.
RANGE = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})
#: What a value of each type error's type is, for "expected X, got Y".
_EXPECTED = {
    "float_type": "a number",
    "int_type": "an integer",
    "string_type": "text",
    "bool_type": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "dataclass_type": "an object",
}
_SIGN = {
    "greater_than": (">", "gt"),
    "greater_than_equal": (">=", "ge"),
    "less_than": ("<", "lt"),
    "less_than_equal": ("at most", "le"),
}


def _words(**words: str) -> JsonDict | None:
    """The message words kept in a field's ``json_schema_extra`` (none empty)."""
    kept: JsonDict = {k: v for k, v in words.items() if v}
    return kept or None


def finite(
    low: float | None = None,
    high: float | None = None,
    unit: str = "",
    *,
    open_low: bool = False,
    null: str = "",
    range_words: str = "",
) -> Any:
    """A JSON number field (not true/false, not text, never NaN or infinite) within
    ``low``..``high`` (``open_low``: above ``low``).

    Args:
        low: The least value (None: no bound).
        high: The greatest value (None: no bound).
        unit: Its unit, for messages (``"deg"``).
        open_low: ``low`` itself is refused.
        null: What ``null`` means where the field's type allows it (``"no limit"``).
        range_words: The range in the file's own words (``"in 0..3600 s"``), for messages.

    Returns:
        The pydantic field, to put in ``Annotated[float, ...]``.
    """
    return Field(
        strict=True,
        allow_inf_nan=False,
        gt=low if open_low else None,
        ge=None if open_low else low,
        le=high,
        json_schema_extra=_words(unit=unit, null=null, range=range_words),
    )


def integer(low: int, high: int, *, must: str = "") -> Any:
    """A JSON integer field within ``low``..``high``; ``must``: what it must be, in the file's
    own words, said for any bad value (``"an integer in 0..4,294,967,295"``)."""
    return Field(strict=True, ge=low, le=high, json_schema_extra=_words(must=must))


def text(max_length: int, *, must: str = "") -> Any:
    """A JSON string field with something other than spaces, at most ``max_length``
    characters; ``must`` as for :func:`integer`."""
    return Field(
        strict=True, max_length=max_length, pattern=r"\S", json_schema_extra=_words(must=must)
    )


@functools.cache
def _adapter(kind: Any) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


@typing.overload
def validate(kind: type[T], data: object) -> T: ...


@typing.overload
def validate(kind: Any, data: object) -> Any: ...


def validate(kind: Any, data: object) -> Any:
    """``data`` (decoded JSON) as ``kind``: a dataclass, model, or any type pydantic takes.

    Raises:
        ValidationError: every problem found (see :func:`first_problem`).
    """
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind.model_validate(data)
    return _adapter(kind).validate_python(data)


@dataclass(frozen=True)
class Problem:
    """One problem pydantic found, with the reason in our words.

    Attributes:
        at: Where, as a JSON path from the validated value.
        kind: pydantic's error type (``"missing"``, ``"less_than_equal"``, ...).
        value: The value at fault (for ``missing``, the object it is missing from).
        reason: What is wrong, in one line: ``must be at most 180 deg, got 200``.
        words: The field's message words (``unit``, ``null``, ``range``, ``must``).
        nullable: Whether the field takes ``null``.
    """

    at: JsonPath
    kind: str
    value: object
    reason: str
    words: Mapping[str, str]
    nullable: bool


def first_problem(error: ValidationError, kind: Any) -> Problem:
    """The problem to report of those in ``error`` (raised validating ``kind``): the first
    unknown name if any (a misspelt field also leaves its right name missing, and "did you
    mean" helps more), else the first found."""
    found = error.errors(include_url=False)
    item = next((e for e in found if e["type"] in EXTRA), found[0])
    at = tuple(item["loc"])
    words, nullable = _field_words(kind, at)
    ctx = item.get("ctx") or {}
    return Problem(
        at, item["type"], item["input"], _reason(item, ctx, words, nullable), words, nullable
    )


def _reason(item: Any, ctx: Mapping[str, Any], words: Mapping[str, str], nullable: bool) -> str:
    kind, value = item["type"], item["input"]
    if kind == "missing":
        return "missing"
    if kind in EXTRA:
        return "unknown field"
    if kind == "finite_number":
        return non_finite_reason(value)
    if "must" in words:
        return f"must be {words['must']}, got {show(value)}"
    if kind in RANGE:
        if "range" in words:
            return f"must be {words['range']}, got {show(value)}"
        sign, key = _SIGN[kind]
        unit = f" {words['unit']}" if "unit" in words else ""
        return f"must be {sign} {plain_number(ctx[key])}{unit}, got {show(value)}"
    if kind == "float_type" and isinstance(value, int) and not isinstance(value, bool):
        return "number too large"  # an integer of hundreds of digits
    if kind in _EXPECTED:
        null = ""
        if nullable:
            null = f" or null ({words['null']})" if "null" in words else " or null"
        return f"expected {_EXPECTED[kind]}{null}, got {describe(value)}"
    return str(item["msg"]).lower()


def _field_words(kind: Any, at: JsonPath) -> tuple[dict[str, str], bool]:
    """The message words and nullability of the field at ``at`` in ``kind``."""
    hint: Any = kind
    for part in at:
        hint = _child(hint, part)
        if hint is None:
            return {}, False
    words: dict[str, str] = {}
    nullable = False
    for layer in (hint, *typing.get_args(_strip(hint))):
        if layer is type(None):
            nullable = True
        for meta in getattr(layer, "__metadata__", ()):
            if isinstance(meta, FieldInfo) and isinstance(meta.json_schema_extra, dict):
                words.update({k: str(v) for k, v in meta.json_schema_extra.items()})
    return words, nullable


def _strip(hint: Any) -> Any:
    """``hint`` without ``Annotated``."""
    while typing.get_origin(hint) is Annotated:
        hint = typing.get_args(hint)[0]
    return hint


def _child(hint: Any, part: str | int) -> Any:
    """The type of ``part`` inside a value of type ``hint``; None when unknown."""
    bare = _strip(hint)
    origin = typing.get_origin(bare)
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(bare) if a is not type(None)]
        if len(inner) != 1:
            return None
        return _child(inner[0], part)
    if isinstance(bare, type) and (dataclasses.is_dataclass(bare) or issubclass(bare, BaseModel)):
        return typing.get_type_hints(bare, include_extras=True).get(str(part))
    args = typing.get_args(bare)
    if origin is list and args and isinstance(part, int):
        return args[0]
    if origin is tuple and isinstance(part, int):
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
        return args[part] if part < len(args) else None
    if origin is dict and len(args) == 2:
        return args[1]
    return None
