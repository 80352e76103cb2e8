"""Skin binding: inverse bind matrices that cannot be inverted or do not match the joints'
pose in the node hierarchy, and joints that weigh on no vertex (``docs/skins.md``).

The tolerances are those of :mod:`assetcheck.mesh.bind_pose`, shared with FBX skins.
"""

from __future__ import annotations

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_formats import INVERSE_BIND_MATRICES, accessor_format
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import index_list, index_of, resolve
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.issues import FileIssues
from assetcheck.mesh.bind_pose import POSE_TOLERANCE, pose_errors, singular_rows
from assetcheck.plugins.hookspecs import hookimpl

CODES = ("SKIN_IBM_NOT_INVERTIBLE", "SKIN_IBM_BIND_POSE_MISMATCH", "SKIN_JOINT_UNUSED")


def inverse_bind_matrices(document: GltfDocument, skin: dict) -> np.ndarray | None:
    """The skin's inverse bind matrices as ``(joints, 4, 4)`` row-major matrices: identities
    without the accessor; None when it is there but unusable (other rules report it)."""
    joints = len(index_list(skin, "joints"))
    accessor = index_of(skin, "inverseBindMatrices")
    if "inverseBindMatrices" not in skin:
        return np.tile(np.eye(4), (joints, 1, 1))
    json = resolve(accessor, document.links.items("accessors"))
    if accessor is None or json is None or accessor_format(json) not in INVERSE_BIND_MATRICES:
        return None
    values = document.reader.read(accessor)
    if values is None or len(values) < joints:
        return None
    # glTF stores each matrix column by column.
    return values[:joints].astype(np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)


class _SkinChecker:
    def __init__(self, document: GltfDocument, issues: FileIssues) -> None:
        self.document = document
        self.issues = issues

    def check(self, index: int, skin: dict) -> None:
        at = child("/skins", index)
        joints = index_list(skin, "joints")
        listed = skin.get("joints")
        if not isinstance(listed, list) or len(joints) != len(listed):
            return  # no list, or an entry that is not a node index: the schema check reports it
        matrices = inverse_bind_matrices(self.document, skin)
        pointer = child(at, "inverseBindMatrices") if "inverseBindMatrices" in skin else at
        if matrices is not None and joints:
            singular = singular_rows(matrices)
            self._report("SKIN_IBM_NOT_INVERTIBLE", pointer, joints, singular)
            self._check_pose(pointer, joints, matrices, singular)
        self._check_use(at, index, joints)

    def _check_pose(
        self, pointer: str, joints: list[int], matrices: np.ndarray, singular: np.ndarray
    ) -> None:
        placed, skipped = self.document.world_matrices, set(singular.tolist())
        rows = np.array(
            [row for row, node in enumerate(joints) if node in placed and row not in skipped],
            dtype=np.intp,
        )
        if not rows.size:
            return
        world = np.stack([placed[joints[row]] for row in rows])
        errors = pose_errors(world, matrices[rows])
        off = np.flatnonzero(~(errors <= 1))
        if off.size:
            self._report(
                "SKIN_IBM_BIND_POSE_MISMATCH",
                pointer,
                joints,
                rows[off],
                error=float(errors[off[0]] * POSE_TOLERANCE),
            )

    def _check_use(self, at: str, index: int, joints: list[int]) -> None:
        """Joints no vertex of the skinned meshes weighs on; not decided when a mesh's
        influences cannot be read."""
        used = np.zeros(len(joints), dtype=bool)
        meshes = {
            index_of(node, "mesh")
            for node in self.document.links.items("nodes")
            if index_of(node, "skin") == index
        } - {None}
        links = self.document.links
        primitives = [p for mesh in meshes if mesh is not None for p in links.mesh_primitives(mesh)]
        if not primitives:
            return
        for primitive in primitives:
            influences = self.document.influences(primitive)
            if influences is None:
                return
            weighted = influences.joints[influences.weights != 0]
            used[weighted[(weighted >= 0) & (weighted < len(joints))]] = True
        self._report(
            "SKIN_JOINT_UNUSED",
            child(at, "joints"),
            joints,
            np.flatnonzero(~used),
            total=len(joints),
        )

    def _report(
        self, code: str, pointer: str, joints: list[int], rows: np.ndarray, **fields: object
    ) -> None:
        if rows.size:
            first = int(rows[0])
            self.issues.add(
                code, pointer=pointer, count=rows.size, first=first, node=joints[first], **fields
            )


def check_skin_binding(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    checker = _SkinChecker(asset.gltf, context.issues)
    for index, skin in enumerate(asset.gltf.links.items("skins")):
        if skin is not None:
            checker.check(index, skin)


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
