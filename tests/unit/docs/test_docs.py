"""docs/steering.md names every public name of the core, its pictures exist, and its code runs."""

from __future__ import annotations

import importlib.util
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
    assert len(blocks) == 5
    scope: dict[str, object] = {}
    exec(blocks[0], scope)  # the three-line loop
    exec(blocks[2], scope)  # the Orbit behaviour
    agents = steering.AgentGroup.create(np.random.default_rng(0).uniform(0, 600, (50, 2)))
    orbit = scope["Orbit"]((320.0, 180.0))  # type: ignore[operator]
    for _ in range(1200):
        debug: steering.Debug = {}
        steering.integrate(agents, orbit(agents, 1 / 60, debug), 1 / 60)
    d = np.hypot(*(agents.pos - (320.0, 180.0)).T)
    assert d.min() > 95.0 and d.max() < 120.0
    assert debug["orbit.distance"].shape == (50,)


def test_the_guides_fish_keep_clear_of_the_sharks() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    # "Neighbours from another group": the fish's steering, with sharks among them
    rng = np.random.default_rng(1)
    scope: dict[str, object] = {
        "st": steering,
        "dt": 1 / 60,
        "fish_pos": rng.uniform(0, 200, (40, 2)),
        "fish_vel": rng.normal(0, 30, (40, 2)),
        "shark_pos": rng.uniform(0, 200, (3, 2)),
        "shark_vel": rng.normal(0, 30, (3, 2)),
    }
    exec(blocks[1], scope)
    force = scope["force"]
    assert isinstance(force, np.ndarray) and force.shape == (40, 2)
    assert np.isfinite(force).all()


def test_the_guides_own_compiled_loop_flees_and_goes_home(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    # The mode-picking kernel of "Your own compiled loop", as the module a reader would write
    # (numba caches a kernel beside its file).
    source = tmp_path / "mine.py"
    source.write_text(blocks[3], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("mine", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    scope = vars(module)
    pos = np.array([[100.0, 100.0], [100.0, 100.0]])
    vel = np.zeros((2, 2))
    home = np.array([[300.0, 100.0], [300.0, 100.0]])
    threat = np.array([50.0, 100.0])
    out = np.zeros((2, 2))
    mode = np.array([0, 1])  # calm, scared
    limit = np.full(2, 100.0)
    scope["goals"](mode, pos, vel, home, threat, limit, np.full(2, 400.0), out)  # type: ignore[operator]
    assert out[0, 0] > 0.0 and abs(out[0, 1]) < 1e-9  # calm: toward home (+x)
    assert out[1, 0] > 0.0 and abs(out[1, 1]) < 1e-9  # scared: away from the threat (+x)
    assert np.hypot(*out.T).max() <= 400.0 + 1e-9
    mode[1] = 0
    threat[0] = 150.0  # behind nobody now: the calm one still heads home
    scope["goals"](mode, pos, vel, home, threat, limit, np.full(2, 400.0), out)  # type: ignore[operator]
    np.testing.assert_allclose(out[0], out[1])


def test_the_guides_fused_behaviours_equal_the_running_sum(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    # "Fusing whole behaviours into one call", as a module a reader would write, with the
    # agents and behaviours its last lines use
    prelude = (
        "import numpy as np\n"
        "import steering\n"
        "rng = np.random.default_rng(2)\n"
        "agents = steering.AgentGroup.create(rng.uniform(0, 400, (30, 2)), max_speed=150.0)\n"
        "agents.vel[:] = rng.uniform(-150, 150, (30, 2))\n"
        "dt = 1 / 60\n"
        "contain = steering.Contain(0.0, 0.0, 400.0, 400.0)\n"
        "rocks = steering.AvoidObstacles(\n"
        "    steering.Obstacles.create([[200.0, 200.0], [100.0, 300.0]], [40.0, 25.0])\n"
        ")\n"
    )
    source = tmp_path / "fused.py"
    source.write_text(prelude + blocks[4], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("fused", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    scope = vars(module)
    # a twin crowd for the behaviours themselves (the rocks' avoidance remembers a side)
    rng = np.random.default_rng(2)
    twin = steering.AgentGroup.create(rng.uniform(0, 400, (30, 2)), max_speed=150.0)
    twin.vel[:] = rng.uniform(-150, 150, (30, 2))
    expected = np.zeros((30, 2))
    for part in (scope["contain"], scope["rocks"]):  # each alone, summed as the guide says
        steering.TruncatedRunningSum.accumulate(expected, part(twin, 1 / 60), 1.0, twin.max_force)
    np.testing.assert_array_equal(scope["force"], expected)
    assert np.abs(expected).sum() > 0.0
