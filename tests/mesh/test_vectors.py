"""Rows off unit length are those numpy found before the compiled pass, at either precision."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assetcheck.mesh import vectors as vectors_module
from assetcheck.mesh.vectors import (
    NEAR_TOLERANCE,
    UNIT_LENGTH_THRESHOLD_VEC3,
    UNIT_LENGTH_THRESHOLD_VEC4,
    non_unit_rows,
)


def numpy_non_unit_rows(vectors: np.ndarray, threshold: float) -> np.ndarray:
    """The rows as numpy found them: lengths in the rows' precision, those near the
    threshold again in double precision."""
    lengths = np.sqrt(np.einsum("ij,ij->i", vectors, vectors))
    with np.errstate(invalid="ignore"):
        error = np.abs(lengths - 1)
        bad = error > threshold
        near = np.flatnonzero(np.abs(error - threshold) < NEAR_TOLERANCE)
    if near.size:
        exact = vectors[near].astype(np.float64)
        bad[near] = np.abs(np.sqrt(np.einsum("ij,ij->i", exact, exact)) - 1) > threshold
    return np.flatnonzero(bad)


THRESHOLDS = [UNIT_LENGTH_THRESHOLD_VEC3, UNIT_LENGTH_THRESHOLD_VEC4]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("columns", [3, 4])
@pytest.mark.parametrize("threshold", THRESHOLDS)
@pytest.mark.parametrize("threads", [1, 3])
def test_rows_around_the_tolerance_are_judged_as_numpy_judged_them(
    dtype, columns, threshold, threads, monkeypatch
):
    # On several threads (forced: 20,000 rows take one), each judging a span of the rows.
    monkeypatch.setattr(vectors_module, "mesh_threads", lambda rows: threads)
    rng = np.random.default_rng(columns)
    directions = rng.normal(size=(20_000, columns))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    # Lengths spread across the tolerance, many within rounding distance of it.
    scale = 1 + threshold * rng.choice([-1, 1], size=(20_000, 1))
    scale += rng.normal(scale=1e-6, size=(20_000, 1)) * rng.integers(0, 2, size=(20_000, 1))
    vectors = (directions * scale).astype(dtype)
    vectors[::97] = np.nan
    vectors[::101, 0] = np.inf
    vectors[::103] = 0.0
    found = non_unit_rows(vectors, threshold)
    assert found.dtype == np.intp
    assert np.array_equal(found, numpy_non_unit_rows(vectors, threshold))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.floats(-2.0, 2.0, width=32) | st.sampled_from([float("nan"), float("inf"), 1e20]),
        min_size=0,
        max_size=48,
    ),
    st.sampled_from([np.float32, np.float64]),
    st.sampled_from(THRESHOLDS),
    st.booleans(),
)
def test_any_rows_are_judged_as_numpy_judged_them(values, dtype, threshold, strided):
    rows = len(values) // 4
    vectors = np.array(values[: 4 * rows], dtype).reshape(rows, 4)
    vectors = vectors[:, :3] if strided else np.ascontiguousarray(vectors[:, :3])
    with np.errstate(over="ignore", invalid="ignore"):
        expected = numpy_non_unit_rows(vectors, threshold)
    assert np.array_equal(non_unit_rows(vectors, threshold), expected)
