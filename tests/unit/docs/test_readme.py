"""The README is a guide that stays true: short, its links lead somewhere, and the modules,
make targets and code it shows exist and run (issue 41)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
#: The pages whose relative links are checked: the README and the pages it hands over to.
PAGES = (
    "README.md",
    "docs/performance.md",
    "docs/world.md",
    "packages/steering/README.md",
)
MAX_LINES = 500

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _prose(text: str) -> str:
    """The Markdown without its fenced code blocks."""
    return _FENCE.sub("", text)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    headings = re.findall(r"^#{1,6} (.+)$", _prose(page.read_text(encoding="utf-8")), re.M)
    return {_slug(h) for h in headings}


def _relative_links(page: Path) -> list[str]:
    links = _LINK.findall(_prose(page.read_text(encoding="utf-8")))
    return [link for link in links if not re.match(r"[a-z]+:", link)]


def test_the_readme_is_at_most_500_lines() -> None:
    # Given the README
    lines = README.read_text(encoding="utf-8").splitlines()
    # Then it is a guide, not a log: the measurements live in docs/performance.md
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines (at most {MAX_LINES})"


@pytest.mark.parametrize("name", PAGES)
def test_every_relative_link_points_to_a_file_that_exists(name: str) -> None:
    # Given a page and its relative links (web addresses left out)
    page = ROOT / name
    links = _relative_links(page)
    assert links
    broken = []
    for link in links:
        # When each is resolved from the page's folder
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        # Then the file (or folder) exists, and a heading matches its anchor
        if not path.exists():
            broken.append(f"{link}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{link}: no heading #{anchor}")
    assert not broken, broken


def test_every_python_module_the_readme_runs_exists() -> None:
    # Given every `python -m X` in the README, code blocks included, and every benchmark it
    # names (`benchmarks.x`), leaving out placeholders such as `benchmarks.NAME`
    text = README.read_text(encoding="utf-8")
    named = re.findall(r"python -m ([A-Za-z_][\w.]*)", text) + re.findall(r"benchmarks\.\w+", text)
    modules = {m for m in named if not any(part.isupper() for part in m.split("."))}
    assert {"game", "game.level", "steering.bench", "benchmarks.world_step"} <= modules
    # Then each is a module Python can find (without running it)
    missing = sorted(m for m in modules if importlib.util.find_spec(m) is None)
    assert not missing, missing


def test_every_make_target_the_readme_names_exists() -> None:
    # Given the Makefile's targets
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([\w-]+):", makefile, re.M))
    # When the README names `make X` (in code, or a command line of its own)
    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"(?:`|^)make ([a-z][\w-]*)", text, re.M))
    # Then X is a target, and the two commands of the set-up are among them
    assert {"play", "test", "check"} <= named
    assert named <= targets, sorted(named - targets)


def test_ci_runs_the_readmes_test_command() -> None:
    # Given CI's entry point, as the README names it
    assert "bash .ci/run" in README.read_text(encoding="utf-8")
    commands = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    # Then it ends by running `make test`, then building the docs site
    assert commands[-2:] == ["make test", "make docs"]


def test_the_readmes_engine_example_runs() -> None:
    # Given the README's last Python example (the engine on its own)
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    scope: dict[str, object] = {}
    # When it runs
    exec(blocks[-1], scope)
    # Then its agents moved and stayed finite
    import numpy as np

    agents = scope["agents"]
    assert np.isfinite(agents.pos).all()  # type: ignore[attr-defined]
    assert np.abs(agents.vel).sum() > 0.0  # type: ignore[attr-defined]
