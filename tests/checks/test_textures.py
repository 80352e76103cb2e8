"""Textures: GPU memory against the engine profile, non-power-of-two sizes outside glTF."""

from __future__ import annotations

import pytest

from assetcheck.asset import Asset, Texture
from assetcheck.asset.gpu_memory import gpu_bytes
from assetcheck.asset.options import ValidationOptions
from assetcheck.checks import CheckContext
from assetcheck.checks.textures import check_textures, gpu_memory_limit
from assetcheck.engine import validate
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.scoring.profiles import BUILTIN_PROFILES
from assetcheck.testing.gltf import GltfBuilder, png_bytes
from tests.formats import codes, only_issue

KTX2 = "image/ktx2"


def textured_glb(*sides: int) -> bytes:
    builder = GltfBuilder()
    for side in sides:
        builder.add_material(
            base_color_texture=builder.add_texture(builder.add_image(png_bytes(side, side)))
        )
    return builder.glb()


def run_check(asset: Asset, engine: str = "generic") -> list:
    """The issues :func:`check_textures` reports on ``asset`` for ``engine``."""
    collector = IssueCollector(build_registry(get_plugin_manager()))
    context = CheckContext(
        collector.for_file(asset.filename),
        BUILTIN_PROFILES[engine],
        ValidationOptions(engine=engine),
    )
    check_textures(asset, context)
    return collector.issues


def validate_glb(tmp_path, data: bytes, **budgets):
    path = tmp_path / "model.glb"
    path.write_bytes(data)
    return validate(path, options=ValidationOptions(budget_overrides=budgets))


def test_textures_over_a_full_pbr_set_at_the_largest_size_report_their_memory(tmp_path):
    # A 256 px budget allows 4 x 256 x 256 x 4 B x 4/3 = 1.4 MB; a 1024 px image takes 5.6 MB.
    result = validate_glb(tmp_path, textured_glb(1024, 64), texture_size=256)
    issue = only_issue(result, "TEXTURE_GPU_MEMORY")
    assert issue.message.startswith("The textures take about 6 MB of GPU memory (2 images")
    assert "four 256 px textures, the largest the generic profile allows (1 MB)" in issue.message


def test_textures_within_a_full_pbr_set_are_fine(tmp_path):
    result = validate_glb(tmp_path, textured_glb(64, 64, 64, 64), texture_size=64)
    assert "TEXTURE_GPU_MEMORY" not in codes(result)


def test_gpu_memory_figure_is_in_megabytes():
    asset = Asset(
        "big.fbx", "fbx", textures=[Texture(f"t{i}", width=4096, height=4096) for i in range(5)]
    )
    (issue,) = run_check(asset, "web")
    assert issue.message.startswith("The textures take about 447 MB of GPU memory (5 images")
    assert "the web profile allows (358 MB)" in issue.message


def test_block_compressed_textures_take_a_quarter_of_decoded_ones():
    decoded = Texture("a", mime_type="image/png", width=1024, height=1024)
    compressed = Texture("a", mime_type=KTX2, width=1024, height=1024)
    assert gpu_bytes(decoded) == 4 * gpu_bytes(compressed) == 4 * 1024 * 1024 * 4 / 3


@pytest.mark.parametrize(("side", "megabytes"), [(2048, 89), (4096, 358), (8192, 1432)])
def test_memory_limit_is_a_full_pbr_set_at_the_largest_texture_size(side, megabytes):
    assert round(gpu_memory_limit(side) / 1e6) == megabytes


def test_fbx_texture_of_non_power_of_two_size_is_reported():
    asset = Asset(
        "crate.fbx",
        "fbx",
        textures=[Texture("side", width=1000, height=512), Texture("top", width=512, height=512)],
    )
    (issue,) = run_check(asset)
    assert (issue.code, issue.message) == (
        "IMAGE_NPOT_DIMENSIONS",
        "The image is 1000x512: not a power of two on each side.",
    )


def test_gltf_images_of_non_power_of_two_size_are_left_to_the_gltf_image_check(tmp_path):
    result = validate_glb(tmp_path, textured_glb(100))
    assert [i.source for i in result.issues if i.code == "IMAGE_NPOT_DIMENSIONS"] == [
        "assetcheck.checks.gltf_images:gltf-images"
    ]
