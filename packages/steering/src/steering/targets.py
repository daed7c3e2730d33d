"""The old home of the behaviours about other movers, kept so that existing imports work:
:class:`~steering.Hide` lives in :mod:`steering.hide`, :class:`~steering.Interpose` in
:mod:`steering.interpose`, :class:`~steering.OffsetPursuit` and :func:`formation_offsets` in
:mod:`steering.offset_pursuit`, :class:`~steering.MatchVelocity` in :mod:`steering.match_velocity`.
"""

from __future__ import annotations

from .hide import Hide
from .interpose import Interpose, interpose
from .match_velocity import MatchVelocity
from .offset_pursuit import OffsetPursuit, formation_offsets, offset_pursuit

__all__ = [
    "Hide",
    "Interpose",
    "MatchVelocity",
    "OffsetPursuit",
    "formation_offsets",
    "interpose",
    "offset_pursuit",
]
