"""Extension objects are checked against their schema where they belong, as Khronos
glTF-Validator checks them, and the extensions it does not validate only get warnings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assetcheck.engine import validate
from tests.formats.gltf.cases import triangle


def findings(tmp_path: Path, change: dict[str, Any]) -> set[tuple[str, str, str | None]]:
    """``(code, severity, pointer)`` of the triangle with the top-level keys of ``change`` set
    and ``node_extensions`` / ``view_extensions`` given to node 0 / buffer view 0."""
    builder = triangle()
    document = builder.document
    for key, value in change.items():
        if key == "node_extensions":
            document["nodes"][0]["extensions"] = value
        elif key == "view_extensions":
            document["bufferViews"][0]["extensions"] = value
        else:
            document[key] = value
    path = tmp_path / "model.gltf"
    path.write_bytes(builder.embedded_gltf())
    return {(issue.code, issue.severity, issue.pointer) for issue in validate(path).issues}


def test_an_extension_object_out_of_place_is_not_checked_against_its_schema(tmp_path: Path):
    found = findings(
        tmp_path,
        {
            "extensionsUsed": ["KHR_texture_transform"],
            "node_extensions": {"KHR_texture_transform": {"offset": 1}},
        },
    )
    assert {code for code, _, _ in found} >= {"UNEXPECTED_EXTENSION_OBJECT"}
    assert "TYPE_MISMATCH" not in {code for code, _, _ in found}


def test_an_index_of_refraction_of_zero_is_in_range(tmp_path: Path):
    found = findings(
        tmp_path,
        {
            "extensionsUsed": ["KHR_materials_ior"],
            "materials": [
                {"extensions": {"KHR_materials_ior": {"ior": 0}}},
                {"extensions": {"KHR_materials_ior": {"ior": 0.5}}},
            ],
        },
    )
    assert [pointer for code, _, pointer in found if code == "VALUE_NOT_IN_RANGE"] == [
        "/materials/1/extensions/KHR_materials_ior/ior"
    ]


def test_a_node_light_without_the_root_lights_is_an_unsatisfied_dependency(tmp_path: Path):
    found = findings(
        tmp_path,
        {
            "extensionsUsed": ["KHR_lights_punctual"],
            "node_extensions": {"KHR_lights_punctual": {"light": 0}},
        },
    )
    assert ("UNSATISFIED_DEPENDENCY", "error", "/nodes/0/extensions/KHR_lights_punctual") in found


def test_a_light_no_node_names_is_unused_and_a_missing_light_unresolved(tmp_path: Path):
    found = findings(
        tmp_path,
        {
            "extensionsUsed": ["KHR_lights_punctual"],
            "extensions": {"KHR_lights_punctual": {"lights": [{"type": "point"}]}},
            "node_extensions": {"KHR_lights_punctual": {"light": 3}},
        },
    )
    assert ("UNUSED_OBJECT", "info", "/extensions/KHR_lights_punctual/lights/0") in found
    assert (
        "UNRESOLVED_REFERENCE",
        "error",
        "/nodes/0/extensions/KHR_lights_punctual/light",
    ) in found


def test_the_spot_of_a_point_light_is_an_extra_property_left_unchecked(tmp_path: Path):
    found = findings(
        tmp_path,
        {
            "extensionsUsed": ["KHR_lights_punctual"],
            "extensions": {
                "KHR_lights_punctual": {
                    "lights": [{"type": "point", "spot": {"innerConeAngle": -1}}]
                }
            },
            "node_extensions": {"KHR_lights_punctual": {"light": 0}},
        },
    )
    assert {(code, pointer) for code, _, pointer in found} == {
        ("EXTRA_PROPERTY", "/extensions/KHR_lights_punctual/lights/0/spot")
    }


def test_a_broken_extension_khronos_does_not_validate_only_warns(tmp_path: Path):
    found = findings(
        tmp_path,
        {
            "extensionsUsed": ["EXT_meshopt_compression"],
            "view_extensions": {"EXT_meshopt_compression": {"buffer": "zero", "mode": "FAST"}},
        },
    )
    schema = {
        (severity, pointer)
        for code, severity, pointer in found
        if code == "EXTENSION_SCHEMA_MISMATCH"
    }
    at = "/bufferViews/0/extensions/EXT_meshopt_compression"
    assert schema == {("warning", at), ("warning", f"{at}/buffer"), ("warning", f"{at}/mode")}
    assert not any(severity == "error" for _, severity, _ in found)


def test_extensions_used_holding_a_non_string_declares_nothing(tmp_path: Path):
    found = findings(
        tmp_path,
        {
            "extensionsUsed": [5, "KHR_materials_unlit"],
            "extensionsRequired": ["KHR_materials_unlit"],
        },
    )
    assert {(code, pointer) for code, _, pointer in found if code != "UNUSED_OBJECT"} == {
        ("ARRAY_TYPE_MISMATCH", "/extensionsUsed/0"),
        ("UNUSED_EXTENSION_REQUIRED", "/extensionsRequired/0"),
    }
