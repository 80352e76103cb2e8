"""Engine budgets: the same file fits one engine and not another, and the grade says so."""

from pathlib import Path

import pytest

from assetcheck.asset import Asset, MeshPart
from assetcheck.asset.options import ValidationOptions
from assetcheck.engine import validate
from assetcheck.formats.fbx.model import FbxAxes, FbxMesh, FbxScene
from assetcheck.issues import IssuePolicy
from assetcheck.scoring.budget_usage import measure
from assetcheck.testing.gltf import TRIANGLE_STRIP, GltfBuilder, Primitive, png_bytes
from tests.checks.skinned import skinned_glb
from tests.formats import codes, only_issue


@pytest.fixture(scope="module")
def dense_glb(tmp_path_factory) -> Path:
    """One mesh of 400,000 triangles: over Unity's per-mesh budget, within Unreal's."""
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(400_002, mode=TRIANGLE_STRIP)], name="cliff"))
    return builder.write_glb(tmp_path_factory.mktemp("dense") / "cliff.glb")


def test_unity_reports_a_budget_issue_that_unreal_does_not(dense_glb):
    unity = validate(dense_glb, engine="unity")
    unreal = validate(dense_glb, engine="unreal")
    budget_issues = [i for i in unity.issues if i.code.startswith("BUDGET_")]
    assert [i.code for i in budget_issues] == ["BUDGET_TRIANGLES_PER_MESH"]
    assert budget_issues[0].pointer == "/meshes/0"
    message = budget_issues[0].message
    assert "cliff has 400,000 triangles, over the unity budget of 300,000" in message
    assert not [c for c in codes(unreal) if c.startswith("BUDGET_")]
    assert (unity.grade, unreal.grade) == ("fair", "excellent")
    assert not unity.valid and unreal.valid


def test_mobile_profile_flags_32bit_indices(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(70_000, index_count=70_002)]))
    result = validate(builder.write_glb(tmp_path / "big.glb"), engine="mobile")
    assert "BUDGET_32BIT_INDICES" in codes(result)
    assert "BUDGET_32BIT_INDICES" not in codes(validate(tmp_path / "big.glb", engine="web"))


def test_budget_overrides_from_options_change_the_verdict(dense_glb):
    relaxed = ValidationOptions(engine="unity", budget_overrides={"triangles_per_mesh": 500_000})
    assert "BUDGET_TRIANGLES_PER_MESH" not in codes(validate(dense_glb, options=relaxed))


def test_unknown_budget_override_is_an_error_naming_it(dense_glb):
    with pytest.raises(ValueError, match="unknown budget triangles_per_moon"):
        validate(dense_glb, options=ValidationOptions(budget_overrides={"triangles_per_moon": 1}))


def test_gltf_metrics_count_instanced_draw_calls_uv_sets_influences_and_bones():
    document = {
        "meshes": [
            {
                "primitives": [
                    {
                        "attributes": {
                            "POSITION": 0,
                            "TEXCOORD_0": 1,
                            "TEXCOORD_1": 2,
                            "JOINTS_0": 3,
                            "JOINTS_1": 4,
                        },
                        "indices": 5,
                    },
                    {"attributes": {"POSITION": 0}},
                ]
            }
        ],
        "nodes": [{"mesh": 0}, {"mesh": 0}, {"mesh": 7}, "junk"],
        "skins": [{"joints": [0, 1, 2]}, {"joints": list(range(70))}],
        "accessors": [{}, {}, {}, {}, {}, {"componentType": 5125}],
    }
    asset = Asset(
        "a.gltf",
        "gltf",
        triangle_count=10,
        parts=[MeshPart("m", 3, 10, 0)],
        document=document,
        byte_size=2_500_000,
    )
    assert measure(asset) == {
        "triangles_per_file": 10,
        "triangles_per_mesh": 10,
        "materials": 0,
        "texture_size": 0,
        "file_size_mb": 2.5,
        "draw_calls": 4,
        "uv_sets": 2,
        "influences_per_vertex": 8,
        "bones": 70,
        "index_32bit": True,
    }


