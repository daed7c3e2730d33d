"""The progress file: every start survives whatever is on disk, and nothing in it is lost."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.progress import LevelRecord, ProgressStore


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_byte_order_mark_is_read_as_utf8(tmp_path: Path) -> None:
    # Given a good file saved by an editor that adds a BOM
    path = tmp_path / "progress.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"levels": {"a": {"wins": 3}}}).encode())
    # When the game starts, Then the record is there and the file is not set aside
    assert ProgressStore(path).record("a") == LevelRecord(3, None)
    assert _names(tmp_path) == ["progress.json"]


def test_invalid_utf8_is_set_aside_and_the_game_starts(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_bytes(b'{"levels": {"\xff\xfe": {"wins": 1}}}')
    store = ProgressStore(path)
    assert store.progress.levels == {}
    assert _names(tmp_path) == ["progress.json.corrupt"]
    assert (tmp_path / "progress.json.corrupt").read_bytes().startswith(b'{"levels"')


def test_a_huge_integer_is_a_bad_entry_kept_in_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text('{"levels": {"big": {"wins": ' + "9" * 400 + '}, "ok": {"wins": 2}}}')
    store = ProgressStore(path)
    assert store.progress.levels == {"ok": LevelRecord(2, None)}
    assert store.save()
    # the skipped entry survives in the copy, the good one in the new file
    assert "9" * 400 in (tmp_path / "progress.json.corrupt").read_text()
    assert json.loads(path.read_text())["levels"] == {"ok": {"wins": 2, "best_time": None}}


def test_an_infinite_number_is_not_dropped_silently_at_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    original = '{"levels": {"a": {"wins": 1e400}, "b": {"wins": 1, "best_time": 4.5}}}'
    path.write_text(original)
    store = ProgressStore(path)
    store.record_win("b", 3.0)
    assert (tmp_path / "progress.json.corrupt").read_text() == original
    assert not (tmp_path / "progress.json.corrupt.1").exists()  # kept once, not per read
    assert ProgressStore(path).record("b") == LevelRecord(2, 3.0)


def test_a_second_corrupt_file_never_overwrites_the_first(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text("first {")
    ProgressStore(path)
    path.write_text("second {")
    ProgressStore(path)
    path.write_text("third {")
    ProgressStore(path)
    kept = {n: (tmp_path / n).read_text() for n in _names(tmp_path)}
    assert kept == {
        "progress.json.corrupt": "first {",
        "progress.json.corrupt.1": "second {",
        "progress.json.corrupt.2": "third {",
    }


def test_a_fifo_is_never_read_renamed_or_replaced(tmp_path: Path) -> None:
    # Given a progress path that is a FIFO (reading it would block the game forever)
    path = tmp_path / "progress.json"
    os.mkfifo(path)
    # When the game starts and the player wins
    store = ProgressStore(path)
    rec, _ = store.record_win("a", 5.0)
    # Then the win counts in memory, and the FIFO is still a FIFO, alone in its folder
    assert rec == LevelRecord(1, 5.0)
    assert not store.save()
    assert _names(tmp_path) == ["progress.json"]
    assert not path.is_file() and path.exists()


def test_a_directory_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.mkdir()
    store = ProgressStore(path)
    assert not store.save()
    assert path.is_dir() and _names(tmp_path) == ["progress.json"]


def test_a_symlink_is_written_through_to_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text(json.dumps({"levels": {"a": {"wins": 1}}}))
    link = tmp_path / "progress.json"
    link.symlink_to(real)
    ProgressStore(link).record_win("a", 9.0)
    assert link.is_symlink()
    assert json.loads(real.read_text())["levels"]["a"]["wins"] == 2


def test_a_huge_file_is_set_aside_without_being_parsed(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_bytes(b"[" * (2 << 20))
    assert ProgressStore(path).progress.levels == {}
    assert _names(tmp_path) == ["progress.json.corrupt"]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)
_entry = st.dictionaries(st.sampled_from(["wins", "best_time", "x"]), _json, max_size=3)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    content=st.one_of(
        st.binary(max_size=200),
        _json.map(lambda v: json.dumps(v).encode()),
        st.dictionaries(st.text(max_size=6), _entry | _json, max_size=5).map(
            lambda levels: json.dumps({"version": 1, "levels": levels}).encode()
        ),
    )
)
def test_fuzz_every_start_survives_and_nothing_is_lost(tmp_path: Path, content: bytes) -> None:
    # Given any bytes in the progress file
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "progress.json"
    path.write_bytes(content)
    # When the game starts and saves a win
    store = ProgressStore(path)
    store.record_win("won", 2.0)
    # Then the new file loads with the win
    assert ProgressStore(path).record("won").wins >= 1
    # And the old bytes are kept beside it, unless every record of them is in the new file
    kept = [p.read_bytes() for p in folder.iterdir() if p.name != "progress.json"]
    if content not in kept:
        old = json.loads(content.decode("utf-8-sig"))["levels"]
        new = json.loads(path.read_bytes())["levels"]
        assert set(old) <= set(new)


def test_a_refused_number_or_a_level_given_twice_skips_that_entry_only(tmp_path: Path) -> None:
    # Given a file whose level "a" is written twice and whose level "b" holds a NaN
    path = tmp_path / "progress.json"
    original = (
        '{"levels": {"a": {"wins": 1}, "b": {"best_time": NaN}, "c": {"wins": 4},'
        ' "a": {"wins": 9}}}'
    )
    path.write_text(original)
    # When the game starts and saves a win
    store = ProgressStore(path)
    assert store.progress.levels == {"c": LevelRecord(4, None)}
    assert sorted(store.progress.skipped) == ["a", "b"]
    store.record_win("c", 2.0)
    # Then the good entry is kept, and the whole old file beside it
    assert (tmp_path / "progress.json.corrupt").read_text() == original
    assert ProgressStore(path).record("c") == LevelRecord(5, 2.0)


def test_a_refused_value_outside_the_levels_sets_the_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text('{"version": NaN, "levels": {"a": {"wins": 1}}}')
    assert ProgressStore(path).progress.levels == {}
    assert _names(tmp_path) == ["progress.json.corrupt"]


def test_a_whole_float_count_of_wins_is_shown_as_written(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Issue 43: "got number 1" for "wins": 1.0, which reads as the integer it wants
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"levels": {"a": {"wins": 1.0}, "b": {"wins": 2}}}))
    with caplog.at_level("WARNING"):
        store = ProgressStore(path)
        assert store.record("b") == LevelRecord(2, None)
    text = " ".join(r.getMessage() for r in caplog.records)
    assert "number 1.0" in text and "number 1 " not in text + " "
