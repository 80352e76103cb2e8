"""Topology and UV checks: golden findings on crafted meshes, the same measures on FBX, and
no false alarm on the clean, closed files of the shared corpus.

The golden part of a report is the sorted list of ``[code, severity, pointer]`` of the
topology and UV codes. ``--update-golden`` rewrites the crafted files of
:mod:`tests.checks.topology_cases` and their reports from the current results.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.options import ValidationOptions
from assetcheck.checks import topology as topology_check
from assetcheck.checks.topology import TOPOLOGY_CODES, UV_CODES, surfaces
from assetcheck.engine import validate
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.mesh.topology import mesh_topology, welded_corners
from assetcheck.mesh.uvs import OVERLAP_GRID, lightmap_faults
from assetcheck.testing.fbx import MeshSpec, Scene, binary_fbx, cube
from tests.checks.topology_cases import CASES, glb
from tests.checks.topology_cases import cube as gltf_cube
from tests.formats import codes, only_issue, validate_bytes

GOLDEN = Path(__file__).resolve().parents[1] / "assets" / "topology"
NEW_CODES = frozenset(TOPOLOGY_CODES + UV_CODES)


def findings(path: Path, engine: str, overrides: dict) -> list[list]:
    result = validate(path, options=ValidationOptions(engine=engine, budget_overrides=overrides))
    return sorted(
        [issue.code, issue.severity, issue.pointer]
        for issue in result.issues
        if issue.code in NEW_CODES
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_crafted_mesh_gives_its_golden_findings(name, update_golden):
    case = CASES[name]
    path, report = GOLDEN / f"{name}.glb", GOLDEN / f"{name}.report.json"
    if update_golden:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_bytes(glb(case.make()))
        report.write_text(
            json.dumps({"findings": findings(path, case.engine, case.overrides)}, indent=1) + "\n"
        )
    assert findings(path, case.engine, case.overrides) == json.loads(report.read_text())["findings"]


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("mesh_")))
def test_crafted_mesh_triggers_the_code_it_is_named_after(name):
    found = json.loads((GOLDEN / f"{name}.report.json").read_text())["findings"]
    assert name.upper() in {code for code, _, _ in found}


def test_clean_cases_have_no_finding():
    for name in (
        "closed_cube",
        "closed_cube_unreal",
        "textured_cube",
        "open_box_generic",
        "lightmap_overlap_web",
    ):
        assert json.loads((GOLDEN / f"{name}.report.json").read_text())["findings"] == [], name


def test_golden_folder_holds_only_known_cases():
    assert {path.name.split(".")[0] for path in GOLDEN.iterdir()} == set(CASES)


def test_lightmap_overlap_is_a_warning_for_unreal_and_info_for_generic(tmp_path):
    path = tmp_path / "overlap.glb"
    path.write_bytes(glb(CASES["mesh_lightmap_uv_overlap"].make()))
    assert findings(path, "unreal", {}) == [
        ["MESH_LIGHTMAP_UV_OVERLAP", "warning", "/meshes/0/primitives/0"]
    ]
    assert findings(path, "generic", {}) == [
        ["MESH_LIGHTMAP_UV_OVERLAP", "info", "/meshes/0/primitives/0"]
    ]


def test_lightmap_set_is_a_profile_knob(tmp_path):
    path = tmp_path / "overlap.glb"
    path.write_bytes(glb(CASES["mesh_lightmap_uv_overlap"].make()))
    # Set 0 holds one unit square per face: every face on the same square.
    assert findings(path, "generic", {"lightmap_uv_set": 0})[0][0] == "MESH_LIGHTMAP_UV_OVERLAP"
    assert findings(path, "generic", {"lightmap_uv_set": -1}) == []


def test_messages_count_edges_of_the_welded_mesh(tmp_path):
    result = validate_bytes(tmp_path, "flipped.glb", glb(CASES["mesh_inconsistent_winding"].make()))
    # The cube has 12 corners' worth of edges: 18 after welding its 24 vertices; the flipped
    # face meets its four neighbours the wrong way.
    assert only_issue(result, "MESH_INCONSISTENT_WINDING").message.startswith(
        "Mesh box: across 4 of 18 edges"
    )


def test_a_seam_is_not_an_opening():
    mesh = gltf_cube()
    prepared = PreparedMesh(Vertices.of(mesh.positions), mesh.triangles.astype(np.uint32))
    topology = mesh_topology(welded_corners(prepared), 24)
    assert (topology.edges, topology.boundary_edges, topology.closed, topology.pieces) == (
        18,
        0,
        True,
        1,
    )


def test_unwelded_cube_would_be_open_everywhere():
    mesh = gltf_cube()
    corners = np.ascontiguousarray(mesh.triangles.T.astype(np.uint32))
    assert mesh_topology(corners, 24).boundary_edges == 24


def test_pieces_are_counted_across_long_chains():
    # A strip of 5,000 triangles joined end to end, and a lone triangle apart.
    strip = np.arange(5002, dtype=np.uint32)
    corners = np.stack([strip[:-2], strip[1:-1], strip[2:]])
    corners = np.hstack([corners, np.array([[5002], [5003], [5004]], np.uint32)])
    assert mesh_topology(corners, 5005).pieces == 2


def test_lightmap_triangles_sharing_an_edge_do_not_overlap():
    # Two triangles of a square split along its diagonal, with a fine grid of cell centres
    # on that diagonal.
    uvs = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float64)
    faults = lightmap_faults(uvs, np.array([[0, 0], [1, 2], [2, 3]]))
    assert (faults.overlapped_cells, faults.covered_cells) == (0, OVERLAP_GRID**2 - OVERLAP_GRID)


def _cells_covered_by_brute_force(uvs: np.ndarray, corners: np.ndarray, cells: int) -> np.ndarray:
    """Per cell, how many of the triangles hold its centre strictly inside: every centre of
    every triangle's bounding box tested one by one."""
    coverage = np.zeros((cells, cells), int)
    for triangle in corners.T:
        points = uvs[triangle] * cells
        if not np.isfinite(points).all():
            continue
        low = np.floor(points.min(axis=0)).astype(int)
        high = np.ceil(points.max(axis=0)).astype(int)
        for x in range(max(low[0], 0), min(high[0], cells)):
            for y in range(max(low[1], 0), min(high[1], cells)):
                sides = [
                    _cross_2d(points[(i + 1) % 3] - points[i], (x + 0.5, y + 0.5) - points[i])
                    for i in range(3)
                ]
                if all(side > 0 for side in sides) or all(side < 0 for side in sides):
                    coverage[y, x] += 1
    return coverage


