"""docs/steering.md names every public name of the core, its pictures exist, and its code runs."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

import steering

DOC = Path(__file__).resolve().parents[3] / "docs" / "steering.md"


def test_every_public_name_of_the_core_is_in_the_guide() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [name for name in steering.__all__ if f"`{name}" not in text]
    assert not missing


def test_every_picture_exists_and_is_small() -> None:
    text = DOC.read_text(encoding="utf-8")
    pictures = re.findall(r"\]\((img/[^)]+\.png)\)", text)
    assert len(pictures) >= 20
    for rel in pictures:
        path = DOC.parent / rel
        assert path.is_file(), rel
        assert path.stat().st_size < 60_000, rel


def test_the_guide_code_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    scope: dict[str, object] = {}
    exec(blocks[0], scope)  # the three-line loop
    exec(blocks[1], scope)  # the Orbit behaviour
    agents = steering.AgentGroup.create(np.random.default_rng(0).uniform(0, 600, (50, 2)))
    orbit = scope["Orbit"]((320.0, 180.0))  # type: ignore[operator]
    for _ in range(1200):
        debug: steering.Debug = {}
        steering.integrate(agents, orbit(agents, 1 / 60, debug), 1 / 60)
    d = np.hypot(*(agents.pos - (320.0, 180.0)).T)
    assert d.min() > 95.0 and d.max() < 120.0
    assert debug["orbit.distance"].shape == (50,)
