"""The texture content check on files built here: images reached every way a glTF holds them
(buffer view, ``data:`` URI, a file beside the model, a ZIP member), each judged for every
material using it, KTX2 left structural, oversized images refused from their header; and the
texel density check's formula (``docs/textures.md``)."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from assetcheck.checks import gltf_texture_content
from assetcheck.checks.gltf_texture_content import CODES as CONTENT_CODES
from assetcheck.engine import validate
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.texture_uses import NORMAL, sampled_images
from assetcheck.formats.texture_rules import DENSITY_MARGIN
from assetcheck.sandbox import helper
from assetcheck.sandbox.helper import run_in_helper
from assetcheck.testing.gltf import GltfBuilder, Primitive, data_uri
from assetcheck.testing.ktx2 import Ktx2Texture
from assetcheck.testing.zip import zip_of
from tests.formats.gltf.texture_cases import channels, encoded, ramp

ONE_COLOUR = encoded(channels(180, 120, 90))
CHECKED = frozenset(CONTENT_CODES) | {"TEXTURE_DENSITY_EXCESSIVE"}


def textured(image: dict, *, materials: int = 1, key: str = "baseColorTexture") -> GltfBuilder:
    """A textured triangle (instanced by ``materials`` meshes, one material each) whose
    materials all sample one image, given as its JSON (``image``)."""
    builder = GltfBuilder()
    builder.document["images"] = [image]
    texture = builder.add_texture(0)
    for _ in range(materials):
        material = builder.add_material()
        if key == "normalTexture":
            builder.document["materials"][material][key] = {"index": texture}
        else:
            builder.document["materials"][material]["pbrMetallicRoughness"][key] = {
                "index": texture
            }
        builder.add_node(
            builder.add_mesh([Primitive(3, 3, normals=True, texcoords=True, material=material)])
        )
    return builder


def findings(path) -> list[tuple[str, str | None]]:
    return sorted(
        (issue.code, issue.pointer) for issue in validate(path).issues if issue.code in CHECKED
    )


def test_an_image_in_the_glb_binary_chunk_is_decoded(tmp_path):
    builder = textured({})
    builder.document["images"] = []
    builder.add_image(ONE_COLOUR)
    path = tmp_path / "model.glb"
    path.write_bytes(builder.glb())
    assert findings(path) == [("TEXTURE_SINGLE_COLOR", "/images/0")]


def test_an_image_in_a_data_uri_is_decoded(tmp_path):
    path = tmp_path / "model.gltf"
    path.write_bytes(textured({"uri": data_uri(ONE_COLOUR, "image/png")}).embedded_gltf())
    assert findings(path) == [("TEXTURE_SINGLE_COLOR", "/images/0")]


def test_an_image_beside_the_model_is_decoded(tmp_path):
    path = tmp_path / "model.gltf"
    path.write_bytes(textured({"uri": "colour.png"}).embedded_gltf())
    (tmp_path / "colour.png").write_bytes(ONE_COLOUR)
    assert findings(path) == [("TEXTURE_SINGLE_COLOR", "/images/0")]


def test_an_image_in_the_zip_beside_the_model_is_decoded(tmp_path):
    model = textured({"uri": "textures/colour.png"}).embedded_gltf()
    path = tmp_path / "upload.zip"
    path.write_bytes(zip_of({"car/model.gltf": model, "car/textures/colour.png": ONE_COLOUR}))
    result = validate(path)
    found = [(i.code, i.pointer, i.file) for i in result.issues if i.code in CHECKED]
    assert found == [("TEXTURE_SINGLE_COLOR", "/images/0", "car/model.gltf")]


def test_each_material_using_an_image_gets_its_own_finding(tmp_path):
    flat_srgb = encoded(channels(ramp(180, 196), ramp(196, 180), 255))
    path = tmp_path / "model.gltf"
    builder = textured({"uri": data_uri(flat_srgb, "image/png")}, materials=2, key="normalTexture")
    path.write_bytes(builder.embedded_gltf())
    assert findings(path) == [
        ("NORMAL_MAP_SRGB_ENCODED", "/materials/0/normalTexture"),
        ("NORMAL_MAP_SRGB_ENCODED", "/materials/1/normalTexture"),
    ]


def test_an_image_several_materials_use_is_one_image_to_decode():
    builder = textured({"uri": "x.png"}, materials=3, key="normalTexture")
    document = GltfDocument(builder.document, [memoryview(bytes(builder.binary))])
    sampled = sampled_images(document.links)
    assert list(sampled) == [0]
    assert [use.role for use in sampled[0].uses] == [NORMAL] * 3


def test_ktx2_images_are_not_decoded(tmp_path):
    builder = GltfBuilder()
    image = builder.add_image(Ktx2Texture(8, 8).build(), mime_type="image/ktx2")
    texture = builder.add_texture(image)
    builder.document["textures"][texture] = {
        "extensions": {"KHR_texture_basisu": {"source": image}}
    }
    builder.document["extensionsUsed"] = ["KHR_texture_basisu"]
    material = builder.add_material(base_color_texture=texture)
    builder.add_node(
        builder.add_mesh([Primitive(3, 3, normals=True, texcoords=True, material=material)])
    )
    path = tmp_path / "model.glb"
    path.write_bytes(builder.glb())
    assert findings(path) == []


def test_an_image_too_large_is_refused_from_its_header(tmp_path, monkeypatch):
    import assetcheck.formats.image_content as image_content

    def never(*args, **kwargs):
        raise AssertionError("decoded an image its header says is too large")

    monkeypatch.setattr(image_content, "measure", never)
    path = tmp_path / "model.gltf"
    huge = encoded(np.zeros((4, 4, 3), np.uint8))
    huge = huge[:16] + (9000).to_bytes(4, "big") + (9000).to_bytes(4, "big") + huge[24:]
    path.write_bytes(textured({"uri": data_uri(huge, "image/png")}).embedded_gltf())
    codes = {issue.code for issue in validate(path).issues}
    assert "TEXTURE_DECODE_REFUSED" in codes
    assert "TEXTURE_DECODE_FAILED" not in codes


def test_metal_base_colours_are_not_judged_too_bright(tmp_path):
    white = encoded(channels(ramp(245, 255), 250, 250))
    builder = textured({"uri": data_uri(white, "image/png")})
    path = tmp_path / "model.gltf"
    path.write_bytes(builder.embedded_gltf())  # metallicFactor defaults to 1: a metal
    assert findings(path) == []
    pbr = builder.document["materials"][0]["pbrMetallicRoughness"]
    pbr["metallicFactor"] = 0.0
    path.write_bytes(builder.embedded_gltf())
    assert findings(path) == [
        ("BASE_COLOR_OUTSIDE_PBR_RANGE", "/materials/0/pbrMetallicRoughness/baseColorTexture")
    ]


@pytest.mark.parametrize(
    "ratio, reported", [(DENSITY_MARGIN * 0.8, False), (DENSITY_MARGIN * 1.5, True)]
)
def test_texel_density_is_judged_against_the_model_filling_the_screen(tmp_path, ratio, reported):
    """A 1024 px texture on one triangle of a model whose other, untextured, part is scaled
    so that the texture is ``ratio`` times denser than needed."""
    pixels = np.stack([ramp(60, 200)] * 3, axis=-1)
    image = encoded(np.kron(pixels, np.ones((64, 64, 1), np.uint8)))  # 1024 x 1024
    builder = textured({"uri": data_uri(image, "image/png")})
    uvs = np.array([[0, 0], [1, 0], [0, 1]], np.float32)
    attributes = builder.document["meshes"][0]["primitives"][0]["attributes"]
    attributes["TEXCOORD_0"] = builder.add_accessor(uvs, "VEC2")
    large = builder.add_node(builder.add_mesh([Primitive(3, 3, normals=True)]))
    # The triangle (x from 0 to 2, area 0.5) has UV area 0.5: 1024 texels per unit. Scaled
    # by k, the other triangle makes the model 2k across, where generic's 8192 px screen
    # needs 8192 / 2k texels per unit: the ratio is k / 4.
    scale = 4 * ratio
    builder.document["nodes"][large]["scale"] = [scale, scale, scale]
    path = tmp_path / "model.gltf"
    path.write_bytes(builder.embedded_gltf())
    codes = {code for code, _ in findings(path)}
    assert ("TEXTURE_DENSITY_EXCESSIVE" in codes) is reported


def two_textured_files(tmp_path) -> tuple:
    """A GLB with a one-colour base colour and, in a ZIP beside it, two glTF files each with
    one (their decodings sent together once the archive is read)."""
    builder = textured({})
    builder.document["images"] = []
    builder.add_image(ONE_COLOUR)
    glb = tmp_path / "model.glb"
    glb.write_bytes(builder.glb())
    archive = tmp_path / "models.zip"
    archive.write_bytes(
        zip_of(
            {
                f"{name}.gltf": textured({"uri": data_uri(ONE_COLOUR, "image/png")}).embedded_gltf()
                for name in ("first", "second")
            }
        )
    )
    return glb, archive


def test_textures_sent_to_decode_once_the_file_is_read_are_reported_by_the_check(tmp_path):
    glb, archive = two_textured_files(tmp_path)

    assert findings(glb) == [("TEXTURE_SINGLE_COLOR", "/images/0")]
    assert [code for code, _ in findings(archive)] == ["TEXTURE_SINGLE_COLOR"] * 2
    assert not helper._lock.locked()  # no request left holding the helper


def test_the_check_reports_on_the_images_its_start_found(tmp_path, monkeypatch):
    glb, archive = two_textured_files(tmp_path)
    found = []
    images = gltf_texture_content._FileImages

    def counted(*args):
        found.append(images(*args))
        return found[-1]

    monkeypatch.setattr(gltf_texture_content, "_FileImages", counted)

    assert findings(glb) == [("TEXTURE_SINGLE_COLOR", "/images/0")]
    assert len(found) == 1  # the check's run found nothing again
    found.clear()
    assert [code for code, _ in findings(archive)] == ["TEXTURE_SINGLE_COLOR"] * 2
    assert len(found) == 2


def test_a_crash_in_the_check_ends_the_decoding_it_started(tmp_path, monkeypatch):
    glb, _ = two_textured_files(tmp_path)
    monkeypatch.setattr(gltf_texture_content, "decode_contents", crash)

    codes = [issue.code for issue in validate(glb).issues]
    assert "CHECK_CRASHED" in codes and "TEXTURE_SINGLE_COLOR" not in codes
    assert not helper._lock.locked()
    assert run_in_helper(partial(int, "7"), timeout=10.0, memory_limit_mb=64) == 7


def test_a_start_that_crashes_is_logged_and_the_check_decodes_itself(tmp_path, monkeypatch, caplog):
    glb, _ = two_textured_files(tmp_path)
    monkeypatch.setattr(gltf_texture_content._Decoding, "start", crash)

    assert findings(glb) == [("TEXTURE_SINGLE_COLOR", "/images/0")]
    assert "start of check 'gltf-texture-content'" in caplog.text


def crash(*args: object) -> None:
    raise ValueError("a bug")
