"""A big mesh's passes give the same counts and marks on any number of threads.

Forced thread counts (the passes take ``threads``) split small meshes as the threshold
splits big ones: chunk and range boundaries then fall between a triangle and its duplicate,
between the two triangles of an edge, inside runs of a vertex's edges.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assetcheck.checks import topology as topology_check
from assetcheck.checks.topology import surfaces
from assetcheck.engine import validate
from assetcheck.mesh._kernels import hash_positions
from assetcheck.mesh.duplicates import triangle_marks
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.mesh.threads import spans
from assetcheck.mesh.topology import meshes_topology, welded_corners
from bench.grid_glb import grid_triangles
from tests.mesh.test_kernels import meshes

THREADS = (2, 3, 4, 7)
CORPORA = [
    Path(__file__).resolve().parents[3] / "shared" / "corpus" / "gltf",
    Path("/usr/share/assimp/models"),
    Path(__file__).resolve().parents[1] / "assets",
]


def marks(mesh: PreparedMesh, threads: int) -> tuple:
    found = triangle_marks(mesh.vertices, mesh.corners, threads, numbered=True)
    assert found.repeated is not None
    return found.zero_area, found.duplicates, found.flat.tolist(), found.repeated.tolist()


def topologies(prepared: list[PreparedMesh], threads: int) -> list:
    welded = [(welded_corners(mesh), len(mesh.vertices)) for mesh in prepared]
    return meshes_topology(welded, threads=threads)


def assert_same_on_any_threads(prepared: list[PreparedMesh]) -> None:
    one_thread = topologies(prepared, 1), [marks(mesh, 1) for mesh in prepared]
    for threads in THREADS:
        assert topologies(prepared, threads) == one_thread[0], threads
        assert [marks(mesh, threads) for mesh in prepared] == one_thread[1], threads


@settings(max_examples=200, deadline=None)
@given(st.lists(meshes(odd=True), min_size=1, max_size=4))
def test_random_meshes_measure_the_same_on_any_number_of_threads(drawn):
    assert_same_on_any_threads([PreparedMesh(Vertices.of(p), t) for p, t in drawn])


def test_a_second_copy_of_every_triangle_is_found_across_the_chunks():
    # Two threads split the triangles between the copies: every duplicate is in the second
    # chunk, every original in the first; each edge is run by a triangle of each chunk.
    side = 30
    x, y = np.meshgrid(np.arange(side, dtype=np.float32), np.arange(side, dtype=np.float32))
    positions = np.stack([x.ravel(), y.ravel(), np.sin(x * y).ravel()], axis=1)
    once = grid_triangles(side, side)
    mesh = PreparedMesh(Vertices.of(positions), np.vstack([once, once[:, ::-1], once]))
    _, duplicates, _, repeated = marks(mesh, 3)
    assert duplicates == len(once) and repeated == [0] * (2 * len(once)) + [1] * len(once)
    assert_same_on_any_threads([mesh])
    (topology,) = topologies([mesh], 2)
    assert topology.non_manifold_edges == topology.edges


def test_meshes_far_apart_in_ids_measure_the_same_on_any_number_of_threads():
    # Ids 2**15 or more apart take 32-bit entries; random vertex order spreads the edges of
    # one vertex over every chunk.
    rng = np.random.default_rng(11)
    positions = rng.choice([-1.0, 0.0, 1.0, 2.0], (90_000, 3)).astype(np.float32)
    triangles = rng.integers(0, 90_000, (20_000, 3)).astype(np.uint32)
    assert_same_on_any_threads([PreparedMesh(Vertices.of(positions), triangles)])


def test_positions_hashed_in_spans_are_those_hashed_in_one_pass():
    rng = np.random.default_rng(3)
    positions = rng.choice([-1.0, -0.0, 0.0, np.nan, 2.5], (1000, 3))
    whole = Vertices.of(positions)
    coords, keys = np.empty((3, 1000), np.float32), np.empty(1000, np.uint64)
    for first, last in spans(1000, 7):
        hash_positions(positions, coords, keys, first, last)
    assert coords.tobytes() == whole.coords.tobytes() and keys.tolist() == whole.keys.tolist()


def corpus_meshes() -> list[PreparedMesh]:
    found: list[PreparedMesh] = []
    original = topology_check.check_topology

    def collect(asset, context):
        found.extend(surface.mesh for surface in surfaces(asset))
        original(asset, context)

    files = [
        path
        for corpus in CORPORA
        if corpus.is_dir()
        for path in sorted(corpus.rglob("*"))
        if path.suffix.lower() in {".glb", ".gltf", ".fbx", ".obj"}
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(topology_check, "check_topology", collect)
        for path in files:
            validate(path)
    return found


def test_corpus_meshes_measure_the_same_on_any_number_of_threads():
    prepared = corpus_meshes()
    assert len(prepared) > 100
    assert_same_on_any_threads(prepared)
