"""The USD reader: packages and layers into the asset model, counts, the package rules, the
paths a layer names, limits and crashes, through the core ``validate``."""

from __future__ import annotations

import faulthandler
import os
import signal
import threading
import zipfile
from pathlib import Path

import pytest
from pxr import Sdf, Usd, UsdGeom, UsdShade, UsdUtils

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.engine import validate
from assetcheck.formats.usd import reader as usd_reader
from assetcheck.formats.usd.plugin import encoding
from assetcheck.formats.usd.stage import UsdRead
from tests.builtin_formats import builtin_formats
from tools.make_usd_fixtures import LAYER, cube_stage, stored

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "usd"
TRIANGLE = (LAYER % "").encode()


def codes(result) -> set[str]:
    return {issue.code for issue in result.issues}


def issue(result, code: str):
    return next(found for found in result.issues if found.code == code)


def test_a_packaged_cube_gives_the_counts_materials_textures_and_animations_docs_define():
    result = validate(ASSETS / "cube.usdz")

    assert result.issues == []
    (asset,) = result.assets
    assert (asset.format, asset.vertex_count, asset.triangle_count) == ("usd", 8, 12)
    assert [(p.name, p.vertex_count, p.triangle_count, p.material_count) for p in asset.parts] == [
        ("/Root/Cube", 8, 12, 1)
    ]
    assert [(m.name, m.shading, m.pbr, m.texture_count) for m in asset.materials] == [
        ("/Root/Paint", "UsdPreviewSurface", True, 1)
    ]
    assert asset.uses_pbr and asset.material_count == 1
    (texture,) = asset.textures
    assert (texture.uri, texture.mime_type, texture.width, texture.height) == (
        "0/paint.png",  # where UsdUtils.CreateNewUsdzPackage put it
        "image/png",
        4,
        4,
    )
    # the skeleton animation (2 joints, frames 1 to 49 at 24 per second) and the spin
    assert [(a.name, a.channel_count, a.duration) for a in asset.animations] == [
        ("/Root/Wave", 2, 2.0),
        ("transforms", 1, 1.0),
    ]
    assert asset.details["up_axis"] == "Y" and asset.details["meters_per_unit"] == 1.0
    assert asset.details["encoding"] == "usdz"


@pytest.mark.parametrize("suffix", [".usda", ".usdc", ".usd"])
def test_a_layer_alone_is_read_in_each_encoding(tmp_path, suffix):
    cube_stage(tmp_path / f"cube{suffix}", "missing.png")

    result = validate(tmp_path / f"cube{suffix}")

    (asset,) = result.assets
    assert (asset.vertex_count, asset.triangle_count, asset.material_count) == (8, 12, 1)
    assert asset.details["encoding"] == ("usda" if suffix == ".usda" else "usdc")
    assert codes(result) == {"USD_MISSING_DEPENDENCY"}  # the texture is not in the upload


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"PXR-USDC\x00\x08", "usdc"),
        (b"\xef\xbb\xbf\n  #usda 1.0\n", "usda"),
        ((ASSETS / "cube.usdz").read_bytes()[:64], "usdz"),
        (b"PK\x03\x04" + bytes(22) + b"\x09\x00\x00\x00" + b"model.glb", None),
        (b"#usd is not a layer", None),
    ],
)
def test_content_is_usd_by_its_magic_its_text_header_or_its_first_member(head, expected):
    assert encoding(head) == expected
    assert (builtin_formats().sniff(head) == "usd") is (expected is not None)


def test_content_decides_a_layer_named_otherwise_is_read_as_usd(tmp_path):
    (tmp_path / "model.usdz").write_bytes(TRIANGLE)  # text, named as a package

    result = validate(tmp_path / "model.usdz")

    (asset,) = result.assets
    assert (asset.format, asset.triangle_count, asset.details["encoding"]) == ("usd", 1, "usda")


def test_packages_and_layers_inside_a_zip_are_read_and_a_zip_is_not_a_package(tmp_path):
    with zipfile.ZipFile(tmp_path / "pack.zip", "w") as archive:
        archive.write(ASSETS / "cube.usdz", "models/cube.usdz")
        archive.writestr("models/tri.usda", TRIANGLE)
        archive.writestr("models/broken.usda", b"not a layer")

    result = validate(tmp_path / "pack.zip")

    assert [(a.filename, a.format, a.triangle_count) for a in result.assets] == [
        ("models/cube.usdz", "usd", 12),
        ("models/tri.usda", "usd", 1),
        ("models/broken.usda", "usd", 0),
    ]
    refused = issue(result, "USD_PARSE_ERROR")
    assert refused.file == "models/broken.usda" and "neither a USDZ package" in refused.message


