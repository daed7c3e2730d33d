"""The environment's id, its registration, and what importing loads (each in a fresh
interpreter, so nothing a test imported before counts)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

from tests.helpers.sources import ROOT as REPO


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_game_never_loads_gymnasium() -> None:
    code = "import sys, game, game.world, game.level; print('gymnasium' in sys.modules)"
    assert _run(code) == "False"


def test_import_game_env_registers_it_without_arcade() -> None:
    code = (
        "import sys, gymnasium, game.env\n"
        "env = gymnasium.make('steering-game/Stealth-v0', level='08_sentries')\n"
        "obs, _ = env.reset(seed=1)\n"
        "print(obs.shape, 'arcade' in sys.modules)"
    )
    assert _run(code) == "(72,) False"


def test_the_module_in_the_id_registers_it() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('game.env:steering-game/Stealth-v0', level='1', rays=8)\n"
        "print(env.observation_space.shape)"
    )
    assert _run(code) == "(40,)"


def test_the_entry_point_registers_it() -> None:
    # Given the installed package's gymnasium.envs entry point
    (point,) = [e for e in entry_points(group="gymnasium.envs") if e.name == "steering-game"]
    # When a fresh interpreter loads and calls it, as Gymnasium's plugin loader did
    code = (
        "from importlib.metadata import entry_points\n"
        "import gymnasium\n"
        "(p,) = [e for e in entry_points(group='gymnasium.envs') if e.name == 'steering-game']\n"
        "p.load()()\n"
        "print('steering-game/Stealth-v0' in gymnasium.registry)"
    )
    # Then the id is registered
    assert point.value == "game.env:register_envs"
    assert _run(code) == "True"
