"""The Lab: every steering behaviour and every seed example as an interactive scene.

Scenes (:mod:`game.lab.scenes`, one small file each) are pure NumPy and import no arcade;
:mod:`game.views.lab` shows them in a window and :mod:`game.cli_lab` is ``python -m game lab``.
"""

from __future__ import annotations

from .params import Param, Params
from .registry import SceneNotFoundError, find_scene, normalize, scene_classes
from .scene import FloatArray, Mark, Scene, place_obstacles, seed_force, seed_speed

__all__ = [
    "FloatArray",
    "Mark",
    "Param",
    "Params",
    "Scene",
    "SceneNotFoundError",
    "find_scene",
    "normalize",
    "place_obstacles",
    "scene_classes",
    "seed_force",
    "seed_speed",
]
