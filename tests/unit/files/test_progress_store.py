"""The progress store: atomic saves, best times kept, missing or corrupt files never crash."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from game.progress import ENV_VAR, LevelRecord, Progress, ProgressStore, default_progress_path


def test_missing_file_is_a_first_run(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path / "none" / "progress.json")
    assert store.progress == Progress()
    assert store.record("01_patrol") == LevelRecord()


def test_a_win_is_saved_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "progress.json"
    rec, new_best = ProgressStore(path).record_win("01_patrol", 12.5)
    assert new_best and rec == LevelRecord(1, 12.5)
    again = ProgressStore(path)
    assert again.record("01_patrol") == LevelRecord(1, 12.5)
    assert json.loads(path.read_text())["version"] == 1
    assert [p.name for p in path.parent.iterdir()] == ["progress.json"]  # no temp files left


def test_a_slower_win_keeps_the_best_time(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path / "p.json")
    store.record_win("a", 10.0)
    rec, new_best = store.record_win("a", 14.0)
    assert not new_best and rec == LevelRecord(2, 10.0)
    rec, new_best = store.record_win("a", 9.0)
    assert new_best and rec == LevelRecord(3, 9.0)


def test_two_games_never_lose_each_others_best_times(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    first, second = ProgressStore(path), ProgressStore(path)
    first.record_win("a", 10.0)
    second.record_win("b", 20.0)  # second never saw "a" in memory
    second.record_win("a", 30.0)
    final = ProgressStore(path)
    assert final.record("a").best_time == 10.0
    assert final.record("b").best_time == 20.0


@pytest.mark.parametrize(
    "text", ["{not json", "[]", '{"levels": 3}', '{"levels": {"a": {"best_time": NaN}}}', ""]
)
def test_a_corrupt_file_is_ignored_with_a_warning_and_kept_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, text: str
) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    with caplog.at_level(logging.WARNING, logger="game.progress"):
        store = ProgressStore(path)
    assert store.progress == Progress()
    assert any("corrupt" in r.message for r in caplog.records)
    assert (tmp_path / "p.json.corrupt").read_text() == text  # nothing lost for good
    store.record_win("a", 5.0)
    assert ProgressStore(path).record("a").best_time == 5.0


def test_bad_entries_are_skipped_and_good_ones_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps(
            {
                "levels": {
                    "good": {"wins": 2, "best_time": 7.5},
                    "negative": {"wins": 1, "best_time": -3},
                    "text": {"wins": "many"},
                    "list": [],
                }
            }
        )
    )
    with caplog.at_level(logging.WARNING, logger="game.progress"):
        store = ProgressStore(path)
    assert store.progress.levels == {"good": LevelRecord(2, 7.5)}
    # three skipped entries, and where the file with them is kept
    assert len(caplog.records) == 4
    kept = tmp_path / "p.json.corrupt"
    assert json.loads(kept.read_text())["levels"]["text"] == {"wins": "many"}


def test_a_failed_save_keeps_the_old_file_and_the_time_in_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "p.json"
    ProgressStore(path).record_win("a", 10.0)
    store = ProgressStore(path)
    store.path = tmp_path / "missing-file-as-dir" / "p.json"
    (tmp_path / "missing-file-as-dir").write_text("a file, not a folder")
    with caplog.at_level(logging.WARNING, logger="game.progress"):
        rec, _ = store.record_win("a", 4.0)
    assert rec.best_time == 4.0  # still known in memory
    assert any("cannot save" in r.message for r in caplog.records)
    assert ProgressStore(path).record("a").best_time == 10.0


def test_in_memory_store_touches_no_file(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    store = ProgressStore(path, persist=False)
    store.record_win("a", 1.0)
    assert not path.exists()


def test_location_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "x.json"))
    assert default_progress_path() == tmp_path / "x.json"
    monkeypatch.delenv(ENV_VAR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_progress_path() == tmp_path / "steering-game" / "progress.json"


def test_the_default_folder_is_under_xdg_data_home_when_it_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given no override and a data folder of the user's own
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    # When the game asks where progress lives
    path = default_progress_path()
    # Then it is under that folder (platformdirs honours XDG_DATA_HOME on Linux)
    assert path.is_relative_to(tmp_path / "data")
    assert path.name == "progress.json"
    # And a win saved there is read back
    ProgressStore(path).record_win("a", 3.0)
    assert ProgressStore(default_progress_path()).record("a") == LevelRecord(1, 3.0)


def test_progress_kept_in_the_old_xdg_folder_on_another_system_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a system whose data folder is elsewhere (macOS, Windows), and progress saved before
    # platformdirs, in the XDG folder every system used then
    import platformdirs

    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(
        platformdirs, "user_data_path", lambda *a, **k: tmp_path / "Application Support" / a[0]
    )
    old = tmp_path / "xdg" / "steering-game" / "progress.json"
    old.parent.mkdir(parents=True)
    ProgressStore(old).record_win("a", 3.0)
    # When the game asks where progress lives, the old file is used
    assert default_progress_path() == old
    assert ProgressStore(default_progress_path()).record("a") == LevelRecord(1, 3.0)
    # And without an old file, it is the system's own folder
    old.unlink()
    expected = tmp_path / "Application Support" / "steering-game" / "progress.json"
    assert default_progress_path() == expected