def test_a_layer_on_its_own_has_its_neighbours_looked_up_in_the_upload_not_composed(tmp_path):
    layer = (
        (LAYER % "(references = @parts/wheel.usda@)")
        .encode()
        .replace(b'upAxis = "Y"', b'upAxis = "Y"\n    subLayers = [@gone.usda@]')
    )
    with zipfile.ZipFile(tmp_path / "layered.zip", "w") as archive:
        archive.writestr("car/README.txt", b"a ZIP whose first member is a layer is a USDZ")
        archive.writestr("car/car.usda", layer)
        archive.writestr("car/parts/wheel.usda", TRIANGLE)

    result = validate(tmp_path / "layered.zip")

    assert sorted((i.code, i.message.split("'")[1]) for i in result.issues) == [
        ("USD_LAYER_NOT_COMPOSED", "parts/wheel.usda"),
        ("USD_MISSING_DEPENDENCY", "gone.usda"),
    ]
    assert [a.triangle_count for a in result.assets] == [1, 1]  # each layer alone


def test_a_layer_usd_cannot_parse_gets_its_reason(tmp_path):
    (tmp_path / "bad.usda").write_bytes(b'#usda 1.0\ndef Mesh "A" {\n')

    result = validate(tmp_path / "bad.usda")

    assert codes(result) == {"USD_PARSE_ERROR"}
    message = issue(result, "USD_PARSE_ERROR").message
    assert "bad.usda could not be read as USD" in message and str(tmp_path) not in message
    assert result.assets[0].parsed is False


def test_a_mesh_whose_indices_leave_its_points_is_reported_and_left_out(tmp_path):
    broken = TRIANGLE.replace(b"[0, 1, 2]", b"[0, 1, 7]")
    (tmp_path / "broken.usda").write_bytes(broken)

    result = validate(tmp_path / "broken.usda")

    assert codes(result) == {"USD_INVALID_GEOMETRY"}
    assert "outside its 3 points" in issue(result, "USD_INVALID_GEOMETRY").message
    assert result.assets[0].triangle_count == 0


def test_a_layer_without_default_prim_or_stage_metadata_is_told_so(tmp_path):
    bare = b'#usda 1.0\ndef Xform "Root"\n{\n}\n'
    (tmp_path / "bare.usda").write_bytes(bare)

    result = validate(tmp_path / "bare.usda")

    assert codes(result) == {"USD_MISSING_DEFAULT_PRIM", "USD_MISSING_STAGE_METADATA"}


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("leaving.usdz", "USD_PATH_TRAVERSAL"),
        ("absolute.usdz", "USD_EXTERNAL_PATH"),
        ("compressed.usdz", "USDZ_COMPRESSED_MEMBER"),
        ("misaligned.usdz", "USDZ_UNALIGNED_MEMBER"),
        ("bomb.usdz", "ZIP_BOMB"),
    ],
)
def test_each_hostile_package_gets_its_code_and_nothing_else(name, code):
    result = validate(ASSETS / name)

    extra = {"USDZ_COMPRESSED_MEMBER"} if code == "ZIP_BOMB" else set()
    assert codes(result) == {code} | extra
    assert result.assets[0].triangle_count == 1  # the package's own layer is still read


def test_a_reference_leaving_the_package_is_never_opened(tmp_path):
    secret = tmp_path / "secret.usda"
    secret.write_bytes(TRIANGLE.replace(b'"Tri" %s', b'"Tri"'))  # a layer with a triangle
    peek = (LAYER % f"(references = @{secret}@)").encode()
    stored(tmp_path / "peek.usdz", [("root.usda", peek)])
    os.utime(secret, ns=(0, secret.stat().st_mtime_ns))  # read, its access time would move

    result = validate(tmp_path / "peek.usdz")

    assert codes(result) == {"USD_EXTERNAL_PATH"}
    assert result.assets[0].triangle_count == 1  # the package's triangle, not the secret's
    assert secret.stat().st_atime_ns == 0


def test_package_members_of_other_types_and_climbing_names_are_reported(tmp_path):
    with zipfile.ZipFile(tmp_path / "mixed.usdz", "w") as package:
        package.writestr("root.usda", TRIANGLE)
        package.writestr("notes.txt", b"hello")
        package.writestr("../up.png", b"x")

    result = validate(tmp_path / "mixed.usdz")

    assert {"USDZ_FILE_TYPE_NOT_ALLOWED", "ZIP_PATH_TRAVERSAL"} <= codes(result)
    assert issue(result, "ZIP_PATH_TRAVERSAL").file == "mixed.usdz/../up.png"


