"""A scene's live parameters: named numbers with bounds and a step, one of them selected."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

__all__ = ["Param", "Params"]


@dataclass
class Param:
    """One tunable number of a scene (a speed, a radius, a weight, a choice).

    Attributes:
        key: The name the scene reads it by (``scene.p["max_speed"]``).
        label: What the panel shows.
        value: The current value, always within ``[lo, hi]``.
        lo: Smallest value.
        hi: Largest value.
        step: One key press changes the value by this much.
        unit: Shown after the value ("px/s", "px", "deg").
        choices: For a choice, the names of the values 0, 1, ...; the value is an index.
    """

    key: str
    label: str
    value: float
    lo: float
    hi: float
    step: float
    unit: str = ""
    choices: tuple[str, ...] = ()
    default: float = field(default=math.nan, repr=False)

    def __post_init__(self) -> None:
        if self.choices:
            self.lo, self.hi, self.step = 0.0, float(len(self.choices) - 1), 1.0
        if not (self.lo <= self.hi and self.step > 0):
            raise ValueError(f"param {self.key}: bad bounds {self.lo}..{self.hi} step {self.step}")
        self.value = self._clamp(self.value)
        if math.isnan(self.default):
            self.default = self.value

    def _clamp(self, value: float) -> float:
        if not math.isfinite(value):
            return self.value if math.isfinite(self.value) else self.lo
        return min(max(float(value), self.lo), self.hi)

    def set(self, value: float) -> None:
        """Set the value, clamped to the bounds (a choice rounds to the nearest index)."""
        v = self._clamp(value)
        self.value = float(round(v)) if self.choices else v

    def nudge(self, steps: int) -> None:
        """Change the value by whole steps (a choice wraps round)."""
        if self.choices:
            self.value = float((int(self.value) + steps) % len(self.choices))
            return
        # snap to the step grid from lo, so that repeated presses land on round numbers
        k = round((self.value - self.lo) / self.step) + steps
        self.set(self.lo + k * self.step)

    def drag(self, start: float, pixels: float, span_px: float = 240.0) -> None:
        """Set the value from a mouse drag: ``pixels`` across ``span_px`` covers the range."""
        if self.choices:
            self.set(start + pixels / 40.0)
            return
        raw = start + pixels / span_px * (self.hi - self.lo)
        self.set(self.lo + round((raw - self.lo) / self.step) * self.step)

    def text(self) -> str:
        """The value as the panel shows it, with its unit."""
        if self.choices:
            return self.choices[int(self.value)]
        digits = max(0, -math.floor(math.log10(self.step))) if self.step < 1 else 0
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.value:.{digits}f}{unit}"

    def copy(self) -> Param:
        """An independent copy (scenes copy their class's parameters per instance)."""
        return replace(self)


class Params:
    """A scene's parameters in panel order, with the selected one.

    ``params["key"]`` is a value (float); ``params.choice("key")`` is a choice's name.
    """

    def __init__(self, params: Sequence[Param]) -> None:
        self.items = [p.copy() for p in params]
        self._by_key = {p.key: p for p in self.items}
        if len(self._by_key) != len(self.items):
            raise ValueError("params: duplicate keys")
        self.selected = 0

    def __getitem__(self, key: str) -> float:
        return self._by_key[key].value

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def __iter__(self) -> Iterator[Param]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def get(self, key: str, default: float) -> float:
        """The value of ``key``, or ``default`` when the scene has no such parameter."""
        p = self._by_key.get(key)
        return default if p is None else p.value

    def param(self, key: str) -> Param:
        """The parameter ``key`` itself."""
        return self._by_key[key]

    def choice(self, key: str) -> str:
        """The name of a choice parameter's current value."""
        p = self._by_key[key]
        return p.choices[int(p.value)]

    def set(self, key: str, value: float) -> None:
        """Set parameter ``key`` (clamped)."""
        self._by_key[key].set(value)

    def move(self, steps: int) -> None:
        """Select another parameter (wraps round)."""
        if self.items:
            self.selected = (self.selected + steps) % len(self.items)

    def nudge(self, steps: int) -> None:
        """Change the selected parameter by whole steps."""
        if self.items:
            self.items[self.selected].nudge(steps)
