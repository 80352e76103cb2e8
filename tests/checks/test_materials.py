"""Materials: legacy shading models, specular-glossiness, FBX textured meshes without UVs."""

from __future__ import annotations

from assetcheck.testing.fbx import (
    MaterialSpec,
    MeshSpec,
    Scene,
    VideoSpec,
    binary_fbx,
    cube,
    scene_nodes,
)
from assetcheck.testing.fbx_nodes import Node, encode_binary
from assetcheck.testing.gltf import GltfBuilder, Primitive
from tests.formats import codes, only_issue, validate_bytes

MATERIAL_CODES = {"MATERIAL_NOT_PBR", "MATERIAL_SPECULAR_GLOSSINESS", "MESH_MISSING_UVS"}


def fbx_with_textured_material(mesh: MeshSpec, material: MaterialSpec) -> bytes:
    """A binary FBX 7400 whose one material samples one (external) texture.

    The scene builder never links textures to materials, so the link is added to its nodes:
    an object-property connection from the texture to the material's diffuse colour.
    """
    scene = Scene(
        meshes=[mesh], materials=[material], videos=[VideoSpec("bark", "textures/bark.png", b"")]
    )
    nodes = scene_nodes(scene, 7400, binary=True)
    connections = next(node for node in nodes if node.name == "Connections")
    texture_id, material_id = 6 * 10**12, 3 * 10**12  # the builder's ids: family * 10^12
    connections.children.append(Node("C", ["OP", texture_id, material_id, "DiffuseColor"]))
    return encode_binary(nodes, 7400)


def test_lambert_material_is_legacy_shading(tmp_path):
    scene = Scene(
        meshes=[cube(materials=["clay"])], materials=[MaterialSpec("clay", shading_model="lambert")]
    )
    issue = only_issue(validate_bytes(tmp_path, "clay.fbx", binary_fbx(scene)), "MATERIAL_NOT_PBR")
    assert issue.message.startswith("Material clay uses the legacy lambert shading model")


def test_physical_material_is_pbr(tmp_path):
    scene = Scene(
        meshes=[cube(materials=["steel"])],
        materials=[MaterialSpec("steel", "unknown", physical=True)],
    )
    assert MATERIAL_CODES.isdisjoint(codes(validate_bytes(tmp_path, "s.fbx", binary_fbx(scene))))


def test_gltf_specular_glossiness_material_is_reported_with_its_pointer(tmp_path):
    builder = GltfBuilder()
    builder.add_material("old shiny", shading="metallicRoughness")
    legacy = builder.add_material("leather", shading="specularGlossiness")
    builder.add_node(builder.add_mesh([Primitive(3, normals=True, material=legacy)]))
    issue = only_issue(
        validate_bytes(tmp_path, "bag.glb", builder.glb()), "MATERIAL_SPECULAR_GLOSSINESS"
    )
    assert (issue.pointer, issue.message.split(" uses")[0]) == ("/materials/1", "Material leather")


def test_unlit_and_metallic_roughness_gltf_materials_are_fine(tmp_path):
    builder = GltfBuilder()
    builder.add_material("paint")
    builder.add_material("sky", shading="unlit")
    assert MATERIAL_CODES.isdisjoint(codes(validate_bytes(tmp_path, "m.glb", builder.glb())))


def test_fbx_mesh_without_uvs_under_a_textured_material_is_reported(tmp_path):
    mesh = MeshSpec("Trunk", cube().vertices, cube().polygons, ["wood"], uv_sets=0)
    data = fbx_with_textured_material(mesh, MaterialSpec("wood", "unknown", physical=True))
    issue = only_issue(validate_bytes(tmp_path, "tree.fbx", data), "MESH_MISSING_UVS")
    assert issue.message.startswith(
        "Mesh Trunk has no UV coordinates, but its material wood uses 1 texture(s)"
    )


def test_fbx_mesh_with_uvs_under_a_textured_material_is_fine(tmp_path):
    mesh = MeshSpec("Trunk", cube().vertices, cube().polygons, ["wood"])
    data = fbx_with_textured_material(mesh, MaterialSpec("wood", "unknown", physical=True))
    assert "MESH_MISSING_UVS" not in codes(validate_bytes(tmp_path, "tree.fbx", data))


def test_fbx_mesh_without_uvs_or_textures_is_fine(tmp_path):
    bare = MeshSpec("Block", cube().vertices, cube().polygons, ["grey"], uv_sets=0)
    scene = Scene(meshes=[bare], materials=[MaterialSpec("grey", "unknown", physical=True)])
    assert MATERIAL_CODES.isdisjoint(codes(validate_bytes(tmp_path, "b.fbx", binary_fbx(scene))))
