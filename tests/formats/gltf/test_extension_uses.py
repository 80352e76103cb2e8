"""Objects reached only through extensions are used: no ``UNUSED_*`` report for them, and
external KTX2 images are fine wherever ``KHR_texture_basisu`` is declared."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.result import Result
from assetcheck.engine import validate
from assetcheck.testing.gltf import ARRAY_BUFFER, GltfBuilder, Primitive, png_bytes
from assetcheck.testing.ktx2 import Ktx2Texture


def ktx2_bytes(width: int = 4, height: int = 4) -> bytes:
    """A Basis Universal KTX2 texture (ETC1S with BasisLZ)."""
    return Ktx2Texture(width, height).build()


def webp_bytes(width: int = 4, height: int = 4) -> bytes:
    """A lossless WebP (VP8L) header of ``width`` x ``height``."""
    bits = (width - 1) | (height - 1) << 14
    payload = b"\x2f" + struct.pack("<I", bits) + bytes(3)
    chunk = b"VP8L" + struct.pack("<I", len(payload)) + payload
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


def unused_pointers(result: Result) -> set[str]:
    return {issue.pointer for issue in result.issues if issue.code.startswith("UNUSED_")}


def _textured_quad(builder: GltfBuilder, texture: int) -> None:
    material = builder.add_material(base_color_texture=texture)
    builder.add_node(
        builder.add_mesh(
            [Primitive(4, index_count=6, material=material, normals=True, texcoords=True)]
        )
    )


@pytest.mark.parametrize(
    ("extension", "filename", "data"),
    [
        ("EXT_texture_webp", "tex.webp", webp_bytes()),
        ("KHR_texture_basisu", "tex.ktx2", ktx2_bytes()),
        ("MSFT_texture_dds", "tex.dds", b"DDS " + bytes(124)),
    ],
    ids=["webp", "basisu", "dds"],
)
def test_an_image_named_only_by_a_texture_extension_is_used(
    tmp_path: Path, extension: str, filename: str, data: bytes
):
    (tmp_path / filename).write_bytes(data)
    builder = GltfBuilder()
    fallback = builder.add_image(png_bytes(4, 4))
    special = builder.add_image(uri=filename)
    texture = builder.add_texture(fallback)
    builder.document["textures"][texture]["extensions"] = {extension: {"source": special}}
    builder.document["extensionsUsed"] = [extension]
    _textured_quad(builder, texture)
    result = validate(builder.write_gltf(tmp_path))
    assert f"/images/{special}" not in unused_pointers(result)


def test_an_image_named_by_an_undeclared_extension_stays_unused(tmp_path: Path):
    (tmp_path / "tex.webp").write_bytes(webp_bytes())
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes(4, 4)))
    special = builder.add_image(uri="tex.webp")
    builder.document["textures"][texture]["extensions"] = {"EXT_texture_webp": {"source": special}}
    _textured_quad(builder, texture)
    result = validate(builder.write_gltf(tmp_path))
    assert f"/images/{special}" in unused_pointers(result)


def _variant_document(builder: GltfBuilder, declared: bool) -> int:
    """A quad whose primitive maps a second material to a variant; returns that material."""
    default = builder.add_material("Red")
    variant = builder.add_material("Blue")
    mesh = builder.add_mesh([Primitive(4, index_count=6, material=default, normals=True)])
    builder.add_node(mesh)
    primitive = builder.document["meshes"][mesh]["primitives"][0]
    primitive["extensions"] = {
        "KHR_materials_variants": {"mappings": [{"material": variant, "variants": [0]}]}
    }
    builder.document["extensions"] = {"KHR_materials_variants": {"variants": [{"name": "b"}]}}
    if declared:
        builder.document["extensionsUsed"] = ["KHR_materials_variants"]
    return variant


def test_a_material_used_only_by_a_variant_is_used(tmp_path: Path):
    builder = GltfBuilder()
    variant = _variant_document(builder, declared=True)
    result = validate(builder.write_glb(tmp_path / "variants.glb"))
    assert f"/materials/{variant}" not in unused_pointers(result)
    assert result.valid


def test_a_variant_material_without_the_declared_extension_stays_unused(tmp_path: Path):
    builder = GltfBuilder()
    variant = _variant_document(builder, declared=False)
    result = validate(builder.write_glb(tmp_path / "variants.glb"))
    assert f"/materials/{variant}" in unused_pointers(result)


def _tangent_quad(builder: GltfBuilder, material: dict) -> str:
    """A quad with normals and tangents whose material is ``material``; returns the pointer
    of its TANGENT attribute."""
    builder.document.setdefault("materials", []).append(material)
    mesh = builder.add_mesh([Primitive(4, index_count=6, material=0, normals=True)])
    builder.add_node(mesh)
    tangents = np.tile(np.array([1, 0, 0, 1], dtype=np.float32), (4, 1))
    accessor = builder.add_accessor(tangents, "VEC4", target=ARRAY_BUFFER)
    builder.document["meshes"][mesh]["primitives"][0]["attributes"]["TANGENT"] = accessor
    return f"/meshes/{mesh}/primitives/0/attributes/TANGENT"


def test_tangents_shaded_by_anisotropy_are_used(tmp_path: Path):
    builder = GltfBuilder()
    pointer = _tangent_quad(
        builder, {"extensions": {"KHR_materials_anisotropy": {"anisotropyStrength": 0.6}}}
    )
    builder.document["extensionsUsed"] = ["KHR_materials_anisotropy"]
    result = validate(builder.write_glb(tmp_path / "brushed.glb"))
    assert pointer not in unused_pointers(result)
    assert result.valid


def test_tangents_of_a_plain_material_are_unused(tmp_path: Path):
    builder = GltfBuilder()
    pointer = _tangent_quad(builder, {"pbrMetallicRoughness": {}})
    result = validate(builder.write_glb(tmp_path / "plain.glb"))
    assert pointer in unused_pointers(result)


def _ktx2_document(tmp_path: Path, declared: bool) -> Path:
    (tmp_path / "tex.ktx2").write_bytes(ktx2_bytes())
    builder = GltfBuilder()
    image = builder.add_image(uri="tex.ktx2")
    texture = builder.add_texture(image)
    builder.document["textures"][texture] = {
        "extensions": {"KHR_texture_basisu": {"source": image}}
    }
    if declared:
        builder.document["extensionsUsed"] = ["KHR_texture_basisu"]
        builder.document["extensionsRequired"] = ["KHR_texture_basisu"]
    _textured_quad(builder, texture)
    return builder.write_gltf(tmp_path)


def test_an_external_ktx2_image_without_mime_type_is_valid_under_basisu(tmp_path: Path):
    result = validate(_ktx2_document(tmp_path, declared=True))
    assert "IMAGE_NON_ENABLED_MIME_TYPE" not in {issue.code for issue in result.issues}
    assert "/images/0" not in unused_pointers(result)
    assert result.valid


def test_a_ktx2_image_without_basisu_names_the_missing_extension(tmp_path: Path):
    result = validate(_ktx2_document(tmp_path, declared=False))
    (issue,) = [i for i in result.issues if i.code == "IMAGE_NON_ENABLED_MIME_TYPE"]
    assert "KHR_texture_basisu" in issue.message
