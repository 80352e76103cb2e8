"""FBX skins: the clusters' weights and bind matrices under the rules of glTF skins
(``docs/skins.md``).

Per mesh, from the clusters the reader kept (``FbxMesh.skin``): weights that do not sum to 1
within :data:`WEIGHT_SUM_TOLERANCE`, negative weights, weights on control points the mesh does
not have or on clusters linked to no bone, bind matrices (``TransformLink``) that cannot be
inverted or are not the bone's world matrix in the scene, and bones no control point is
weighted to. Bone influences per vertex are the budget check's (``BUDGET_INFLUENCES``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.issues import FileIssues
from assetcheck.mesh.bind_pose import POSE_TOLERANCE, pose_errors, singular_rows
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:  # a glTF validation loads nothing of FBX
    from assetcheck.formats.fbx.model import FbxMesh, FbxSkin

#: How far a control point's weights may sum from 1: one step of an 8-bit weight, the
#: precision engines keep weights at (``docs/skins.md``).
WEIGHT_SUM_TOLERANCE = 1 / 255

CODES = (
    "FBX_SKIN_UNREADABLE",
    "FBX_SKIN_WEIGHTS_NOT_NORMALIZED",
    "FBX_SKIN_WEIGHTS_NEGATIVE",
    "FBX_SKIN_INDEX_OUT_OF_RANGE",
    "FBX_SKIN_CLUSTER_WITHOUT_BONE",
    "FBX_SKIN_BIND_MATRIX_NOT_INVERTIBLE",
    "FBX_SKIN_BIND_POSE_MISMATCH",
    "FBX_SKIN_BONE_UNUSED",
)


def check_fbx_skins(asset: Asset, context: CheckContext) -> None:
    if asset.fbx is None:
        return
    for mesh in asset.fbx.meshes:
        if mesh.skin_fault is not None:
            context.issues.add("FBX_SKIN_UNREADABLE", name=mesh.name, reason=mesh.skin_fault)
        elif mesh.skin is not None:
            _SkinChecker(mesh, mesh.skin, context.issues).check()


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
    """The faults of ``skin`` under the rules of ``docs/skins.md``; the check reports them
    and the viewer marks them (:mod:`assetcheck.previews.overlays`)."""
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


class _SkinChecker:
    def __init__(self, mesh: FbxMesh, skin: FbxSkin, issues: FileIssues) -> None:
        self.name = mesh.name
        self.skin = skin
        self.issues = issues

    def check(self) -> None:
        skin, faults = self.skin, skin_faults(self.skin)
        if faults.outside.size:
            self._add(
                "FBX_SKIN_INDEX_OUT_OF_RANGE",
                faults.outside,
                first=int(skin.vertices[faults.outside[0]]),
                total=skin.points,
            )
        if faults.negative.size:
            self._add(
                "FBX_SKIN_WEIGHTS_NEGATIVE",
                faults.negative,
                first=int(skin.vertices[faults.negative[0]]),
                weight=float(skin.weights[faults.negative[0]]),
            )
        off = faults.unnormalized
        if off.size:
            self.issues.add(
                "FBX_SKIN_WEIGHTS_NOT_NORMALIZED",
                name=self.name,
                count=off.size,
                total=int(np.count_nonzero(skin.influences > 0)),
                first=int(off[0]),
                sum=float(skin.sums[off[0]]),
            )
        self._report_clusters("FBX_SKIN_CLUSTER_WITHOUT_BONE", faults.without_bone)
        self._report_clusters("FBX_SKIN_BONE_UNUSED", faults.unused)
        self._report_clusters("FBX_SKIN_BIND_MATRIX_NOT_INVERTIBLE", faults.singular)
        if faults.pose_error.size:
            first = float(faults.pose_error[0] * POSE_TOLERANCE)
            self._report_clusters("FBX_SKIN_BIND_POSE_MISMATCH", faults.off_pose, error=first)

    def _report_clusters(self, code: str, clusters: np.ndarray, **fields: object) -> None:
        """One finding for the clusters marked in ``clusters`` (a mask), naming the first."""
        found = np.flatnonzero(clusters)
        if found.size:
            self.issues.add(
                code,
                name=self.name,
                count=found.size,
                total=len(self.skin.names),
                bone=self.skin.names[found[0]],
                **fields,
            )

    def _add(self, code: str, rows: np.ndarray, **fields: object) -> None:
        """One finding for the weight ``rows``, naming the first row's bone."""
        self.issues.add(
            code,
            name=self.name,
            count=rows.size,
            bone=self.skin.names[self.skin.clusters[rows[0]]],
            **fields,
        )


def _mask(clusters: np.ndarray, skin: FbxSkin) -> np.ndarray:
    mask = np.zeros(len(skin.names), dtype=bool)
    mask[clusters] = True
    return mask


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "fbx-skins",
            "FBX skin clusters: weights that do not sum to 1, negative or on missing control "
            "points or bones, bind matrices that cannot be inverted or do not match the "
            "bones' pose, and bones no vertex uses.",
            check_fbx_skins,
            CODES,
            frozenset({"fbx"}),
        )
    ]
