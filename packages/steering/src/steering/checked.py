"""Settings checked whenever they are assigned, with the messages of construction.

A behaviour's settings are dataclass fields. Its class lists each field's check in
:attr:`Checked.CHECKS`; the dataclass's ``__init__`` assigns every field through
:meth:`Checked.__setattr__`, so the same check runs when the behaviour is made and whenever the
field is assigned later (``s = Separate(20); s.distance = -4`` raises what ``Separate(-4)``
raises), and the per-call path reads the fields as they are, already checked. Assigning any
attribute drops the part's kept record (``_record``; :mod:`steering.records` keys the others
by the fields' identity), so the next call is made from the new settings.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

__all__ = ["ArraySettings", "Checked", "checks"]


def checks(owner: str, **by_field: Callable[..., Any]) -> dict[str, Callable[[Any], Any]]:
    """Each field's check, from functions called ``check(name, value)`` as those of
    ``steering._checks`` are: the name given is ``owner.field``."""
    return {name: functools.partial(check, f"{owner}.{name}") for name, check in by_field.items()}


class Checked:
    """Base of the behaviours whose settings are checked on every assignment.

    A subclass sets ``CHECKS``: field name to ``check(value) -> value as kept`` (it raises
    TypeError or ValueError naming the field); :meth:`check_together` checks settings that
    depend on each other (a box's left below its right) once all of them are set.
    """

    CHECKS: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}

    def __setattr__(self, name: str, value: Any) -> None:
        check = self.CHECKS.get(name)
        if check is not None:
            value = check(value)
            self.check_together(name, value)
        object.__setattr__(self, name, value)
        # A setting changed: a kept record is made again at the next call.
        self.__dict__.pop("_record", None)

    def check_together(self, name: str, value: Any) -> None:
        """Check ``value`` for ``name`` against the other settings (those set so far)."""


class ArraySettings:
    """Mixin of the behaviours whose settings may be arrays (targets), made with
    ``@dataclass(eq=False)``: ``==`` compares their fields as the dataclass's would, an array by
    its shape and values (the dataclass's own ``==`` would ask NumPy for the truth of an array:
    ``Seek((1, 2)) == Seek((1, 2))`` is True, as when the targets were tuples)."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if not f.compare:
                continue
            a = getattr(self, f.name)
            b = getattr(other, f.name)
            if a is b:
                continue
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                if not (np.shape(a) == np.shape(b) and np.array_equal(a, b)):
                    return False
            elif a != b:
                return False
        return True
