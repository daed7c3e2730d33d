"""Textures drawn with Pillow at start-up (no image files): agents, rocks and exits.

Every agent texture points along +x and knows which radius in texture pixels stands for the
physics radius, so a sprite scaled by ``radius / body_px`` covers its pymunk circle exactly.
Shapes are drawn 4x larger and downsampled, which antialiases their edges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

__all__ = [
    "AGENT_SIZE",
    "AgentImage",
    "enemy_image",
    "exit_image",
    "fish_image",
    "player_image",
    "rock_image",
]

#: Agent textures are AGENT_SIZE px square; the body circle is BODY_FRACTION of half of that.
AGENT_SIZE = 64
BODY_FRACTION = 0.62
SS = 4  # supersampling factor
#: Height of a fish texture as a fraction of its width (a fish is ~1.95 body radii wide).
SLIM = 0.625

Rgb = tuple[int, int, int]


@dataclass(frozen=True)
class AgentImage:
    """A generated picture and the radius (texture px) that matches the physics radius."""

    image: Image.Image
    body_px: float
    name: str


def _canvas(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw, float]:
    img = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img), size * SS / 2.0


def _finish(img: Image.Image, size: int, height: float = 1.0) -> Image.Image:
    """Downsample; ``height`` < 1 crops rows off top and bottom equally (the centre stays the
    body's centre) so slim shapes do not pay fill rate for empty texture."""
    out = img.resize((size, size), Image.Resampling.LANCZOS)
    if height >= 1.0:
        return out
    rows = round(size * height / 2.0) * 2
    top = (size - rows) // 2
    return out.crop((0, top, size, top + rows))


def _ellipse(
    d: ImageDraw.ImageDraw, cx: float, cy: float, rx: float, ry: float, **kw: object
) -> None:
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), **kw)  # type: ignore[arg-type]


def _glow(size: int, radius: float, color: Rgb, alpha: int) -> Image.Image:
    """A soft round halo (already supersampled size)."""
    halo = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    c = size / 2
    ImageDraw.Draw(halo).ellipse(
        (c - radius, c - radius, c + radius, c + radius), fill=(*color, alpha)
    )
    return halo.filter(ImageFilter.GaussianBlur(radius * 0.25))


def player_image() -> AgentImage:
    """The player's submersible: a gold hull, a porthole at the bow, a propeller at the stern."""
    img, d, c = _canvas(AGENT_SIZE)
    body = c * BODY_FRACTION
    img.alpha_composite(_glow(img.width, body * 1.45, (255, 215, 90), 70))
    d = ImageDraw.Draw(img)
    # propeller and fin at the stern (left)
    d.rectangle(
        (c - body * 1.35, c - body * 0.12, c - body * 0.8, c + body * 0.12), fill=(60, 50, 30)
    )
    _ellipse(d, c - body * 1.3, c, body * 0.14, body * 0.5, fill=(90, 80, 60))
    d.polygon(
        [(c - body * 0.9, c), (c - body * 0.55, c - body * 0.95), (c - body * 0.2, c - body * 0.8)],
        fill=(200, 140, 30),
    )
    d.polygon(
        [(c - body * 0.9, c), (c - body * 0.55, c + body * 0.95), (c - body * 0.2, c + body * 0.8)],
        fill=(200, 140, 30),
    )
    # hull
    _ellipse(d, c, c, body * 1.08, body * 0.82, fill=(40, 30, 10))
    _ellipse(d, c, c, body * 1.0, body * 0.74, fill=(250, 200, 50))
    _ellipse(d, c - body * 0.1, c - body * 0.25, body * 0.7, body * 0.3, fill=(255, 235, 130))
    # porthole
    _ellipse(d, c + body * 0.45, c, body * 0.34, body * 0.34, fill=(40, 30, 10))
    _ellipse(d, c + body * 0.45, c, body * 0.26, body * 0.26, fill=(90, 220, 255))
    _ellipse(d, c + body * 0.38, c - body * 0.08, body * 0.09, body * 0.09, fill=(230, 255, 255))
    return AgentImage(_finish(img, AGENT_SIZE), body / SS, "player")


def _fish(
    d: ImageDraw.ImageDraw,
    c: float,
    body: float,
    fill: Rgb,
    spine: Rgb,
    edge: Rgb,
    fin: Rgb,
    eye: Rgb,
    pupil: Rgb,
    jaw: bool = False,
) -> None:
    """A fish seen from above, nose along +x and symmetric about its axis (so it looks right
    whichever way it turns): forked tail, two pectoral fins, body, spine highlight, two eyes."""
    d.polygon(
        [
            (c - body * 0.7, c),
            (c - body * 1.55, c - body * 0.7),
            (c - body * 1.25, c),
            (c - body * 1.55, c + body * 0.7),
        ],
        fill=fin,
    )
    for side in (-1, 1):
        d.polygon(
            [
                (c + body * 0.25, c + side * body * 0.3),
                (c - body * 0.35, c + side * body * 0.95),
                (c - body * 0.15, c + side * body * 0.3),
            ],
            fill=fin,
        )
    _ellipse(d, c, c, body * 1.1, body * 0.62, fill=edge)
    _ellipse(d, c, c, body * 1.02, body * 0.54, fill=fill)
    _ellipse(d, c - body * 0.1, c, body * 0.7, body * 0.16, fill=spine)
    if jaw:
        d.polygon(
            [
                (c + body * 1.15, c - body * 0.36),
                (c + body * 0.5, c),
                (c + body * 1.15, c + body * 0.36),
            ],
            fill=(70, 0, 0),
        )
        for side in (-1, 1):
            for k in range(3):
                x = c + body * (0.66 + 0.15 * k)
                y = c + side * body * (0.07 + 0.075 * k)
                d.polygon(
                    [(x, y), (x + body * 0.07, c + side * body * 0.01), (x + body * 0.14, y)],
                    fill=(255, 250, 240),
                )
    for side in (-1, 1):
        ex, ey = c + body * 0.55, c + side * body * 0.3
        _ellipse(d, ex, ey, body * 0.15, body * 0.15, fill=eye)
        _ellipse(
            d, ex + body * 0.04, ey + side * body * 0.03, body * 0.075, body * 0.075, fill=pupil
        )


