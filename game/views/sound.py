"""Sound effects (CC0, from arcade's built-in resources, copied into ``resources/sounds``).

Loading or playing never crashes the game: without an audio device pyglet falls back to its
silent driver, and any other failure is logged once and the effect is skipped.
"""

from __future__ import annotations

import logging

import arcade

from game.level import RESOURCES_DIR

__all__ = ["SOUND_FILES", "Sounds"]

log = logging.getLogger(__name__)

SOUND_FILES = {
    "won": RESOURCES_DIR / "sounds" / "upgrade4.wav",
    "caught": RESOURCES_DIR / "sounds" / "lose3.wav",
}


class Sounds:
    """The game's effects and the mute switch.

    Args:
        muted: Start muted.
        volume: 0..1.
    """

    def __init__(self, muted: bool = False, volume: float = 0.6) -> None:
        self.muted = muted
        self.volume = volume
        self._sounds: dict[str, arcade.Sound] = {}
        for name, path in SOUND_FILES.items():
            try:
                self._sounds[name] = arcade.Sound(path)
            except Exception as err:  # a missing codec or file must not stop the game
                log.warning("sound %s (%s) not loaded: %s", name, path, err)

    def toggle_mute(self) -> bool:
        """Switch muting; returns whether sound is now muted."""
        self.muted = not self.muted
        return self.muted

    def play(self, name: str) -> None:
        """Play effect ``name`` unless muted or unavailable."""
        sound = self._sounds.get(name)
        if self.muted or sound is None:
            return
        try:
            sound.play(volume=self.volume)
        except Exception as err:  # audio devices fail in many ways; the game goes on
            log.warning("sound %s failed: %s", name, err)
            self._sounds.pop(name, None)
