"""Where a glTF's bytes go: every byte of a crafted file given to exactly one category."""

from __future__ import annotations

import json
import math
import struct

import numpy as np

from assetcheck.asset.memory import ByteUsage
from assetcheck.formats.gltf.accessor_data import FLOAT
from assetcheck.testing.compressed import draco_glb, meshopt_glb, pawn_mesh
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes
from tests.formats import validate_bytes

PNG = png_bytes(4, 4)


def usage_of(tmp_path, name: str, data: bytes) -> ByteUsage:
    usage = validate_bytes(tmp_path, name, data).assets[0].byte_usage
    assert usage is not None
    return usage


def items(usage: ByteUsage) -> dict[str, int]:
    return {item.name: item.bytes for item in usage.items}


def full_model() -> GltfBuilder:
    """A mesh 'Body' of 100 vertices (position, normal, UV; 300 uint16 indices), an animation
    'Walk' of 10 keys, a skinned triangle and a 4 x 4 PNG."""
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(100, 300, normals=True, texcoords=True)], "Body"))
    builder.add_animation("Walk", keyframes=10)
    builder.add_skinned_triangle([builder.add_node(name="Root")])
    builder.add_image(PNG, name="Albedo")
    return builder


def test_a_glbs_bytes_are_broken_down_exactly_and_add_up_to_its_size(tmp_path):
    data = full_model().glb()
    usage = usage_of(tmp_path, "model.glb", data)
    assert usage.total == sum(usage.categories.values()) == len(data)
    # Body: 100 x 12 + 100 x 12 + 100 x 8; the triangle: 3 x 12 + 3 x 8 (uint16 joints)
    # + 3 x 16 (float weights).
    assert usage.categories["geometry"] == 1200 + 1200 + 800 + 36 + 24 + 48
    assert usage.attributes == {
        "POSITION": 1236,
        "NORMAL": 1200,
        "TEXCOORD_0": 800,
        "WEIGHTS_0": 48,
        "JOINTS_0": 24,
    }
    assert usage.categories["indices"] == 300 * 2
    assert usage.categories["animation"] == 10 * 4 + 10 * 12  # times, then translations
    assert usage.categories["skins"] == 64  # one inverse bind matrix
    assert usage.categories["images"] == len(PNG)
    assert usage.categories["container"] == 12 + 2 * 8  # the header, two chunk headers
    named = items(usage)
    json_chunk = data[20 : 20 + struct.unpack_from("<I", data, 12)[0]]
    spaces = len(json_chunk) - len(json_chunk.rstrip(b" "))  # padding, not JSON
    assert named["JSON"] == usage.categories["json"] == len(json_chunk) - spaces
    assert named["mesh 'Body' POSITION"] == named["mesh 'Body' NORMAL"] == 1200
    assert named["mesh 'Body' indices"] == 600
    assert named["animation 'Walk' output"] == 120
    assert named["image 'Albedo'"] == len(PNG)


def test_the_largest_items_come_first_and_are_at_most_ten(tmp_path):
    builder = GltfBuilder()
    for number in range(12):
        builder.add_node(builder.add_mesh([Primitive(10 + number)], f"Part {number}"))
    usage = usage_of(tmp_path, "parts.glb", builder.glb())
    sizes = [item.bytes for item in usage.items]
    assert len(sizes) == 10 and sizes == sorted(sizes, reverse=True)


def test_bytes_no_view_covers_are_padding_when_few_and_unreferenced_when_many(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)], "Tri"))
    builder.binary.extend(bytes(8))  # 36 bytes of positions, then 8 nobody reads
    few = usage_of(tmp_path, "few.glb", builder.glb())
    builder.binary.extend(bytes(56))
    many = usage_of(tmp_path, "many.glb", builder.glb())
    assert few.categories.get("unreferenced") is None and few.categories["padding"] >= 8
    assert many.categories["unreferenced"] == 64
    assert many.total == sum(many.categories.values())


def test_a_view_nothing_reads_is_unreferenced_and_named(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)], "Tri"))
    view = builder.add_buffer_view(bytes(100))
    usage = usage_of(tmp_path, "unused.glb", builder.glb())
    assert usage.categories["unreferenced"] == 100
    assert items(usage)[f"buffer view {view} (nothing reads it)"] == 100


