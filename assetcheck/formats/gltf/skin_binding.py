"""What breaks the binding of a glTF skin (``docs/skins.md``): inverse bind matrices that
cannot be inverted or do not match the joints' pose in the node hierarchy, and joints that
weigh on no vertex. Found once here, reported by the ``gltf-skin-binding`` check and marked
by the viewer; the tolerances are those of :mod:`assetcheck.mesh.bind_pose`, shared with FBX
skins."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assetcheck.formats.gltf.accessor_formats import INVERSE_BIND_MATRICES, accessor_format
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import index_list, index_of, resolve
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.mesh.bind_pose import pose_errors, singular_rows


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


@dataclass(frozen=True)
class BindingFaults:
    """What :func:`binding_faults` finds in one skin: its ``joints`` (node indices), then
    rows of that list: ``singular`` inverse bind matrices, joints ``off_pose`` with each one's
    ``pose_error`` (relative to the tolerance), and ``unused`` joints (None when not decided:
    no mesh is drawn with the skin, or one's influences cannot be read). ``pointer`` is where
    the matrices' findings are reported (the accessor, or the skin without one)."""

    joints: list[int]
    pointer: str
    singular: np.ndarray
    off_pose: np.ndarray
    pose_error: np.ndarray
    unused: np.ndarray | None


def binding_faults(document: GltfDocument, index: int, skin: dict) -> BindingFaults | None:
    """The faults of skin ``index`` (its JSON ``skin``) under the rules of ``docs/skins.md``;
    None when its joint list is not a list of node indices (the schema check reports it)."""
    at = child("/skins", index)
    joints = index_list(skin, "joints")
    listed = skin.get("joints")
    if not isinstance(listed, list) or len(joints) != len(listed):
        return None
    matrices = inverse_bind_matrices(document, skin)
    singular = off = errors = np.empty(0, np.intp)
    if matrices is not None and joints:
        singular = singular_rows(matrices)
        off, errors = _pose_faults(document, joints, matrices, singular)
    return BindingFaults(
        joints,
        child(at, "inverseBindMatrices") if "inverseBindMatrices" in skin else at,
        singular,
        off,
        errors,
        _unused(document, index, joints),
    )


def _pose_faults(
    document: GltfDocument, joints: list[int], matrices: np.ndarray, singular: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The joints whose world matrix times inverse bind matrix is not the identity, and how
    far off each is; joints outside every scene and singular matrices are skipped."""
    placed, skipped = document.world_matrices, set(singular.tolist())
    rows = np.array(
        [row for row, node in enumerate(joints) if node in placed and row not in skipped],
        dtype=np.intp,
    )
    if not rows.size:
        return rows, np.empty(0)
    world = np.stack([placed[joints[row]] for row in rows])
    errors = pose_errors(world, matrices[rows])
    off = np.flatnonzero(~(errors <= 1))
    return rows[off], errors[off]


def _unused(document: GltfDocument, index: int, joints: list[int]) -> np.ndarray | None:
    """Joints no vertex of the meshes drawn with skin ``index`` weighs on; None when not
    decided."""
    used = np.zeros(len(joints), dtype=bool)
    links = document.links
    meshes = {
        index_of(node, "mesh") for node in links.items("nodes") if index_of(node, "skin") == index
    } - {None}
    primitives = [p for mesh in meshes if mesh is not None for p in links.mesh_primitives(mesh)]
    if not primitives:
        return None
    for primitive in primitives:
        influences = document.influences(primitive)
        if influences is None:
            return None
        weighted = influences.joints[influences.weights != 0]
        used[weighted[(weighted >= 0) & (weighted < len(joints))]] = True
    return np.flatnonzero(~used)
