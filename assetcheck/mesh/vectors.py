"""Unit vectors (normals, tangents, rotations): the rows that are not of unit length, with
Khronos glTF-Validator's thresholds."""

from __future__ import annotations

from functools import partial

import numpy as np

from assetcheck.mesh._kernels import unit_length_outliers
from assetcheck.mesh.threads import mesh_threads, run_all, spans

#: Khronos' tolerances: a little more than the error of signed 8-bit quantization.
UNIT_LENGTH_THRESHOLD_VEC3 = 0.00674


UNIT_LENGTH_THRESHOLD_VEC4 = 0.00769


#: Lengths within this of a tolerance, computed in single precision, are computed again in
#: double precision.
NEAR_TOLERANCE = 1e-4


def non_unit_rows(vectors: np.ndarray, threshold: float) -> np.ndarray:
    """Indices of the rows whose length differs from 1 by more than ``threshold``: computed
    in the rows' precision (float32 or float64; others are made float64) in one compiled pass
    (in spans on threads for many rows: :func:`~assetcheck.mesh.threads.mesh_threads`), and
    again in double precision for those within :data:`NEAR_TOLERANCE` of it."""
    if vectors.dtype not in (np.float32, np.float64):
        vectors = vectors.astype(np.float64)
    threads = mesh_threads(len(vectors))
    found = run_all(
        [
            partial(unit_length_outliers, vectors, threshold, NEAR_TOLERANCE, first, last)
            for first, last in spans(len(vectors), threads)
        ],
        threads,
    )
    off, near = (np.concatenate(rows) for rows in zip(*found, strict=True))
    if not near.size:
        return off
    exact = vectors[near].astype(np.float64)
    decided = near[np.abs(np.sqrt(np.einsum("ij,ij->i", exact, exact)) - 1) > threshold]
    return np.union1d(off, decided)


def vector_length(vector: np.ndarray) -> str:
    return repr(float(np.sqrt(np.dot(vector.astype(np.float64), vector.astype(np.float64)))))
