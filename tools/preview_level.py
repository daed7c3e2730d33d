"""Draw a level as a PNG overview (no window, no arcade): rocks, walls, paths, spawns, sight,
flows.

Usage: ``python -m tools.preview_level LEVEL [OUT.png] [--scale 0.4]``; LEVEL is a file or a
shipped level's name or number. Handy for reviewing a level's layout without running the game.
"""

from __future__ import annotations

import argparse
import io
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from game.cli_common import bounded_float, one_line_errors
from game.level import Level, LevelError, load_level, resolve_level
from game.safe_io import OutputError, atomic_write, check_output

REPO = Path(__file__).resolve().parents[1]

FLOW_COLOURS = {
    "uniform": (40, 90, 160),
    "noise": (30, 60, 90),
    "vortex": (60, 40, 140),
    "image": (30, 110, 120),
}


def render(level: Level, scale: float = 0.4) -> Image.Image:
    """Draw ``level`` top-down, y up, at ``scale`` pixels per world pixel.

    Args:
        level: The level.
        scale: Image pixels per world pixel.

    Returns:
        An RGB image.
    """
    width, height = round(level.width_px * scale), round(level.height_px * scale)
    image = Image.new("RGB", (width, height), (18, 32, 48))
    draw = ImageDraw.Draw(image, "RGBA")

    def pt(x: float, y: float) -> tuple[float, float]:
        return (x * scale, (level.height_px - y) * scale)

    def box(left: float, bottom: float, right: float, top: float) -> list[tuple[float, float]]:
        return [pt(left, top), pt(right, bottom)]

    for flow in level.flows:
        area = flow.rect
        colour = FLOW_COLOURS[flow.kind]
        draw.rectangle(
            box(area.left, area.bottom, area.right, area.top), fill=(*colour, 70), outline=colour
        )
        if flow.kind == "uniform":
            cx, cy = area.center
            a = math.radians(flow.angle)
            length = min(area.width, area.height) / 3
            draw.line(
                [pt(cx, cy), pt(cx + length * math.cos(a), cy + length * math.sin(a))],
                fill=(200, 220, 255),
                width=3,
            )
    for path in level.paths:
        points = [pt(x, y) for x, y in path.points]
        if path.closed:
            points.append(points[0])
        colour = (230, 180, 60) if path.drift == 0 else (240, 120, 200)
        draw.line(points, fill=colour, width=max(1, round(2 * path.radius * scale)))
        draw.line(points, fill=(40, 30, 10), width=1)
    for rock in level.obstacles:
        colour = (150, 130, 110) if rock.dynamic else (110, 110, 120)
        draw.ellipse(
            box(
                rock.x - rock.radius,
                rock.y - rock.radius,
                rock.x + rock.radius,
                rock.y + rock.radius,
            ),
            fill=colour,
        )
    for wall in level.walls:
        points = [pt(x, y) for x, y in wall.points]
        if wall.closed:
            points.append(points[0])
        draw.line(points, fill=(200, 200, 210), width=max(2, round(wall.thickness * scale)))
    for npc in level.npcs:
        if npc.area is not None:
            spawn = npc.area
            draw.rectangle(
                box(spawn.left, spawn.bottom, spawn.right, spawn.top),
                outline=(120, 220, 140),
                width=2,
            )
        else:
            draw.ellipse(
                box(npc.x - 20, npc.y - 20, npc.x + 20, npc.y + 20), outline=(120, 220, 140)
            )
    for enemy in level.enemies:
        s = enemy.sight
        draw.ellipse(
            box(enemy.x - s, enemy.y - s, enemy.x + s, enemy.y + s), fill=(220, 40, 40, 35)
        )
        r = enemy.radius * 1.5
        # sentinels purple, formations orange, patrols red
        colour = {"sentinel": (170, 60, 230)}.get(enemy.role, (230, 50, 50))
        if enemy.formation != "none":
            colour = (240, 140, 30)
        draw.ellipse(box(enemy.x - r, enemy.y - r, enemy.x + r, enemy.y + r), fill=colour)
    for exit_ in level.exits:
        door = exit_.rect
        draw.rectangle(box(door.left, door.bottom, door.right, door.top), fill=(60, 200, 90, 160))
    start = level.player
    size = start.radius * 1.5
    draw.ellipse(
        box(start.x - size, start.y - size, start.x + size, start.y + size), fill=(80, 160, 255)
    )
    return image


def main(argv: Sequence[str] | None = None) -> int:
    """Render one level; return the exit status (2 on a level error)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--scale", type=bounded_float(0.01, 4.0), default=0.4)
    one_line_errors(parser)
    args = parser.parse_args(argv)
    try:
        path = resolve_level(args.level)
        level = load_level(path)
        out = Path(args.out) if args.out is not None else Path(path.stem + ".png")
        check_output(out, suffixes=(".png",))
    except (LevelError, OutputError) as exc:
        print(f"preview_level: {exc}", file=sys.stderr)
        return 2
    encoded = io.BytesIO()
    render(level, args.scale).save(encoded, format="PNG")
    try:
        atomic_write(out, encoded.getvalue())
    except OutputError as exc:
        print(f"preview_level: {exc}", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
