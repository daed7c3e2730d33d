"""The tuning file: the shipped one is complete and documented; bad ones get one clear line."""

from __future__ import annotations

import copy
import json
import math
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from game.level import LevelError
from game.level.shipped import REPO_ROOT
from game.world import TUNING_FILE, TuningError, World, default_tuning, load_tuning
from game.world.tuning import Tuning, parse_tuning
from tests.unit.world.helpers import ascii_level

SHIPPED: dict[str, Any] = json.loads(TUNING_FILE.read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "tuning.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _error(tmp_path: Path, data: object) -> TuningError:
    path = _write(tmp_path, data)
    with pytest.raises(TuningError) as info:
        load_tuning(path)
    message = str(info.value)
    assert "\n" not in message
    assert str(path) in message
    return info.value


def test_the_shipped_file_loads_and_reproduces_the_old_constants() -> None:
    tuning = load_tuning()
    assert tuning == default_tuning()
    # the values the brains held as code constants before the file existed
    assert tuning.crowd.separation_weight == 1.5
    assert tuning.crowd.goal_weight == 1.0
    assert tuning.crowd.player_gain == 8.0
    assert tuning.patrol.patrol_speed == 0.6
    assert tuning.patrol.lose_sight_after == 2.0
    assert tuning.patrol.leash == 200.0
    assert tuning.patrol.sight_angle == 135.0  # all round but a blind back (issue 44)
    assert tuning.patrol.turn_rate is None  # the heading snaps, as before
    assert tuning.fish.flee_distance == 110.0
    assert tuning.fish.extra_wander_weight == 0.35
    assert tuning.fish.turn_rate is None


def test_every_field_of_the_file_is_documented() -> None:
    text = (REPO_ROOT / "docs" / "tuning.md").read_text(encoding="utf-8")
    for section in fields(Tuning):
        assert f"### `{section.name}`" in text, section.name
        part = text.split(f"### `{section.name}`", 1)[1].split("\n### ", 1)[0]
        for spec in fields(getattr(default_tuning(), section.name)):
            assert f"| `{spec.name}` |" in part, (section.name, spec.name)


@pytest.mark.parametrize(
    ("archetype", "field", "value", "words"),
    [
        ("patrol", "patrol_speed", 0, "must be > 0"),
        ("patrol", "patrol_speed", 1.5, "must be at most 1"),
        ("sentinel", "ratio", -0.1, "must be >= 0"),
        ("sentinel", "sight_angle", 200, "must be at most 180 deg"),
        (
            "formation",
            "turn_rate",
            "fast",
            'expected a number or null (no limit), got string "fast"',
        ),
        ("fish", "queue_brake", True, "expected a number, got boolean true"),
        ("hider", "panic_distance", None, "expected a number, got null"),
        ("crowd", "player_gain", 1e999, "must be a finite number"),
        ("hider", "calm_distance", 100, "must be at least panic_distance"),
    ],
)
def test_a_bad_value_names_the_file_archetype_and_field(
    tmp_path: Path, archetype: str, field: str, value: object, words: str
) -> None:
    data = copy.deepcopy(SHIPPED)
    data[archetype][field] = value
    text = json.dumps(data).replace("Infinity", "1e999")
    path = tmp_path / "tuning.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TuningError) as info:
        load_tuning(path)
    message = str(info.value)
    assert f'{path}: archetype "{archetype}", field "{field}": ' in message
    assert words in message
    assert isinstance(info.value, LevelError)  # the CLI's and views' handlers catch it


def test_missing_and_unknown_names_are_refused_with_a_suggestion(tmp_path: Path) -> None:
    data = copy.deepcopy(SHIPPED)
    del data["fish"]["flee_distance"]
    assert 'archetype "fish", field "flee_distance": missing' in str(_error(tmp_path, data))
    data = copy.deepcopy(SHIPPED)
    data["patrol"]["leesh"] = 3
    assert 'field "leesh": unknown field; did you mean "leash"?' in str(_error(tmp_path, data))
    data = copy.deepcopy(SHIPPED)
    data["sentinal"] = data.pop("sentinel")
    assert 'did you mean "sentinel"?' in str(_error(tmp_path, data))
    data = copy.deepcopy(SHIPPED)
    del data["hider"]
    assert 'archetype "hider": missing' in str(_error(tmp_path, data))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "invalid JSON at line 1"),
        ("[1, 2]", "expected a JSON object of archetypes, got a list"),
        ('{"patrol": NaN}', "NaN is not allowed"),
        ('{"crowd": 3}', 'archetype "crowd": expected an object of fields, got number 3'),
    ],
)
def test_unreadable_files_get_one_line(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "tuning.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TuningError) as info:
        load_tuning(path)
    assert str(info.value).startswith(f"{path}: ")
    assert words in str(info.value)


def test_a_missing_file_is_a_tuning_error(tmp_path: Path) -> None:
    with pytest.raises(TuningError, match="cannot read"):
        load_tuning(tmp_path / "nope.json")


def test_a_designer_tunes_an_archetype_without_touching_python(tmp_path: Path) -> None:
    # Given the shipped file with the fish fleeing from much farther away
    data = copy.deepcopy(SHIPPED)
    data["fish"]["flee_distance"] = 400.0
    tuning = parse_tuning(data, "edited.json")
    # When a fish 224 px from the player is simulated with each tuning
    far = ["..........", ".P......n.", ".........."]
    calm, scared = World(ascii_level(far)), World(ascii_level(far), tuning=tuning)
    calm.step()
    scared.step()
    # Then only the one with the edited tuning flees
    assert calm.mode_names[1] != "flee"
    assert scared.mode_names[1] == "flee"
    assert math.isclose(scared.brain.flee_distance, 400.0)
