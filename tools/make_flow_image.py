"""Generate resources/flow/gradient.png, the grayscale image of the shipped ``image`` flows.

An ``image`` flow region reads each pixel's gray value v (0..255) as a direction:
``angle + 360 * v / 256`` degrees (see docs/levels.md). This image brightens from left (0)
to right (64), so its current turns a quarter turn counter-clockwise across the region:
a river bend.

Usage: ``python -m tools.make_flow_image``
"""

from __future__ import annotations

import logging
from pathlib import Path

from PIL import Image

OUT = Path(__file__).resolve().parents[1] / "resources" / "flow" / "gradient.png"
SIZE = (64, 64)
#: Gray value of the rightmost column: 64 / 256 of a turn = 90 degrees.
MAX_VALUE = 64

logger = logging.getLogger("make_flow_image")


def make_gradient(size: tuple[int, int] = SIZE, max_value: int = MAX_VALUE) -> Image.Image:
    """Return a grayscale image brightening from 0 (left) to ``max_value`` (right).

    Args:
        size: (width, height) in pixels.
        max_value: Gray value of the rightmost column.

    Returns:
        An 8-bit grayscale ("L") image.
    """
    width, height = size
    image = Image.new("L", size)
    row = [round(max_value * x / (width - 1)) for x in range(width)]
    image.putdata(row * height)
    return image


def main() -> int:
    """Write the image and return the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    make_gradient().save(OUT, optimize=True)
    logger.info("wrote %s", OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
