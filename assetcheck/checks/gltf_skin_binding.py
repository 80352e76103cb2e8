"""Skin binding: inverse bind matrices that cannot be inverted or do not match the joints'
pose in the node hierarchy, and joints that weigh on no vertex (``docs/skins.md``), as
:func:`~assetcheck.formats.gltf.skin_binding.binding_faults` finds them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module
from assetcheck.mesh.bind_pose import POSE_TOLERANCE
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.gltf import skin_binding
else:  # imported by the first file with skins
    skin_binding = lazy_module("assetcheck.formats.gltf.skin_binding")

CODES = ("SKIN_IBM_NOT_INVERTIBLE", "SKIN_IBM_BIND_POSE_MISMATCH", "SKIN_JOINT_UNUSED")


def _report(
    issues: FileIssues,
    code: str,
    pointer: str,
    joints: list[int],
    rows: np.ndarray,
    **fields: object,
) -> None:
    if rows.size:
        first = int(rows[0])
        issues.add(
            code, pointer=pointer, count=rows.size, first=first, node=joints[first], **fields
        )


def check_skin_binding(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    issues = context.issues
    for index, skin in enumerate(asset.gltf.links.items("skins")):
        faults = None if skin is None else skin_binding.binding_faults(asset.gltf, index, skin)
        if faults is None:
            continue
        joints, pointer = faults.joints, faults.pointer
        _report(issues, "SKIN_IBM_NOT_INVERTIBLE", pointer, joints, faults.singular)
        if faults.pose_error.size:
            error = float(faults.pose_error[0] * POSE_TOLERANCE)
            _report(
                issues, "SKIN_IBM_BIND_POSE_MISMATCH", pointer, joints, faults.off_pose, error=error
            )
        if faults.unused is not None:
            at = child(child("/skins", index), "joints")
            _report(issues, "SKIN_JOINT_UNUSED", at, joints, faults.unused, total=len(joints))


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-skin-binding",
            "Inverse bind matrices that cannot be inverted or do not match the joints' pose, "
            "and joints no vertex uses.",
            check_skin_binding,
            CODES,
            GLTF_FORMATS,
        )
    ]
