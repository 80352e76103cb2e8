"""FBX skins: the clusters' weights and bind matrices under the rules of glTF skins
(``docs/skins.md``).

Per mesh, from the clusters the reader kept (``FbxMesh.skin``), as
:func:`~assetcheck.formats.fbx.skin_faults.skin_faults` finds them: weights that do not sum
to 1, negative weights, weights on control points the mesh does not have or on clusters
linked to no bone, bind matrices (``TransformLink``) that cannot be inverted or are not the
bone's world matrix in the scene, and bones no control point is weighted to. Bone influences
per vertex are the budget check's (``BUDGET_INFLUENCES``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module
from assetcheck.mesh.bind_pose import POSE_TOLERANCE
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.fbx import skin_faults as skin_rules
else:  # imported by the first FBX file with skins
    skin_rules = lazy_module("assetcheck.formats.fbx.skin_faults")

if TYPE_CHECKING:  # a glTF validation loads nothing of FBX
    from assetcheck.formats.fbx.model import FbxMesh, FbxSkin

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


class _SkinChecker:
    def __init__(self, mesh: FbxMesh, skin: FbxSkin, issues: FileIssues) -> None:
        self.name = mesh.name
        self.skin = skin
        self.issues = issues

    def check(self) -> None:
        skin, faults = self.skin, skin_rules.skin_faults(self.skin)
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