def test_fbx_metrics_use_materials_per_mesh_as_draw_calls():
    meshes = [
        FbxMesh(
            "Big",
            70_000,
            0,
            0,
            0,
            0,
            has_normals=True,
            has_uvs=True,
            materials=["a", "b", "c"],
            bones=12,
        ),
        FbxMesh("Small", 8, 0, 0, 0, 0, has_normals=True, has_uvs=False),
    ]
    scene = FbxScene(7400, False, "", 0.01, 0.01, FbxAxes(), "+Y", 30.0, 0, meshes)
    metrics = measure(Asset("a.fbx", "fbx", fbx=scene))
    assert (
        metrics["draw_calls"],
        metrics["uv_sets"],
        metrics["bones"],
        metrics["index_32bit"],
    ) == (4, 1, 12, True)


def test_profiles_raise_npot_textures_to_warnings_where_engines_suffer(tmp_path):
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes(300, 200)))
    material = builder.add_material(base_color_texture=texture)
    builder.add_node(
        builder.add_mesh([Primitive(3, material=material, normals=True, texcoords=True)])
    )
    path = builder.write_glb(tmp_path / "npot.glb")

    def npot_severity(engine: str) -> str:
        (issue,) = [
            i for i in validate(path, engine=engine).issues if i.code == "IMAGE_NPOT_DIMENSIONS"
        ]
        return issue.severity

    assert [npot_severity(e) for e in ("generic", "web", "unity", "unreal", "mobile")] == [
        "info",
        "info",
        "warning",
        "warning",
        "warning",
    ]


@pytest.fixture(scope="module")
def many_materials_glb(tmp_path_factory) -> Path:
    """A triangle for each of 70 materials: over every built-in materials budget."""
    builder = GltfBuilder()
    for index in range(70):
        material = builder.add_material(f"M_{index}")
        builder.add_node(builder.add_mesh([Primitive(3, material=material, normals=True)]))
    return builder.write_glb(tmp_path_factory.mktemp("materials") / "kit.glb")


def test_budget_overruns_under_generic_are_warnings_that_leave_the_file_valid(many_materials_glb):
    result = validate(many_materials_glb)
    (issue,) = [i for i in result.issues if i.code == "BUDGET_MATERIALS"]
    assert issue.severity == "warning"
    assert result.valid


@pytest.mark.parametrize("engine", ["web", "unity", "unreal", "godot", "mobile"])
def test_a_chosen_engine_keeps_budget_overruns_as_errors(many_materials_glb, engine):
    result = validate(many_materials_glb, engine=engine)
    (issue,) = [i for i in result.issues if i.code == "BUDGET_MATERIALS"]
    assert issue.severity == "error"
    assert not result.valid


def test_configured_severity_still_wins_over_the_generic_default(many_materials_glb):
    strict = ValidationOptions(policy=IssuePolicy(severity_overrides={"BUDGET_MATERIALS": "error"}))
    assert not validate(many_materials_glb, options=strict).valid


def test_draw_calls_count_every_primitive_of_every_mesh_instance():
    document = {
        "meshes": [{"primitives": [{}, {}, {}]}, {"primitives": [{}]}],
        "nodes": [{"mesh": 0}, {"mesh": 0}, {"mesh": 1}, {}],
    }
    asset = Asset("kit.gltf", "gltf", document=document)
    assert measure(asset)["draw_calls"] == 3 + 3 + 1


def test_influences_count_the_bones_each_vertex_really_weighs_on(tmp_path):
    # Two JOINTS/WEIGHTS sets (eight slots) but four non-zero weights: within mobile's four.
    path = skinned_glb(tmp_path, [0.25, 0.25, 0.25, 0.25, 0, 0, 0, 0], [0, 1, 2, 3, 0, 0, 0, 0])
    result = validate(path, engine="mobile")
    assert "BUDGET_INFLUENCES" not in codes(result)
    assert result.assets[0].metrics["influences_per_vertex"] == 4


def test_vertices_over_the_influence_budget_are_reported_per_primitive(tmp_path):
    path = skinned_glb(tmp_path, [0.2] * 5 + [0, 0, 0], [0, 1, 2, 3, 4, 0, 0, 0])
    issue = only_issue(validate(path, engine="mobile"), "BUDGET_INFLUENCES")
    assert issue.pointer == "/meshes/0/primitives/0/attributes"
    assert issue.message == (
        "3 vertices have more bone influences than the mobile budget of 4 (up to 5); "
        "the first is vertex 0."
    )
