"""The node hierarchy and scenes: loops, several parents, transforms, skinned-mesh rules.

Follows Khronos glTF-Validator's node rules: a node lists each child once and a child has one
parent; scenes list root nodes only; a matrix is either absent or the only transform and then
decomposable into translation, rotation and scale (to the reference's tolerance).
"""

from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child, is_number
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    index_list,
    index_of,
    resolves,
)
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module
from assetcheck.mesh.vectors import UNIT_LENGTH_THRESHOLD_VEC4
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.gltf import skins as skin_rules
else:  # imported by the first file with skins
    skin_rules = lazy_module("assetcheck.formats.gltf.skins")

#: Khronos' tolerance when composing a decomposed matrix again.
TRS_TOLERANCE = 0.00005
IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]

CODES = (
    "NODE_LOOP",
    "NODE_PARENT_OVERRIDE",
    "SCENE_NON_ROOT_NODE",
    "NODE_MATRIX_TRS",
    "NODE_MATRIX_DEFAULT",
    "NODE_MATRIX_NON_TRS",
    "ROTATION_NON_UNIT",
    "NODE_EMPTY",
    "NODE_SKINNED_MESH_WITHOUT_SKIN",
    "NODE_SKIN_WITH_NON_SKINNED_MESH",
    "NODE_WEIGHTS_INVALID",
    "NODE_SKINNED_MESH_LOCAL_TRANSFORMS",
    "NODE_SKINNED_MESH_NON_ROOT",
    "NODE_SKIN_NO_SCENE",
)


def float_list(node: dict, key: str, length: int) -> list[float] | None:
    """``node[key]`` when it is a list of ``length`` finite numbers, else None."""
    value = node.get(key)
    if (
        isinstance(value, list)
        and len(value) == length
        and all(is_number(v) and math.isfinite(v) for v in value)
    ):
        return [float(v) for v in value]
    return None


