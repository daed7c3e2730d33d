"""The one strict JSON reader and writer for the files the game keeps (levels, tuning, replays,
progress): no ``NaN``, ``Infinity`` or number overflowing to infinity (``1e999``), no key twice in
an object (Python's ``json`` takes all three), and one error, :class:`JsonFileError`, locating
the first bad value, that each file's reader turns into its own one-line error.
"""

from __future__ import annotations

import difflib
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from game.safe_io import InputError, atomic_write, one_line, read_regular

__all__ = [
    "JsonFileError",
    "JsonPath",
    "describe",
    "dumps_strict",
    "format_path",
    "kind_of",
    "loads_strict",
    "loads_with_problems",
    "non_finite_reason",
    "plain_number",
    "read_json_file",
    "show",
    "suggest",
    "write_json_file",
]

#: Where a value is in a JSON document: keys and list indices from the top.
JsonPath = tuple[str | int, ...]

#: A rendering for a message is cut to this many characters.
SHOW_LIMIT = 40


class JsonFileError(ValueError):
    """A JSON file or text cannot be read, or holds a value the policy refuses.

    The message is one line: ``FILE: at PATH: reason`` (each part when known). Readers of a
    particular file turn it into their own error with :attr:`reason` and :attr:`at`.

    Attributes:
        reason: What is wrong, without the location.
        at: The JSON path of the bad value (``()``: the whole file, or not located). For a
            key given twice, the path of the object and the key.
        file: The file, or None for text.
        line: For a syntax error, the line of the error (1-based); None otherwise.
        column: For a syntax error, the column (1-based); None otherwise.
        detail: For a syntax error, the decoder's own words (``Expecting value``).
        document: For a refused value, the decoded document holding it (the refused value as
            its float, a key given twice with its last value), so that a reader can name the
            object around :attr:`at` without decoding again; None otherwise (and after
            pickling).
    """

    document: Any = None

    def __init__(
        self,
        reason: str,
        at: JsonPath = (),
        *,
        file: str | os.PathLike[str] | None = None,
        line: int | None = None,
        column: int | None = None,
        detail: str | None = None,
    ) -> None:
        self.reason = reason
        self.at = tuple(at)
        self.file = os.fspath(file) if file is not None else None
        self.line = line
        self.column = column
        self.detail = detail
        parts = [self.file] if self.file is not None else []
        if self.at:
            parts.append(f"at {format_path(self.at)}")
        super().__init__(one_line(": ".join([*parts, reason])))

    def located(self, file: str | os.PathLike[str]) -> JsonFileError:
        """The same error, naming ``file``."""
        error = JsonFileError(
            self.reason,
            self.at,
            file=file,
            line=self.line,
            column=self.column,
            detail=self.detail,
        )
        error.document = self.document
        return error

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle support (a process pool sends errors back)."""
        return (_rebuild, (self.reason, self.at, self.file, self.line, self.column, self.detail))


def _rebuild(
    reason: str,
    at: JsonPath,
    file: str | None,
    line: int | None,
    column: int | None,
    detail: str | None,
) -> JsonFileError:
    return JsonFileError(reason, at, file=file, line=line, column=column, detail=detail)


def format_path(at: JsonPath) -> str:
    """A JSON path as ``layers[0].objects[2].x`` (``[3][1]`` for a top-level list)."""
    text = ""
    for part in at:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


# -- describing values ---------------------------------------------------------------------------


def kind_of(value: object) -> str:
    """The JSON kind of ``value``: an object, a list, text, true/false, null, a number."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, str):
        return "text"
    return "a number"


def _cut(text: str) -> str:
    return text if len(text) <= SHOW_LIMIT else text[: SHOW_LIMIT - 3] + "..."


def _big_int(value: int) -> str | None:
    """How an integer too long to print whole is named; None if it prints."""
    if value.bit_length() <= 3000:  # under Python's 4,300-digit limit on int -> str
        return None
    return f"an integer of about {int(value.bit_length() * 0.30103) + 1:,} digits"


