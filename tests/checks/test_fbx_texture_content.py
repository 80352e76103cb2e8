"""FBX texture content: embedded images decoded and judged against the material property each
is connected to, on files the FBX writers of ``assetcheck.testing`` build (binary, compressed
binary and ASCII FBX 7; binary and ASCII FBX 6, whose textures are bound by layer elements),
with the images of the glTF texture cases."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.checks.fbx_texture_content import CODES
from assetcheck.testing.fbx import MaterialSpec, Scene, VideoSpec, binary_fbx, cube
from tests.formats import codes, only_issue, validate_bytes
from tests.formats.fbx import ALL_WRITERS
from tests.formats.gltf.texture_cases import (
    HALF_BLACK,
    OBJECT_SPACE,
    _png,
    channels,
    encoded,
    ramp,
    unit_normals,
)

#: A base colour well inside the PBR range, varying, without alpha: no finding.
GOOD_COLOUR = encoded(channels(ramp(60, 200), ramp(80, 180), 120))


def textured(
    image: bytes, slot: str = "DiffuseColor", *properties: tuple[str, str, object], extra=()
) -> Scene:
    """A cube whose material ``Wood`` has ``image`` embedded on property ``slot``."""
    videos = [VideoSpec("wood", "wood.png", image, slots=[("Wood", slot)]), *extra]
    return Scene(
        meshes=[cube(materials=["Wood"])],
        materials=[MaterialSpec("Wood", properties=properties)],
        videos=videos,
    )


def content_codes(result) -> set[str]:
    return set(CODES) & set(codes(result))


@pytest.mark.parametrize("writer", ALL_WRITERS.values(), ids=ALL_WRITERS.keys())
def test_a_good_base_colour_and_normal_map_raise_nothing_in_any_layout(tmp_path, writer):
    normal = VideoSpec("bumps", "bumps.png", encoded(unit_normals(0.5)), [("Wood", "NormalMap")])
    result = validate_bytes(tmp_path, "cube.fbx", writer(textured(GOOD_COLOUR, extra=[normal])))
    assert content_codes(result) == set()


@pytest.mark.parametrize("writer", ALL_WRITERS.values(), ids=ALL_WRITERS.keys())
def test_an_object_space_normal_map_names_its_material_and_slot_in_any_layout(tmp_path, writer):
    data = writer(textured(encoded(OBJECT_SPACE), "NormalMap"))
    issue = only_issue(validate_bytes(tmp_path, "cube.fbx", data), "NORMAL_MAP_NOT_TANGENT_SPACE")
    message = issue.message
    assert "Image wood (wood.png)" in message
    assert "material Wood (slot NormalMap)" in message


@pytest.mark.parametrize(
    ("image", "slot", "code"),
    [
        (
            encoded(channels(ramp(110, 146), 128, ramp(160, 200))),
            "NormalMap",
            "NORMAL_MAP_NOT_UNIT_LENGTH",
        ),
        (encoded(unit_normals(0.5), srgb=True), "3dsMax|main|norm_map", "NORMAL_MAP_COLOR_PROFILE"),
        (
            encoded(channels(HALF_BLACK, HALF_BLACK, HALF_BLACK)),
            "Maya|baseColor",
            "BASE_COLOR_OUTSIDE_PBR_RANGE",
        ),
        (encoded(channels(90, 90, 90)), "SpecularColor", "TEXTURE_SINGLE_COLOR"),
        (encoded(channels(ramp(60, 200), 100, 100, 255)), "DiffuseColor", "TEXTURE_ALPHA_OPAQUE"),
        (
            encoded(channels(ramp(60, 200), 100, 100, ramp(0, 255))),
            "DiffuseColor",
            "TEXTURE_ALPHA_IGNORED",
        ),
        (_png(12000, 12000, b"\0" * 64), "DiffuseColor", "TEXTURE_DECODE_REFUSED"),
        (_png(16, 16, b"\0" * 7), "DiffuseColor", "TEXTURE_DECODE_FAILED"),
    ],
    ids=lambda value: value if isinstance(value, str) and value.isupper() else None,
)
def test_each_rule_is_found_on_the_slot_it_applies_to(tmp_path, image, slot, code):
    result = validate_bytes(tmp_path, "cube.fbx", binary_fbx(textured(image, slot)))
    assert code in content_codes(result)


def test_an_srgb_encoded_normal_map_is_found(tmp_path):
    lean = np.array([60, 60, 0])
    leaning = np.clip(unit_normals(0.2).astype(int) + lean, 0, 255).astype(np.uint8)
    data = binary_fbx(textured(encoded(leaning), "NormalMap"))
    assert "NORMAL_MAP_SRGB_ENCODED" in content_codes(validate_bytes(tmp_path, "c.fbx", data))


@pytest.mark.parametrize(
    "opacity",
    [("Opacity", "double", 0.5), ("TransparencyFactor", "double", 1.0)],
    ids=["Opacity", "TransparencyFactor"],
)
def test_alpha_on_a_material_that_says_it_is_transparent_is_not_ignored(tmp_path, opacity):
    image = encoded(channels(ramp(60, 200), 100, 100, ramp(0, 255)))
    result = validate_bytes(tmp_path, "c.fbx", binary_fbx(textured(image, "DiffuseColor", opacity)))
    assert "TEXTURE_ALPHA_IGNORED" not in content_codes(result)


def test_alpha_is_used_when_the_texture_also_feeds_transparency(tmp_path):
    image = encoded(channels(ramp(60, 200), 100, 100, ramp(0, 255)))
    scene = textured(image)
    scene.videos[0].slots = [("Wood", "DiffuseColor"), ("Wood", "TransparentColor")]
    result = validate_bytes(tmp_path, "c.fbx", binary_fbx(scene))
    assert "TEXTURE_ALPHA_IGNORED" not in content_codes(result)


def test_bright_base_colours_count_only_on_a_material_that_says_it_is_not_metal(tmp_path):
    white = encoded(channels(ramp(200, 255), 250, 250))
    metal_unknown = validate_bytes(tmp_path, "a.fbx", binary_fbx(textured(white, "Maya|baseColor")))
    non_metal = binary_fbx(textured(white, "Maya|baseColor", ("Maya|metalness", "double", 0.0)))
    issue = only_issue(validate_bytes(tmp_path, "b.fbx", non_metal), "BASE_COLOR_OUTSIDE_PBR_RANGE")
    assert "BASE_COLOR_OUTSIDE_PBR_RANGE" not in content_codes(metal_unknown)
    assert "brighter" in issue.message


def test_an_image_used_by_two_slots_is_decoded_once_and_judged_per_slot(tmp_path):
    scene = textured(encoded(OBJECT_SPACE), "NormalMap")
    scene.videos[0].slots = [("Wood", "NormalMap"), ("Wood", "Maya|normalCamera")]
    result = validate_bytes(tmp_path, "c.fbx", binary_fbx(scene))
    found = [i.message for i in result.issues if i.code == "NORMAL_MAP_NOT_TANGENT_SPACE"]
    assert len(found) == 2
    assert "(slot Maya|normalCamera)" in found[1]


def test_an_external_texture_is_not_read(tmp_path):
    (tmp_path / "wood.png").write_bytes(encoded(OBJECT_SPACE))
    result = validate_bytes(tmp_path, "cube.fbx", binary_fbx(textured(b"", "NormalMap")))
    assert content_codes(result) == set()
    assert "FBX_EXTERNAL_TEXTURE" in codes(result)


def test_an_embedded_image_of_a_format_not_decoded_is_left_alone(tmp_path):
    targa = bytes([0, 0, 2]) + b"\0" * 15 + b"\x80" * 48  # a TGA header and pixels
    result = validate_bytes(tmp_path, "cube.fbx", binary_fbx(textured(targa, "NormalMap")))

    assert content_codes(result) == set()


@pytest.mark.parametrize("writer", ALL_WRITERS.values(), ids=ALL_WRITERS.keys())
@pytest.mark.parametrize(("tiles", "reported"), [(100.0, True), (1.0, False)])
def test_a_texture_tiled_densely_on_a_small_part_of_a_large_model_is_excessive(
    tmp_path, writer, tiles, reported
):
    # A 2 cm cube whose two faces facing z carry the 16 px texture `tiles` x `tiles` times,
    # beside an untextured cube 2 m across: 16 * tiles texels per 2 cm against the 4,096 per
    # metre a 8,192 px screen shows of the model.
    small = cube("Small", ["Wood"])
    small.uv_values = [(tiles * (x + 1) / 2, tiles * (y + 1) / 2) for x, y, _ in small.vertices]
    large = cube("Large")
    large.scale = (100.0, 100.0, 100.0)
    scene = textured(GOOD_COLOUR)
    scene.meshes = [small, large]

    result = validate_bytes(tmp_path, "parts.fbx", writer(scene))

    found = [issue for issue in result.issues if issue.code == "TEXTURE_DENSITY_EXCESSIVE"]
    assert bool(found) is reported
    if reported:
        assert "material Wood (slot DiffuseColor)" in found[0].message
