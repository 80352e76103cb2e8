"""What breaks the rules of FBX skins in one mesh's clusters (``docs/skins.md``): found once
here, reported by the ``fbx-skins`` check and marked by the viewer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.mesh.bind_pose import pose_errors, singular_rows

if TYPE_CHECKING:  # the checks import this module; a glTF validation loads nothing of FBX
    from assetcheck.formats.fbx.model import FbxSkin

#: How far a control point's weights may sum from 1: one step of an 8-bit weight, the
#: precision engines keep weights at (``docs/skins.md``).
WEIGHT_SUM_TOLERANCE = 1 / 255


@dataclass(frozen=True)
class SkinFaults:
    """What breaks the rules in one mesh's skin, as :func:`skin_faults` finds it: weight rows
    (of ``FbxSkin.vertices``) ``outside`` the mesh and ``negative``; control points
    ``unnormalized``; per cluster (masks) ``without_bone``, ``unused``, ``singular`` and
    ``off_pose``, with ``pose_error`` (relative to the tolerance) of each ``off_pose``
    cluster in order."""

    outside: np.ndarray
    negative: np.ndarray
    unnormalized: np.ndarray
    without_bone: np.ndarray
    unused: np.ndarray
    singular: np.ndarray
    off_pose: np.ndarray
    pose_error: np.ndarray


def skin_faults(skin: FbxSkin) -> SkinFaults:
    """The faults of ``skin`` under the rules of ``docs/skins.md``; the ``fbx-skins`` check
    reports them and the viewer marks them (:mod:`assetcheck.previews.overlays`)."""
    weighted = skin.influences > 0
    rows = skin.in_range & (skin.weights != 0)
    used = np.zeros(len(skin.names), dtype=bool)
    used[skin.clusters[rows]] = True
    singular, off_pose, pose_error = _bind_faults(skin)
    return SkinFaults(
        outside=np.flatnonzero(~skin.in_range),
        negative=np.flatnonzero(skin.weights < 0),
        unnormalized=np.flatnonzero(weighted & ~(np.abs(skin.sums - 1) <= WEIGHT_SUM_TOLERANCE)),
        without_bone=used & ~skin.bound,
        unused=~used,
        singular=singular,
        off_pose=off_pose,
        pose_error=pose_error,
    )


def _bind_faults(skin: FbxSkin) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bound clusters whose TransformLink cannot be inverted, then those whose bone is
    elsewhere in the scene's default pose (singular matrices and unplaced bones skipped),
    with how far off they are."""
    bound = np.flatnonzero(skin.bound)
    singular = bound[singular_rows(skin.bind_matrices[bound])]
    placed = np.isfinite(skin.bone_world).all(axis=(1, 2))
    rows = np.setdiff1d(bound[placed[bound]], singular)
    off, errors = np.empty(0, np.intp), np.empty(0)
    if rows.size:
        errors = pose_errors(skin.bone_world[rows], np.linalg.inv(skin.bind_matrices[rows]))
        wrong = ~(errors <= 1)
        off, errors = rows[wrong], errors[wrong]
    return _mask(singular, skin), _mask(off, skin), errors


def _mask(clusters: np.ndarray, skin: FbxSkin) -> np.ndarray:
    mask = np.zeros(len(skin.names), dtype=bool)
    mask[clusters] = True
    return mask
