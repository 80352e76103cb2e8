"""The job page's wording, read from stored reports."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from assetcheck.engine import validate
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.previews.drawing import PreviewWriter
from assetcheck.reports.document import build_report
from assetcheck.service.dashboard.job_page import (
    budget_bars,
    issues_by_severity,
    location,
    message_fields,
    model_target,
    security_warnings,
    verdict,
)
from assetcheck.testing.fbx import MaterialSpec, Scene, VideoSpec, binary_fbx, cube
from assetcheck.testing.shapes import pawn_glb
from tests.previews.test_fbx_materials import SEE_THROUGH, textured_box, textured_parts_fbx


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "pawn.glb"
    path.write_bytes(pawn_glb())
    return build_report(validate(path, engine="unity"))


def with_counts(report, **counts):
    changed = copy.deepcopy(report)
    changed["summary"]["severityCounts"].update(counts)
    return changed


def test_the_verdict_names_the_engine_and_what_stands_in_the_way(report):
    assert verdict(with_counts(report, error=0, warning=0)) == (
        "Ready: it passes the Unity (URP/HDRP) profile with no errors and no warnings."
    )
    assert verdict(with_counts(report, error=0, warning=1)) == (
        "Ready: it passes the Unity (URP/HDRP) profile, with 1 warning worth a look."
    )
    assert verdict(with_counts(report, error=1200)) == (
        "Not ready: 1,200 errors to fix before it passes the Unity (URP/HDRP) profile."
    )


def test_an_unsafe_upload_is_called_unusable_whatever_else_it_has(report):
    unsafe = with_counts(report, error=0, warning=0)
    unsafe["result"]["securityScan"] = {
        "safe": False,
        "scannedFiles": 2,
        "warnings": [
            {"code": "ZIP_ENCRYPTED", "severity": "medium", "message": "m", "file": "a.zip"},
            {"code": "ZIP_BOMB", "severity": "critical", "message": "m", "file": "a.zip"},
        ],
    }
    assert verdict(unsafe) == (
        "Do not use this upload: the security scan found 1 serious problem, listed under Security."
    )
    assert [w["code"] for w in security_warnings(unsafe)] == ["ZIP_BOMB", "ZIP_ENCRYPTED"]


def test_budget_bars_show_use_against_each_limit():
    bars = budget_bars(
        [
            {"budget": "triangles_per_file", "used": 1500, "limit": 2000, "over": False},
            {"budget": "materials", "used": 40, "limit": 32, "over": True},
            {"budget": "draw_calls", "used": 10, "limit": 500, "over": False},
            {"budget": "file_size_mb", "used": 1.5, "limit": 50, "over": False},
            {"budget": "index_32bit", "used": True, "limit": False, "over": True},
        ]
    )
    assert [(b.label, b.used, b.limit, b.state) for b in bars] == [
        ("Triangles per file", "1,500", "2,000", "ok"),
        ("Materials", "40", "32", "over"),
        ("Draw calls", "10", "500", "ok"),
        ("File size (MB)", "1.5", "50", "ok"),
        ("32-bit indices allowed", "used, not allowed", "", "over"),
    ]
    assert bars[0].share == 0.75 and bars[1].share == 1.0 and bars[4].share is None
    near = budget_bars([{"budget": "bones", "used": 90, "limit": 100, "over": False}])
    assert near[0].state == "near"


def test_issues_are_grouped_by_severity_errors_first(report):
    grouped = issues_by_severity(report)
    assert [severity for severity, _, _ in grouped] == ["warning", "info"]
    assert grouped[0][1] == "Warnings"
    assert grouped[0][2][0]["code"] == "MESH_MISSING_NORMALS"


def test_a_location_is_the_file_and_a_pointer_or_byte_offset():
    assert location({"file": "a.glb", "pointer": "/meshes/0"}) == "a.glb /meshes/0"
    assert location({"file": "a.glb", "offset": 123456}) == "a.glb byte 123,456"
    assert location({"file": "a.glb"}) == "a.glb"


@pytest.fixture(scope="module")
def registry():
    return build_registry(get_plugin_manager())


@pytest.mark.parametrize(
    ("code", "pointer", "file_format", "shown"),
    [
        ("MESH_DUPLICATE_TRIANGLES", "/meshes/0/primitives/1", "glb", True),
        ("ACCESSOR_VECTOR3_NON_UNIT", "/meshes/2/primitives/0/attributes/NORMAL", "gltf", True),
        ("NODE_EMPTY", "/nodes/4", "glb", True),
        ("IMAGE_NPOT_DIMENSIONS", "/images/0", "gltf", True),
        ("ACCESSOR_MIN_MISMATCH", "/accessors/3/min", "glb", True),
        ("BUFFER_VIEW_TARGET_MISSING", "/bufferViews/2", "glb", True),
        ("URI_GLB", "/buffers/0/uri", "glb", False),
        ("ASSET_MINVERSION_GREATER_THAN_VERSION", "/asset", "glb", False),
        ("MESH_ZERO_AREA_TRIANGLES", None, "glb", False),
    ],
)
def test_a_gltf_finding_shows_on_the_model_what_its_pointer_names(
    registry, code, pointer, file_format, shown
):
    occurrence = {"message": "m", **({"pointer": pointer} if pointer else {})}
    expected = {"pointer": pointer} if shown else None
    assert model_target(registry, code, occurrence, file_format) == expected


@pytest.mark.parametrize(
    ("code", "message", "mesh"),
    [
        (
            "MESH_ZERO_AREA_TRIANGLES",
            "Mesh klZahn: 14 of 42 triangles have zero area (their "
            "corners coincide or lie on one line).",
            "klZahn",
        ),
        (
            "MESH_INCONSISTENT_WINDING",
            "Mesh Kopf: across 5 of 147 edges the two triangles face "
            "opposite ways, so back-face culling shows holes where a face is flipped.",
            "Kopf",
        ),
        (
            "MESH_ZERO_AREA_TRIANGLES",
            "Mesh Body: Arm: 2 of 8 triangles have zero area (their "
            "corners coincide or lie on one line).",
            "Body: Arm",
        ),
        (
            "MESH_MISSING_NORMALS",
            "Mesh Body: Arm has no vertex normals, so the engine computes its "
            "own (glTF viewers shade it flat) and the shading will not match the modelling tool.",
            "Body: Arm",
        ),
        (
            "MATERIAL_NOT_PBR",
            "Material Skin uses the legacy phong shading model: engines convert "
            "it to their physically based material, and it will look different there.",
            None,
        ),
        ("FBX_UNITS_NOT_METRES", "m", None),
        ("MESH_ZERO_AREA_TRIANGLES", "a message some other version wrote", None),
    ],
)
def test_an_fbx_finding_shows_the_mesh_its_message_names(registry, code, message, mesh):
    """FBX findings have no pointer: the mesh is read back from the message through its
    code's template, whole, so ``Kopf`` never also shows ``Kopf2``."""
    expected = {"mesh": mesh} if mesh else None
    assert model_target(registry, code, {"message": message}, "fbx") == expected


