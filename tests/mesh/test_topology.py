"""Measuring several meshes at once gives each the topology and the inside-out verdict it has
alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assetcheck.checks import topology as topology_check
from assetcheck.checks.topology import surfaces
from assetcheck.engine import validate
from assetcheck.mesh import topology as topology_module
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.mesh.topology import (
    evenly_sampled,
    mesh_topology,
    meshes_inside_out,
    meshes_topology,
    prepared_topology,
    welded_corners,
)
from tests.checks.topology_cases import cube, flipped_face, inverted_normals, open_box, with_fin

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "gltf"


def welded(mesh) -> tuple[np.ndarray, int]:
    prepared = PreparedMesh(Vertices.of(mesh.positions), mesh.triangles.astype(np.uint32))
    return welded_corners(prepared), len(mesh.positions)


def crafted_meshes() -> list[tuple[np.ndarray, int]]:
    """A closed cube, an open box, a fin (non-manifold), a flipped face, two pieces, and a
    mesh without triangles, each twice."""
    pair = cube()
    pair.positions = np.vstack([pair.positions, pair.positions + np.float32(3)])
    pair.triangles = np.vstack([pair.triangles, pair.triangles + 24])
    meshes = [welded(make(cube())) for make in (lambda m: m, open_box, with_fin, flipped_face)]
    meshes += [welded(pair), (np.empty((3, 0), np.uint32), 5)]
    return meshes * 2


def test_meshes_measured_together_get_the_topology_each_has_alone():
    meshes = crafted_meshes()
    alone = [mesh_topology(corners, count) for corners, count in meshes]
    assert meshes_topology(meshes) == alone
    assert {topology.pieces for topology in alone} == {0, 1, 2}
    assert any(topology.non_manifold_edges for topology in alone)
    assert any(topology.misoriented_edges for topology in alone)


def test_batches_end_at_their_triangle_limit_with_the_same_result(monkeypatch):
    meshes = crafted_meshes()
    together = meshes_topology(meshes)
    monkeypatch.setattr(topology_module, "BATCH_TRIANGLES", 13)
    assert meshes_topology(meshes) == together


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared glTF corpus is absent ({CORPUS})")
def test_every_corpus_document_measured_whole_matches_its_primitives_alone(monkeypatch):
    compared = []

    def compare(asset, context):
        meshes = [(welded_corners(s.mesh), len(s.mesh.vertices)) for s in surfaces(asset)]
        alone = [mesh_topology(corners, count) for corners, count in meshes]
        assert meshes_topology(meshes) == alone, asset.filename
        compared.append(len(meshes))

    monkeypatch.setattr(topology_check, "check_topology", compare)
    for path in sorted(CORPUS.rglob("*.gl*")):
        validate(path)
    assert sum(compared) > 100


def one_mesh_verdict(vertices: Vertices, normals: np.ndarray, corners: np.ndarray):
    """The inside-out verdict of one mesh in NumPy (the arithmetic the compiled kernel must
    repeat bit for bit: a vote near zero could otherwise change sides)."""
    corners = evenly_sampled(corners)
    points = np.take(vertices.coords, corners, axis=1).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        corner_normals = np.take(normals, corners, axis=0).astype(np.float64).sum(axis=0)
        face = np.cross((points[:, 1] - points[:, 0]).T, (points[:, 2] - points[:, 0]).T)
        agreement = np.einsum("ij,ij->i", face, corner_normals)
    against = int(np.count_nonzero(agreement < 0))
    decided = against + int(np.count_nonzero(agreement > 0))
    return (against, decided) if 2 * against > decided else None


def judged_meshes() -> list[tuple[Vertices, np.ndarray, np.ndarray]]:
    """A cube, its inverted twin, a flipped face, random meshes of 1 to 40 triangles with
    random normals (NaN and infinite ones among them; float32, float64 and float16 ones), and
    a mesh without triangles."""
    meshes = []
    for mesh in (cube(), inverted_normals(cube()), flipped_face(cube())):
        prepared = PreparedMesh(Vertices.of(mesh.positions), mesh.triangles.astype(np.uint32))
        meshes.append((prepared.vertices, mesh.normals, prepared.corners))
    random = np.random.default_rng(7)
    for triangles in [1, 1, 2, 3, 40, 1, 17]:
        positions = random.normal(size=(triangles + 2, 3)).astype(np.float32)
        normals = random.normal(size=(triangles + 2, 3)).astype(np.float32)
        normals[random.random(len(normals)) < 0.1] = np.nan
        normals[random.random(len(normals)) < 0.05] = np.inf
        corners = random.integers(0, len(positions), size=(3, triangles), dtype=np.uint32)
        meshes.append((Vertices.of(positions), normals, corners))
        meshes.append((Vertices.of(positions), normals.astype(np.float64), corners))
        meshes.append((Vertices.of(positions), normals.astype(np.float16), corners.astype(int)))
    meshes.append(
        (
            Vertices.of(np.zeros((3, 3), np.float32)),
            np.ones((3, 3), np.float32),
            np.empty((3, 0), np.uint32),
        )
    )
    return meshes


def test_the_inside_out_kernel_gives_the_verdicts_of_the_numpy_arithmetic():
    meshes = judged_meshes()
    alone = [one_mesh_verdict(*mesh) for mesh in meshes]
    assert alone[1] is not None and alone[0] is None  # both verdicts come up
    assert meshes_inside_out(meshes) == alone


def test_a_corner_past_the_normals_is_an_index_error_not_a_read_outside_them():
    vertices = Vertices.of(np.eye(3, dtype=np.float32))
    with pytest.raises(IndexError):
        meshes_inside_out([(vertices, np.ones((2, 3), np.float32), np.array([[0], [1], [2]]))])


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared glTF corpus is absent ({CORPUS})")
def test_every_corpus_primitive_gets_the_inside_out_verdict_of_the_numpy_arithmetic(
    monkeypatch,
):
    compared = []

    def compare(asset, context):
        meshes = [
            (s.mesh.vertices, s.normals, s.mesh.corners)
            for s in surfaces(asset)
            if s.normals is not None
        ]
        assert meshes_inside_out(meshes) == [one_mesh_verdict(*mesh) for mesh in meshes]
        compared.append(len(meshes))

    monkeypatch.setattr(topology_check, "check_topology", compare)
    for path in sorted(CORPUS.rglob("*.gl*")):
        validate(path)
    assert sum(compared) > 100


def crafted_prepared() -> list[PreparedMesh]:
    """The meshes of :func:`crafted_meshes` prepared, a mesh whose triangles all weld away,
    one without usable triangles, and two sharing their vertices."""
    meshes = [cube(), open_box(cube()), with_fin(cube()), flipped_face(cube())]
    prepared = [
        PreparedMesh(Vertices.of(mesh.positions), mesh.triangles.astype(np.uint16))
        for mesh in meshes
    ]
    same = Vertices.of(np.zeros((3, 3), np.float32))
    prepared += [
        PreparedMesh(same, np.array([[0, 1, 2]], np.uint8)),
        PreparedMesh(Vertices.of(np.zeros((2, 3))), np.array([[0, 1, 5]], np.uint32)),
        PreparedMesh(prepared[0].vertices, prepared[0].triangles[::2]),
    ]
    return prepared * 2


def alone(meshes: list[PreparedMesh]) -> list:
    return [mesh_topology(welded_corners(mesh), len(mesh.vertices)) for mesh in meshes]


def test_prepared_meshes_welded_together_get_the_topology_each_has_alone(monkeypatch):
    meshes = crafted_prepared()
    assert prepared_topology(meshes) == alone(meshes)
    monkeypatch.setattr(topology_module, "BATCH_TRIANGLES", 13)
    assert prepared_topology(meshes) == alone(meshes)
    monkeypatch.setattr(topology_module, "WELD_TOGETHER_VERTICES", 10)
    assert prepared_topology(meshes) == alone(meshes)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared glTF corpus is absent ({CORPUS})")
def test_every_corpus_document_welded_together_matches_its_primitives_alone(monkeypatch):
    compared = []

    def compare(asset, context):
        meshes = [s.mesh for s in surfaces(asset)]
        assert prepared_topology(meshes) == alone(meshes), asset.filename
        compared.append(len(meshes))

    monkeypatch.setattr(topology_check, "check_topology", compare)
    for path in sorted(CORPUS.rglob("*.gl*")):
        validate(path)
    assert sum(compared) > 100
