"""The engine's docs site (mkdocs.yml): its pages' sections exist, the reference covers the
behaviours, and the site builds with every warning an error, pictures and API included."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import steering
from tools.docs.griffe_roles import plain
from tools.docs.hooks import INCLUDE, SectionError, in_repository, section

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"


def test_every_section_a_page_asks_for_is_there() -> None:
    # Given the site's pages, when each included section is read, then none is missing or empty
    asked = [m.groups() for page in DOCS.rglob("*.md") for m in INCLUDE.finditer(page.read_text())]
    assert len(asked) >= 8
    for path, name in asked:
        assert section(path, name).strip(), (path, name)


def test_the_sections_cover_the_whole_guide() -> None:
    # Given the guide's sections, then together they hold every line of it but the markers
    guide = (DOCS / "steering.md").read_text(encoding="utf-8")
    names = re.findall(r"--8<-- \[start:([a-z-]+)\]", guide)
    joined = "".join(section("docs/steering.md", name) for name in names)
    kept = [line for line in guide.splitlines(keepends=True) if "--8<--" not in line]
    assert joined == "".join(kept)


def test_a_missing_section_is_an_error() -> None:
    with pytest.raises(SectionError, match="no section 'nothing'"):
        section("docs/steering.md", "nothing")


def test_links_out_of_the_site_name_the_repository_path() -> None:
    text = "see [examples/](../examples) and [limits](levels.md#limits) or [x](img/a.png)"
    assert in_repository(text) == (
        "see examples/ (`examples` in the repository) and limits (`docs/levels.md` in the "
        "repository) or [x](img/a.png)"
    )


def test_sphinx_roles_become_code() -> None:
    assert plain("use :class:`~steering.Seek` or :func:`steering.integrate`") == (
        "use `Seek` or `steering.integrate`"
    )


def test_the_reference_shows_every_public_behaviour_and_combinator() -> None:
    reference = "".join(p.read_text() for p in (DOCS / "reference").glob("*.md"))
    shown = set(re.findall(r"^::: steering\.(\w+)", reference, re.M))
    behaviours = {
        name
        for name in steering.__all__
        if isinstance(getattr(steering, name), type)
        and name[0].isupper()
        and name not in ("AgentGroup", "Behaviour", "Debug")
    }
    assert behaviours - shown == set()


@pytest.mark.slow
def test_the_site_builds_strict_with_a_picture_for_the_behaviours(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    # When the site is built with warnings as errors
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    # Then it builds, and its pages hold what they promise
    assert run.returncode == 0, run.stderr
    assert "WARNING -" not in run.stderr
    page = (tmp_path / "behaviours.html").read_text(encoding="utf-8")
    pictures = set(re.findall(r'<img[^>]+src="(img/lab_[a-z0-9_]+\.png)"', page))
    assert len(pictures) >= 20
    assert all((tmp_path / p).is_file() for p in pictures)
    reference = (tmp_path / "reference" / "behaviours.html").read_text(encoding="utf-8")
    assert 'id="steering.Seek"' in reference and 'id="steering.FollowPath"' in reference
    assert ":class:" not in reference
    for name, words in {
        "combining.html": "why a flock inside a",
        "coming-from.html": "Yuka",
        "adapters.html": "BodyBridge",
        "installing.html": "Read-only installs",
        "performance.html": "Performance",
    }.items():
        assert words in (tmp_path / name).read_text(encoding="utf-8"), name