def plain_number(value: float) -> str:
    """``value`` for a message: an integer as its digits (``4294967295``, not ``4.29497e+09``),
    any other number with every digit needed to tell it from its neighbours
    (``1.0000011``)."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(float(value))


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """Return ``; did you mean "x"?`` for the nearest choice, or ""."""
    lowered = {c.lower(): c for c in choices}
    match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.5)
    return f'; did you mean "{lowered[match[0]]}"?' if match else ""


def show(value: object) -> str:
    """A short rendering of a JSON value for a message (at most 40 characters): numbers as
    written (``1.5``, ``NaN``, ``-Infinity``), text quoted, lists and objects as JSON cut
    short."""
    if isinstance(value, float) and not isinstance(value, bool):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 1e16:
            return f"{int(value)}.0"  # as written: a seed of 3.0 is not the integer 3
        return plain_number(value)
    if isinstance(value, int) and not isinstance(value, bool):
        big = _big_int(value)
        return big if big is not None else _cut(str(value))
    try:
        return _cut(json.dumps(value, ensure_ascii=False, default=repr))
    except ValueError:  # a float NaN or a huge integer deep inside a list
        return _cut(repr(value))


def describe(value: object) -> str:
    """The kind and value of ``value`` for "expected ..., got ..." messages:
    ``string "far"``, ``number 3``, ``boolean true``, ``null``, ``a list``, ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {json.dumps(value)}"
    if isinstance(value, int):
        big = _big_int(value)
        if big is None and abs(value) > 10**15:
            big = f"an integer of about {len(str(abs(value)))} digits"
        return big if big is not None else f"number {value:,}"
    if isinstance(value, float):
        return f"number {show(value)}"
    if isinstance(value, str):
        text = value if len(value) <= SHOW_LIMIT else value[:SHOW_LIMIT] + "..."
        return f"string {json.dumps(text, ensure_ascii=False)}"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def non_finite_reason(value: float, *, overflow: bool = False) -> str:
    """Why ``value`` (NaN or an infinity) is refused; ``overflow``: it was written as a number
    too large for a float (``1e999``)."""
    word = show(value)
    how = " (a number out of range overflows to it)" if overflow else ""
    return f"{word} is not allowed{how}; it must be a finite number"


# -- reading -------------------------------------------------------------------------------------


class _Constant:
    """Stands in for ``NaN``, ``Infinity`` or ``-Infinity`` until the scan says where it is."""

    __slots__ = ("value",)

    def __init__(self, word: str) -> None:
        self.value = float(word)


class _Twice(dict[str, Any]):
    """An object with a key given twice; keeps its pairs in file order for the scan (the dict
    keeps the last value of each key, as ``json`` does)."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.pairs = pairs


class _Decoder:
    """One decode: notes whether a constant or a key given twice was met."""

    __slots__ = ("suspect",)

    def __init__(self) -> None:
        self.suspect = False

    def constant(self, word: str) -> _Constant:
        self.suspect = True
        return _Constant(word)

    def object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) == len(pairs):
            return obj
        self.suspect = True
        return _Twice(pairs)


def _overflowed(data: Any) -> bool:
    """Whether the decoded tree holds an infinite float (a number too large, ``1e999``): a
    quick pass in no particular order that builds no paths, so that only a file with a
    refused value pays for the ordered scan."""
    stack = [data]
    isfinite = math.isfinite
    while stack:
        container = stack.pop()
        for value in container.values() if isinstance(container, dict) else container:
            kind = type(value)
            if kind is float:
                if not isfinite(value):
                    return True
            elif kind is list or kind is dict:
                stack.append(value)
    return False


def _items(value: Any) -> Iterator[tuple[str | int, Any]]:
    """A container's (key, value) pairs in file order."""
    if isinstance(value, _Twice):
        return iter(value.pairs)
    if isinstance(value, dict):
        return iter(value.items())
    return enumerate(value)


_Open = tuple[Iterator[tuple[str | int, Any]], JsonPath, Any, set[str] | None]


