"""Level text: what a title, a hint or a name may hold, and how file names are shown.

Level text is read by people (menus, the HUD, window titles, terminals), so the loader refuses
what cannot be shown as it is written: control characters (a line break, an escape sequence
that would recolour a terminal) and half a UTF-16 pair (``"\\ud800"`` in JSON, which no file
or terminal can encode). Everything else in Unicode is accepted, up to a length per field
(:data:`TEXT_LIMITS`, stated in docs/levels.md). File names cannot be refused (the file system
has them), so wherever one is shown it goes through :func:`shown`.
"""

from __future__ import annotations

import os
import re
import unicodedata

from game.strict_json import plain_number

__all__ = [
    "PLAIN_INT",
    "PLAIN_NUMBER",
    "TEXT_LIMITS",
    "TEXT_MAX",
    "plain_number",
    "printable_title",
    "shown",
    "text_problem",
]

#: A number as a person types it: ASCII digits only (Python's ``float`` and ``int`` also take
#: Arabic-Indic or full-width digits and ``1_000``, which no level or option should mean).
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
#: An integer as a person types it (ASCII digits).
PLAIN_INT = re.compile(r"[+-]?\d+", re.ASCII)


#: Longest accepted text per field, in characters; :data:`TEXT_MAX` for any other.
TEXT_LIMITS = {"title": 80, "hint": 300, "name": 100, "path": 100}
#: Longest accepted text of a field not in :data:`TEXT_LIMITS` (a file property).
TEXT_MAX = 1000


def text_problem(value: str, field: str) -> str:
    """Why ``value`` cannot be the text of ``field``, in a few words; "" when it can."""
    limit = TEXT_LIMITS.get(field, TEXT_MAX)
    if len(value) > limit:
        return f"{len(value):,} characters; at most {limit:,}"
    if value.isprintable():
        return ""
    for k, c in enumerate(value, 1):
        category = unicodedata.category(c)
        if category == "Cc":
            return f"character {k} is the control character {c!r}; level text is one plain line"
        if category == "Cs":
            return (
                f"character {k} is {c!r}, half of a UTF-16 pair, which no file can hold; "
                "write the whole character"
            )
    return ""  # spaces other than " " and format characters are fine


def shown(text: str | os.PathLike[str]) -> str:
    """``text`` (or a path) as it can always be printed, set as a window title or drawn: control
    characters, format characters (a right-to-left override would reorder the rest of a
    terminal's line) and the undecodable bytes of a file name (``caf\\udce9.tmj`` from a
    Latin-1 name) are escaped (``caf\\xe9.tmj``, ``\\u202e``); spaces of any kind are kept."""
    value = os.fspath(text)
    if isinstance(value, bytes):
        value = os.fsdecode(value)
    if value.isprintable():
        return value
    out = []
    for c in value:
        if c.isprintable() or unicodedata.category(c) == "Zs":
            out.append(c)
        elif 0xDC80 <= ord(c) <= 0xDCFF:  # a byte the file system's encoding could not decode
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        else:
            out.append(repr(c)[1:-1])
    return "".join(out)


def printable_title(stem: str) -> str:
    """A title made from a file name's stem: underscores become spaces, undecodable bytes
    the replacement character, control characters go, cut to the title's limit."""
    raw = os.fsencode(stem).decode("utf-8", errors="replace")
    text = "".join(c for c in raw.replace("_", " ") if unicodedata.category(c) not in ("Cc", "Cs"))
    return text[: TEXT_LIMITS["title"]]
