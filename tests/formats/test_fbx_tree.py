"""The FBX node tree reader on built files: how ASCII arrays are read."""

from __future__ import annotations

from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.tree import FbxNode, read_tree
from assetcheck.testing.fbx import Scene, ascii_fbx, cube

ARRAYS = ("Vertices", "PolygonVertexIndex")
LAYER_ARRAYS = (("LayerElementNormal", "Normals"), ("LayerElementUV", "UV"))


def geometry_node(data: bytes) -> FbxNode:
    (objects,) = [node for node in read_tree(data) if node.name == "Objects"]
    return objects.child("Geometry")


def arrays_of(geometry: FbxNode) -> dict[str, list[float]]:
    """Every numeric array of a built cube's geometry, by name."""
    found = {name: geometry.child(name).array().tolist() for name in ARRAYS}
    for element, name in LAYER_ARRAYS:
        found[name] = geometry.child(element).child(name).array().tolist()
    return found


def test_an_ascii_array_ending_with_a_comma_holds_only_the_numbers_written():
    scene = Scene(meshes=[cube()])
    data = ascii_fbx(scene, trailing_commas=True)
    written = [line.strip() for line in data.splitlines() if line.strip().startswith(b"a: ")]
    assert written and all(line.endswith(b",") for line in written)

    assert arrays_of(geometry_node(data)) == arrays_of(geometry_node(ascii_fbx(scene)))


def test_a_mesh_written_with_trailing_commas_decodes_whole():
    (mesh,) = read_geometries(ascii_fbx(Scene(meshes=[cube()]), trailing_commas=True))

    assert mesh.fault is None
    assert (mesh.vertices, mesh.triangles) == (8, 12)
