"""Vector helpers: safe normalisation and truncation never give NaN or a warning."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from game.steering.vec import length, perp, safe_normalize, truncate


def test_safe_normalize_zero_gives_zero_and_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = safe_normalize(np.array([[0.0, 0.0], [3.0, 4.0]]))
    np.testing.assert_allclose(out, [[0.0, 0.0], [0.6, 0.8]])


def test_safe_normalize_fallback() -> None:
    out = safe_normalize(np.zeros((1, 2)), fallback=np.array([0.0, 1.0]))
    np.testing.assert_allclose(out, [[0.0, 1.0]])


def test_truncate_shortens_only_long_rows_and_zeroes_nan() -> None:
    v = np.array([[3.0, 4.0], [0.3, 0.4], [np.nan, 1.0], [np.inf, 0.0]])
    np.testing.assert_allclose(truncate(v, 1.0), [[0.6, 0.8], [0.3, 0.4], [0, 0], [0, 0]])


def test_perp_is_counter_clockwise() -> None:
    np.testing.assert_allclose(perp(np.array([[1.0, 0.0]])), [[0.0, 1.0]])


@given(
    arrays(np.float64, (8, 2), elements=st.floats(-1e12, 1e12)),
    st.floats(0, 1e6),
)
def test_truncate_property(v: np.ndarray, limit: float) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = truncate(v, limit)
    assert np.isfinite(out).all()
    assert (length(out) <= limit * (1 + 1e-12) + 1e-12).all()
