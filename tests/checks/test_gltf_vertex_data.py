"""Vertex data: unit normals and tangents, clamped colours, index values (gltf-vertex-data)."""

from __future__ import annotations

import itertools

import numpy as np

from assetcheck.checks import gltf_vertex_data
from assetcheck.formats.gltf.accessor_data import FLOAT, AccessorReader
from assetcheck.formats.gltf.accessor_formats import accessor_format, attribute_formats
from assetcheck.formats.gltf.links import link_document
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.testing.gltf import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, GltfBuilder
from tests.formats import validate_bytes


def unit_rows(random: np.random.Generator, count: int) -> np.ndarray:
    rows = random.normal(size=(count, 3))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def many_primitives_glb(seed: int) -> bytes:
    """Primitives with normals, tangents, colours and indices, most of them sound, some with
    a long normal, a tangent sign of 0.5, a colour above 1, an index beyond the vertices, a
    primitive restart value (255 of bytes indexing 300 vertices) or a degenerate triangle,
    some with a partial last triangle."""
    random = np.random.default_rng(seed)
    builder = GltfBuilder()
    for number in range(40):
        flaw = number % 8
        count = 300 if flaw == 5 else int(random.integers(3, 30))
        normals, colors = unit_rows(random, count), random.uniform(size=(count, 4))
        tangents = np.hstack([unit_rows(random, count), np.ones((count, 1), np.float32)])
        indices = random.integers(0, count, size=3 * int(random.integers(2, 20)))
        indices[0::3], indices[1::3], indices[2::3] = 0, 1, 2  # no degenerate triangle
        if flaw == 1:
            normals[-1] *= 1.1
        elif flaw == 2:
            tangents[0, 3] = 0.5
        elif flaw == 3:
            colors[count // 2, 1] = 1.5
        elif flaw == 4:
            indices[-1] = count
        elif flaw == 5:
            indices[-2] = 255
        elif flaw == 6:
            indices[4] = indices[3]
        elif flaw == 7:
            indices = indices[:-1]
        positions = random.normal(size=(count, 3)).astype(np.float32)
        attributes = {
            "POSITION": builder.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER),
            "NORMAL": builder.add_accessor(normals, "VEC3", target=ARRAY_BUFFER),
            "TANGENT": builder.add_accessor(tangents, "VEC4", target=ARRAY_BUFFER),
            "COLOR_0": builder.add_accessor(colors.astype(np.float32), "VEC4", target=ARRAY_BUFFER),
        }
        index = builder.add_accessor(
            indices.astype(np.uint8 if flaw == 5 else np.uint16),
            "SCALAR",
            target=ELEMENT_ARRAY_BUFFER,
        )
        primitive = {"attributes": attributes, "indices": index}
        builder.add_node(builder.add_mesh([]))
        builder.document["meshes"][-1]["primitives"] = [primitive]
        if number % 5 == 0:  # a second use of the same accessors
            builder.document["meshes"][-1]["primitives"].append(dict(primitive))
    return builder.glb()


def vertex_data_issues(tmp_path, data: bytes) -> list[tuple[str, str | None, str]]:
    result = validate_bytes(tmp_path, "many.glb", data)
    return [
        (issue.code, issue.pointer, issue.message)
        for issue in result.issues
        if issue.source == "assetcheck.checks.gltf_vertex_data:gltf-vertex-data"
    ]


def test_accessors_screened_together_report_what_each_checked_alone_reports(tmp_path, monkeypatch):
    for seed in range(3):
        data = many_primitives_glb(seed)
        screened = vertex_data_issues(tmp_path, data)
        monkeypatch.setattr(gltf_vertex_data, "SMALL_ROWS", 0)  # nothing screened
        alone = vertex_data_issues(tmp_path, data)
        monkeypatch.undo()
        assert len({code for code, _, _ in alone}) == 6
        assert screened == alone


def every_format_rule(semantic: str, accessor: dict, extensions: frozenset[str]) -> object:
    """The rule as the check chose it before it looked at the semantic first: the accessor's
    format against the semantic's, then the semantic."""
    valid = attribute_formats(semantic, extensions)
    if valid is None or accessor_format(accessor) not in valid:
        return None
    rules = {
        "NORMAL": gltf_vertex_data.normal_findings,
        "TANGENT": gltf_vertex_data.tangent_findings,
    }
    if semantic == "COLOR_0" and accessor_format(accessor).component_type == FLOAT:
        return gltf_vertex_data.color_findings
    return rules.get(semantic)


def test_rule_by_semantic_first_agrees_with_every_format() -> None:
    semantics = ["NORMAL", "TANGENT", "COLOR_0", "COLOR_1", "POSITION", "TEXCOORD_0", "_X", "N"]
    kinds = ["SCALAR", "VEC2", "VEC3", "VEC4", "MAT4", 3, None]
    components = [5120, 5121, 5122, 5123, 5125, 5126, 5126.0, "5126", True, None]
    accessors = [
        {"type": kind, "componentType": component, "normalized": normalized}
        for kind, component, normalized in itertools.product(kinds, components, [True, False, 1])
    ]
    accessors.append({})
    for used in (frozenset(), frozenset({"KHR_mesh_quantization"})):
        document = {"extensionsUsed": sorted(used), "accessors": accessors}
        links = link_document(document, AccessorReader(document, []))
        issues = IssueCollector(build_registry(get_plugin_manager())).for_file("x.gltf")
        checker = gltf_vertex_data._VertexDataChecker(links, issues)
        for semantic, (index, accessor) in itertools.product(semantics, enumerate(accessors)):
            expected = every_format_rule(semantic, accessor, used)
            assert checker._rule(semantic, index) is expected, (semantic, accessor, used)