def test_an_interleaved_view_is_split_by_what_each_accessor_spans(tmp_path):
    builder = GltfBuilder()
    vertices = np.zeros((10, 6), np.float32)  # position and normal, 24 bytes a vertex
    view = builder.add_buffer_view(vertices.tobytes())
    builder.document["bufferViews"][view]["byteStride"] = 24
    position, normal = (
        builder._append(
            "accessors",
            {"bufferView": view, "byteOffset": offset, "componentType": FLOAT, "count": 10,
             "type": "VEC3", **({"min": [0, 0, 0], "max": [0, 0, 0]} if not offset else {})},
        )
        for offset in (0, 12)
    )  # fmt: skip
    primitive = {"attributes": {"POSITION": position, "NORMAL": normal}}
    builder.add_node(builder._append("meshes", {"primitives": [primitive]}))
    usage = usage_of(tmp_path, "interleaved.glb", builder.glb())
    assert usage.attributes == {"POSITION": 120, "NORMAL": 120}


def test_an_embedded_gltf_counts_base64_as_container_and_its_bytes_decoded(tmp_path):
    builder = full_model()
    data = builder.embedded_gltf()
    usage = usage_of(tmp_path, "model.gltf", data)
    uri = json.loads(data)["buffers"][0]["uri"]
    assert usage.total == sum(usage.categories.values()) == len(data)
    assert usage.categories["json"] == len(data) - len(uri)
    assert usage.categories["geometry"] == 3308 and usage.categories["images"] == len(PNG)


def test_a_gltf_with_an_external_buffer_counts_the_file_it_loads(tmp_path):
    path = full_model().write_gltf(tmp_path / "model")
    usage = validate_bytes(tmp_path, "model/model.gltf", path.read_bytes()).assets[0].byte_usage
    assert usage is not None
    bin_size = (tmp_path / "model" / "model.bin").stat().st_size
    assert usage.total == path.stat().st_size + bin_size
    assert usage.categories["json"] == path.stat().st_size


def test_draco_payloads_are_their_meshs_geometry(tmp_path):
    data = draco_glb(pawn_mesh(), name="Pawn")
    usage = usage_of(tmp_path, "draco.glb", data)
    assert usage.total == len(data)
    assert usage.attributes == {"Draco": usage.categories["geometry"]}
    assert "indices" not in usage.categories
    assert [s.method for s in usage.savings] == []  # nothing left uncompressed


def test_meshopt_views_count_their_compressed_bytes(tmp_path):
    data = meshopt_glb(pawn_mesh(), name="Pawn")
    usage = usage_of(tmp_path, "meshopt.glb", data)
    assert usage.total == len(data)
    assert usage.categories["geometry"] > 0 and usage.categories["indices"] > 0
    assert usage.savings == []


def test_savings_of_float_geometry_are_estimated_from_its_layout(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(100, 300, normals=True, texcoords=True)], "Body"))
    usage = usage_of(tmp_path, "body.glb", builder.glb())
    savings = {saving.method: saving for saving in usage.savings}
    quantized = 100 * (8 + 4 + 4)  # 16-bit positions, 8-bit normals, 16-bit UVs, padded
    assert (savings["quantization"].bytes, savings["quantization"].estimated_bytes) == (
        3200,
        quantized,
    )
    assert savings["meshopt"].bytes == 3200 + 600
    assert savings["meshopt"].estimated_bytes == -(-quantized * 2 // 3) + 300 // 2
    assert savings["draco"].estimated_bytes == math.ceil(99_085 / 550_812 * (quantized + 1200))


def test_png_textures_get_ktx2_estimates_in_file_bytes_and_gpu_memory(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)], "Tri"))
    png = png_bytes(64, 64)
    builder.add_image(png, name="Albedo")
    savings = {s.method: s for s in usage_of(tmp_path, "tex.glb", builder.glb()).savings}
    uastc, etc1s = savings["ktx2-uastc"], savings["ktx2-etc1s"]
    chain = [64 >> level for level in range(7)]  # 64, 32 ... 1
    assert uastc.bytes == etc1s.bytes == len(png)
    assert uastc.gpu_bytes == sum(4 * side * side for side in chain)
    # 16-byte blocks of 4 x 4 texels, the levels under 4 x 4 one block each.
    assert (
        uastc.estimated_bytes == uastc.estimated_gpu_bytes == 16 * (256 + 64 + 16 + 4 + 1 + 1 + 1)
    )
    assert etc1s.estimated_bytes == -(-sum(side * side for side in chain) * 5 // 32)


def test_a_data_uri_buffer_that_does_not_decode_is_unreferenced_text(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)], "Tri"))
    document = json.loads(builder.embedded_gltf())
    uri = "data:application/octet-stream;base64,@@not base64@@"
    document["buffers"][0]["uri"] = uri
    data = json.dumps(document).encode()
    usage = usage_of(tmp_path, "broken.gltf", data)
    assert usage.total == len(data)
    assert usage.categories["unreferenced"] == len(uri)