def test_a_package_whose_root_layer_is_compressed_cannot_be_read(tmp_path):
    with zipfile.ZipFile(tmp_path / "deflated.usdz", "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("root.usda", TRIANGLE)

    result = validate(tmp_path / "deflated.usdz")

    assert {"USDZ_COMPRESSED_MEMBER", "USD_PARSE_ERROR"} <= codes(result)
    assert result.assets[0].parsed is False


def test_a_package_made_by_usd_itself_from_a_layer_with_its_texture_is_clean(tmp_path):
    cube_stage(tmp_path / "cube.usda", "paint.png")
    with zipfile.ZipFile(ASSETS / "cube.usdz") as package:
        (tmp_path / "paint.png").write_bytes(package.read("0/paint.png"))
    assert UsdUtils.CreateNewUsdzPackage(str(tmp_path / "cube.usda"), str(tmp_path / "new.usdz"))

    result = validate(tmp_path / "new.usdz")

    assert result.issues == [] and result.assets[0].textures[0].width == 4


def test_time_limit_gives_validation_timeout_and_the_next_file_still_reads(monkeypatch):
    def hang(path: str, name: str, encoding: str) -> UsdRead:
        threading.Event().wait()  # a reader that never answers: only its time limit ends it
        raise AssertionError("unreachable")

    options = ValidationOptions(limits=Limits(parse_timeout=0.5))
    with monkeypatch.context() as patched:
        patched.setattr(usd_reader, "read_stage", hang)
        assert codes(validate(ASSETS / "cube.usdz", options=options)) == {"VALIDATION_TIMEOUT"}
    assert validate(ASSETS / "cube.usdz").assets[0].triangle_count == 12


def test_a_reader_crash_is_reported_and_the_next_file_still_reads(monkeypatch):
    def crash(path: str, name: str, encoding: str) -> UsdRead:
        faulthandler.disable()  # pytest's handler would print a traceback for the signal
        os.kill(os.getpid(), signal.SIGSEGV)
        raise AssertionError("unreachable")

    with monkeypatch.context() as patched:
        patched.setattr(usd_reader, "read_stage", crash)
        result = validate(ASSETS / "cube.usdz")
    assert codes(result) == {"USD_PARSER_CRASHED"}
    assert "SIGSEGV" in issue(result, "USD_PARSER_CRASHED").message

    assert validate(ASSETS / "cube.usdz").assets[0].triangle_count == 12


def test_usd_itself_opens_the_committed_packages():
    for path in sorted(ASSETS.glob("*.usdz")):
        assert Usd.Stage.Open(str(path)) is not None, path.name


def test_a_materialx_standard_surface_is_physically_based_and_a_bare_material_is_not(tmp_path):
    stage = Usd.Stage.CreateNew(str(tmp_path / "shaded.usda"))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetDefaultPrim(UsdGeom.Xform.Define(stage, "/Root").GetPrim())
    standard = UsdShade.Material.Define(stage, "/Root/Standard")
    surface = UsdShade.Shader.Define(stage, "/Root/Standard/Surface")
    surface.CreateIdAttr("ND_standard_surface_surfaceshader")
    output = surface.CreateOutput("out", Sdf.ValueTypeNames.Token)
    standard.CreateSurfaceOutput("mtlx").ConnectToSource(output)
    bare = UsdShade.Material.Define(stage, "/Root/Bare")
    for name, material in (("A", standard), ("B", bare)):
        mesh = UsdGeom.Mesh.Define(stage, f"/Root/{name}")
        mesh.CreatePointsAttr([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
        mesh.CreateNormalsAttr([(0, 0, 1)] * 3)
        mesh.CreateFaceVertexCountsAttr([3])
        mesh.CreateFaceVertexIndicesAttr([0, 1, 2])
        UsdShade.MaterialBindingAPI.Apply(mesh.GetPrim()).Bind(material)
    stage.GetRootLayer().Save()

    result = validate(tmp_path / "shaded.usda")

    assert [(m.name, m.shading, m.pbr) for m in result.assets[0].materials] == [
        ("/Root/Standard", "ND_standard_surface_surfaceshader", True),
        ("/Root/Bare", "unknown", False),
    ]
    assert result.assets[0].uses_pbr
