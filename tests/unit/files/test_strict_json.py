"""The strict JSON reader and writer: what it refuses, where it says the first bad value is, and
that what it writes reads back the same."""

from __future__ import annotations

import json
import math
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.safe_io import OutputError
from game.strict_json import (
    JsonFileError,
    describe,
    dumps_strict,
    format_path,
    kind_of,
    loads_strict,
    loads_with_problems,
    read_json_file,
    show,
    write_json_file,
)


def _refusal(text: str | bytes) -> JsonFileError:
    with pytest.raises(JsonFileError) as info:
        loads_strict(text)
    assert "\n" not in str(info.value)
    return info.value


# -- what is refused, and where -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "at", "words"),
    [
        ('{"a": NaN}', ("a",), "NaN is not allowed; it must be a finite number"),
        ('{"a": [1, Infinity]}', ("a", 1), "Infinity is not allowed"),
        ("[-Infinity]", (0,), "-Infinity is not allowed"),
        ('{"a": {"b": 1e999}}', ("a", "b"), "Infinity is not allowed (a number out of range"),
        ('{"a": -1e999}', ("a",), "-Infinity is not allowed"),
        ("NaN", (), "NaN is not allowed"),
        ('{"k": 1, "k": 2}', ("k",), 'duplicate key "k"'),
    ],
)
def test_each_refused_value_is_named_with_its_path(
    text: str, at: tuple[str | int, ...], words: str
) -> None:
    # Given text with one refused value, When it is read
    error = _refusal(text)
    # Then the error says what and where
    assert error.at == at
    assert words in error.reason


def test_the_first_bad_value_in_the_file_is_reported() -> None:
    # Given an object whose first bad value sits deep inside its first member, before a
    # shallower one later in the file, and a key given twice after both
    text = '{"a": [1, {"b": [2, NaN]}], "c": Infinity, "a": 3}'
    # Then the deep one, first in the file, is reported
    assert _refusal(text).at == ("a", 1, "b", 1)
    # And every one is found, in file order, by the reader that keeps going
    _, problems = loads_with_problems(text)
    assert [p.at for p in problems] == [("a", 1, "b", 1), ("c",), ("a",)]


def test_a_bad_value_before_a_duplicate_key_comes_first() -> None:
    # Given a key given twice whose first value (lost to the second) holds a NaN
    error = _refusal('{"x": {"y": NaN}, "x": 1}')
    # Then the NaN, first in the file, is reported, though the decoded object lost it
    assert error.at == ("x", "y")


def test_duplicate_keys_in_objects_inside_lists_are_found() -> None:
    error = _refusal('{"layers": [{"objects": [{"id": 1}, {"id": 2, "name": "a", "id": 3}]}]}')
    assert error.at == ("layers", 0, "objects", 1, "id")
    assert error.reason == 'duplicate key "id"'


def test_a_duplicate_key_at_the_top_is_found() -> None:
    assert _refusal('{"a": 1, "b": 2, "a": 1}').at == ("a",)


def test_the_reader_that_keeps_going_gives_plain_data() -> None:
    # Given text with a NaN and a key given twice
    data, problems = loads_with_problems('{"a": {"k": 1, "k": [NaN]}, "b": 2}')
    # Then the data holds plain values (the NaN a float, the last of the two values)
    assert type(data["a"]) is dict and data["a"]["k"][0] != data["a"]["k"][0]
    assert data["b"] == 2
    assert [p.at for p in problems] == [("a", "k"), ("a", "k", 0)]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "invalid JSON at line 1 column 2: Expecting property name"),
        ("", "invalid JSON at line 1 column 1: Expecting value"),
        ('{"a": 1,\n "b": }', "invalid JSON at line 2 column 7"),
        ("[" * 100_000 + "]" * 100_000, "invalid JSON: nested too deeply"),
        ("[" + "7" * 5000 + "]", "invalid JSON: "),
    ],
)
def test_text_that_is_not_json_is_refused_in_one_line(text: str, words: str) -> None:
    error = _refusal(text)
    assert error.reason.startswith(words)
    assert error.at == ()


def test_a_syntax_error_gives_its_line_and_column() -> None:
    error = _refusal('{"a": 1,\n "b": }')
    assert (error.line, error.column, error.detail) == (2, 7, "Expecting value")


def test_a_deep_valid_tree_loads() -> None:
    # Given valid JSON nested as deep as the decoder goes, holding a key given twice at the
    # bottom (so the ordered scan walks the whole depth)
    depth = sys.getrecursionlimit() - 100
    text = '{"k": ' * depth + '{"x": 1, "x": 2}' + "}" * depth
    # Then the scan reaches it without recursion and names it
    error = _refusal(text)
    assert error.at == ("k",) * depth + ("x",)
    # And the same depth without it loads
    assert loads_strict("[" * depth + "1" + "]" * depth) is not None


def test_bytes_are_utf8_and_a_byte_order_mark_is_allowed() -> None:
    assert loads_strict(b'\xef\xbb\xbf{"a": "\xc3\xa9"}') == {"a": "\u00e9"}
    assert loads_strict('\ufeff{"a": 1}') == {"a": 1}
    assert _refusal(b'{"a": "\xe9"}').reason == "not UTF-8 text (byte 7)"


def test_a_huge_integer_is_a_number_not_an_overflow() -> None:
    # A 400-digit integer is exact in Python; whether it fits is the schema's business
    assert loads_strict("[" + "9" * 400 + "]") == [int("9" * 400)]


