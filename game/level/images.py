"""The image of an ``image`` flow region: found under the game's folders, checked, and decoded
once for both the loader's check and the current built from it.
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from game.level.errors import Where
from game.level.shipped import IMAGE_ROOTS

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "IMAGE_SUFFIXES",
    "MAX_IMAGE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_IMAGE_SIDE",
    "FlowImage",
    "ImageDecodeError",
    "decode_image",
    "resolve_image",
]


#: The largest image a flow region may use: pixels a side, and bytes.
MAX_IMAGE_SIDE = 4096
MAX_IMAGE_BYTES = 32 * 1024 * 1024
#: The pixels of all the different images of one level together (one image of the largest
#: size): each is decoded when the level loads (some 0.5 s for 4096 x 4096 px) and kept while
#: it plays (two bytes a pixel). 900 regions cycling 5 such images took 77.6 s to check.
MAX_IMAGE_PIXELS = MAX_IMAGE_SIDE * MAX_IMAGE_SIDE

#: Image files an ``image`` flow region may name.
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".gif", ".webp"})


def resolve_image(
    value: str, base_dir: Path, where: Where, seen: dict[Path, int] | None = None
) -> Path:
    """Resolve an image property and check it stays under resources/ or levels/.

    Args:
        value: The property value, relative to the level's folder or absolute.
        base_dir: The level's folder.
        where: Location for errors.
        seen: The level's images checked so far and their pixels: an image in it is not
            decoded again, a new one is added, and all of them together hold at most
            :data:`MAX_IMAGE_PIXELS`.

    Returns:
        The absolute, resolved path.

    Raises:
        LevelError: if the image is outside resources/ and levels/, missing or not an image.
    """
    try:
        path = (base_dir / value).resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        raise where.error(f"cannot resolve image path {value!r}: {exc}", "image") from exc
    roots = [root.resolve() for root in IMAGE_ROOTS]
    if not any(path.is_relative_to(root) for root in roots):
        raise where.error(
            f"image {value!r} resolves to {path}, outside the game's resources/ and levels/",
            "image",
        )
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise where.error(f"image {value!r} is not a .png, .jpg, .bmp, .gif or .webp", "image")
    try:
        info = path.stat()
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            missing = f"image file {value!r} not found (looked at {path})"
            raise where.error(missing, "image") from exc
        raise where.error(f"image {value!r}: {exc.strerror or exc}", "image") from exc
    if not stat.S_ISREG(info.st_mode):
        raise where.error(f"image {value!r} is not a regular file", "image")
    if seen is not None and path in seen:
        return path
    pixels = _verify_image(value, path, where)
    if seen is not None:
        seen[path] = pixels
        total = sum(seen.values())
        if total > MAX_IMAGE_PIXELS:
            raise where.error(
                f"the level's {len(seen)} images hold {total:,} pixels; at most "
                f"{MAX_IMAGE_PIXELS:,} in all its images together (image limit)",
                "image",
            )
    return path


class FlowImage(NamedTuple):
    """A flow region's image, decoded: what the current is built from."""

    alpha: NDArray[np.uint8]
    """(height, width) opacity, row 0 at the top (a fully transparent pixel is still water)."""
    gray: NDArray[np.uint8]
    """(height, width) luminance, as Pillow's ``L`` mode computes it."""


class ImageDecodeError(ValueError):
    """An image file cannot be decoded; the message says why, without the file's name."""


def decode_image(path: Path) -> FlowImage:
    """Decode the image at ``path``, once: the loader's check and the current built after it
    share the decoded pixels while the file is unchanged (same inode, size, modification and
    change times).

    Raises:
        ImageDecodeError: for a truncated or unknown file, or one larger than
            :data:`MAX_IMAGE_SIDE` px a side.
        OSError: if the file cannot be read.
    """
    info = path.stat()
    stamp = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    return _decoded(os.fspath(path), stamp)


@lru_cache(maxsize=4)  # a level has few images; the largest keeps 32 MB (two bytes a pixel)
def _decoded(path: str, stamp: tuple[int, int, int, int]) -> FlowImage:
    """The pixels of ``path`` as it was when ``stamp`` (inode, size, mtime, ctime) was read."""
    import numpy as np
    from PIL import Image  # lazy: most levels have no image

    try:
        with Image.open(path) as im:
            w, h = im.size
            if w > MAX_IMAGE_SIDE or h > MAX_IMAGE_SIDE:
                raise ImageDecodeError(f"is {w:,} x {h:,} px; at most {MAX_IMAGE_SIDE:,} px a side")
            im.load()
            alpha = np.asarray(im.convert("RGBA").getchannel("A"), dtype=np.uint8)
            gray = np.asarray(im.convert("L"), dtype=np.uint8)
    except ImageDecodeError:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageDecodeError(
            f"is too large to decode; at most {MAX_IMAGE_SIDE:,} px a side"
        ) from exc
    except OSError as exc:
        if isinstance(exc, FileNotFoundError | PermissionError):
            raise
        raise ImageDecodeError(f"cannot be decoded: {_first_line(exc)}") from exc
    except Exception as exc:  # PIL raises SyntaxError, ValueError, ... for bad data
        raise ImageDecodeError(f"cannot be decoded: {_first_line(exc)}") from exc
    alpha.flags.writeable = False  # shared by every caller
    gray.flags.writeable = False
    return FlowImage(alpha, gray)


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _verify_image(value: str, path: Path, where: Where) -> int:
    """Decode the image now, so that a level that loads is a level whose current can be built;
    return its number of pixels.

    Raises:
        LevelError: for an empty, truncated or unknown file, or one larger than
            :data:`MAX_IMAGE_SIDE` px a side or :data:`MAX_IMAGE_BYTES`.
    """
    size = path.stat().st_size
    if size == 0:
        raise where.error(f"image {value!r} is an empty file", "image")
    if size > MAX_IMAGE_BYTES:
        raise where.error(
            f"image {value!r} is {size:,} bytes; at most {MAX_IMAGE_BYTES:,}", "image"
        )
    try:
        return int(decode_image(path).gray.size)
    except ImageDecodeError as exc:
        raise where.error(f"image {value!r} {exc}", "image") from exc
    except OSError as exc:
        raise where.error(f"image {value!r}: {exc.strerror or exc}", "image") from exc
