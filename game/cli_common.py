"""What the command-line entry points share: every bad option reported on one line (exit 2),
and argument types that state their bounds."""

from __future__ import annotations

import argparse
import math
import sys
import types
from collections.abc import Callable, Sequence
from typing import NoReturn

from game.level.schema import MAX_SEED
from game.level.text import PLAIN_INT, PLAIN_NUMBER, plain_number
from game.safe_io import one_line

__all__ = [
    "MAX_SEED",
    "bounded_float",
    "bounded_int",
    "one_line",
    "one_line_errors",
    "seed",
]


def _error_line(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """argparse's error as one line on stderr and exit status 2 (no usage block); control
    characters a user typed are shown escaped, so they cannot break the line."""
    sys.stderr.write(f"{parser.prog}: error: {one_line(message)}\n")
    raise SystemExit(2)


def _strict(parser: argparse.ArgumentParser) -> None:
    """Unknown options are this parser's error (argparse would leave them to its parent)."""
    if getattr(parser, "_one_line_strict", False):
        return
    parser._one_line_strict = True  # type: ignore[attr-defined]
    plain_parse = parser.parse_known_args

    def strict_parse(
        args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        ns, extras = plain_parse(args, namespace)
        if extras:
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
        return ns, extras

    parser.parse_known_args = strict_parse  # type: ignore[method-assign,assignment]


def one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` and every sub-command under it report a bad option as one line on
    stderr and exit with status 2; unknown options are refused by the command they follow."""
    parser.error = types.MethodType(_error_line, parser)  # type: ignore[method-assign]
    _strict(parser)
    for action in parser._actions:
        # Numbers are typed with ASCII digits everywhere (float and int also take other
        # scripts' digits and "1_000").
        if action.type is float:
            action.type = plain_float
        elif action.type is int:
            action.type = plain_int
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                one_line_errors(sub)


def plain_float(text: str) -> float:
    """An argparse type: a number written with ASCII digits (``inf``, ``nan``, ``1_0`` and
    other scripts' digits are not)."""
    if not PLAIN_NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"not a number (ASCII digits): {text!r}")
    return float(text)


def plain_int(text: str) -> int:
    """An argparse type: an integer written with ASCII digits."""
    if not PLAIN_INT.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"not an integer (ASCII digits): {text!r}")
    return int(text.strip())


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high``."""

    def parse(text: str) -> int:
        if not PLAIN_INT.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"not an integer (ASCII digits): {text!r}")
        value = int(text.strip())
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be in {low:,}..{high:,}, got {text.strip()}")
        return value

    parse.__name__ = "integer"
    return parse


def bounded_float(low: float, high: float, *, open_low: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number in ``[low, high]`` (``(low, high]`` if
    ``open_low``)."""

    def parse(text: str) -> float:
        if not PLAIN_NUMBER.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"not a number (ASCII digits): {text!r}")
        value = float(text)
        too_low = value <= low if open_low else value < low
        if not math.isfinite(value) or too_low or value > high:
            bracket = "(" if open_low else "["
            raise argparse.ArgumentTypeError(
                f"must be in {bracket}{plain_number(low)}, {plain_number(high)}], "
                f"got {text.strip()}"
            )
        return value

    parse.__name__ = "number"
    return parse


#: argparse type of ``--seed``: the level seeds' range, 0..MAX_SEED.
seed = bounded_int(0, MAX_SEED)
