"""Measuring several meshes at once gives each the topology it has alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assetcheck.checks import topology as topology_check
from assetcheck.checks.topology import surfaces
from assetcheck.engine import validate
from assetcheck.mesh import topology as topology_module
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.mesh.topology import mesh_topology, meshes_topology, welded_corners
from tests.checks.topology_cases import cube, flipped_face, open_box, with_fin

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
