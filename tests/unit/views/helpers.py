"""Driving the window in tests: key presses and frames without the event loop's sleep."""

from __future__ import annotations

import arcade

DT = 1.0 / 60.0


def press(window: arcade.Window, symbol: int) -> None:
    """Deliver a key press (dispatch_event only queues outside the event loop)."""
    window.dispatch_event("on_key_press", symbol, 0)
    window.dispatch_events()


def release(window: arcade.Window, symbol: int) -> None:
    """Deliver a key release."""
    window.dispatch_event("on_key_release", symbol, 0)
    window.dispatch_events()


def frames(window: arcade.Window, n: int, draw: bool = True) -> None:
    """Run ``n`` frames of the event loop without its real-time sleep: one fixed update, one
    update and (optionally) one draw each, delivered to whatever view is current."""
    for _ in range(n):
        window.dispatch_event("on_fixed_update", DT)
        window.dispatch_event("on_update", DT)
        if draw:
            window.dispatch_event("on_draw")
        window.dispatch_events()
