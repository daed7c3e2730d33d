"""Shared fixtures. Window tests run headless: ``ARCADE_HEADLESS`` must be set before arcade is
imported, and arcade allows one window, so a session-scoped fixture makes it once for every test
that draws (arcade's own tests/conftest.py does the same)."""

from __future__ import annotations

import os

os.environ["ARCADE_HEADLESS"] = "1"  # before anything imports arcade

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import arcade

    from game.render.bank import TextureBank
    from game.views.app import GameApp, LevelEntry


@pytest.fixture(scope="session")
def window() -> Iterator[arcade.Window]:
    """The one game window (1280 x 720, hidden, headless)."""
    from game.views.app import create_window

    win = create_window(1280, 720, visible=False)
    yield win
    win.close()


@pytest.fixture(scope="session")
def bank(window: arcade.Window) -> TextureBank:
    """Generated textures, made once."""
    from game.render.bank import TextureBank

    return TextureBank()


@pytest.fixture(scope="session")
def entries() -> list[LevelEntry]:
    """The shipped levels as the title view lists them, loaded once."""
    from game.views.app import shipped_entries

    return shipped_entries()


@pytest.fixture
def app(
    window: arcade.Window, bank: TextureBank, entries: list[LevelEntry], tmp_path: Path
) -> GameApp:
    """Shared services with progress in a temporary file and sound muted."""
    from game.progress import ProgressStore
    from game.views.app import GameApp
    from game.views.sound import Sounds

    return GameApp(
        window,
        progress=ProgressStore(tmp_path / "progress.json"),
        sounds=Sounds(muted=True),
        bank=bank,
        levels=list(entries),
    )
