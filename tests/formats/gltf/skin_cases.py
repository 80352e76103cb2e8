"""Crafted skinned glTF files for the skin binding rules AssetCheck adds to Khronos' (inverse
bind matrices that cannot be inverted or do not match the joints' pose, joints no vertex
uses): golden cases like those of :mod:`tests.formats.gltf.cases`, each the ``skinned`` base
(a triangle wholly on one joint at the origin, identity inverse bind matrices) broken in one
way."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from assetcheck.testing.gltf import GltfBuilder
from tests.formats.gltf.cases import Case, Document


def _matrices(*matrices: np.ndarray) -> Callable[[GltfBuilder, Document], None]:
    """A change that gives the skin's inverse bind matrices accessor these matrices (row-major
    4x4), stored column by column as glTF does."""

    def change(builder: GltfBuilder, document: Document) -> None:
        data = np.stack([m.T.reshape(16) for m in matrices]).astype(np.float32).tobytes()
        accessor = document["accessors"][IBM_ACCESSOR]
        builder.binary.extend(b"\0" * (-len(builder.binary) % 4))
        document["bufferViews"][accessor["bufferView"]].update(
            byteOffset=len(builder.binary), byteLength=len(data)
        )
        builder.binary.extend(data)
        accessor["count"] = len(matrices)

    return change


#: The skin's inverse bind matrices accessor in the ``skinned`` base.
IBM_ACCESSOR = 5


def _second_joint(builder: GltfBuilder, document: Document) -> None:
    """A second joint, child of the first, that no vertex weighs on."""
    document["nodes"].append({"name": "end"})
    document["nodes"][1]["children"] = [2]
    document["skins"][0]["joints"] = [1, 2]
    _matrices(np.eye(4), np.eye(4))(builder, document)


def _moved_joint(builder: GltfBuilder, document: Document) -> None:
    """The joint placed 2 units up while its inverse bind matrix stays the identity."""
    document["nodes"][1]["translation"] = [0.0, 2.0, 0.0]


FLAT = np.diag([1.0, 1.0, 0.0, 1.0])  # scales z to zero: no inverse

SKIN_CASES = {
    "skin_ibm_not_invertible": Case("skinned", _matrices(FLAT)),
    "skin_ibm_bind_pose_mismatch": Case("skinned", _moved_joint),
    "skin_joint_unused": Case("skinned", _second_joint),
}
