"""Bind matrices, whatever the format: which cannot be inverted, and how far a joint is from
its bind pose (a tolerance that scales with the skeleton)."""

import numpy as np

from assetcheck.mesh.bind_pose import pose_errors, singular_rows


def translation(x: float, y: float, z: float) -> np.ndarray:
    matrix = np.eye(4)
    matrix[:3, 3] = (x, y, z)
    return matrix


def test_tiny_but_uniform_scales_invert_and_flattened_or_broken_matrices_do_not():
    tiny = np.diag([1e-4, 1e-4, 1e-4, 1.0])
    flat = np.eye(4)
    flat[:3, 2] = (1.0, 1.0, 0.0)  # the z axis in the plane of x and y
    flat[:3, 1] = (0.0, 1.0, 0.0)
    broken = np.eye(4)
    broken[0, 0] = np.nan
    zero_axis = np.diag([1.0, 0.0, 1.0, 1.0])
    assert singular_rows(np.stack([tiny, np.eye(4), flat, broken, zero_axis])).tolist() == [
        2,
        3,
        4,
    ]


def test_the_pose_tolerance_scales_with_the_skeleton():
    # A skeleton 1000 units tall (millimetres): half a unit off is within 1e-3 of its size.
    world = np.stack([translation(0, 1000, 0), translation(0, 1000, 0)])
    matrices = np.stack([translation(0, -1000.5, 0), translation(0, -1002, 0)])
    errors = pose_errors(world, matrices)
    assert errors[0] <= 1 < errors[1]
