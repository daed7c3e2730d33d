"""Small typed readers of a level file's raw JSON values, and the words their errors use.

Shared by the raw map reader (:mod:`game.level.tiled`), the object checks and the saver.
"""

from __future__ import annotations

from typing import Any

from game.level.errors import Where
from game.strict_json import describe, plain_number, suggest

__all__ = [
    "MAX_MAGNITUDE",
    "is_number",
    "read_integer",
    "read_number",
    "short_text",
    "show_number",
    "suggest",
]


#: Plain numbers beyond this are refused as absurd before any range check.
MAX_MAGNITUDE = 1e12


def show_number(value: float) -> str:
    """A number for a message, short even for a 4000-digit integer."""
    if isinstance(value, int) and abs(value) > 10**15:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, int):
        return f"{value:,}"
    return plain_number(value)


def short_text(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters with its length said (a
    30 MB class name made a 30 MB error line)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def is_number(value: object) -> bool:
    """True for JSON numbers (bool is not a number here)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_number(
    obj: dict[str, Any],
    key: str,
    where: Where,
    default: float | None = None,
) -> float:
    """Read a finite number; ``default`` None makes the key required."""
    if key not in obj:
        if default is None:
            raise where.error("missing (a number is required)", key)
        return default
    value = obj[key]
    if not is_number(value):
        raise where.error(f"expected a number, got {describe(value)}", key)
    if abs(value) > MAX_MAGNITUDE:
        raise where.error(f"{show_number(value)} is absurdly large", key)
    return float(value)


def read_integer(obj: dict[str, Any], key: str, where: Where, minimum: int, maximum: int) -> int:
    """Read a required integer in [minimum, maximum] (an integral float such as 3.0 is fine)."""
    if key not in obj:
        raise where.error("missing (an integer is required)", key)
    value = obj[key]
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_MAGNITUDE:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.error(f"expected an integer, got {describe(value)}", key)
    if value < minimum:
        raise where.error(f"must be at least {minimum}, got {show_number(value)}", key)
    if value > maximum:
        raise where.error(f"must be at most {maximum:,}, got {show_number(value)}", key)
    return value
