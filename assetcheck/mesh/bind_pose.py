"""Bind matrices of skins, whatever the format: which cannot be inverted, and how far joints
are from the pose the mesh was bound in (``docs/skins.md``, Tolerances).

- a matrix cannot be inverted when a value is not finite, or the determinant of its upper 3x3
  is at most :data:`SINGULAR_RATIO` times the product of its column lengths (a zero column
  included): its axes lie in one plane;
- a joint is in its bind pose when ``world(joint) @ inverse bind matrix`` is the identity within
  :data:`POSE_TOLERANCE`: each element of the upper 3x3 within it, and the translation within
  it times the skeleton's size (the largest distance of a joint from the scene origin, at
  least :data:`MIN_SIZE`), so the rule holds for a model in millimetres as in metres.
"""

from __future__ import annotations

import numpy as np

#: Determinant over the product of column lengths at or below which a matrix is singular.
SINGULAR_RATIO = 1e-6
#: Largest error of ``world @ inverse bind matrix`` from the identity in the bind pose.
POSE_TOLERANCE = 1e-3
#: The smallest skeleton size the translation tolerance scales with.
MIN_SIZE = 1e-6


def singular_rows(matrices: np.ndarray) -> np.ndarray:
    """The indices of ``matrices`` ``(n, 4, 4)`` whose affine part cannot be inverted."""
    finite = np.isfinite(matrices).all(axis=(1, 2))
    linear = np.where(finite[:, None, None], matrices, 0)[:, :3, :3]
    lengths = np.linalg.norm(linear, axis=1).prod(axis=1)
    determinants = np.abs(np.linalg.det(linear))
    return np.flatnonzero(~finite | (lengths == 0) | (determinants <= SINGULAR_RATIO * lengths))


def pose_errors(world: np.ndarray, matrices: np.ndarray) -> np.ndarray:
    """Per joint, how far ``world @ matrix`` is from the identity, in units of the tolerance
    (above 1: not in the bind pose); ``world`` holds the joints' world matrices, ``matrices``
    their inverse bind matrices."""
    product = world @ matrices
    size = max(float(np.abs(world[:, :3, 3]).max(initial=0.0)), MIN_SIZE)
    linear = np.abs(product[:, :3, :3] - np.eye(3)).max(axis=(1, 2))
    moved = np.abs(product[:, :3, 3]).max(axis=1) / size
    return np.maximum(linear, moved) / POSE_TOLERANCE
