"""Finding the scenes: every module in :mod:`game.lab.scenes` that defines ``SCENE``."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache

from .scene import Scene

__all__ = ["LESSON_ORDER", "SceneNotFoundError", "find_scene", "normalize", "scene_classes"]

#: The behaviour scenes in the order a learner meets them: the basics (Seek, Flee, Arrive)
#: first. Scenes not named here come after them by name; the seed examples come last.
LESSON_ORDER = (
    "seek",
    "flee",
    "arrive",
    "wander",
    "pursue_evade",
    "contain",
    "walls",
    "hide",
    "interpose",
    "offset_pursuit",
    "flock",
    "queue",
    "avoid_agents",
    "orientation",
)


class SceneNotFoundError(LookupError):
    """No scene has the name asked for; the message is one line listing close names."""


def normalize(name: str) -> str:
    """A scene name as typed, for matching: lower case, without spaces, dots, dashes and
    underscores (``"Path 5.6"``, ``path-5-6`` and ``path_5_6`` are one name)."""
    return re.sub(r"[\s._\-]+", "", name.lower())


@cache
def scene_classes() -> tuple[type[Scene], ...]:
    """Every scene: the behaviours in :data:`LESSON_ORDER` (the basics first), then the
    seed examples by name.

    A scene is a module ``game/lab/scenes/<name>.py`` with a module attribute ``SCENE`` (a
    :class:`Scene` subclass); its ``name`` is the module's. Adding a file adds a scene.
    """
    from . import scenes

    found: list[type[Scene]] = []
    for info in pkgutil.iter_modules(scenes.__path__):
        module = importlib.import_module(f"{scenes.__name__}.{info.name}")
        cls = getattr(module, "SCENE", None)
        if isinstance(cls, type) and issubclass(cls, Scene):
            cls.name = info.name
            found.append(cls)
    rank = {name: k for k, name in enumerate(LESSON_ORDER)}

    def order(c: type[Scene]) -> tuple[bool, int, str]:
        return (c.name.startswith("seed_"), rank.get(c.name, len(rank)), c.name)

    return tuple(sorted(found, key=order))


def find_scene(name: str) -> type[Scene]:
    """The scene called ``name`` (module name; case, spaces, dots, dashes and underscores do
    not matter; a unique prefix or a name without its ``seed_`` prefix will do).

    Raises:
        SceneNotFoundError: one line naming the closest scenes.
    """
    key = normalize(name)
    classes = scene_classes()
    for cls in classes:
        if normalize(cls.name) in (key, "seed" + key):
            return cls
    hits = [c for c in classes if normalize(c.name).removeprefix("seed").startswith(key)]
    if key and len(hits) == 1:
        return hits[0]
    near = [c.name for c in (hits or classes)][:8]
    more = "" if hits else " (see `python -m game lab --list`)"
    raise SceneNotFoundError(f"no scene {name!r}; scenes: {', '.join(near)}{more}")