def _cross_2d(a: np.ndarray, b: np.ndarray) -> float:
    return a[0] * b[1] - a[1] * b[0]


def test_lightmap_rasteriser_agrees_with_testing_every_cell_centre():
    # Small random triangles of both windings over the unit square and past it, with flat and
    # non-finite ones among them.
    random = np.random.default_rng(21)
    centres = random.uniform(-0.05, 1.05, (400, 1, 2))
    uvs = (centres + random.uniform(-0.01, 0.01, (400, 3, 2))).reshape(-1, 2)
    uvs[30:33] = uvs[30]  # a triangle collapsed to a point
    uvs[61, 0] = np.nan
    corners = np.arange(len(uvs)).reshape(-1, 3).T
    faults = lightmap_faults(uvs, corners)
    expected = _cells_covered_by_brute_force(uvs, corners, faults.grid)
    assert faults.grid == OVERLAP_GRID
    assert faults.covered_cells == np.count_nonzero(expected)
    assert faults.overlapped_cells == np.count_nonzero(expected > 1) > 0
    triangles = uvs.reshape(-1, 3, 2)
    outside = ((triangles < 0) | (triangles > 1)).any(axis=(1, 2))
    assert faults.outside == np.count_nonzero(outside & np.isfinite(triangles).all(axis=(1, 2)))


def test_fbx_meshes_get_the_same_topology_checks(tmp_path):
    box = cube()
    flipped = MeshSpec("Flipped", box.vertices, [box.polygons[0][::-1], *box.polygons[1:]])
    fin = MeshSpec("Fin", [*box.vertices, (0.0, 3.0, 3.0)], [*box.polygons, [3, 7, 8]])
    scene = Scene(meshes=[box, flipped, fin])
    result = validate_bytes(tmp_path, "boxes.fbx", binary_fbx(scene))
    assert only_issue(result, "MESH_INCONSISTENT_WINDING").message.startswith("Mesh Flipped")
    assert only_issue(result, "MESH_NON_MANIFOLD_EDGES").message.startswith("Mesh Fin")


def test_fbx_uvs_that_are_not_finite_are_reported(tmp_path):
    box = cube()
    uvs = [(0.0, 0.0)] * len(box.vertices)
    uvs[2] = (float("nan"), 0.0)
    spec = MeshSpec("Box", box.vertices, box.polygons, uv_values=uvs)
    result = validate_bytes(tmp_path, "nan.fbx", binary_fbx(Scene(meshes=[spec])))
    assert only_issue(result, "MESH_UV_NOT_FINITE").message.startswith(
        "Mesh Box: 3 of 24 UV coordinates of set 0"
    )


CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "gltf"


def _clean_corpus_files() -> list:
    table = CORPUS / "expected.tsv"
    if not table.is_file():
        reason = f"the shared glTF corpus is absent (looked in {CORPUS})"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    with table.open(newline="") as rows:
        return [
            row["file"]
            for row in csv.DictReader(rows, delimiter="\t")
            if row["khronos_errors"] == "0"
        ]


@pytest.mark.parametrize("name", _clean_corpus_files())
def test_closed_clean_corpus_files_get_no_topology_or_uv_finding(name):
    path = CORPUS / name
    read = {}
    original = topology_check.check_topology

    def measured(asset, context):
        read["closed"] = [
            mesh_topology(welded_corners(s.mesh), len(s.mesh.vertices)).closed
            for s in surfaces(asset)
        ]
        original(asset, context)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(topology_check, "check_topology", measured)
        result = validate(path)
    if not read.get("closed") or not all(read["closed"]):
        pytest.skip("not made of closed meshes only")
    assert NEW_CODES.isdisjoint(codes(result)), codes(result)


def test_cubes_touching_along_an_edge_share_a_non_manifold_edge():
    # Voxel art does this: each cube is closed and well wound on its own.
    mesh = gltf_cube()
    positions = np.vstack([mesh.positions, mesh.positions + np.float32([1, 1, 0])])
    triangles = np.vstack([mesh.triangles, mesh.triangles + 24]).astype(np.uint32)
    corners = welded_corners(PreparedMesh(Vertices.of(positions), triangles))
    topology = mesh_topology(corners, 48)
    assert (topology.non_manifold_edges, topology.misoriented_edges, topology.pieces) == (1, 0, 1)
