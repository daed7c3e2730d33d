"""Textures made once per window and shared by every level view (a restart reuses them)."""

from __future__ import annotations

from dataclasses import dataclass

import arcade

from .textures import AgentImage, enemy_image, exit_image, fish_image, player_image, rock_image

__all__ = ["ROCK_VARIANTS", "AgentTexture", "TextureBank"]

ROCK_VARIANTS = 4


@dataclass(frozen=True)
class AgentTexture:
    """An arcade texture and the texture radius (px) that matches a physics radius."""

    texture: arcade.Texture
    body_px: float

    def scale_for(self, radius: float) -> float:
        """Sprite scale that makes the body cover a circle of ``radius`` world px."""
        return float(radius) / self.body_px


def _texture(img: AgentImage) -> AgentTexture:
    return AgentTexture(arcade.Texture(img.image, hash=f"steering-{img.name}"), img.body_px)


class TextureBank:
    """Every generated texture: agents, rock variants (fixed and pushable), exits by size."""

    def __init__(self) -> None:
        self.player = _texture(player_image())
        self.enemy = _texture(enemy_image(pursuing=False))
        self.enemy_chase = _texture(enemy_image(pursuing=True))
        self.fish = _texture(fish_image())
        self.rocks = {
            (v, pushable): _texture(rock_image(v, pushable))
            for v in range(ROCK_VARIANTS)
            for pushable in (False, True)
        }
        self._exits: dict[tuple[int, int], arcade.Texture] = {}

    def rock(self, variant: int, pushable: bool) -> AgentTexture:
        """The rock texture for a variant number (any int) and the pushable flag."""
        return self.rocks[(variant % ROCK_VARIANTS, pushable)]

    def exit(self, width: float, height: float) -> arcade.Texture:
        """An exit gate texture of this size in px (made on first use)."""
        key = (max(round(width), 4), max(round(height), 4))
        tex = self._exits.get(key)
        if tex is None:
            tex = arcade.Texture(exit_image(*key), hash=f"steering-exit-{key[0]}x{key[1]}")
            self._exits[key] = tex
        return tex
