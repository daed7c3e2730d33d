"""Driving the window in tests: key presses, mouse drags and frames without the event loop's
sleep."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import arcade

if TYPE_CHECKING:
    from game.views.editor import EditorView

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


LEFT = arcade.MOUSE_BUTTON_LEFT
RIGHT = arcade.MOUSE_BUTTON_RIGHT


def send(window: arcade.Window, event: str, *args: Any) -> None:
    """Deliver one window event to the current view."""
    window.dispatch_event(event, *args)
    window.dispatch_events()


def drag(window: arcade.Window, start: tuple[float, float], dx: float, dy: float) -> None:
    """Press the left button at ``start``, move by (dx, dy) screen px in two steps, release."""
    x, y = start
    send(window, "on_mouse_motion", x, y, 0, 0)
    send(window, "on_mouse_press", x, y, LEFT, 0)
    send(window, "on_mouse_drag", x + dx / 2, y + dy / 2, dx / 2, dy / 2, LEFT, 0)
    send(window, "on_mouse_drag", x + dx, y + dy, dx / 2, dy / 2, LEFT, 0)
    send(window, "on_mouse_release", x + dx, y + dy, LEFT, 0)


def on_screen(view: EditorView, point: tuple[float, float]) -> tuple[float, float]:
    """The screen pixel of a world point through the editor's camera."""
    p = view.camera.project(point)
    return (float(p[0]), float(p[1]))
