"""Pixar's validators as AssetCheck codes: every validator usd-core registers is named, and a
layer that breaks their rules gets each mapped code."""

from __future__ import annotations

from pathlib import Path

from pxr import UsdValidation

from assetcheck.engine import validate
from assetcheck.formats.usd.validators import CODES, COVERED

#: One layer breaking a rule of each kind Pixar's validators judge.
FLAWED = b"""#usda 1.0
(
    defaultPrim = "Root"
)
def Xform "Root"
{
    def Mesh "A" (
        references = @./missing.usda@</X>
    )
    {
        rel material:binding = </Root/Mat>
        rel skel:skeleton = </Root/Skel>
        point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0)]
        normal3f[] normals = [(0, 0, 1), (0, 0, 1), (0, 0, 1)]
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        def Mesh "Nested"
        {
        }
    }
    def "Ghost" (
        references = </Nowhere>
    )
    {
    }
    def Sphere "S"
    {
        int radius = 3
    }
    def Material "Mat"
    {
        token outputs:surface.connect = </Root/Mat/PBR.outputs:surface>
        def Shader "PBR"
        {
            uniform token info:id = "UsdPreviewSurface"
            normal3f inputs:normal.connect = </Root/Mat/Tex.outputs:rgb>
            token outputs:surface
        }
        def Shader "Tex"
        {
            uniform token info:id = "UsdUVTexture"
            float3 outputs:rgb
        }
    }
    def Scope "Phys" (prepend apiSchemas = ["PhysicsRigidBodyAPI"])
    {
    }
}
"""


def test_every_validator_usd_core_registers_is_named_once():
    registered = {
        metadata.name
        for metadata in UsdValidation.ValidationRegistry().GetAllValidatorMetadata()
        if not metadata.isSuite
    }

    assert registered == CODES.keys() | COVERED.keys()
    assert not CODES.keys() & COVERED.keys()


def test_a_layer_breaking_the_validators_rules_gets_each_mapped_code(tmp_path):
    (tmp_path / "flawed.usda").write_bytes(FLAWED)

    result = validate(tmp_path / "flawed.usda")

    found = {issue.code: issue for issue in result.issues}
    assert set(found) == {
        "USD_MISSING_STAGE_METADATA",
        "USD_MISSING_DEPENDENCY",
        "USD_COMPOSITION_ERROR",
        "USD_ATTRIBUTE_TYPE_MISMATCH",
        "USD_MATERIAL_BINDING",
        "USD_SKEL_BINDING",
        "USD_NORMAL_MAP",
        "USD_ENCAPSULATION",
        "USD_SCHEMA_RULE",
    }
    assert "</Root/S.radius>" in found["USD_ATTRIBUTE_TYPE_MISMATCH"].message
    assert "(/Root/A)" in found["USD_SKEL_BINDING"].message
    assert "'./missing.usda' (a reference)" in found["USD_MISSING_DEPENDENCY"].message
    assert "/Nowhere" in found["USD_COMPOSITION_ERROR"].message
    assert str(tmp_path) not in " ".join(issue.message for issue in result.issues)
    assert result.assets[0].triangle_count == 1


def test_docs_list_every_validator_with_its_code():
    text = (Path(__file__).resolve().parents[3] / "docs" / "usd.md").read_text()

    for name, code in CODES.items():
        assert f"| `{name}` | `{code}` |" in text
    for name in COVERED:
        assert f"| `{name}` |" in text
