"""The store profiles (Scene Viewer, 3D Commerce, Shopify): each limit cited, each profile
chosen by its name, its limits and severities applied."""

from __future__ import annotations

import pytest

from assetcheck.asset.options import ValidationOptions
from assetcheck.engine import validate
from assetcheck.scoring.profiles import BUDGET_NAMES, MESH_RULE_NAMES
from assetcheck.scoring.store_profiles import STORE_PROFILES
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes


def severities(tmp_path, data: bytes, engine: str) -> dict[str, str]:
    path = tmp_path / f"{engine}.glb"
    path.write_bytes(data)
    result = validate(path, options=ValidationOptions(engine=engine))
    return {issue.code: issue.severity for issue in result.issues}


def two_materials_npot_glb() -> bytes:
    """A 1 m quad drawn twice with two materials, one textured by a 3 x 2 px image."""
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes(3, 2)))
    plain, textured = builder.add_material(), builder.add_material(base_color_texture=texture)
    primitives = [
        Primitive(4, index_count=6, material=material, normals=True, texcoords=True)
        for material in (plain, textured)
    ]
    builder.add_node(builder.add_mesh(primitives))
    return builder.glb()


@pytest.mark.parametrize("profile", STORE_PROFILES.values(), ids=STORE_PROFILES.keys())
def test_every_limit_of_a_store_profile_names_its_source(profile):
    assert set(profile.sources) >= BUDGET_NAMES | {"smallest_size", "largest_size"}
    assert set(profile.sources) <= BUDGET_NAMES | MESH_RULE_NAMES | set(profile.severity)
    assert profile.reference and all("https://" in document for document in profile.reference)


def test_each_store_applies_its_own_limits_as_warnings(tmp_path):
    data = two_materials_npot_glb()
    shopify = severities(tmp_path, data, "shopify")
    commerce = severities(tmp_path, data, "3d-commerce")
    scene_viewer = severities(tmp_path, data, "scene-viewer")
    assert shopify["BUDGET_MATERIALS"] == "warning"  # Shopify: one material
    assert "BUDGET_MATERIALS" not in commerce  # 3D Commerce: five
    assert commerce["IMAGE_NPOT_DIMENSIONS"] == "warning"  # power-of-two textures required
    assert scene_viewer.get("IMAGE_NPOT_DIMENSIONS", "info") == "info"
