"""FBX scenes: n-gons and quads, old versions, texture paths and embedded media."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.engine import validate
from assetcheck.testing.fbx import MeshSpec, Scene, VideoSpec, binary_fbx, cube
from assetcheck.testing.gltf import png_bytes
from tests.formats import codes, only_issue, validate_bytes

TEXTURE_CODES = {
    "FBX_EXTERNAL_TEXTURE",
    "FBX_ABSOLUTE_TEXTURE_PATH",
    "FBX_PATH_REVEALS_USER",
    "FBX_EMBEDDED_MEDIA_TOO_LARGE",
}
#: A house-shaped pentagon and a triangle.
HOUSE = MeshSpec(
    "House", [(0, 0, 0), (2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 1, 0)], [[0, 1, 2, 3, 4], [4, 2, 3]]
)


def textured_fbx(filename: str, content: bytes = b"") -> bytes:
    return binary_fbx(Scene(meshes=[HOUSE], videos=[VideoSpec("bark", filename, content)]))


def test_ngons_are_counted_per_mesh(tmp_path):
    issue = only_issue(
        validate_bytes(tmp_path, "h.fbx", binary_fbx(Scene(meshes=[HOUSE]))), "FBX_NGONS"
    )
    assert issue.message.startswith("Mesh House has 1 n-gons (faces with more than four")


def test_quads_without_ngons_are_untriangulated(tmp_path):
    result = validate_bytes(tmp_path, "c.fbx", binary_fbx(Scene(meshes=[cube("Crate")])))
    assert only_issue(result, "FBX_NOT_TRIANGULATED").message.startswith(
        "Mesh Crate is not triangulated (6 quads)"
    )
    assert "FBX_NGONS" not in codes(result)


def test_triangulated_mesh_is_fine(tmp_path):
    tent = MeshSpec("Tent", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]])
    result = validate_bytes(tmp_path, "t.fbx", binary_fbx(Scene(meshes=[tent])))
    assert {"FBX_NGONS", "FBX_NOT_TRIANGULATED"}.isdisjoint(codes(result))


@pytest.mark.parametrize(("version", "old"), [(6100, True), (7100, False), (7400, False)])
def test_versions_before_fbx_2011_are_old(tmp_path, version, old):
    result = validate_bytes(tmp_path, "c.fbx", binary_fbx(Scene(meshes=[cube()]), version))
    assert ("FBX_OLD_VERSION" in codes(result)) is old


def test_old_version_names_the_version(tmp_path):
    result = validate_bytes(tmp_path, "c.fbx", binary_fbx(Scene(meshes=[cube()]), 6100))
    assert only_issue(result, "FBX_OLD_VERSION").message.startswith(
        "The file is FBX 6100, older than FBX 2011 (7100)"
    )


def test_relative_texture_not_embedded_is_external(tmp_path):
    issue = only_issue(
        validate_bytes(tmp_path, "h.fbx", textured_fbx("textures/bark.png")), "FBX_EXTERNAL_TEXTURE"
    )
    assert "refers to textures/bark.png, which must be shipped" in issue.message


def test_texture_found_only_by_an_absolute_path_breaks_elsewhere(tmp_path):
    result = validate_bytes(tmp_path, "h.fbx", textured_fbx("D:\\art\\bark.png"))
    assert (
        "absolute path D:\\art\\bark.png" in only_issue(result, "FBX_ABSOLUTE_TEXTURE_PATH").message
    )
    assert {"FBX_EXTERNAL_TEXTURE", "FBX_PATH_REVEALS_USER"}.isdisjoint(codes(result))


@pytest.mark.parametrize(
    "path",
    ["C:\\Users\\ana\\Desktop\\bark.png", "/home/ana/art/bark.png", "/Users/ana/art/bark.png"],
)
def test_path_through_a_user_folder_reveals_the_user(tmp_path, path):
    result = validate_bytes(tmp_path, "h.fbx", textured_fbx(path, png_bytes()))
    assert only_issue(result, "FBX_PATH_REVEALS_USER").message.endswith(f"({path}).")


def test_embedded_texture_of_a_sensible_size_is_fine(tmp_path):
    result = validate_bytes(tmp_path, "h.fbx", textured_fbx("bark.png", png_bytes(64, 64)))
    assert TEXTURE_CODES.isdisjoint(codes(result))


def test_embedded_media_larger_than_the_profile_allows_is_oversized(tmp_path):
    # The mobile profile's 2048 px textures allow 2048 x 2048 x 2 bytes = 8.4 MB embedded.
    path = Path(tmp_path / "h.fbx")
    path.write_bytes(textured_fbx("bark.psd", b"8BPS" + bytes(9_000_000)))
    result = validate(path, engine="mobile")
    assert only_issue(result, "FBX_EMBEDDED_MEDIA_TOO_LARGE").message.startswith(
        "Embedded file bark is 9.0 MB, more than an image of the mobile profile's largest "
        "texture size takes (8 MB)"
    )
    assert "FBX_EMBEDDED_MEDIA_TOO_LARGE" not in codes(validate(path, engine="unreal"))
