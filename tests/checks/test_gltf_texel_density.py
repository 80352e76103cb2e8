"""The texel density check's node scales: one stacked determinant for every node drawing a
mesh gives each node the determinant it has alone."""

from __future__ import annotations

import numpy as np


def test_stacked_determinants_are_each_matrix_own():
    rng = np.random.default_rng(28)
    matrices = rng.normal(size=(4000, 3, 3)) * rng.choice([1e-12, 1e-3, 1.0, 1e6], (4000, 1, 1))
    matrices[::5, 2] = 2 * matrices[::5, 0]  # singular
    matrices[1::5, :, 0] *= -1  # mirrored
    matrices[2::97, 1, 1] = np.nan
    matrices[3::89, 0, 2] = np.inf
    with np.errstate(invalid="ignore"):  # the NaN ones
        stacked = np.linalg.det(matrices)
        alone = np.array([np.linalg.det(matrix) for matrix in matrices])
    assert stacked.tobytes() == alone.tobytes()
