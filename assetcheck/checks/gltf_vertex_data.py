"""Vertex data checks: unit normals and tangents, clamped colours, index values.

Each accessor is checked once, whole, with numpy, and the finding is reported at every
primitive attribute that uses it (as Khronos glTF-Validator does). Unit length uses the
reference's tolerances; lengths are computed in single precision and those within rounding
distance of the tolerance are computed again in double precision, as Khronos does throughout.

Most accessors have nothing to report, and most are small: where a document has several for
one rule, they are screened together, one numpy pass over them stacked
(:mod:`~assetcheck.formats.gltf.stacking`), and only those with a suspect row are checked
one by one to say what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import NamedTuple

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
from assetcheck.formats.gltf.stacking import SMALL_ROWS, any_per_part, stackable_groups, stacked
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


def suspect_vectors(rows: np.ndarray) -> np.ndarray:
    """The rows of unit vectors (normals; tangents, whose fourth value is the sign) that may
    give a finding: not of unit length, or a tangent's sign neither 1 nor -1."""
    suspect = np.zeros(len(rows), dtype=bool)
    suspect[non_unit_rows(rows[:, :3], UNIT_LENGTH_THRESHOLD_VEC3)] = True
    if rows.shape[1] == 4:
        suspect |= (rows[:, 3] != 1.0) & (rows[:, 3] != -1.0)
    return suspect


def suspect_colors(rows: np.ndarray) -> np.ndarray:
    """The rows of float colours with a value outside 0..1."""
    return np.asarray(((rows > 1.0) | (rows < 0.0)).any(axis=1))


#: The rows each attribute rule may report about, tested for many accessors at once.
SUSPECT_ROWS = {
    normal_findings: suspect_vectors,
    tangent_findings: suspect_vectors,
    color_findings: suspect_colors,
}
#: The rule of each attribute semantic that has one, when its accessor has a valid format
#: (float, for colours).
_RULES = {"NORMAL": normal_findings, "TANGENT": tangent_findings, "COLOR_0": color_findings}


class _Use(NamedTuple):
    """A primitive's use of an accessor that a rule checks. Uses of one ``key`` (the accessor,
    and what it is checked as) share their findings."""

    key: tuple[int, str]
    pointer: str
    rule: Callable[[np.ndarray], list[Finding]]
    values: np.ndarray | None
    #: For the indices of a triangle list: their component type (as the JSON says) and the
    #: vertex count (triangle lists are screened together).
    triangle_list: tuple[int, int] | None = None


class _VertexDataChecker:
    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues
        self.extensions = extensions_used(links.document)
        self.findings: dict[tuple[int, str], list[Finding]] = {}

    def check(self) -> None:
        uses = list(self._uses())
        unique = list({use.key: use for use in uses if use.values is not None}.values())
        for key in (*self._clean_attributes(unique), *self._clean_indices(unique)):
            self.findings[key] = []
        for use in uses:
            if use.key not in self.findings:
                self.findings[use.key] = [] if use.values is None else use.rule(use.values)
            for finding in self.findings[use.key]:
                finding.at(pointer=use.pointer).report_to(self.issues)

    def _uses(self) -> Iterator[_Use]:
        """Every checked use, in the order its findings are reported."""
        reader = self.links.reader
        for primitive in self.links.primitives:
            at = child(primitive.pointer, "attributes")
            for semantic, accessor in primitive.attributes.items():
                rule = self._rule(semantic, accessor)
                if rule is not None:
                    values = reader.normalized(accessor)
                    yield _Use((accessor, semantic), child(at, semantic), rule, values)
            indices = self._index_use(primitive)
            if indices is not None:
                yield indices

    def _rule(self, semantic: str, accessor: int) -> Callable[[np.ndarray], list[Finding]] | None:
        rule = _RULES.get(semantic)
        if rule is None:  # most attributes (positions, UVs...): no format to look at
            return None
        valid = attribute_formats(semantic, self.extensions)
        json = resolve(accessor, self.links.items("accessors"))
        if valid is None or json is None:
            return None
        found = accessor_format(json)
        if found not in valid or (rule is color_findings and found.component_type != FLOAT):
            return None
        return rule

    def _index_use(self, primitive: Primitive) -> _Use | None:
        accessor = primitive.indices
        json = resolve(accessor, self.links.items("accessors"))
        if accessor is None or json is None:
            return None
        found = accessor_format(json)
        if found not in INDICES or found.component_type is None:
            return None
        return _Use(
            (accessor, f"indices {primitive.vertex_count} {primitive.mode}"),
            child(primitive.pointer, "indices"),
            partial(
                index_findings,
                component_type=found.component_type,
                vertex_count=primitive.vertex_count,
                mode=primitive.mode,
            ),
            self.links.reader.read(accessor),
            None
            if primitive.mode != TRIANGLES or primitive.vertex_count is None
            else (found.component_type, primitive.vertex_count),
        )

    def _clean_attributes(self, uses: list[_Use]) -> Iterator[tuple[int, str]]:
        """The keys of small attribute uses no row of which is suspect (:data:`SUSPECT_ROWS`):
        the accessors of one rule, dtype and width screened in one pass."""
        small = (
            ((use.rule, use.values.dtype, use.values.shape[1]), use)
            for use in uses
            if use.rule in SUSPECT_ROWS and use.values is not None and len(use.values) <= SMALL_ROWS
        )
        for (rule, _, _), group in stackable_groups(small):
            values, starts = stacked([use.values for use in group if use.values is not None])
            suspect = SUSPECT_ROWS[rule](values)
            flagged = any_per_part(suspect, starts)
            yield from (
                use.key for use, dirty in zip(group, flagged.tolist(), strict=True) if not dirty
            )

    def _clean_indices(self, uses: list[_Use]) -> Iterator[tuple[int, str]]:
        """The keys of small triangle lists (whole triangles) with no index beyond the
        vertices, no primitive restart value and no degenerate triangle: those of one
        component type screened in one pass."""
        small = (
            (
                (use.values.dtype, use.triangle_list[0]),
                (use, use.values[:, 0], use.triangle_list[1]),
            )
            for use in uses
            if use.triangle_list is not None
            and use.values is not None
            and len(use.values) % 3 == 0
            and 0 < len(use.values) <= SMALL_ROWS
        )
        for (_, component_type), group in stackable_groups(small):
            indices, starts = stacked([indices for _, indices, _ in group])
            highest = np.maximum.reduceat(indices, starts)
            triangles = indices.reshape(-1, 3)
            degenerate = (
                (triangles[:, 0] == triangles[:, 1])
                | (triangles[:, 1] == triangles[:, 2])
                | (triangles[:, 2] == triangles[:, 0])
            )
            flagged = (
                (highest >= np.array([count for _, _, count in group]))
                | (highest == INTEGER_RANGES[component_type][1])
                | any_per_part(degenerate, starts // 3)
            )
            yield from (
                use.key
                for (use, _, _), dirty in zip(group, flagged.tolist(), strict=True)
                if not dirty
            )


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
