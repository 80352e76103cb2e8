"""Unit vectors (normals, tangents, rotations): the rows that are not of unit length, with
Khronos glTF-Validator's thresholds."""

from __future__ import annotations

import numpy as np

#: Khronos' tolerances: a little more than the error of signed 8-bit quantization.
UNIT_LENGTH_THRESHOLD_VEC3 = 0.00674


UNIT_LENGTH_THRESHOLD_VEC4 = 0.00769


def non_unit_rows(vectors: np.ndarray, threshold: float) -> np.ndarray:
    """Indices of the rows whose length differs from 1 by more than ``threshold``."""
    lengths = np.sqrt(np.einsum("ij,ij->i", vectors, vectors))
    with np.errstate(invalid="ignore"):
        error = np.abs(lengths - 1)
        bad = error > threshold
        near = np.flatnonzero(np.abs(error - threshold) < 1e-4)
    if near.size:
        exact = vectors[near].astype(np.float64)
        bad[near] = np.abs(np.sqrt(np.einsum("ij,ij->i", exact, exact)) - 1) > threshold
    return np.flatnonzero(bad)


def vector_length(vector: np.ndarray) -> str:
    return repr(float(np.sqrt(np.dot(vector.astype(np.float64), vector.astype(np.float64)))))
