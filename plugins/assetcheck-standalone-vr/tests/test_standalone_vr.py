"""The standalone-VR profile, installed with pip, through AssetCheck's engine and CLI.

Uses only what AssetCheck ships for plugin tests: ``assetcheck.testing`` and its fixtures.
"""

import json

from assetcheck.cli import main
from assetcheck.engine import validate
from assetcheck.testing import GltfBuilder, Primitive, png_bytes


def test_profile_is_available_once_installed(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)]))
    result = validate(builder.write_glb(tmp_path / "tiny.glb"), engine="standalone-vr")
    assert result.engine == "standalone-vr" and result.grade == "excellent"


def test_a_mobile_sized_prop_is_over_the_headset_budget(tmp_path, capsys):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(90_000)], name="statue"))  # 30,000 triangles
    path = builder.write_glb(tmp_path / "statue.glb")
    assert main(["validate", "--engine", "mobile", str(path)]) == 0
    capsys.readouterr()
    assert main(["validate", "--engine", "standalone-vr", "--format", "json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    budgets = {group["code"] for group in report["issues"] if group["code"].startswith("BUDGET_")}
    assert budgets == {"BUDGET_TRIANGLES_PER_MESH"}


def test_installed_plugin_check_runs_with_no_other_step(
    tmp_path, assetcheck_gltf, assetcheck_issue_codes
):
    builder = assetcheck_gltf
    texture = builder.add_texture(builder.add_image(png_bytes(1024, 1024), name="T_Wall_D"))
    material = builder.add_material(base_color_texture=texture)
    builder.add_node(
        builder.add_mesh([Primitive(3, material=material, normals=True, texcoords=True)])
    )
    path = builder.write_glb(tmp_path / "wall.glb")
    (issue,) = [
        i
        for i in validate(path, engine="standalone-vr").issues
        if i.code == "VR_UNCOMPRESSED_TEXTURE"
    ]
    assert issue.pointer == "/images/0" and "5.6 MB" in issue.message
    assert "VR_UNCOMPRESSED_TEXTURE" not in assetcheck_issue_codes(path, engine="mobile")
