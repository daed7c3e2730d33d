"""The release: steering.__version__ is the package's version, PrioritizedSum is a deprecated
alias that names its new name, is_unset is public, and the changelog covers every release."""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

import numpy as np
import pytest

import steering
from steering import TruncatedRunningSum, is_unset

ENGINE = Path(__file__).parents[3] / "packages" / "steering"


def test_version_is_the_packages() -> None:
    project = tomllib.loads((ENGINE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert steering.__version__ == project["version"] == "0.4.0"


def test_the_changelog_covers_every_release() -> None:
    text = (ENGINE / "CHANGELOG.md").read_text(encoding="utf-8")
    for release in ("## 0.4.0", "## 0.3.0", "## 0.2.0", "## 0.1.0"):
        assert release in text
    assert text.index("## 0.4.0") < text.index("## 0.1.0")  # newest first


def test_prioritized_sum_is_a_deprecated_alias_naming_the_new_name() -> None:
    with pytest.warns(
        DeprecationWarning,
        match=r"steering\.PrioritizedSum is deprecated: use "
        r"steering\.TruncatedRunningSum",
    ):
        old = steering.PrioritizedSum  # type: ignore[attr-defined]
    assert old is TruncatedRunningSum
    with pytest.warns(DeprecationWarning):
        from steering import PrioritizedSum  # type: ignore[attr-defined]  # noqa: F401


def test_other_missing_names_are_attribute_errors() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="NoSuchThing"):
            steering.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    assert "PrioritizedSum" not in steering.__all__


def test_is_unset_is_public() -> None:
    assert "is_unset" in steering.__all__
    np.testing.assert_array_equal(is_unset(np.array([np.nan, 0.0])), [True, False])
