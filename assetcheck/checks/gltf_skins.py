"""Skins: joints with a common root, the skeleton, inverse bind matrices, joints and weights data.

The joints/weights rules follow Khronos glTF-Validator: joint indices below the skin's joint
count (the smallest skin among the nodes using the mesh), no joint twice in a vertex, no
negative weight, and weights summing to 1 within single-precision rounding (2e-7 per weight).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
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
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.gltf import skins as skin_rules
else:  # imported by the first file with skins
    skin_rules = lazy_module("assetcheck.formats.gltf.skins")

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
    roots = skin_rules.skin_roots(links, index)
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


class _InfluenceChecker:
    """Reports the faults of the JOINTS_n/WEIGHTS_n sets of one primitive, all vertices at
    once (:func:`~assetcheck.formats.gltf.skins.influence_faults`)."""

    def __init__(self, document: GltfDocument, issues: FileIssues) -> None:
        self.document = document
        self.issues = issues

    def check(self, primitive: Primitive, joint_count: int, skin: int) -> None:
        influences = self.document.influences(primitive)
        if influences is None:
            return
        faults = skin_rules.influence_faults(influences, joint_count)
        at = child(primitive.pointer, "attributes")
        sets_of = influences.set_of_column
        joints = influences.joints
        self._report(
            "ACCESSOR_JOINTS_INDEX_OOB",
            at,
            "JOINTS",
            sets_of,
            faults.outside,
            value=lambda row, col: int(joints[row, col]),
            limit=joint_count - 1,
            skin=skin,
        )
        self._report("ACCESSOR_JOINTS_INDEX_DUPLICATE", at, "JOINTS", sets_of, faults.repeated)
        self._report("ACCESSOR_WEIGHTS_NEGATIVE", at, "WEIGHTS", sets_of, faults.negative)
        self._report("ACCESSOR_JOINTS_USED_ZERO_WEIGHT", at, "JOINTS", sets_of, faults.zero_weight)
        wrong = faults.unnormalized
        if wrong.size:
            for number in range(influences.sets):
                self.issues.add(
                    "ACCESSOR_WEIGHTS_NON_NORMALIZED",
                    pointer=child(at, f"WEIGHTS_{number}"),
                    count=wrong.size,
                    first=int(wrong[0]),
                    sum=repr(float(faults.sums[wrong[0]])),
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


def check_skins(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    if not links.items("skins"):
        return  # no skin: no joints to check, and no influences limited by one
    for index, skin_json in enumerate(links.items("skins")):
        if skin_json is not None:
            _check_skin(links, index, skin_json, context.issues)
    checker = _InfluenceChecker(asset.gltf, context.issues)
    for mesh, (joint_count, skin) in skin_rules.joint_limits(links).items():
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