def enemy_image(pursuing: bool) -> AgentImage:
    """A hunter fish: dusky crimson while patrolling; blazing orange, open-jawed and glowing
    while it chases the player."""
    img, d, c = _canvas(AGENT_SIZE)
    body = c * BODY_FRACTION
    if pursuing:
        img.alpha_composite(_glow(img.width, body * 1.5, (255, 90, 30), 130))
        d = ImageDraw.Draw(img)
        _fish(
            d,
            c,
            body,
            (255, 100, 40),
            (255, 200, 100),
            (90, 10, 0),
            (230, 50, 30),
            (255, 255, 120),
            (200, 0, 0),
            jaw=True,
        )
    else:
        _fish(
            d,
            c,
            body,
            (165, 45, 75),
            (215, 100, 120),
            (45, 6, 22),
            (115, 28, 58),
            (245, 235, 235),
            (20, 10, 20),
        )
    crop = 1.0 if pursuing else SLIM  # the glow needs the whole square
    name = "enemy-chase" if pursuing else "enemy"
    return AgentImage(_finish(img, AGENT_SIZE, crop), body / SS, name)


def fish_image() -> AgentImage:
    """A small pale fish, tinted per agent through the sprite colour."""
    img, d, c = _canvas(AGENT_SIZE)
    body = c * BODY_FRACTION
    _fish(
        d,
        c,
        body,
        (232, 238, 240),
        (255, 255, 255),
        (70, 90, 100),
        (185, 200, 208),
        (250, 250, 250),
        (20, 30, 40),
    )
    return AgentImage(_finish(img, AGENT_SIZE, SLIM), body / SS, "fish")


def rock_image(variant: int, pushable: bool, size: int = 128) -> AgentImage:
    """A boulder whose outline stays inside the circle of the physics radius; pushable rocks
    are a lighter sandstone with a pale rim so the player can tell them apart.

    Args:
        variant: Seeds the outline and speckles (a few variants keep rocks from looking cloned).
        pushable: The level's ``dynamic`` flag.
        size: Texture side in px.
    """
    rng = np.random.default_rng(1000 + variant)
    img, d, c = _canvas(size)
    r = c * 0.98
    k = 28
    ang = np.linspace(0, 2 * math.pi, k, endpoint=False)
    wobble = 0.9 + 0.1 * rng.random(k)
    wobble = (wobble + np.roll(wobble, 1) + np.roll(wobble, -1)) / 3
    outline = [
        (c + r * w * math.cos(a), c + r * w * math.sin(a)) for a, w in zip(ang, wobble, strict=True)
    ]
    if pushable:
        edge, base, light, dark = (120, 95, 60), (176, 146, 100), (214, 190, 146), (140, 112, 74)
    else:
        edge, base, light, dark = (30, 28, 30), (92, 86, 84), (134, 126, 120), (66, 62, 62)
    d.polygon(outline, fill=edge)
    inner = [(c + (x - c) * 0.93, c + (y - c) * 0.93) for x, y in outline]
    d.polygon(inner, fill=base)
    # light from the top-left (image y grows downwards)
    hl = Image.new("RGBA", img.size, (0, 0, 0, 0))
    _ellipse(ImageDraw.Draw(hl), c - r * 0.25, c - r * 0.3, r * 0.55, r * 0.45, fill=(*light, 255))
    hl = hl.filter(ImageFilter.GaussianBlur(r * 0.18))
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).polygon(inner, fill=255)
    img.paste(hl, (0, 0), Image.composite(hl, Image.new("RGBA", img.size), mask))
    d = ImageDraw.Draw(img)
    for _ in range(6):
        a = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(0.1, 0.6) * r
        sr = rng.uniform(0.05, 0.12) * r
        x, y = c + dist * math.cos(a), c + dist * math.sin(a)
        _ellipse(d, x, y, sr, sr * 0.8, fill=(*dark, 255))
    if pushable:
        rim = [(c + (x - c) * 0.8, c + (y - c) * 0.8) for x, y in outline]
        d.line([*rim, rim[0]], fill=(240, 225, 180), width=max(2, int(r * 0.04)))
    return AgentImage(_finish(img, size), r * 0.93 / SS, f"rock-{variant}-{int(pushable)}")


def exit_image(width: int, height: int) -> Image.Image:
    """An exit gate the size of its rectangle: a green glow with a bright frame and stripes."""
    w, h = max(int(width), 4), max(int(height), 4)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w - 1, h - 1), fill=(50, 200, 130, 60))
    step = 16
    for x in range(-h, w, step):
        d.line([(x, h), (x + h, 0)], fill=(90, 240, 160, 40), width=5)
    inset = 4
    if w - 1 - inset > inset and h - 1 - inset > inset:  # an inner frame only where it fits
        d.rectangle(
            (inset, inset, w - 1 - inset, h - 1 - inset), outline=(160, 255, 200, 120), width=1
        )
    d.rectangle((0, 0, w - 1, h - 1), outline=(140, 255, 190, 235), width=min(3, w // 2, h // 2))
    return img
