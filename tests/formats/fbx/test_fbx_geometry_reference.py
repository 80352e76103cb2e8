"""FBX geometry against two independent readers: assimp (another code base) and ufbx's transforms.

assimp: for every FBX of the shared corpus and of Debian's assimp-testmodels that ``assimp``
reads, ``assimp export FILE out.obj`` writes every mesh instance with its node transforms baked
in and its polygons as written (no post-processing). Our triangle count (each polygon of ``n``
corners gives ``n - 2``, per drawn instance) must equal the OBJ's, and the bounding box of our
world-space control points must equal the OBJ's vertices' within :data:`BOUNDS_TOLERANCE` of the
box's largest side. The largest deviation seen is 9.5e-5 (``embedded_ascii/box.FBX``, whose
root node moves 0.11 mm: ufbx and this reader apply it, assimp does not); assimp's float32
rounding stays under 1e-6. Both are in the file's own units and axes (assimp applies neither).

ufbx: for every file that ufbx reads, our decoder (:func:`read_geometries`) must find the same
meshes with the same control points and triangles as ufbx; and for every file of FBX 6 or later,
each mesh node's geometry-to-world matrix must equal ufbx's node-to-world matrix times its
geometric transform. The files are those of the shared corpus, of the production corpus and of
Debian's assimp-testmodels; the one ufbx refuses is a deliberately damaged file.

The tools and folders are optional on a developer machine: their tests skip, saying what is
missing.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.formats.fbx import reader as fbx_reader
from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.model import FbxScene, transform_points
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.formats.source import SourceFile
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from tests.formats.fbx.real_files import real_fbx_files, ufbx_scene
from tests.formats.fbx.test_fbx_corpus import CORPUS, CORRUPT_ASSIMP_MODEL

#: Largest bounding box difference accepted, relative to the box's largest side.
BOUNDS_TOLERANCE = 1e-4
#: Files assimp reads differently on purpose-built points, and why.
ASSIMP_READS_DIFFERENTLY = {
    "synthetic_cube_nan_7400_ascii.fbx": "its coordinates -1.#NAN and 1.#INF (how Microsoft's C "
    "library writes non-finite numbers) are read by assimp as -1 and 1",
}
#: FBX 5 and older keep node transforms in their takes, which the geometry reader does not read.
FIRST_VERSION_WITH_TRANSFORMS = 6000
ASSIMP = shutil.which("assimp")


@pytest.fixture(scope="module")
def registry():
    return build_registry(get_plugin_manager())


def read_fbx(path: Path, registry) -> FbxScene | None:
    """The FBX facts the reader gives for ``path`` (None when ufbx cannot read it)."""
    issues = IssueCollector(registry).for_file(path.name)
    source = SourceFile(path.name, path.read_bytes(), "fbx", path=path)
    asset = fbx_reader.read_asset(source=source, issues=issues, options=ValidationOptions())
    return asset.fbx


def world_triangles_and_bounds(scene: FbxScene) -> tuple[int, np.ndarray, np.ndarray]:
    """Triangles over every drawn instance, and the box of the placed control points that
    polygons use (assimp's OBJ holds no others), in the file's units and axes."""
    count, placed = 0, []
    for mesh in scene.meshes:
        used = mesh.geometry.positions[np.unique(mesh.geometry.corners)]
        for instance in mesh.instances:
            count += len(mesh.geometry.triangles())
            placed.append(transform_points(instance.geometry_to_world, used))
    points = np.concatenate(placed)
    with np.errstate(invalid="ignore"):
        return count, np.nanmin(points, axis=0), np.nanmax(points, axis=0)


def assimp_obj(path: Path, folder: Path) -> tuple[int, np.ndarray, np.ndarray] | None:
    """Triangles (fan count of each face) and vertex bounds of assimp's OBJ export of
    ``path``; None when assimp cannot read it."""
    out = folder / "out.obj"
    done = subprocess.run(
        [ASSIMP, "export", str(path), str(out)], capture_output=True, timeout=120, check=False
    )
    if done.returncode != 0 or not out.is_file():
        return None
    triangles, points = 0, []
    with out.open() as obj:
        for line in obj:
            if line.startswith("f "):
                triangles += max(len(line.split()) - 3, 0)
            elif line.startswith("v "):
                points.append([float(v) for v in line.split()[1:4]])
    array = np.array(points)
    with np.errstate(invalid="ignore"):
        return triangles, np.nanmin(array, axis=0), np.nanmax(array, axis=0)


@pytest.mark.skipif(ASSIMP is None, reason="the assimp command (Debian's assimp-utils) is absent")
@pytest.mark.parametrize("path", real_fbx_files())
def test_triangles_and_world_bounds_agree_with_assimp(path, registry, tmp_path):
    if path.name in ASSIMP_READS_DIFFERENTLY:
        pytest.skip(ASSIMP_READS_DIFFERENTLY[path.name])
    reference = assimp_obj(path, tmp_path)
    if reference is None:
        pytest.skip("assimp cannot read this file")
    scene = read_fbx(path, registry)
    assert scene is not None
    if scene.version < FIRST_VERSION_WITH_TRANSFORMS:
        pytest.skip("FBX 5 and older keep node transforms in takes, which are not read")
    assert all(mesh.geometry is not None for mesh in scene.meshes)

    triangles, low, high = world_triangles_and_bounds(scene)
    their_triangles, their_low, their_high = reference
    assert triangles == their_triangles
    extent = max(float(np.nanmax(their_high - their_low)), 1e-9)
    assert np.allclose(low, their_low, rtol=0, atol=BOUNDS_TOLERANCE * extent, equal_nan=True)
    assert np.allclose(high, their_high, rtol=0, atol=BOUNDS_TOLERANCE * extent, equal_nan=True)


@pytest.mark.parametrize("path", real_fbx_files())
def test_decoded_control_points_and_triangles_equal_ufbx(path):
    import ufbx

    try:
        ufbx_scene = ufbx.load_file(str(path))
    except ufbx.UfbxError:
        assert path.name == CORRUPT_ASSIMP_MODEL, "ufbx reads every other file of the corpora"
        pytest.skip("ufbx refuses this file: its binary header was damaged on purpose")
    try:
        theirs = sorted((mesh.num_vertices, mesh.num_triangles) for mesh in ufbx_scene.meshes)
    finally:
        ufbx_scene.close()

    decoded = read_geometries(walk_fbx(path.read_bytes(), Limits()).tree)

    assert [mesh.fault for mesh in decoded] == [None] * len(decoded)
    assert sorted((mesh.vertices, mesh.triangles) for mesh in decoded) == theirs


@pytest.mark.parametrize("path", real_fbx_files())
def test_mesh_node_transforms_equal_ufbx(path, registry):
    with ufbx_scene(path) as reference:
        theirs = {}
        for node in reference.nodes:
            if node.mesh is not None:
                # pyufbx fills a C-ordered array column by column: transpose it.
                theirs.setdefault(node.name, []).append(
                    node.world_transform.T @ _matrix(node.geometry_transform)
                )
        version = reference.metadata.version
    if version < FIRST_VERSION_WITH_TRANSFORMS:
        pytest.skip("FBX 5 and older keep node transforms in takes, which are not read")
    scene = read_fbx(path, registry)

    instances = [instance for mesh in scene.meshes for instance in mesh.instances]
    assert len(instances) == sum(map(len, theirs.values()))
    for instance in instances:
        ours = instance.geometry_to_world
        scale = max(1.0, float(np.abs(ours).max()))
        assert any(
            np.allclose(ours, matrix, rtol=0, atol=1e-9 * scale) for matrix in theirs[instance.node]
        ), instance.node


def _matrix(transform) -> np.ndarray:
    """A ufbx Transform (translation, rotation quaternion, scale) as a 4x4 matrix."""
    x, y, z, w = (
        transform.rotation.x,
        transform.rotation.y,
        transform.rotation.z,
        transform.rotation.w,
    )
    matrix = np.eye(4)
    matrix[:3, :3] = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    ) * [transform.scale.x, transform.scale.y, transform.scale.z]
    matrix[:3, 3] = [transform.translation.x, transform.translation.y, transform.translation.z]
    return matrix


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared FBX corpus is absent ({CORPUS})")
@pytest.mark.parametrize("path", real_fbx_files())
def test_every_mesh_ufbx_reads_has_decoded_geometry_matching_its_counts(path, registry):
    scene = read_fbx(path, registry)
    if scene is None:
        pytest.skip("ufbx cannot read this file")

    for mesh in scene.meshes:
        assert mesh.geometry_fault is None and mesh.geometry is not None, mesh.name
        assert len(mesh.geometry.positions) == mesh.vertices
        assert len(mesh.geometry.triangles()) == mesh.triangles
        assert mesh.instances, f"{mesh.name} is drawn by no node"


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared FBX corpus is absent ({CORPUS})")
def test_decoded_counts_sum_to_the_expected_counts_of_the_corpus(registry):
    with (CORPUS / "expected.tsv").open(newline="") as table:
        expected = {
            row["file"]: (int(row["control_points"]), int(row["triangles"]))
            for row in csv.DictReader(table, delimiter="\t")
        }
    found = {}
    for name in expected:
        scene = read_fbx(CORPUS / name, registry)
        found[name] = (
            sum(len(m.geometry.positions) for m in scene.meshes),
            sum(len(m.geometry.triangles()) for m in scene.meshes),
        )
    assert found == expected
