"""KTX2 images in glTF: the structural findings and the ``KHR_texture_basisu`` rules reported
at the image, and a KTX2 texture's real size and GPU memory in the texture budgets."""

from __future__ import annotations

from assetcheck.asset.options import ValidationOptions
from assetcheck.formats.ktx2 import parse_ktx2
from assetcheck.testing import GltfBuilder, Primitive
from assetcheck.testing.harness import validate_bytes
from assetcheck.testing.ktx2 import UASTC, Ktx2Texture, patch_header
from tests.formats import codes, only_issue

EXTENSION = "KHR_texture_basisu"
LINEAR = 9729


def basisu_glb(ktx2: bytes, *, min_filter: int | None = None, normal_map: bool = False) -> bytes:
    """A textured quad whose only texture is ``ktx2`` through the extension, as its base
    colour (or its normal map)."""
    builder = GltfBuilder()
    image = builder.add_image(ktx2, mime_type="image/ktx2")
    texture = builder.add_texture(image)
    builder.document["textures"][texture] = {"extensions": {EXTENSION: {"source": image}}}
    if min_filter is not None:
        builder.document["samplers"] = [{"minFilter": min_filter, "magFilter": LINEAR}]
        builder.document["textures"][texture]["sampler"] = 0
    builder.document["extensionsUsed"] = [EXTENSION]
    builder.document["extensionsRequired"] = [EXTENSION]
    material = builder.add_material(base_color_texture=texture)
    if normal_map:
        info = builder.document["materials"][material]["pbrMetallicRoughness"].pop(
            "baseColorTexture"
        )
        builder.document["materials"][material]["normalTexture"] = info
    builder.add_node(
        builder.add_mesh(
            [Primitive(4, index_count=6, material=material, normals=True, texcoords=True)]
        )
    )
    return builder.glb()


def ktx2_codes(result) -> list[str]:
    return [code for code in codes(result) if code.startswith("KTX2_")]


def test_a_glb_with_a_basisu_texture_validates_clean():
    for texture in (Ktx2Texture(256, 256, alpha=True), Ktx2Texture(256, 128, model=UASTC)):
        result = validate_bytes(basisu_glb(texture.build()))
        assert result.valid, codes(result)
        # Khronos does not know image/ktx2 as a mimeType (it does not validate the
        # extension): its warning stays, for parity; nothing else is found.
        assert {i.code for i in result.issues if i.severity in ("error", "warning")} == {
            "VALUE_NOT_IN_LIST"
        }
        assert ktx2_codes(result) == []


