"""Level text (issue 27): any Unicode a person can read is accepted, control characters and
half UTF-16 pairs are refused by the loader with one line, lengths have a limit, and file names
that are not UTF-8 are shown escaped wherever they appear."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.level import LevelError, load_level
from game.level.text import TEXT_LIMITS
from tests.helpers.level import exit_, player, prop, valid_map, write


def _titled(title: str, hint: str = "") -> dict[str, object]:
    props = [prop("title", "string", title)]
    if hint:
        props.append(prop("hint", "string", hint))
    return valid_map(props=props)


@pytest.mark.parametrize(
    "title",
    [
        "Café – the Reef",
        "珊瑚礁",
        "Fish 🐟 & co",
        "e\u0301 combining",
        "no\u00a0break space",
        "x" * TEXT_LIMITS["title"],
    ],
)
def test_readable_text_of_any_script_is_accepted(tmp_path: Path, title: str) -> None:
    assert load_level(write(tmp_path, _titled(title))).title == title


@pytest.mark.parametrize(
    "title, words",
    [
        ("Pa\ud800trol", "half of a UTF-16 pair"),
        ("two\nlines", "control character '\\n'"),
        ("red\x1b[31m", "control character '\\x1b'"),
        ("x" * (TEXT_LIMITS["title"] + 1), "81 characters; at most 80"),
    ],
)
def test_unprintable_or_too_long_text_is_refused_in_one_line(
    tmp_path: Path, title: str, words: str
) -> None:
    path = write(tmp_path, _titled(title))
    with pytest.raises(LevelError) as err:
        load_level(path)
    message = str(err.value)
    assert words in message and 'field "title"' in message
    assert message.isprintable()  # nothing raw reaches a terminal


def test_hints_and_names_have_the_same_rules(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match=r'field "hint".*at most 300'):
        load_level(write(tmp_path, _titled("ok", hint="h" * 301)))
    raw = valid_map()
    raw["layers"][0]["objects"] = [player(name="bad\tname"), exit_()]  # type: ignore[index]
    with pytest.raises(LevelError, match=r'object 1 "bad\\tname".*field "name".*control'):
        load_level(write(tmp_path, raw, "named.tmj"))


def test_a_level_error_names_an_undecodable_file_printably(tmp_path: Path) -> None:
    path = tmp_path / os.fsdecode(b"bad\xff.tmj")
    path.write_text("{", encoding="utf-8")
    with pytest.raises(LevelError) as err:
        load_level(path)
    assert "bad\\xff.tmj" in str(err.value)
    str(err.value).encode("utf-8")  # printable: no surrogate left in the message
