"""A mkdocs hook of the docs site (mkdocs.yml): pages made of the guide's sections, and links
that leave the site written as the repository's paths.

A page of the site holds a line ``--8<-- "docs/steering.md:behaviours"``: the hook puts there
the lines between ``--8<-- [start:behaviours]`` and ``--8<-- [end:behaviours]`` of that file
(markers kept in HTML comments, so the file reads the same in the repository). A missing file
or section is an error, so the build fails rather than shows a hole.

The guide is written to be read in the repository too, so it links to files beside it
(``../examples``, ``levels.md``) that the site does not hold. Each such link is written as the
file's path in the repository, in code: the site has no dead link and ``mkdocs build --strict``
needs no warning turned off.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = re.compile(r'^--8<-- "([^":]+):([a-z][-a-z0-9]*)"$', re.M)
#: Relative link targets outside the site, from the folder docs/.
OUTSIDE = re.compile(
    r"\[([^\]]+)\]\(((?:\.\./)[^)#\s]*|(?:levels|world|tuning|editor)\.md[^)\s]*)\)"
)


class SectionError(Exception):
    """A page asks for a file or a section that is not there."""


def section(path: str, name: str) -> str:
    """The lines of ``path`` (from the repository's root) between its markers ``name``."""
    try:
        text = (ROOT / path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SectionError(f"{path}: {exc}") from exc
    marks = rf"^[^\n]*--8<-- \[start:{name}\][^\n]*\n(.*?)^[^\n]*--8<-- \[end:{name}\]"
    found = re.search(marks, text, re.M | re.S)
    if found is None:
        raise SectionError(f"{path}: no section {name!r}")
    return found.group(1)


def in_repository(markdown: str) -> str:
    """``[text](../examples)`` as ``text (`examples` in the repository)``."""

    def path(match: re.Match[str]) -> str:
        text, target = match.groups()
        where = posixpath.normpath(posixpath.join("docs", target.split("#", 1)[0]))
        return f"{text} (`{where}` in the repository)"

    return OUTSIDE.sub(path, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """mkdocs' hook: sections put in, outside links rewritten."""
    return in_repository(INCLUDE.sub(lambda m: section(m.group(1), m.group(2)), markdown))
