"""Vector helpers: safe normalisation and truncation never give NaN or a warning."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from steering.vec import (
    length,
    perp,
    put_rows,
    safe_normalize,
    scale_rows,
    select_rows,
    set_length,
    take_rows,
    truncate,
)


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


def test_length_is_hypot_and_does_not_overflow() -> None:
    # Given rows whose squared length overflows a float
    v = np.array([[3.0, 4.0], [1e200, 1e200], [0.0, 0.0]])
    # Then their lengths are still finite and exact to rounding
    np.testing.assert_allclose(length(v), [5.0, np.sqrt(2.0) * 1e200, 0.0])
    # and truncate keeps such a row's direction instead of zeroing it
    np.testing.assert_allclose(truncate(v[1:2], 10.0), [[np.sqrt(50.0), np.sqrt(50.0)]])


def test_truncate_treats_a_negative_limit_as_zero_and_returns_a_new_array() -> None:
    v = np.array([[3.0, 4.0], [0.1, 0.0]])
    np.testing.assert_array_equal(truncate(v, -1.0), np.zeros((2, 2)))
    out = truncate(v, np.array([10.0, 10.0]))
    out[0] = 0.0
    assert v[0, 0] == 3.0


def test_set_length_and_scale_rows_take_one_factor_per_row() -> None:
    v = np.array([[3.0, 4.0], [0.0, 0.0], [0.0, -2.0]])
    np.testing.assert_allclose(set_length(v, np.array([10.0, 5.0, 1.0])), [[6, 8], [0, 0], [0, -1]])
    np.testing.assert_allclose(set_length(v, 2.0), [[1.2, 1.6], [0, 0], [0, -2]])
    np.testing.assert_allclose(scale_rows(v, np.array([2.0, 3.0, -1.0])), [[6, 8], [0, 0], [0, 2]])
    np.testing.assert_array_equal(
        scale_rows(v, np.array([True, False, True])), [[3, 4], [0, 0], [0, -2]]
    )


def test_select_rows_takes_arrays_points_and_scalars() -> None:
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    mask = np.array([True, False])
    np.testing.assert_array_equal(select_rows(mask, a, 0.0), [[1, 2], [0, 0]])
    np.testing.assert_array_equal(select_rows(mask, a, np.array([9.0, 8.0])), [[1, 2], [9, 8]])
    np.testing.assert_array_equal(select_rows(~mask, a, -a), [[-1, -2], [3, 4]])


def test_take_and_put_rows_match_fancy_indexing() -> None:
    # Given (N, 2) rows, an index array and a mask
    rng = np.random.default_rng(3)
    v = rng.normal(size=(7, 2))
    idx = np.array([5, 0, 5, 2])
    mask = rng.random(7) < 0.5
    # Then take_rows is v[rows] for both, and a copy
    np.testing.assert_array_equal(take_rows(v, idx), v[idx])
    np.testing.assert_array_equal(take_rows(v, mask), v[mask])
    np.testing.assert_array_equal(take_rows(v[:, 0], idx), v[idx, 0])
    taken = take_rows(v, idx)
    taken[:] = 0.0
    assert np.count_nonzero(v) == v.size
    # and put_rows writes in place like out[rows] = values, also into a strided view
    out = np.zeros((7, 2))
    put_rows(out, np.array([6, 1]), np.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(out[[6, 1]], [[1, 2], [3, 4]])
    assert np.count_nonzero(out) == 4
    wide = np.zeros((7, 3))
    view = wide[:, :2]
    put_rows(view, np.array([0]), np.array([[5.0, 6.0]]))
    np.testing.assert_array_equal(wide[0], [5, 6, 0])


def test_non_finite_rows_give_zero_directions_and_no_warning() -> None:
    # Given rows with NaN and infinite coordinates beside ordinary ones
    v = np.array([[np.nan, 1.0], [np.inf, 0.0], [3.0, 4.0], [0.0, 0.0], [1e308, 1e308]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unit = safe_normalize(v)
        fell_back = safe_normalize(v, fallback=np.array([1.0, 0.0]))
        sized = set_length(v, 10.0)
        short = truncate(v, 1.0)
        negative = truncate(np.zeros((2, 2)), np.array([-1.0, -2.0]))
    # Then the rows without a direction give zero (or the fallback), the others their unit
    half = np.sqrt(0.5)
    np.testing.assert_allclose(unit, [[0, 0], [0, 0], [0.6, 0.8], [0, 0], [half, half]])
    np.testing.assert_allclose(fell_back, [[1, 0], [1, 0], [0.6, 0.8], [1, 0], [half, half]])
    np.testing.assert_allclose(sized, 10.0 * unit)
    np.testing.assert_allclose(short, unit)
    np.testing.assert_array_equal(negative, np.zeros((2, 2)))


def test_scale_rows_keeps_each_coordinate_to_itself() -> None:
    # An infinite coordinate times a factor stays in its own coordinate (no inf * 0 mixing)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = scale_rows(np.array([[1.0, np.inf], [np.nan, 2.0]]), np.array([2.0, 3.0]))
    np.testing.assert_array_equal(out, [[2.0, np.inf], [np.nan, 6.0]])


def test_row_helpers_refuse_a_mask_of_the_wrong_length_and_take_scalars() -> None:
    v = np.zeros((3, 2))
    with pytest.raises(IndexError):
        take_rows(v, np.array([True, False]))
    put_rows(v, np.array([1]), 7.0)
    np.testing.assert_array_equal(v, [[0, 0], [7, 7], [0, 0]])


special = st.one_of(
    st.floats(-1e6, 1e6),
    st.sampled_from([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-300, 1e300]),
)


@given(
    arrays(np.float64, (6, 2), elements=special),
    arrays(np.float64, (6,), elements=special),
    arrays(np.bool_, (6,)),
)
def test_row_helpers_equal_numpy_broadcasting(v: np.ndarray, f: np.ndarray, m: np.ndarray) -> None:
    # The complex-view helpers give the same numbers (NaN and infinities in the same places)
    # as the (N, 2) by (N, 1) broadcasts they replace
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # inf * 0 warns in both; only the values matter here
        expected_scaled = v * f[:, None]
        scaled = scale_rows(v, f)
    np.testing.assert_array_equal(scaled, expected_scaled)
    np.testing.assert_array_equal(select_rows(m, v, -v), np.where(m[:, None], v, -v))
    idx = np.flatnonzero(m)
    np.testing.assert_array_equal(take_rows(v, idx), v[idx])
    np.testing.assert_array_equal(take_rows(v, m), v[m])
    out, expected = np.zeros((6, 2)), np.zeros((6, 2))
    put_rows(out, idx, v[idx])
    expected[idx] = v[idx]
    np.testing.assert_array_equal(out, expected)


@given(arrays(np.float64, (6, 2), elements=special))
def test_normalise_is_unit_or_zero_and_never_warns(v: np.ndarray) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unit = safe_normalize(v)
        short = truncate(v, 5.0)
    assert np.isfinite(unit).all() and np.isfinite(short).all()
    lengths = np.hypot(unit[:, 0], unit[:, 1])
    assert np.all((np.abs(lengths - 1.0) < 1e-12) | (lengths == 0.0))
    finite = np.isfinite(v).all(axis=1) & (np.hypot(v[:, 0], v[:, 1]) > 1e-9)
    assert (lengths[finite] > 0.5).all()
