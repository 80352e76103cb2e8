"""FBX materials' texture slots read from the node tree, on files the FBX writers of
``assetcheck.testing`` build and changed node by node where the writers have no option
(layered textures, a video naming a file another one embeds)."""

from __future__ import annotations

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.materials import read_materials
from assetcheck.formats.fbx.objects import FbxObjects
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.testing.fbx import MaterialSpec, Scene, VideoSpec, cube, scene_nodes
from assetcheck.testing.fbx_nodes import Node, encode_binary

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 8
LAYERED = 7_000_000_000_000


def nodes_of(*videos: VideoSpec) -> list[Node]:
    scene = Scene(
        meshes=[cube(materials=["Wood"])], materials=[MaterialSpec("Wood")], videos=videos
    )
    return scene_nodes(scene, 7400, binary=True)


def read(nodes: list[Node]):
    return read_materials(FbxObjects.of(walk_fbx(encode_binary(nodes, 7400), Limits()).tree))


def part(nodes: list[Node], name: str) -> Node:
    return next(node for node in nodes if node.name == name)


def test_a_layered_texture_gives_its_property_each_of_its_layers():
    nodes = nodes_of(
        VideoSpec("dirt", "dirt.png", PNG, [("Wood", "DiffuseColor")]),
        VideoSpec("moss", "moss.png", PNG),
    )
    part(nodes, "Objects").children.append(
        Node("LayeredTexture", [LAYERED, "Mix\x00\x01LayeredTexture", ""])
    )
    connections = part(nodes, "Connections").children
    op = next(c for c in connections if c.props[0] == "OP")
    dirt, moss = op.props[1], op.props[1] + 1
    op.props[1] = LAYERED
    connections += [Node("C", ["OO", dirt, LAYERED]), Node("C", ["OO", moss, LAYERED])]

    (material,), images = read(nodes)

    assert [(s.slot, s.texture, s.image) for s in material.slots] == [
        ("DiffuseColor", "dirt", 0),
        ("DiffuseColor", "moss", 1),
    ]
    assert [image.filename for image in images] == ["dirt.png", "moss.png"]


def test_a_video_without_content_shows_the_content_of_one_naming_the_same_file():
    nodes = nodes_of(
        VideoSpec("first", "shared.png", b"", [("Wood", "DiffuseColor")]),
        VideoSpec("second", "shared.png", PNG),
    )

    (material,), images = read(nodes)

    assert [(s.texture, s.image) for s in material.slots] == [("first", 0)]
    assert [(image.name, image.filename) for image in images] == [("second", "shared.png")]


def test_a_texture_without_an_embedded_image_has_a_slot_but_no_image():
    (material,), images = read(nodes_of(VideoSpec("far", "far.png", b"", [("Wood", "NormalMap")])))

    assert [(s.slot, s.filename, s.image) for s in material.slots] == [
        ("NormalMap", "far.png", None)
    ]
    assert images == []
