"""What the command-line entry points share: bad options reported on one line."""

from __future__ import annotations

import argparse
import sys
import types
from typing import NoReturn

__all__ = ["one_line_errors"]


def _error_line(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """argparse's error as one line on stderr and exit status 2 (no usage block)."""
    sys.stderr.write(f"{parser.prog}: error: {message}\n")
    raise SystemExit(2)


def one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` report a bad option as one line on stderr and exit with status 2."""
    parser.error = types.MethodType(_error_line, parser)  # type: ignore[method-assign]