def test_a_basisu_texture_counts_in_the_texture_budgets_with_its_real_size_and_gpu_memory():
    ktx2 = Ktx2Texture(2048, 2048).build()
    expected = parse_ktx2(ktx2).gpu_bytes
    # BC7/ASTC 4x4 over the full chain: 1 byte per texel, plus the smaller levels.
    assert expected == 16 * sum(max(1, (2048 >> p) // 4) ** 2 for p in range(12))
    result = validate_bytes(
        basisu_glb(ktx2), options=ValidationOptions(budget_overrides={"texture_size": 256})
    )
    size = only_issue(result, "BUDGET_TEXTURE_SIZE")
    assert "2048" in size.message
    memory = only_issue(result, "TEXTURE_GPU_MEMORY")
    assert memory.message.startswith(f"The textures take about {round(expected / 1e6)} MB")


def test_a_non_power_of_two_ktx2_texture_is_reported_by_its_header_size():
    result = validate_bytes(basisu_glb(Ktx2Texture(12, 8, levels=1).build(), min_filter=LINEAR))
    assert only_issue(result, "IMAGE_NPOT_DIMENSIONS").message.startswith("The image is 12x8")
    assert ktx2_codes(result) == []


def test_a_truncated_ktx2_image_gives_its_own_code_at_the_image():
    data = Ktx2Texture(64, 64, model=UASTC).build()
    result = validate_bytes(basisu_glb(data[:-100]))
    issue = only_issue(result, "KTX2_DATA_OUT_OF_FILE")
    assert issue.pointer == "/images/0" and "level 0" in issue.message
    assert "IMAGE_UNEXPECTED_EOS" in codes(result)  # what Khronos reports, kept for parity
    assert not result.valid


def test_a_ktx1_file_as_a_basisu_image_names_the_wrong_identifier():
    result = validate_bytes(basisu_glb(b"\xabKTX 11\xbb\r\n\x1a\n" + bytes(64)))
    assert ktx2_codes(result) == ["KTX2_IDENTIFIER_INVALID"]


def test_a_cube_map_or_array_is_not_a_basisu_texture():
    cube = Ktx2Texture(16, 16, model=UASTC, faces=6).build()
    array = Ktx2Texture(16, 16, model=UASTC, layers=2).build()
    volume = Ktx2Texture(16, 16, model=UASTC, depth=4).build()
    for data, kind in (
        (cube, "a cube map"),
        (array, "an array of 2 layers"),
        (volume, "a 3D texture 4 deep"),
    ):
        assert parse_ktx2(data).findings == ()
        result = validate_bytes(basisu_glb(data))
        assert ktx2_codes(result) == ["KTX2_BASISU_NOT_2D"]
        assert kind in only_issue(result, "KTX2_BASISU_NOT_2D").message


def test_sides_that_are_not_multiples_of_four_break_basisu():
    result = validate_bytes(basisu_glb(Ktx2Texture(18, 16, levels=1).build(), min_filter=LINEAR))
    assert ktx2_codes(result) == ["KTX2_BASISU_DIMENSIONS"]


def test_a_colour_model_or_scheme_basisu_does_not_allow_is_reported():
    bc7 = bytearray(Ktx2Texture(16, 16, model=UASTC, zstd=False).build())
    bc7[parse_ktx2(bytes(bc7)).header.dfd.offset + 12] = 134  # colorModel BC7
    result = validate_bytes(basisu_glb(bytes(bc7)))
    assert ktx2_codes(result) == ["KTX2_BASISU_FORMAT_INVALID"]
    assert "the colour model is BC7" in only_issue(result, "KTX2_BASISU_FORMAT_INVALID").message
    vk_format = patch_header(Ktx2Texture(16, 16, model=UASTC).build(), vk_format=37)
    assert (
        "vkFormat is 37"
        in only_issue(validate_bytes(basisu_glb(vk_format)), "KTX2_BASISU_FORMAT_INVALID").message
    )


def test_swizzle_metadata_other_than_rgba_breaks_basisu():
    texture = Ktx2Texture(16, 16, key_values={"KTXswizzle": b"rrr1\0"})
    issue = only_issue(validate_bytes(basisu_glb(texture.build())), "KTX2_BASISU_METADATA")
    assert "KTXswizzle is rrr1" in issue.message


def test_missing_mipmaps_are_a_warning_only_when_a_sampler_needs_them():
    one_level = Ktx2Texture(64, 64, levels=1).build()
    issue = only_issue(validate_bytes(basisu_glb(one_level)), "KTX2_MIPMAPS_INCOMPLETE")
    assert issue.severity == "warning" and "has 1 of its 7 mip levels" in issue.message
    assert ktx2_codes(validate_bytes(basisu_glb(one_level, min_filter=LINEAR))) == []


def test_a_transfer_function_that_does_not_suit_the_material_slot_is_reported():
    linear = Ktx2Texture(16, 16, srgb=False).build()
    issue = only_issue(validate_bytes(basisu_glb(linear)), "KTX2_BASISU_COLOR_SPACE")
    assert issue.message.startswith(
        "The KTX2 image is shown by /materials/0/"
        "pbrMetallicRoughness/baseColorTexture, which needs the sRGB"
    )
    srgb = Ktx2Texture(16, 16, model=UASTC).build()
    issue = only_issue(validate_bytes(basisu_glb(srgb, normal_map=True)), "KTX2_BASISU_COLOR_SPACE")
    assert "/materials/0/normalTexture, which needs the linear transfer function" in issue.message
    assert ktx2_codes(validate_bytes(basisu_glb(linear, normal_map=True))) == []