def _scan(data: Any, *, first_only: bool, decoded: bool = True) -> tuple[Any, list[JsonFileError]]:
    """Every refused value in document order (the first only, with ``first_only``), located;
    the data with each stand-in made the float it stands for and each object a plain dict.
    ``decoded``: ``data`` comes from the decoder, where an infinite float was written as a
    number too large (``1e999``); else from Python, about to be written.

    Iterative, with one iterator per open container: a deep but valid tree must not hit
    Python's recursion limit, and a container's contents come before its next sibling.
    """
    problems: list[JsonFileError] = []

    def opened(value: Any, at: JsonPath) -> tuple[Any, _Open]:
        plain = dict(value) if isinstance(value, _Twice) else value
        seen: set[str] | None = set() if isinstance(value, _Twice) else None
        return plain, (_items(value), at, plain, seen)

    if not isinstance(data, dict | list | tuple):
        if isinstance(data, _Constant):
            problems.append(JsonFileError(non_finite_reason(data.value)))
            data = data.value
        elif isinstance(data, float) and not math.isfinite(data):
            problems.append(JsonFileError(non_finite_reason(data, overflow=decoded)))
        return data, problems
    root, top = opened(data, ())
    stack = [top]
    while stack:
        items, at, parent, seen = stack[-1]
        for key, value in items:
            if seen is not None:
                if key in seen:
                    problems.append(JsonFileError(f"duplicate key {json.dumps(key)}", (*at, key)))
                seen.add(str(key))
            if isinstance(value, dict | list | tuple):
                plain, child = opened(value, (*at, key))
                if plain is not value and parent[key] is value:
                    parent[key] = plain
                stack.append(child)
                if first_only and problems:
                    return root, problems
                break
            if isinstance(value, _Constant):
                problems.append(JsonFileError(non_finite_reason(value.value), (*at, key)))
                if parent[key] is value:
                    parent[key] = value.value
            elif isinstance(value, float) and not math.isfinite(value):
                reason = non_finite_reason(value, overflow=decoded)
                problems.append(JsonFileError(reason, (*at, key)))
            if first_only and problems:
                return root, problems
        else:
            stack.pop()
    return root, problems


def _text(text: str | bytes) -> str:
    """Text from a file's bytes (UTF-8; a byte-order mark is allowed, some editors add one)."""
    if isinstance(text, bytes | bytearray):
        try:
            return bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise JsonFileError(f"not UTF-8 text (byte {exc.start})") from exc
    return text[1:] if text.startswith("\ufeff") else text


def _decode(
    text: str | bytes, *, first_only: bool, max_containers: int | None = None
) -> tuple[Any, list[JsonFileError]]:
    """Decode, then scan the tree where it may hold a refused value."""
    source = _text(text)
    if max_containers is not None:
        # Counted in the text, before a container is built: ten million "{}" cost seconds
        # and most of a GiB to decode. Brackets inside strings count too (an upper bound).
        found = source.count("{") + source.count("[")
        if found > max_containers:
            raise JsonFileError(
                f"{found:,} JSON objects and arrays ('{{' and '['); at most {max_containers:,}"
            )
    decoder = _Decoder()
    try:
        data = json.loads(source, parse_constant=decoder.constant, object_pairs_hook=decoder.object)
    except json.JSONDecodeError as exc:
        raise JsonFileError(
            f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            line=exc.lineno,
            column=exc.colno,
            detail=exc.msg,
        ) from exc
    except RecursionError as exc:
        raise JsonFileError("invalid JSON: nested too deeply") from exc
    except ValueError as exc:  # an integer longer than Python's 4,300-digit limit
        raise JsonFileError(f"invalid JSON: {one_line(str(exc))}") from exc
    if decoder.suspect or (isinstance(data, dict | list) and _overflowed(data)):
        return _scan(data, first_only=first_only)
    if isinstance(data, float) and not math.isfinite(data):
        return data, [JsonFileError(non_finite_reason(data, overflow=True))]
    return data, []


