"""Target settings are typed as arrays once set (issue 42): ``agents.pos - seek.target`` passes
mypy, while construction and assignment take any points."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parents[3]
TYPED = Path(__file__).with_name("typed_targets.py")


def test_target_settings_read_back_as_float64_arrays_under_mypy() -> None:
    # Given a program that reads every behaviour's target settings into array expressions
    # When mypy checks it with the repository's settings (pyproject.toml)
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), str(TYPED)])
    # Then it passes
    assert status == 0, out + err


def test_the_type_checked_program_runs() -> None:
    # The same file runs, so the signatures mypy read are the behaviours' own
    found = runpy.run_path(str(TYPED))
    assert found["to_target"].shape == (3, 2)
    assert all(r.dtype == "float64" for r in found["read"])
