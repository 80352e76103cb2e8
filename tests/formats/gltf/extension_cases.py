"""Crafted glTF files broken in their extensions: golden cases like those of
:mod:`tests.formats.gltf.cases`, for the codes about extension declarations, material extensions,
lights, material variants, animation pointers and the extensions Khronos does not validate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from assetcheck.testing.gltf import GltfBuilder, png_bytes
from tests.formats.gltf.cases import Case, Document, _attribute, _do, _image, _set, primitive

LIGHTS = "KHR_lights_punctual"
VARIANTS = "KHR_materials_variants"
POINTER = "KHR_animation_pointer"
TEXTURE = {"index": 0}


def _material_extensions(
    extensions: dict[str, dict],
    **fields: Any,
) -> Callable[[GltfBuilder, Document], None]:
    """A change that gives the triangle a material with ``extensions`` (declared)."""

    def change(builder: GltfBuilder, document: Document) -> None:
        document["materials"] = [{"extensions": extensions, **fields}]
        document["extensionsUsed"] = list(extensions)
        primitive(document)["material"] = 0

    return change


def _textured_material_extensions(
    extensions: dict[str, dict],
    **fields: Any,
) -> Callable[[GltfBuilder, Document], None]:
    """Like :func:`_material_extensions`, with a PNG texture 0 and two texture coordinate sets
    on the triangle, so that texture infos can name either set."""
    return _do(
        _image(png_bytes()),
        _attribute("TEXCOORD_1", np.zeros((3, 2), np.float32), "VEC2"),
        _material_extensions(extensions, **fields),
    )


def _light(light: dict[str, Any]) -> Callable[[GltfBuilder, Document], None]:
    """A change that gives node 0 the light ``light``."""
    return _do(
        _set("extensionsUsed", [LIGHTS]),
        _set("extensions", {LIGHTS: {"lights": [light]}}),
        _set("nodes/0/extensions", {LIGHTS: {"light": 0}}),
    )


def _variants(*mappings: dict[str, Any]) -> Callable[[GltfBuilder, Document], None]:
    """A change that declares two variants and maps them on the triangle's primitive to a second
    material with ``mappings``."""
    return _do(
        _set("extensionsUsed", [VARIANTS]),
        _set("extensions", {VARIANTS: {"variants": [{"name": "red"}, {"name": "blue"}]}}),
        _set("materials", [{}, {}]),
        _set("meshes/0/primitives/0/material", 0),
        _set("meshes/0/primitives/0/extensions", {VARIANTS: {"mappings": list(mappings)}}),
    )


def _pointer(**target: Any) -> Callable[[GltfBuilder, Document], None]:
    """A change that makes the first channel's target ``target`` with a KHR_animation_pointer."""
    return _do(
        _set("extensionsUsed", [POINTER]),
        _set(
            "animations/0/channels/0/target",
            {**target, "extensions": {POINTER: {"pointer": "/nodes/0/translation"}}},
        ),
    )


EXTENSION_CASES: dict[str, Case] = {
    # Declarations and placement.
    "invalid_extension_name_format": Case("triangle", _set("extensionsUsed", ["custom"])),
    "unsupported_extension": Case("triangle", _set("extensionsUsed", ["EXT_unknown_thing"])),
    "non_required_extension": Case("triangle", _set("extensionsUsed", ["KHR_mesh_quantization"])),
    "unused_extension_required": Case(
        "triangle",
        _do(
            _set("extensionsUsed", ["KHR_materials_unlit"]),
            _set("extensionsRequired", ["KHR_texture_transform"]),
        ),
    ),
    "undeclared_extension": Case("triangle", _set("nodes/0/extensions", {"EXT_thing": {}})),
    "unexpected_extension_object": Case(
        "triangle",
        _do(
            _set("extensionsUsed", ["KHR_materials_unlit"]),
            _set("nodes/0/extensions", {"KHR_materials_unlit": {}}),
        ),
    ),
    "extension_schema_mismatch": Case(
        "triangle",
        _do(
            _set("extensionsUsed", ["EXT_meshopt_compression"]),
            _set(
                "bufferViews/0/extensions",
                {
                    "EXT_meshopt_compression": {
                        "buffer": 0,
                        "byteLength": 36,
                        "byteStride": 300,
                        "count": 3,
                        "mode": "ATTRIBUTES",
                    }
                },
            ),
        ),
    ),
    # Material extensions.
    "multiple_extensions": Case(
        "triangle",
        _material_extensions({"KHR_materials_unlit": {}, "KHR_materials_emissive_strength": {}}),
    ),
    "khr_materials_volume_no_transmission": Case(
        "triangle", _material_extensions({"KHR_materials_volume": {"thicknessFactor": 1}})
    ),
    "khr_materials_volume_double_sided": Case(
        "triangle",
        _material_extensions(
            {
                "KHR_materials_transmission": {"transmissionFactor": 1},
                "KHR_materials_volume": {"thicknessFactor": 1},
            },
            doubleSided=True,
        ),
    ),
    "khr_materials_dispersion_no_volume": Case(
        "triangle", _material_extensions({"KHR_materials_dispersion": {"dispersion": 0.5}})
    ),
    "khr_materials_emissive_strength_zero_factor": Case(
        "triangle",
        _material_extensions({"KHR_materials_emissive_strength": {"emissiveStrength": 5}}),
    ),
    "khr_materials_iridescence_thickness_range_without_texture": Case(
        "triangle",
        _material_extensions(
            {
                "KHR_materials_iridescence": {
                    "iridescenceFactor": 1,
                    "iridescenceThicknessMinimum": 200,
                }
            }
        ),
    ),
    "khr_materials_iridescence_thickness_texture_unused": Case(
        "triangle",
        _textured_material_extensions(
            {
                "KHR_materials_iridescence": {
                    "iridescenceFactor": 1,
                    "iridescenceThicknessMinimum": 400,
                    "iridescenceThicknessTexture": TEXTURE,
                }
            }
        ),
    ),
    "khr_materials_anisotropy_anisotropy_texture_texcoord": Case(
        "triangle",
        _textured_material_extensions(
            {
                "KHR_materials_anisotropy": {
                    "anisotropyStrength": 0.5,
                    "anisotropyTexture": {"index": 0, "texCoord": 1},
                }
            },
            normalTexture=TEXTURE,
        ),
    ),
    "khr_materials_clearcoat_clearcoat_normal_texture_texcoord": Case(
        "triangle",
        _textured_material_extensions(
            {
                "KHR_materials_clearcoat": {
                    "clearcoatFactor": 1,
                    "clearcoatNormalTexture": {"index": 0, "texCoord": 1},
                }
            },
            normalTexture=TEXTURE,
        ),
    ),
    # Lights, variants, animation pointers.
    "khr_lights_punctual_light_spot_angles": Case(
        "triangle",
        _light({"type": "spot", "spot": {"innerConeAngle": 0.5, "outerConeAngle": 0.25}}),
    ),
    "extra_property": Case("triangle", _light({"type": "directional", "range": 10})),
    "khr_materials_variants_non_unique_variant": Case(
        "triangle", _variants({"variants": [0, 1], "material": 1}, {"variants": [1], "material": 0})
    ),
    "incomplete_extension_support": Case("animated", _pointer(path="pointer")),
    "khr_animation_pointer_animation_channel_target_node": Case(
        "animated", _pointer(node=0, path="pointer")
    ),
    "khr_animation_pointer_animation_channel_target_path": Case(
        "animated", _pointer(path="translation")
    ),
}