def loads_strict(text: str | bytes, *, max_containers: int | None = None) -> Any:
    """Decode JSON text (or UTF-8 bytes), refusing what the policy refuses.

    ``max_containers``: refuse text holding more ``{`` and ``[`` than this, before decoding.

    Returns:
        Plain ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool`` and ``None``.

    Raises:
        JsonFileError: at the first problem in the text: a syntax error (with its line and
            column), nesting too deep, a 5,000-digit integer, a non-finite number or a key
            given twice in one object (the last two located with :attr:`JsonFileError.at`).
    """
    data, problems = _decode(text, first_only=True, max_containers=max_containers)
    if problems:
        problems[0].document = data
        raise problems[0]
    return data


def loads_with_problems(text: str | bytes) -> tuple[Any, list[JsonFileError]]:
    """Decode JSON text, keeping what the policy refuses, for readers that skip a bad part of
    a file and keep the rest (progress skips one level's entry).

    Returns:
        The data (a non-finite number as its float, a key given twice with its last value)
        and every refused value, located, in document order.

    Raises:
        JsonFileError: for text that is not JSON at all (syntax, nesting, digits).
    """
    return _decode(text, first_only=False)


def read_json_file(
    path: str | os.PathLike[str], *, max_bytes: int, what: str, max_containers: int | None = None
) -> Any:
    """Read a JSON file under the strict policy.

    The file is checked before it is read (:func:`game.safe_io.read_regular`): a FIFO, socket
    or device is never read (reading a FIFO blocks), and a file larger than ``max_bytes`` is
    never read.

    Args:
        path: The file.
        max_bytes: The largest file read.
        what: What the file is, for messages (``"replay file"``).
        max_containers: The most ``{`` and ``[`` the text may hold (see :func:`loads_strict`).

    Returns:
        The decoded JSON, as :func:`loads_strict` gives it.

    Raises:
        JsonFileError: naming the file; :attr:`JsonFileError.at` locates a bad value.
    """
    file = Path(path)
    try:
        raw = read_regular(file, max_bytes=max_bytes, what=what)
    except InputError as exc:
        raise JsonFileError(exc.reason, file=file) from exc
    try:
        return loads_strict(raw, max_containers=max_containers)
    except JsonFileError as exc:
        raise exc.located(file) from exc


# -- writing -------------------------------------------------------------------------------------


def dumps_strict(
    data: Any,
    *,
    indent: int | None = 2,
    end: str = "\n",
    ensure_ascii: bool = True,
    compact: bool = False,
) -> str:
    """JSON text for ``data``, ending with ``end`` (a newline, as text files should);
    ``ensure_ascii=False`` writes non-ASCII text as it is (Tiled does); ``compact`` writes no
    space after ``,`` and ``:`` (with ``indent=None``: the smallest text).

    Raises:
        JsonFileError: for a non-finite number (located), or a value JSON cannot hold.
    """
    try:
        separators = (",", ":") if compact else None
        text = json.dumps(
            data,
            indent=indent,
            allow_nan=False,
            ensure_ascii=ensure_ascii,
            separators=separators,
        )
        return text + end
    except ValueError as exc:
        if "Out of range float" not in str(exc):
            raise JsonFileError(f"cannot write as JSON: {one_line(str(exc))}") from exc
        _, problems = _scan(data, first_only=True, decoded=False)
        if problems:
            raise problems[0] from exc
        raise JsonFileError(f"cannot write as JSON: {one_line(str(exc))}") from exc
    except TypeError as exc:  # a set, a Path, ...
        raise JsonFileError(f"cannot write as JSON: {one_line(str(exc))}") from exc


def write_json_file(
    path: str | os.PathLike[str], data: Any, *, indent: int | None = 2, mode: int | None = None
) -> Path:
    """Write ``data`` as strict JSON through :func:`game.safe_io.atomic_write`.

    Returns:
        The file written (a symlink's target).

    Raises:
        JsonFileError: for data JSON cannot hold (nothing is written).
        game.safe_io.OutputError: for a file that cannot be written (the old one is kept).
    """
    text = dumps_strict(data, indent=indent)
    return atomic_write(path, text.encode("utf-8"), mode=mode)