# -- files ---------------------------------------------------------------------------------------


def _read(path: Path, max_bytes: int = 1000) -> JsonFileError:
    with pytest.raises(JsonFileError) as info:
        read_json_file(path, max_bytes=max_bytes, what="test file")
    assert str(info.value).startswith(f"{path}: ")
    assert "\n" not in str(info.value)
    return info.value


def test_a_file_is_read_with_its_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": [1, 2.5, null, true, "x"]}')
    assert read_json_file(path, max_bytes=100, what="test file") == {"a": [1, 2.5, None, True, "x"]}


def test_files_that_cannot_be_read_are_refused_in_one_line(tmp_path: Path) -> None:
    assert _read(tmp_path).reason == "is a directory, not a test file"
    assert _read(tmp_path / "nope.json").reason == "cannot read: No such file or directory"
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 600 + "1]")
    assert _read(big).reason == "file is 1,203 bytes; at most 1,000"
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    assert _read(loop).reason == "cannot read: symbolic link loop"
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'["\xe9"]')
    assert _read(latin).reason == "not UTF-8 text (byte 2)"


def test_a_fifo_is_refused_without_being_opened(tmp_path: Path) -> None:
    # Given a FIFO no one writes to (opening it to read would block for ever)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    # Then it is refused at once
    assert _read(fifo).reason == "not a regular file (a FIFO, socket or device)"


def test_a_bad_value_in_a_file_names_the_file_and_the_path(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"levels": {"x": {"wins": NaN}}}')
    error = _read(path)
    assert error.at == ("levels", "x", "wins")
    assert str(error) == f"{path}: at levels.x.wins: {error.reason}"
    assert error.file == str(path)


def test_the_error_survives_pickling() -> None:
    error = _refusal('{"a": [1, NaN]}')
    back = pickle.loads(pickle.dumps(error))
    assert (back.reason, back.at, str(back)) == (error.reason, error.at, str(error))


# -- writing -------------------------------------------------------------------------------------


def test_dumps_ends_with_a_newline_and_refuses_non_finite_numbers_by_path() -> None:
    assert dumps_strict({"a": [1, 2]}, indent=None) == '{"a": [1, 2]}\n'
    with pytest.raises(JsonFileError) as info:
        dumps_strict({"a": [1.0, {"b": float("inf")}]})
    assert info.value.at == ("a", 1, "b")
    assert info.value.reason == "Infinity is not allowed; it must be a finite number"
    with pytest.raises(JsonFileError, match="cannot write as JSON"):
        dumps_strict({"a": {1, 2}})


def test_an_atomic_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    # Given an old file
    path = tmp_path / "out.json"
    path.write_text("old")
    # When data is written over it
    written = write_json_file(path, {"b": [1.5, None]})
    # Then only the new file is there, and it reads back
    assert written == path
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    assert read_json_file(path, max_bytes=100, what="test file") == {"b": [1.5, None]}


def test_a_write_that_fails_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    path.write_text("old")
    with pytest.raises(JsonFileError):
        write_json_file(path, {"x": float("nan")})
    with pytest.raises(OutputError):
        write_json_file(tmp_path / "no folder" / "out.json", {})
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


_finite = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(_finite)
def test_any_finite_data_dumped_by_json_loads_back_equal(data: Any) -> None:
    # Given any finite data written by Python's json (objects never repeat a key)
    text = json.dumps(data)
    # Then the strict reader gives it back, and so does its own writer's text
    assert loads_strict(text) == data
    assert loads_strict(dumps_strict(data)) == data


# -- describing values ---------------------------------------------------------------------------


def test_values_are_described_briefly() -> None:
    assert [kind_of(v) for v in ({}, [], "a", True, None, 1.5, 3)] == [
        "an object",
        "a list",
        "text",
        "true/false",
        "null",
        "a number",
        "a number",
    ]
    assert [show(v) for v in (1.5, float("nan"), -float("inf"), "x", [1, 2])] == [
        "1.5",
        "NaN",
        "-Infinity",
        '"x"',
        "[1, 2]",
    ]
    assert len(show("y" * 100)) == 40 and show("y" * 100).endswith("...")
    assert show(10**5000) == "an integer of about 5,001 digits"
    assert describe("fast") == 'string "fast"'
    assert describe(True) == "boolean true"
    assert describe(3) == "number 3"
    assert describe(None) == "null"
    assert format_path(("layers", 0, "objects", 2, "x")) == "layers[0].objects[2].x"
    assert format_path((3, 1)) == "[3][1]"


@given(
    digits=st.integers(min_value=1, max_value=400),
    exponent=st.integers(min_value=0, max_value=400),
    fraction=st.booleans(),
)
def test_a_number_is_refused_exactly_when_it_overflows_a_float(
    digits: int, exponent: int, fraction: bool
) -> None:
    # Given a number of any length and exponent (the reader only scans text that may overflow)
    literal = "9" * digits + (".5" if fraction else "") + f"e{exponent}"
    text = f'{{"a": [{literal}]}}'
    # Then it is refused when, and only when, it is too large for a float
    if math.isinf(float(literal)):
        with pytest.raises(JsonFileError) as info:
            loads_strict(text)
        assert info.value.at == ("a", 0)
    else:
        assert loads_strict(text) == {"a": [float(literal)]}
