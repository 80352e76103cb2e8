"""The node tree the FBX walk keeps, on built files: how ASCII arrays are read."""

from __future__ import annotations

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.tree import BlobRef, FbxNode, FbxTree
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.testing.fbx import MaterialSpec, Scene, VideoSpec, ascii_fbx, binary_fbx, cube
from assetcheck.testing.fbx_nodes import Node, encode_binary

ARRAYS = ("Vertices", "PolygonVertexIndex")
LAYER_ARRAYS = (("LayerElementNormal", "Normals"), ("LayerElementUV", "UV"))


def tree_of(data: bytes) -> FbxTree:
    return walk_fbx(data, Limits()).tree


def geometry_node(data: bytes) -> FbxNode:
    (objects,) = [node for node in tree_of(data).top_level() if node.name == "Objects"]
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
    (mesh,) = read_geometries(tree_of(ascii_fbx(Scene(meshes=[cube()]), trailing_commas=True)))

    assert mesh.fault is None
    assert (mesh.vertices, mesh.triangles) == (8, 12)


def test_the_walk_keeps_the_models_geometries_materials_and_connections_and_nothing_else():
    scene = Scene(meshes=[cube("Box", ["Red"])], materials=[MaterialSpec("Red")])

    for data in (binary_fbx(scene), ascii_fbx(scene)):
        top_level = tree_of(data).top_level()

        assert [node.name for node in top_level] == ["Objects", "Connections"]
        assert [node.name for node in top_level[0].children] == ["Geometry", "Model", "Material"]


def test_the_walk_keeps_where_embedded_content_lies_not_its_bytes():
    image = bytes(range(256)) * 4
    scene = Scene(videos=[VideoSpec("Wood", "wood.png", image)])

    for data in (binary_fbx(scene), ascii_fbx(scene)):
        objects = tree_of(data).top_level()[0]
        video = next(node for node in objects.children if node.name == "Video")
        content = video.child("Content")

        assert content is not None
        assert all(isinstance(prop, BlobRef) for prop in content.props)
        assert bytes(content.source.blob(content.blob_spans())) == image


def test_reading_the_geometry_leaves_the_walks_tree_as_it_was():
    model = Node(
        "Model",
        ["Model::Box", "Mesh"],
        [
            Node("Vertices", [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
            Node("PolygonVertexIndex", [0, 1, -3]),
        ],
    )
    tree = tree_of(encode_binary([Node("Objects"), model], 6100))  # FBX 5: a top-level model

    first, again = read_geometries(tree), read_geometries(tree)

    assert [(m.vertices, m.triangles) for m in first] == [(3, 1)]
    assert [(m.vertices, m.triangles) for m in again] == [(3, 1)]
