"""The glTF document model: one document resolved once and shared by every check, the previews
and the viewer, which a crashing check cannot spoil for the others."""

from __future__ import annotations

import weakref
from pathlib import Path

import numpy as np
import pytest

from assetcheck.engine import validate
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.mesh import prepared as prepared_module
from assetcheck.mesh.prepared import Vertices
from assetcheck.testing.gltf import ELEMENT_ARRAY_BUFFER, GltfBuilder
from tests.checks.test_geometry import SQUARE, add_mesh, add_primitive
from tests.collector import collector_paused
from tests.formats import only_issue


def two_halves_glb() -> bytes:
    """A square whose two triangles are two primitives over one POSITION accessor."""
    builder = GltfBuilder()
    first = add_primitive(builder, SQUARE, [[0, 1, 2]])
    second = dict(
        first,
        indices=builder.add_accessor(
            np.array([0, 2, 3], np.uint16), "SCALAR", target=ELEMENT_ARRAY_BUFFER
        ),
    )
    add_mesh(builder, "split", first, second)
    return builder.glb()


def doubled_glb() -> bytes:
    """One primitive drawing a triangle twice: a duplicate for the geometry check, an edge
    run the same way twice for the topology check."""
    builder = GltfBuilder()
    add_mesh(builder, "twice", add_primitive(builder, SQUARE[:3], [[0, 1, 2], [0, 1, 2]]))
    return builder.glb()


def write(folder: Path, data: bytes) -> Path:
    path = folder / "model.glb"
    path.write_bytes(data)
    return path


def checked_model(path: Path) -> GltfDocument:
    """The document model as the engine hands it on (to the previews) once the checks ran."""
    models: list[GltfDocument | None] = []
    validate(path, on_checked=lambda asset, _: models.append(asset.gltf))
    [model] = models
    assert model is not None
    return model


def counted(monkeypatch, calls: list[str]) -> None:
    """Record each hashing of positions and each filtering of triangles into usable corners."""
    hash_positions, filter_triangles = Vertices.of, prepared_module.usable_corners

    def hashing(cls, positions):
        calls.append("hash")
        return hash_positions(positions)

    def filtering(triangles, vertex_count):
        calls.append("corners")
        return filter_triangles(triangles, vertex_count)

    monkeypatch.setattr(Vertices, "of", classmethod(hashing))
    monkeypatch.setattr(prepared_module, "usable_corners", filtering)


def test_the_mesh_checks_prepare_each_primitive_once(tmp_path, monkeypatch):
    calls: list[str] = []
    counted(monkeypatch, calls)
    validate(write(tmp_path, two_halves_glb()))
    # Geometry, topology and UVs all measured both primitives: one hashing of their shared
    # positions, one filtering of each primitive's triangles.
    assert sorted(calls) == ["corners", "corners", "hash"]


def test_primitives_of_one_position_accessor_share_its_hashed_vertices(tmp_path):
    gltf = checked_model(write(tmp_path, two_halves_glb()))
    first, second = (gltf.mesh(primitive) for primitive in gltf.links.primitives)
    assert first.vertices is second.vertices is not None
    assert first.prepared is gltf.mesh(gltf.links.primitives[0]).prepared


def test_a_check_that_crashes_preparing_a_mesh_leaves_it_whole_for_the_others(
    tmp_path, monkeypatch
):
    path = write(tmp_path, doubled_glb())
    undisturbed = validate(path)
    sources = {issue.source for issue in undisturbed.issues}
    assert {
        "assetcheck.checks.geometry:mesh-geometry",
        "assetcheck.checks.topology:mesh-topology",
    } <= sources

    filter_triangles, tries = prepared_module.usable_corners, []

    def failing_once(triangles, vertex_count):
        tries.append(1)
        if len(tries) == 1:
            raise MemoryError("no room on the first try")
        return filter_triangles(triangles, vertex_count)

    monkeypatch.setattr(prepared_module, "usable_corners", failing_once)
    disturbed = validate(path)
    crash = only_issue(disturbed, "CHECK_CRASHED")
    # Whichever check asked first crashed; every other check found just what it finds alone.
    assert [i.to_dict() for i in disturbed.issues if i is not crash] == [
        i.to_dict() for i in undisturbed.issues if i.source != crash.source
    ]


def test_the_shared_arrays_are_read_only(tmp_path):
    gltf = checked_model(write(tmp_path, two_halves_glb()))
    mesh = gltf.mesh(gltf.links.primitives[1]).prepared
    for array in (mesh.triangles, mesh.corners, mesh.vertices.coords, mesh.vertices.keys):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0


def test_the_result_lets_go_of_the_document_model(tmp_path):
    path = write(tmp_path, two_halves_glb())
    checked_model(path)  # the previews draw from it
    [asset] = validate(path).assets
    assert asset.gltf is None and asset.buffers == []
    assert asset.document is not None  # the JSON stays, as the report's facts do


def test_a_document_model_is_freed_by_reference_counting(tmp_path):
    with collector_paused():
        gltf = checked_model(write(tmp_path, two_halves_glb()))
        for primitive in gltf.links.primitives:
            assert gltf.mesh(primitive).prepared is not None
        freed = weakref.ref(gltf)
        del gltf
        assert freed() is None  # its meshes do not point back at it
