"""Vertex data checks: unit normals and tangents, clamped colours, index values.

Each accessor is checked once, whole, with numpy, and the finding is reported at every
primitive attribute that uses it (as Khronos glTF-Validator does). Unit length uses the
reference's tolerances; lengths are computed in single precision and those within rounding
distance of the tolerance are computed again in double precision, as Khronos does throughout.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_data import FLOAT, INTEGER_RANGES
from assetcheck.formats.gltf.accessor_formats import (
    INDICES,
    accessor_format,
    attribute_formats,
)
from assetcheck.formats.gltf.fields import child, extensions_used
from assetcheck.formats.gltf.links import DocumentLinks, Primitive, resolve
from assetcheck.issues import FileIssues
from assetcheck.issues.findings import Finding
from assetcheck.mesh.vectors import (
    UNIT_LENGTH_THRESHOLD_VEC3,
    non_unit_rows,
    vector_length,
)
from assetcheck.plugins.hookspecs import hookimpl

TRIANGLES = 4

CODES = (
    "ACCESSOR_VECTOR3_NON_UNIT",
    "ACCESSOR_INVALID_SIGN",
    "ACCESSOR_NON_CLAMPED",
    "ACCESSOR_INDEX_OOB",
    "ACCESSOR_INDEX_PRIMITIVE_RESTART",
    "ACCESSOR_INDEX_TRIANGLE_DEGENERATE",
)


def normal_findings(vectors: np.ndarray) -> list[Finding]:
    rows = non_unit_rows(vectors[:, :3], UNIT_LENGTH_THRESHOLD_VEC3)
    if not rows.size:
        return []
    return [
        Finding(
            "ACCESSOR_VECTOR3_NON_UNIT",
            count=rows.size,
            first=int(rows[0]),
            length=vector_length(vectors[rows[0], :3]),
        )
    ]


def tangent_findings(vectors: np.ndarray) -> list[Finding]:
    findings = normal_findings(vectors)
    signs = vectors[:, 3]
    wrong = np.flatnonzero((signs != 1.0) & (signs != -1.0))
    if wrong.size:
        findings.append(
            Finding(
                "ACCESSOR_INVALID_SIGN",
                count=wrong.size,
                first=int(wrong[0]),
                value=repr(float(signs[wrong[0]])),
            )
        )
    return findings


def color_findings(values: np.ndarray) -> list[Finding]:
    outside = (values > 1.0) | (values < 0.0)
    count = int(np.count_nonzero(outside))
    if not count:
        return []
    first = int(np.argmax(outside.ravel()))
    return [
        Finding(
            "ACCESSOR_NON_CLAMPED",
            count=count,
            first=first,
            value=repr(float(values.ravel()[first])),
        )
    ]


def index_findings(
    indices: np.ndarray, component_type: int, vertex_count: int | None, mode: int | None
) -> list[Finding]:
    """Index values beyond the vertices, primitive restart values and degenerate triangles."""
    findings: list[Finding] = []
    values = indices[:, 0]
    last_vertex = vertex_count - 1 if vertex_count is not None else -1
    highest = int(values.max())
    if highest > last_vertex:
        outside = values > last_vertex
        first = int(np.argmax(outside))
        findings.append(
            Finding(
                "ACCESSOR_INDEX_OOB",
                count=int(np.count_nonzero(outside)),
                first=first,
                value=int(values[first]),
                limit=last_vertex,
            )
        )
    restart = INTEGER_RANGES[component_type][1]
    if highest == restart:
        hits = np.flatnonzero(values == restart)
        findings.append(
            Finding(
                "ACCESSOR_INDEX_PRIMITIVE_RESTART",
                count=hits.size,
                first=int(hits[0]),
                value=restart,
            )
        )
    if mode == TRIANGLES:
        triangles = values[: values.size - values.size % 3].reshape(-1, 3)
        degenerate = int(
            np.count_nonzero(
                (triangles[:, 0] == triangles[:, 1])
                | (triangles[:, 1] == triangles[:, 2])
                | (triangles[:, 2] == triangles[:, 0])
            )
        )
        if degenerate:
            findings.append(
                Finding(
                    "ACCESSOR_INDEX_TRIANGLE_DEGENERATE", count=degenerate, total=values.size // 3
                )
            )
    return findings


class _VertexDataChecker:
    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues
        self.extensions = extensions_used(links.document)
        self.findings: dict[tuple[int, str], list[Finding]] = {}

    def check(self) -> None:
        for primitive in self.links.primitives:
            at = child(primitive.pointer, "attributes")
            for semantic, accessor in primitive.attributes.items():
                rule = self._rule(semantic, accessor)
                if rule is not None:
                    self._report(accessor, semantic, rule, child(at, semantic))
            self._check_indices(primitive)

    def _rule(self, semantic: str, accessor: int) -> Callable[[np.ndarray], list[Finding]] | None:
        valid = attribute_formats(semantic, self.extensions)
        json = resolve(accessor, self.links.items("accessors"))
        if valid is None or json is None:
            return None
        found = accessor_format(json)
        if found not in valid:
            return None
        if semantic == "NORMAL":
            return normal_findings
        if semantic == "TANGENT":
            return tangent_findings
        if semantic == "COLOR_0" and found.component_type == FLOAT:
            return color_findings
        return None

    def _report(
        self, accessor: int, kind: str, rule: Callable[[np.ndarray], list[Finding]], pointer: str
    ) -> None:
        key = (accessor, kind)
        if key not in self.findings:
            values = self.links.reader.normalized(accessor)
            self.findings[key] = rule(values) if values is not None else []
        for finding in self.findings[key]:
            finding.at(pointer=pointer).report_to(self.issues)

    def _check_indices(self, primitive: Primitive) -> None:
        accessor = primitive.indices
        json = resolve(accessor, self.links.items("accessors"))
        if accessor is None or json is None:
            return
        found = accessor_format(json)
        if found not in INDICES or found.component_type is None:
            return
        key = (accessor, f"indices {primitive.vertex_count} {primitive.mode}")
        if key not in self.findings:
            values = self.links.reader.read(accessor)
            self.findings[key] = (
                []
                if values is None
                else index_findings(
                    values, found.component_type, primitive.vertex_count, primitive.mode
                )
            )
        for finding in self.findings[key]:
            finding.at(pointer=child(primitive.pointer, "indices")).report_to(self.issues)


def check_vertex_data(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _VertexDataChecker(asset.gltf.links, context.issues).check()


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-vertex-data",
            "Unit-length normals and tangents, tangent signs, vertex "
            "colours in 0..1, index values within the vertices.",
            check_vertex_data,
            CODES,
            GLTF_FORMATS,
        )
    ]