def is_trs_decomposable(matrix: list[float]) -> bool:
    """Whether a column-major matrix is a translation, a rotation and a scale, composed.

    A port of Khronos' test (vector_math in single precision): decompose, compose again, and
    compare the infinity norms of both matrices.
    """
    m = _f32s(matrix)
    if m[3] != 0 or m[7] != 0 or m[11] != 0 or m[15] != 1:
        return False
    determinant = _determinant(m)
    if determinant == 0:
        return False
    scale = [math.sqrt(m[i] ** 2 + m[i + 1] ** 2 + m[i + 2] ** 2) for i in (0, 4, 8)]
    if determinant < 0:
        scale[0] = -scale[0]
    rotation = _f32s(
        [m[column * 4 + row] * (1 / scale[column]) for column in range(3) for row in range(3)]
    )
    x, y, z, w = _quaternion(rotation)
    scale = _f32s(scale)
    xx, xy, xz, yy, yz, zz = (
        x * (x + x),
        x * (y + y),
        x * (z + z),
        y * (y + y),
        y * (z + z),
        z * (z + z),
    )
    wx, wy, wz = w * (x + x), w * (y + y), w * (z + z)
    columns = [
        [1 - (yy + zz), xy + wz, xz - wy],
        [xy - wz, 1 - (xx + zz), yz + wx],
        [xz + wy, yz - wx, 1 - (xx + yy)],
    ]
    unscaled = _f32s([v for column in columns for v in (*column, 0.0)])
    composed = _f32s([v * scale[number // 4] for number, v in enumerate(unscaled)])
    composed += [m[12], m[13], m[14], 1.0]
    return abs(_infinity_norm(composed) - _infinity_norm(m)) < TRS_TOLERANCE


#: The determinant of the upper 3x3 of a matrix whose last row is 0, 0, 0, 1 has numpy's sign
#: when its size is above this times the fourth power of the matrix's Frobenius norm (see
#: :func:`_determinant`).
_CLEARLY_REGULAR = 1e-12


def _determinant(m: list[float]) -> float:
    """A number with the sign of ``np.linalg.det`` of the column-major ``m`` (whose last row
    is 0, 0, 0, 1), zero and NaN when numpy's is: the upper 3x3's determinant in plain Python
    (several times cheaper than numpy's call on one small matrix) when the matrix is clearly
    regular, else numpy's.

    numpy's LU with partial pivoting gives the exact determinant of ``m`` plus an error ``E``
    of 2-norm below ``6e-14 * |m|`` (Frobenius norm; Higham, Theorem 9.3, growth at most 8
    for 4x4), so its sign is the true one, and not zero, while ``|E|`` stays below ``m``'s
    smallest singular value, itself at least ``|det| / |m|**3``: it does when ``|det|`` is
    above :data:`_CLEARLY_REGULAR` ``* |m|**4``, where the 3x3 determinant's own rounding
    (below ``1e-14 * |m|**3``, and ``|m| >= 1``) cannot change its sign either."""
    a, b, c, _, d, e, f, _, g, h, i = m[:11]
    determinant = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    norm_squared = sum([v * v for v in m])
    if abs(determinant) > _CLEARLY_REGULAR * norm_squared * norm_squared:  # False for inf, NaN
        return determinant
    return float(np.linalg.det(np.array(m).reshape(4, 4)))


def _quaternion(r: list[float]) -> tuple[float, float, float, float]:
    """The quaternion of a column-major 3x3 rotation, as vector_math computes it (x, y, z, w)."""
    trace = r[0] + r[4] + r[8]
    if trace > 0:
        c = math.sqrt(trace + 1)
        w, c = _f32(c * 0.5), 0.5 / c
        return _f32((r[5] - r[7]) * c), _f32((r[6] - r[2]) * c), _f32((r[1] - r[3]) * c), w
    # b: the largest diagonal element, found the way vector_math finds it.
    b = (2 if r[4] < r[8] else 1) if r[0] < r[4] else (2 if r[0] < r[8] else 0)
    a, a0 = (b + 1) % 3, (b + 2) % 3
    c = math.sqrt(r[b * 4] - r[a * 4] - r[a0 * 4] + 1)
    q = [0.0, 0.0, 0.0, 0.0]
    q[b] = _f32(c * 0.5)
    c = 0.5 / c
    q[3] = _f32((r[a * 3 + a0] - r[a0 * 3 + a]) * c)
    q[a] = _f32((r[b * 3 + a] + r[a * 3 + b]) * c)
    q[a0] = _f32((r[b * 3 + a0] + r[a0 * 3 + b]) * c)
    return q[0], q[1], q[2], q[3]


def _infinity_norm(m: list[float]) -> float:
    return max(sum(map(abs, m[i : i + 4])) for i in range(0, 16, 4))


def _f32(value: float) -> float:
    """``value`` rounded to single precision (a C cast, as numpy's ``float32`` rounds it)."""
    return array("f", (value,))[0]


def _f32s(values: list[float]) -> list[float]:
    """Each of ``values`` rounded to single precision, in one C pass."""
    return array("f", values).tolist()


def has_transform(node: dict) -> bool:
    """Whether the node's transform differs from the identity."""
    matrix = float_list(node, "matrix", 16)
    return not (
        (matrix is None or matrix == IDENTITY)
        and float_list(node, "translation", 3) in (None, [0.0, 0.0, 0.0])
        and float_list(node, "rotation", 4) in (None, [0.0, 0.0, 0.0, 1.0])
        and float_list(node, "scale", 3) in (None, [1.0, 1.0, 1.0])
    )


class _NodeChecker:
    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues
        self.nodes = links.items("nodes")
        self._skin_tops: dict[int, int | None] = {}

    def check(self) -> None:
        for index, node in enumerate(self.nodes):
            if node is not None:
                self._check_transform(node, child("/nodes", index))
                self._check_mesh(node, child("/nodes", index))
        self._check_parents()
        self._check_scenes()
        scenes = self.links.node_scenes
        for index, node in enumerate(self.nodes):
            if node is not None:
                self._check_node(index, node, scenes)

    def _check_transform(self, node: dict, at: str) -> None:
        rotation = float_list(node, "rotation", 4)
        if (
            rotation is not None
            and all(-1 <= v <= 1 for v in rotation)
            and abs(1.0 - math.sqrt(sum(v**2 for v in _f32s(rotation))))
            > UNIT_LENGTH_THRESHOLD_VEC4
        ):
            self.issues.add("ROTATION_NON_UNIT", pointer=child(at, "rotation"))
        matrix = float_list(node, "matrix", 16)
        if matrix is None:
            return
        pointer = child(at, "matrix")
        if any(
            float_list(node, key, n) is not None
            for key, n in (("translation", 3), ("rotation", 4), ("scale", 3))
        ):
            self.issues.add("NODE_MATRIX_TRS", pointer=pointer)
        if matrix == IDENTITY:
            self.issues.add("NODE_MATRIX_DEFAULT", pointer=pointer)
        elif not is_trs_decomposable(matrix):
            self.issues.add("NODE_MATRIX_NON_TRS", pointer=pointer)

    def _check_mesh(self, node: dict, at: str) -> None:
        mesh = index_of(node, "mesh")
        primitives = self.links.mesh_primitives(mesh) if mesh is not None else []
        if not primitives:
            return
        weights = node.get("weights")
        targets = len(primitives[0].json["targets"]) if primitives[0].targets else None
        if isinstance(weights, list) and weights and len(weights) != targets:
            self.issues.add(
                "NODE_WEIGHTS_INVALID",
                pointer=child(at, "weights"),
                weights=len(weights),
                targets=targets,
            )
        skinned = any(p.semantics.joints_count for p in primitives)
        skin = self._skin(node)
        if skin is not None and not skinned:
            self.issues.add("NODE_SKIN_WITH_NON_SKINNED_MESH", pointer=at)
        elif skin is None and skinned:
            self.issues.add("NODE_SKINNED_MESH_WITHOUT_SKIN", pointer=at)

    def _skin(self, node: dict) -> int | None:
        return index_of(node, "skin") if self._resolves(node, "skin", "skins") else None

    def _resolves(self, node: dict, key: str, collection: str) -> bool:
        return key in node and resolves(index_of(node, key), self.links.items(collection))

    def _check_parents(self) -> None:
        parent_of: dict[int, int] = {}
        for index, node in enumerate(self.nodes):
            children = index_list(node, "children") if node is not None else []
            for position, kid in enumerate(children):
                if kid >= len(self.nodes) or self.nodes[kid] is None:
                    continue
                if kid in parent_of:
                    self.issues.add(
                        "NODE_PARENT_OVERRIDE",
                        pointer=child(child(child("/nodes", index), "children"), position),
                        node=kid,
                    )
                parent_of[kid] = index

    def _check_scenes(self) -> None:
        for number, scene in enumerate(self.links.items("scenes")):
            roots = index_list(scene, "nodes") if scene is not None else []
            for position, node in enumerate(roots):
                if node in self.links.parents:
                    self.issues.add(
                        "SCENE_NON_ROOT_NODE",
                        pointer=child(child(child("/scenes", number), "nodes"), position),
                        node=node,
                    )

    def _check_node(self, index: int, node: dict, scenes: dict[int, set[int]]) -> None:
        at = child("/nodes", index)
        if (
            index not in self.links.joints
            and not isinstance(node.get("children"), list)
            and not self._resolves(node, "mesh", "meshes")
            and not self._resolves(node, "camera", "cameras")
            and not node.get("extensions")
            and node.get("extras") is None
        ):
            self.issues.add("NODE_EMPTY", pointer=at)
        if self.links.tree.on_loop(index):
            self.issues.add("NODE_LOOP", pointer=at)
        skin = self._skin(node)
        if skin is None:
            return
        if has_transform(node):
            self.issues.add("NODE_SKINNED_MESH_LOCAL_TRANSFORMS", pointer=at)
        if index in self.links.parents:
            self.issues.add("NODE_SKINNED_MESH_NON_ROOT", pointer=at)
        top = self._skin_top(skin)
        if top is not None and not scenes.get(index, set()) <= scenes.get(top, set()):
            self.issues.add("NODE_SKIN_NO_SCENE", pointer=at)

    def _skin_top(self, skin: int) -> int | None:
        """The parentless node every joint of ``skin`` descends from, once per skin."""
        if skin not in self._skin_tops:
            self._skin_tops[skin] = skin_rules.skin_roots(self.links, skin).top
        return self._skin_tops[skin]


def check_nodes(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _NodeChecker(asset.gltf.links, context.issues).check()


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-nodes",
            "The node hierarchy (loops, several parents), transforms, "
            "scenes and skinned-mesh nodes.",
            check_nodes,
            CODES,
            GLTF_FORMATS,
        )
    ]
