"""The engine installs alone, as its README says, and imports no game, arcade or pymunk."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_engine_builds_a_typed_wheel_of_its_own(tmp_path: Path) -> None:
    # Given a copy of the engine's folder alone (no game beside it)
    src = tmp_path / "steering"
    shutil.copytree(
        ROOT / "packages" / "steering",
        src,
        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "build", "*.egg-info"),
    )
    # When pip builds its wheel
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-w",
            str(tmp_path),
            str(src),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    wheel = next(tmp_path.glob("reynolds_steering-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    # Then it holds the package, its py.typed marker and licence, and nothing of the game
    assert "steering/__init__.py" in names
    assert "steering/py.typed" in names
    assert any(n.endswith("licenses/LICENSE") for n in names)
    assert not any(n.startswith("game/") for n in names)
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    hard = [r for r in requires if "extra ==" not in r]
    assert sorted(r.split()[1].split(">")[0] for r in hard) == ["numba", "numpy"]


def test_import_steering_needs_no_game_and_no_optional_library() -> None:
    # Given an interpreter where scipy, opensimplex, PIL, arcade, pymunk and pyglet cannot load
    # (numba itself imports scipy when it can: hiding them is the honest test)
    code = (
        "import sys\n"
        "class Hide:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in HIDDEN:\n"
        "            raise ImportError(f'{name} is hidden')\n"
        "HIDDEN = {'scipy', 'opensimplex', 'PIL', 'arcade', 'pymunk', 'pyglet', 'game'}\n"
        "sys.meta_path.insert(0, Hide())\n"
        "import numpy as np, steering as st\n"
        "a = st.AgentGroup.create(np.zeros((3, 2)) + [[0, 0], [5, 0], [0, 5]])\n"
        "f = st.WeightedSum([st.Separate(20.0), st.Seek((100.0, 0.0))])(a, 1 / 60)\n"
        "st.integrate(a, f, 1 / 60)\n"
        "assert np.isfinite(a.pos).all()\n"
    )
    # When the engine is imported and steps, it works
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT / "tests"
    )
    assert result.returncode == 0, result.stderr
