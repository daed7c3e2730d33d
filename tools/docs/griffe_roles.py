"""A griffe extension for the docs site: the docstrings' Sphinx roles as code.

The engine's docstrings name other objects as Sphinx does (``:class:`~steering.Seek```), which
Markdown would show with the role's name in front; here each becomes inline code of the name
(the last part of it when the name starts with ``~``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every role replaced by inline code of its target."""

    def code(match: re.Match[str]) -> str:
        tilde, name = match.groups()
        return f"`{name.rsplit('.', 1)[-1] if tilde else name}`"

    return ROLE.sub(code, text)


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
