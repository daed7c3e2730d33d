"""The replay file format: what is read, what is refused (one line naming the file, the keyframe
and the field), how keyframe times map to steps, and writing then reading gives the same run."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.clock import DT
from game.level import load_level, resolve_level
from game.recording import (
    MAX_KEYFRAMES,
    MAX_REPLAY_BYTES,
    InputScript,
    Keyframe,
    Recording,
    ReplayError,
    keyframes_from_inputs,
    level_reference,
    load_recording,
    parse_recording,
    recording_json,
    resolve_recording_level,
    save_recording,
    step_of,
)
from game.world.world import _thrust

S = 1.0 / math.sqrt(2.0)


def _write(folder: Path, content: Any, name: str = "run.json") -> Path:
    path = folder / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_an_object_file_gives_level_seed_seconds_and_keyframes(tmp_path: Path) -> None:
    # Given a file in the documented form
    path = _write(
        tmp_path,
        {"level": "rock field", "seed": 9, "seconds": 2.5, "inputs": [[0, 1, 0], [1.5, S, -S]]},
    )
    # When it is read
    rec = load_recording(path)
    # Then every field is there, numbers as floats
    assert rec.level == "rock field" and rec.seed == 9 and rec.seconds == 2.5
    assert rec.keyframes == (Keyframe(0.0, 1.0, 0.0), Keyframe(1.5, S, -S))
    assert rec.source == path


def test_a_bare_list_has_no_level_seed_or_length(tmp_path: Path) -> None:
    rec = load_recording(_write(tmp_path, [[0.25, 0, 1]]))
    assert rec == Recording((Keyframe(0.25, 0.0, 1.0),), source=tmp_path / "run.json")
    with pytest.raises(ReplayError, match='field "level": a bare list'):
        resolve_recording_level(rec)
    assert resolve_recording_level(rec, "2") == resolve_level("2")


GOOD = {"level": "1", "seed": 0, "inputs": [[0, 1, 0], [1, 0, 0]]}

#: (name, file content, what the one line must contain after the file name)
BAD: list[tuple[str, Any, str]] = [
    ("not JSON", "{level: 1", "not JSON: line 1 column 2"),
    ("empty file", "", "not JSON: line 1 column 1"),
    ("a number", "3", "got a number"),
    ("unknown key", {**GOOD, "speed": 2}, 'field "speed": unknown key'),
    ("missing level", {"seed": 0, "inputs": []}, 'field "level": missing'),
    ("missing seed", {"level": "1", "inputs": []}, 'field "seed": missing'),
    ("missing inputs", {"level": "1", "seed": 0}, 'field "inputs": missing'),
    ("level not text", {**GOOD, "level": 3}, 'field "level": must be'),
    ("level empty", {**GOOD, "level": " "}, 'field "level": must be'),
    ("seed a float", {**GOOD, "seed": 1.5}, 'field "seed": must be an integer'),
    ("seed true", {**GOOD, "seed": True}, 'field "seed": must be an integer'),
    ("seed negative", {**GOOD, "seed": -1}, 'field "seed": must be an integer'),
    ("seed too big", {**GOOD, "seed": 2**32}, "0..4,294,967,295"),
    ("seconds zero", {**GOOD, "seconds": 0}, 'field "seconds": must be in (0, 3600]'),
    ("seconds text", {**GOOD, "seconds": "5"}, 'field "seconds": must be a number'),
    ("inputs an object", {**GOOD, "inputs": {}}, 'field "inputs": must be a list'),
    (
        "NaN in an inputs object",
        '{"level": "1", "seed": 0, "inputs": {"a": NaN}}',
        'field "inputs"',
    ),
    (
        "key twice in inputs",
        '{"level": "1", "seed": 0, "inputs": {"a": 1, "a": 2}}',
        'field "inputs"',
    ),
    ("keyframe short", [[0, 1]], "keyframe 0: must be [t, thrust_x, thrust_y]"),
    (
        "keyframe short, bad",
        [["x", 1]],
        'keyframe 0: must be [t, thrust_x, thrust_y], got ["x", 1]',
    ),
    ("keyframe short, below 0", [[-5, 0]], "keyframe 0: must be [t, thrust_x, thrust_y]"),
    ("keyframe an object", [[0, 1, 0], {"t": 1}], "keyframe 1: must be [t, thrust_x"),
    ("time text", [[0, 1, 0], ["1", 0, 0]], 'keyframe 1, field "t": must be a number'),
    ("thrust null", [[0, None, 0]], 'keyframe 0, field "thrust_x": must be a number'),
    ("thrust false", [[0, 0, False]], 'keyframe 0, field "thrust_y": must be a number'),
    ("NaN", "[[0, 1, 0], [1, NaN, 0]]", 'keyframe 1, field "thrust_x": NaN is not allowed'),
    ("Infinity", "[[Infinity, 1, 0]]", 'keyframe 0, field "t": Infinity is not allowed'),
    ("1e999", "[[0, 0, -1e999]]", 'keyframe 0, field "thrust_y": -Infinity is not allowed'),
    ("huge integer", f"[[0, {'9' * 400}, 0]]", 'field "thrust_x": number too large'),
    ("negative time", [[-0.5, 1, 0]], 'keyframe 0, field "t": must be in 0..3600 s'),
    ("time past an hour", [[3600.5, 1, 0]], 'keyframe 0, field "t": must be in 0..3600 s'),
    ("time backwards", [[0, 1, 0], [2, 0, 1], [1, 0, 0]], 'keyframe 2, field "t": time goes'),
    ("thrust too long", [[0, 0.8, 0.8]], 'keyframe 0, field "thrust": thrust (0.8, 0.8) is 1.13'),
    ("thrust just over", [[0, 1.00001, 0]], 'keyframe 0, field "thrust"'),
]


@pytest.mark.parametrize(("content", "says"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_file_is_one_line_naming_file_keyframe_and_field(
    tmp_path: Path, content: Any, says: str
) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(ReplayError) as info:
        load_recording(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    assert says in message


def test_a_thrust_within_the_tolerance_is_accepted(tmp_path: Path) -> None:
    rec = load_recording(_write(tmp_path, [[0, 1.0000009, 0], [0, S, S]]))
    assert rec.keyframes[0].x == 1.0000009


def test_files_that_are_not_files_or_too_big(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="is a directory"):
        load_recording(tmp_path)
    with pytest.raises(ReplayError, match="cannot read: No such file"):
        load_recording(tmp_path / "nope.json")
    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.truncate(MAX_REPLAY_BYTES + 1)
    with pytest.raises(ReplayError, match="at most 16,777,216"):
        load_recording(big)
    with pytest.raises(ReplayError, match=f"at most {MAX_KEYFRAMES:,}"):
        parse_recording([[0, 0, 0]] * (MAX_KEYFRAMES + 1))


def test_an_unknown_level_names_the_field(tmp_path: Path) -> None:
    rec = load_recording(_write(tmp_path, {**GOOD, "level": "no such level"}))
    with pytest.raises(ReplayError) as info:
        resolve_recording_level(rec)
    assert str(info.value).startswith(f'{tmp_path / "run.json"}: field "level": ')
    assert "no such level file or shipped level" in str(info.value)


def test_a_relative_level_is_found_beside_the_file_before_shipped_names(tmp_path: Path) -> None:
    # Given a copy of level 1 named "2" beside the replay file (and a shipped level 2)
    (tmp_path / "2").write_bytes(resolve_level("1").read_bytes())
    rec = load_recording(_write(tmp_path, {**GOOD, "level": "2"}))
    # Then the file beside it wins; a shipped name still works when nothing is beside it
    assert resolve_recording_level(rec) == tmp_path / "2"
    assert resolve_recording_level(rec, "patrol") == resolve_level("patrol")


def test_level_references_name_shipped_levels_by_stem_and_others_relatively(
    tmp_path: Path,
) -> None:
    shipped = resolve_level("rock field")
    assert level_reference(shipped, tmp_path / "r.json") == shipped.stem
    own = tmp_path / "levels" / "mine.tmj"
    assert level_reference(own, tmp_path / "runs" / "r.json") == "../levels/mine.tmj"


def test_times_map_to_steps_by_rounding() -> None:
    # Given keyframes between steps, two on one step, and one exactly on a step
    script = InputScript(
        [
            Keyframe(0.02, 1.0, 0.0),  # 1.2 steps -> step 1
            Keyframe(0.1, 0.0, 1.0),  # step 6
            Keyframe(0.105, -1.0, 0.0),  # 6.3 steps -> also step 6: the later wins
            Keyframe(0.5, 0.0, 0.0),  # step 30
        ]
    )
    # Then each step's thrust is the last keyframe at or before it; zero before the first
    got = [script.thrust(k) for k in (0, 1, 5, 6, 29, 30, 10_000)]
    assert got == [(0, 0), (1, 0), (1, 0), (-1, 0), (-1, 0), (0, 0), (0, 0)]
    assert step_of(0.0) == 0 and step_of(DT * 1e5) == 100_000


def test_keyframes_are_written_only_where_the_thrust_changes() -> None:
    inputs = [(0.0, 0.0)] * 3 + [(1.0, 0.0)] * 4 + [(S, S)] * 2 + [(0.0, 0.0)]
    assert keyframes_from_inputs(inputs) == [
        Keyframe(0.05, 1.0, 0.0),
        Keyframe(0.116667, S, S),
        Keyframe(0.15, 0.0, 0.0),
    ]
    assert keyframes_from_inputs([(0.0, 0.0)] * 5) == []


def test_recorded_times_map_back_to_their_steps_for_an_hour() -> None:
    # Given a thrust that changes at every step of an hour
    steps = np.arange(0, round(3600 / DT) + 1)
    # Then the written (rounded) time of every step maps back to that step
    assert all(step_of(round(int(k) * DT, 6)) == k for k in steps)


def test_writing_then_reading_gives_the_same_recording(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    angles = rng.uniform(0, 2 * np.pi, 50)
    keys = tuple(
        Keyframe(round(k * 7 * DT, 6), float(np.cos(a)), float(np.sin(a)))
        for k, a in enumerate(angles)
    )
    rec = Recording(keys, "03_rockfield", 4_294_967_295, 12.5)
    path = save_recording(tmp_path / "r.json", rec)
    back = load_recording(path)
    assert back == Recording(keys, "03_rockfield", 4_294_967_295, 12.5, source=path)
    assert json.loads(recording_json(rec))["inputs"][3] == list(keys[3])
    empty = Recording((), "x", 0)
    assert json.loads(recording_json(empty)) == {"level": "x", "seed": 0, "inputs": []}


def test_a_shortened_thrust_passes_the_world_unchanged_again() -> None:
    # A recorded World.inputs entry is already shortened; a replay must not shorten it again.
    rng = np.random.default_rng(0)
    for v in rng.normal(0.0, 2.0, (20_000, 2)):
        once = _thrust(v)
        assert np.array_equal(_thrust(once), once)


def test_the_shipped_levels_in_a_recording_load() -> None:
    rec = parse_recording({"level": "rock field", "seed": 1, "inputs": []})
    assert load_level(resolve_recording_level(rec)).title


def test_a_thrust_length_shows_the_digits_that_refuse_it() -> None:
    data = [[0.0, 1.0000011, 0.0]]  # a bare list of [t, thrust_x, thrust_y] keyframes
    with pytest.raises(ReplayError) as err:
        parse_recording(data)
    assert "is 1.0000011 long; at most 1" in str(err.value)


def test_a_whole_float_seed_is_shown_as_written() -> None:
    # Issue 43: a seed of 3.0 was refused with "got 3", which reads as the integer it wants
    with pytest.raises(ReplayError) as err:
        parse_recording({"level": "rock field", "seed": 3.0, "inputs": []})
    assert "3.0" in str(err.value) and "got 3," not in str(err.value) + ","
