"""Skins: joints with a common root, the skeleton, inverse bind matrices, joints and weights data.

The joints/weights rules follow Khronos glTF-Validator: joint indices below the skin's joint
count (the smallest skin among the nodes using the mesh), no joint twice in a vertex, no
negative weight, and weights summing to 1 within single-precision rounding (2e-7 per weight).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_data import COMPONENT_DTYPES, FLOAT, AccessorLayout
from assetcheck.formats.gltf.accessor_formats import (
    INVERSE_BIND_MATRICES,
    accessor_format,
)
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    Primitive,
    index_of,
    resolve,
    resolves,
)
from assetcheck.formats.gltf.skins import skin_roots
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

#: Allowed error of a weight sum, per weight added (single-precision rounding).
WEIGHT_SUM_STEP = 2e-7
IBM_LAST_ROW = np.array([0.0, 0.0, 0.0, 1.0], dtype=np.float32)

CODES = (
    "SKIN_NO_COMMON_ROOT",
    "SKIN_SKELETON_INVALID",
    "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE",
    "SKIN_IBM_INVALID_FORMAT",
    "INVALID_IBM_ACCESSOR_COUNT",
    "ACCESSOR_INVALID_IBM",
    "ACCESSOR_JOINTS_INDEX_OOB",
    "ACCESSOR_JOINTS_INDEX_DUPLICATE",
    "ACCESSOR_JOINTS_USED_ZERO_WEIGHT",
    "ACCESSOR_WEIGHTS_NEGATIVE",
    "ACCESSOR_WEIGHTS_NON_NORMALIZED",
)


def _check_skin(links: DocumentLinks, index: int, skin: dict, issues: FileIssues) -> None:
    at = child("/skins", index)
    nodes = links.items("nodes")
    roots = skin_roots(links, index)
    if isinstance(skin.get("joints"), list) and skin["joints"] and not roots.exists:
        issues.add("SKIN_NO_COMMON_ROOT", pointer=child(at, "joints"))
    skeleton = index_of(skin, "skeleton")
    if resolves(skeleton, nodes) and skeleton not in roots:
        issues.add("SKIN_SKELETON_INVALID", pointer=child(at, "skeleton"))
    matrices = index_of(skin, "inverseBindMatrices")
    accessor = resolve(matrices, links.items("accessors"))
    if matrices is None or accessor is None:
        return
    pointer = child(at, "inverseBindMatrices")
    layout = links.layout(matrices)
    view = resolve(layout.buffer_view, links.items("bufferViews")) if layout else None
    if view is not None and "byteStride" in view:
        issues.add("SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", pointer=pointer)
    found = accessor_format(accessor)
    if found not in INVERSE_BIND_MATRICES:
        issues.add("SKIN_IBM_INVALID_FORMAT", pointer=pointer, format=found)
    else:
        _check_matrices(links, matrices, pointer, issues)
    joints = skin.get("joints")
    if layout is not None and isinstance(joints, list) and layout.count < len(joints):
        issues.add(
            "INVALID_IBM_ACCESSOR_COUNT", pointer=pointer, joints=len(joints), count=layout.count
        )


def _check_matrices(links: DocumentLinks, accessor: int, pointer: str, issues: FileIssues) -> None:
    values = links.reader.read(accessor)
    if values is None:
        return
    last_rows = values[:, 3::4]
    wrong = np.flatnonzero((last_rows != IBM_LAST_ROW).any(axis=1))
    if wrong.size:
        issues.add("ACCESSOR_INVALID_IBM", pointer=pointer, count=wrong.size, first=int(wrong[0]))


def joint_limits(links: DocumentLinks) -> dict[int, tuple[int, int]]:
    """Per mesh: the joint count of the smallest skin among the nodes using it, and that skin."""
    limits: dict[int, tuple[int, int]] = {}
    skins = links.items("skins")
    for node in links.items("nodes"):
        mesh, skin = index_of(node, "mesh"), index_of(node, "skin")
        skin_json = resolve(skin, skins)
        joints = skin_json.get("joints") if skin_json is not None else None
        if mesh is None or skin is None or not isinstance(joints, list):
            continue
        count = len(joints)
        if mesh not in limits or count < limits[mesh][0]:
            limits[mesh] = (count, skin)
    return limits


class _InfluenceChecker:
    """Checks the JOINTS_n/WEIGHTS_n sets of one primitive, all vertices at once."""

    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues

    def check(self, primitive: Primitive, joint_count: int, skin: int) -> None:
        sets = primitive.semantics.joints_count
        data = [
            pair for number in range(sets) if (pair := self._pair(primitive, number)) is not None
        ]
        if not sets or len(data) < sets:
            return
        # Khronos walks component 0 of every set, then component 1, and so on.
        joints = np.stack([data[s][0][:, c] for c in range(4) for s in range(sets)], axis=1)
        weights = np.stack([data[s][1][:, c] for c in range(4) for s in range(sets)], axis=1)
        at = child(primitive.pointer, "attributes")
        sets_of = [s for _ in range(4) for s in range(sets)]
        outside = joints > joint_count - 1
        self._report(
            "ACCESSOR_JOINTS_INDEX_OOB",
            at,
            "JOINTS",
            sets_of,
            outside,
            value=lambda row, col: int(joints[row, col]),
            limit=joint_count - 1,
            skin=skin,
        )
        weighted = ~outside & (weights != 0)
        repeated = np.zeros_like(weighted)
        for column in range(1, joints.shape[1]):
            same = (joints[:, :column] == joints[:, column : column + 1]) & weighted[:, :column]
            repeated[:, column] = weighted[:, column] & same.any(axis=1)
        self._report("ACCESSOR_JOINTS_INDEX_DUPLICATE", at, "JOINTS", sets_of, repeated)
        self._report("ACCESSOR_WEIGHTS_NEGATIVE", at, "WEIGHTS", sets_of, weighted & (weights < 0))
        self._report(
            "ACCESSOR_JOINTS_USED_ZERO_WEIGHT",
            at,
            "JOINTS",
            sets_of,
            ~outside & (weights == 0) & (joints != 0),
        )
        self._check_sums(weights, weighted & ~repeated & (weights >= 0), at, sets)

    def _pair(self, primitive: Primitive, number: int) -> tuple[np.ndarray, np.ndarray] | None:
        reader, vertices = self.links.reader, primitive.vertex_count
        joints = primitive.attributes.get(f"JOINTS_{number}")
        weights = primitive.attributes.get(f"WEIGHTS_{number}")
        if joints is None or weights is None:
            return None
        joints_layout, weights_layout = reader.layout(joints), reader.layout(weights)
        if (
            not _vec4_per_vertex(joints_layout, vertices)
            or not _vec4_per_vertex(weights_layout, vertices)
            or joints_layout.component_type == FLOAT
        ):
            return None
        joint_values = reader.read(joints)
        weight_values = _weights(
            reader.read(weights), weights_layout.component_type, weights_layout.normalized
        )
        if joint_values is None or weight_values is None:
            return None
        return joint_values, weight_values

    def _check_sums(self, weights: np.ndarray, adds: np.ndarray, at: str, sets: int) -> None:
        total = np.zeros(len(weights), dtype=np.float32)
        for column in range(weights.shape[1]):
            added = (total.astype(np.float64) + weights[:, column]).astype(np.float32)
            total = np.where(adds[:, column], added, total)
        tolerance = WEIGHT_SUM_STEP * np.count_nonzero(adds, axis=1)
        wrong = np.flatnonzero(np.abs(total.astype(np.float64) - 1) > tolerance)
        if wrong.size:
            for number in range(sets):
                self.issues.add(
                    "ACCESSOR_WEIGHTS_NON_NORMALIZED",
                    pointer=child(at, f"WEIGHTS_{number}"),
                    count=wrong.size,
                    first=int(wrong[0]),
                    sum=repr(float(total[wrong[0]])),
                )

    def _report(
        self,
        code: str,
        at: str,
        semantic: str,
        sets_of: list[int],
        mask: np.ndarray,
        value: Callable[[int, int], int] | None = None,
        **fields: object,
    ) -> None:
        for number in sorted(set(sets_of)):
            columns = [c for c, s in enumerate(sets_of) if s == number]
            hits = mask[:, columns]
            count = int(np.count_nonzero(hits))
            if not count:
                continue
            row = int(np.flatnonzero(hits.any(axis=1))[0])
            extra = {"value": value(row, columns[int(np.argmax(hits[row]))])} if value else {}
            self.issues.add(
                code,
                pointer=child(at, f"{semantic}_{number}"),
                count=count,
                first=row,
                **extra,
                **fields,
            )


def _vec4_per_vertex(
    layout: AccessorLayout | None,
    vertices: int | None,
) -> TypeGuard[AccessorLayout]:
    """Whether ``layout`` is usable joints or weights data: four components per vertex."""
    return layout is not None and layout.count == vertices and layout.components == 4


def _weights(
    values: np.ndarray | None,
    component_type: int,
    normalized: bool,
) -> np.ndarray | None:
    """Weights as Khronos reads them: floats as stored, integers times 1/max in double."""
    if values is None:
        return None
    if component_type == FLOAT or not normalized:
        return values.astype(np.float64)
    return values * (1 / float(np.iinfo(COMPONENT_DTYPES[component_type]).max))


def check_skins(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    for index, skin_json in enumerate(links.items("skins")):
        if skin_json is not None:
            _check_skin(links, index, skin_json, context.issues)
    checker = _InfluenceChecker(links, context.issues)
    for mesh, (joint_count, skin) in joint_limits(links).items():
        if joint_count >= 1:
            for primitive in links.mesh_primitives(mesh):
                checker.check(primitive, joint_count, skin)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-skins",
            "Skins (common root, skeleton, inverse bind matrices) and the "
            "joints and weights of skinned vertices.",
            check_skins,
            CODES,
            GLTF_FORMATS,
        )
    ]