def test_message_fields_reads_back_what_a_template_filled_in():
    assert message_fields("Mesh {name}: {count:,} of {total:,}.", "Mesh a: b: 1,200 of 3.") == {
        "name": "a: b",
        "count": "1,200",
        "total": "3",
    }
    assert message_fields("Mesh {name}.", "Node x.") is None


def dense_fbx() -> bytes:
    """A 2 cm cube whose facing polygons carry a texture tiled 100 times beside an untextured
    cube 2 m across (TEXTURE_DENSITY_EXCESSIVE), named with 300 characters."""
    long = "W" * 300
    small = textured_box("Small")
    small.materials = [long, "Stone"]
    small.uv_values = [(100.0 * u, 100.0 * v) for u, v in small.uv_values or []]
    large = replace(cube("Large"), scale=(100.0, 100.0, 100.0))
    return binary_fbx(
        Scene(
            meshes=[small, large],
            materials=[MaterialSpec(long), MaterialSpec("Stone")],
            videos=[VideoSpec("wood", "wood.png", SEE_THROUGH, [(long, "DiffuseColor")])],
        )
    )


@pytest.mark.parametrize(
    ("content", "materials"),
    [
        (
            textured_parts_fbx(),
            {
                "NORMAL_MAP_NOT_TANGENT_SPACE": 1,
                "TEXTURE_ALPHA_IGNORED": 1,
                "TEXTURE_SINGLE_COLOR": 1,
                "TEXTURE_ALPHA_OPAQUE": 3,
            },
        ),
        (dense_fbx(), {"TEXTURE_DENSITY_EXCESSIVE": 1, "TEXTURE_ALPHA_IGNORED": 1}),
    ],
    ids=["content", "texel density"],
)
def test_an_fbx_texture_finding_names_the_uses_its_viewer_overlays_list(
    tmp_path, registry, content, materials
):
    """Each FBX texture finding's target (the image, and the material property when it names
    one) finds its texture uses in the overlays as the viewer looks them up (viewer.js,
    ``textureNamed``): the viewer material of the textured material's polygons
    (``materials``, by code), and its image."""
    upload = tmp_path / "upload"
    upload.write_bytes(content)
    result = validate(upload, filename="parts.fbx", on_checked=PreviewWriter(tmp_path))
    [overlays] = [json.loads(path.read_text()) for path in tmp_path.glob("previews/*.json")]
    found = set()
    for group in build_report(result)["issues"]:
        for occurrence in group["occurrences"]:
            target = model_target(registry, group["code"], occurrence, "fbx")
            if group["code"] not in materials:
                assert target is None or "image" not in target
                continue
            uses = [
                use
                for use in overlays["textures"]
                if target["image"] in use["images"]
                and target.get("material", use["material"]) == use["material"]
            ]
            viewer_materials = {use["viewerMaterial"] for use in uses}
            assert viewer_materials == {materials[group["code"]]}, occurrence["message"]
            assert all("viewerImage" in use for use in uses)
            about_image = group["code"] in ("TEXTURE_SINGLE_COLOR", "TEXTURE_ALPHA_OPAQUE")
            assert ("material" in target) is not about_image
            found.add(group["code"])
    assert found == set(materials)


def test_only_an_fbx_texture_finding_is_read_back_from_its_message(registry):
    message = registry["TEXTURE_ALPHA_OPAQUE"].message.format(image="wood (wood.png)")
    occurrence = {"message": message}
    assert model_target(registry, "TEXTURE_ALPHA_OPAQUE", occurrence, "fbx") == {
        "image": "wood (wood.png)"
    }
    for file_format in ("obj", "usd", "glb"):
        assert model_target(registry, "TEXTURE_ALPHA_OPAQUE", occurrence, file_format) is None
