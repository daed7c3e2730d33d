"""No module in ``game/`` or ``benchmarks/`` goes over :data:`MAX_LINES` lines unless its module
docstring says why it stays one file, on a line starting with :data:`MARKER` (issue 26)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = (ROOT / "game", ROOT / "benchmarks")
MAX_LINES = 600
MARKER = "Why one file:"


def _states_why(source: str) -> bool:
    """Whether the module's docstring has a line starting with :data:`MARKER`."""
    doc = ast.get_docstring(ast.parse(source)) or ""
    return any(line.strip().startswith(MARKER) for line in doc.splitlines())


def test_the_marker_is_found_only_at_a_line_start() -> None:
    # Given docstrings that state a reason, mention the marker mid-line, or have none
    stated = f'"""A module.\n\n{MARKER} the kernels and their plan change together."""\n'
    mentioned = f'"""A module; see "{MARKER}" in issue 26."""\n'
    # Then only the first states why
    assert _states_why(stated)
    assert not _states_why(mentioned)
    assert not _states_why("x = 1\n")


def test_no_module_is_long_without_a_stated_reason() -> None:
    # Given every module of the game and its benchmarks
    files = sorted(p for folder in FOLDERS for p in folder.rglob("*.py"))
    assert files
    # When the long ones are listed
    long = []
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        source = path.read_text(encoding="utf-8")
        lines = len(source.splitlines())
        if lines > MAX_LINES and not _states_why(source):
            long.append(f"{name}: {lines} lines")
    # Then there are none: split by reason to change, or say in the docstring why not
    assert not long, f"over {MAX_LINES} lines with no '{MARKER}' line in the docstring: {long}"
