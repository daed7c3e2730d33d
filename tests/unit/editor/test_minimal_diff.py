"""Saving changes only the edited object: in every shipped level, a git-style diff of the
saved file after one edit touches only that object's lines (Tiled's key order is kept)."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from game.editor import EditModel
from game.editor.objects import Ref
from game.level import CLASSES, LEVELS_DIR, RESOURCES_DIR, shipped_levels


def _block(lines: list[str], object_id: int) -> range:
    """The line numbers of the object with ``object_id`` in a Tiled-indented file."""
    # Objects sit deeper than the layers, whose ids are numbered apart from the objects'.
    hits = [i for i, line in enumerate(lines) if line.strip() == f'"id": {object_id},']
    at = max(hits, key=lambda i: len(lines[i]) - len(lines[i].lstrip()))
    indent = len(lines[at]) - len(lines[at].lstrip()) - 1
    start = next(i for i in range(at, -1, -1) if lines[i] == " " * indent + "{")
    end = next(i for i in range(at, len(lines)) if lines[i].startswith(" " * indent + "}"))
    return range(start, end + 1)


def _changed_old_lines(old: list[str], new: list[str]) -> set[int]:
    changed: set[int] = set()
    for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        if tag != "equal":
            changed.update(range(i1, max(i2, i1 + 1)))
    return changed


LEVELS = [p.name for p in shipped_levels()]


@pytest.mark.parametrize("name", LEVELS)
def test_one_rock_edited_changes_only_its_lines(name: str, tmp_path: Path) -> None:
    # A copy beside a link to the resources, so relative image paths still resolve
    (tmp_path / "levels").mkdir()
    (tmp_path / "resources").symlink_to(RESOURCES_DIR, target_is_directory=True)
    target = tmp_path / "levels" / name
    shutil.copyfile(LEVELS_DIR / name, target)
    model = EditModel.open(target)
    if not model.level.obstacles:
        pytest.skip("no rocks")
    rock = model.level.obstacles[0]
    # When the first rock is made heavier and moved a little, then saved
    assert model.set_property(Ref("obstacles", 0), CLASSES["obstacle"].prop("mass"), "33")
    model.move_rock(0, rock.x + 3.0, rock.y)
    model.save()
    old = (LEVELS_DIR / name).read_text(encoding="utf-8").splitlines()
    new = target.read_text(encoding="utf-8").splitlines()
    # Then every changed line lies inside that rock's object
    changed = _changed_old_lines(old, new)
    assert changed, "the edit changed nothing"
    assert changed <= set(_block(old, rock.id))
    assert len(new) - len(old) <= 7  # a new "properties" list of one: 7 lines


def test_an_enemy_property_changes_only_its_lines(tmp_path: Path) -> None:
    target = tmp_path / "01_patrol.tmj"
    shutil.copyfile(LEVELS_DIR / "01_patrol.tmj", target)
    model = EditModel.open(target)
    guard = model.level.enemies[1]
    assert model.set_property(Ref("enemies", 1), CLASSES["enemy"].prop("sight"), "321")
    model.save()
    old = (LEVELS_DIR / "01_patrol.tmj").read_text(encoding="utf-8").splitlines()
    new = target.read_text(encoding="utf-8").splitlines()
    assert _changed_old_lines(old, new) <= set(_block(old, guard.id))
