"""Material extensions that do not combine or have no effect, as Khronos glTF-Validator warns
about them: an unlit or specular-glossiness material with other extensions
(``MULTIPLE_EXTENSIONS``), a volume without transmission or on a double-sided material,
dispersion without a volume, an emissive strength without emissive factor, iridescence
thickness settings that cannot apply, and clearcoat normal or anisotropy textures sampled with
other texture coordinates than the normal texture."""

from __future__ import annotations

import math
from typing import Any

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.extension_schemas import EXTENSIONS
from assetcheck.formats.gltf.fields import as_integer, child, is_number, read_number
from assetcheck.formats.gltf.links import collection, linked_extensions
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

#: Extensions that replace the whole shading model, so others on the same material may clash.
EXCLUSIVE = ("KHR_materials_unlit", "KHR_materials_pbrSpecularGlossiness")
VOLUME = "KHR_materials_volume"
TRANSMISSION = "KHR_materials_transmission"
DISPERSION = "KHR_materials_dispersion"
EMISSIVE_STRENGTH = "KHR_materials_emissive_strength"
IRIDESCENCE = "KHR_materials_iridescence"
#: Extension -> (its texture that should share the normal texture's coordinates, the code).
NORMAL_TEXCOORD_PEERS = {
    "KHR_materials_anisotropy": (
        "anisotropyTexture",
        "KHR_MATERIALS_ANISOTROPY_ANISOTROPY_TEXTURE_TEXCOORD",
    ),
    "KHR_materials_clearcoat": (
        "clearcoatNormalTexture",
        "KHR_MATERIALS_CLEARCOAT_CLEARCOAT_NORMAL_TEXTURE_TEXCOORD",
    ),
}

CODES = (
    "MULTIPLE_EXTENSIONS",
    "KHR_MATERIALS_VOLUME_NO_TRANSMISSION",
    "KHR_MATERIALS_VOLUME_DOUBLE_SIDED",
    "KHR_MATERIALS_DISPERSION_NO_VOLUME",
    "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR",
    "KHR_MATERIALS_IRIDESCENCE_THICKNESS_RANGE_WITHOUT_TEXTURE",
    "KHR_MATERIALS_IRIDESCENCE_THICKNESS_TEXTURE_UNUSED",
    *(code for _, code in NORMAL_TEXCOORD_PEERS.values()),
)


def _texcoord(info: dict) -> int:
    """A texture info's ``texCoord`` as Khronos reads it: 0 when absent, -1 when invalid."""
    texcoord = as_integer(info.get("texCoord", 0))
    return texcoord if texcoord is not None and texcoord >= 0 else -1


def _has_zero_emission(material: dict) -> bool:
    """Whether the material's emissive factor is zero, or undefined (and so zero)."""
    factor = material.get("emissiveFactor", [0, 0, 0])
    return (
        isinstance(factor, list)
        and len(factor) == 3
        and all(is_number(v) and v == 0 for v in factor)
    )


def _check_iridescence(iridescence: dict, at: str, issues: FileIssues) -> None:
    schema = EXTENSIONS[IRIDESCENCE]["material"].properties
    minimum = read_number(
        iridescence, "iridescenceThicknessMinimum", schema["iridescenceThicknessMinimum"], 100
    )
    maximum = read_number(
        iridescence, "iridescenceThicknessMaximum", schema["iridescenceThicknessMaximum"], 400
    )
    if isinstance(iridescence.get("iridescenceThicknessTexture"), dict):
        if minimum == maximum:
            issues.add(
                "KHR_MATERIALS_IRIDESCENCE_THICKNESS_TEXTURE_UNUSED",
                pointer=child(at, "iridescenceThicknessTexture"),
            )
    elif "iridescenceThicknessMinimum" in iridescence and not math.isnan(minimum):
        issues.add(
            "KHR_MATERIALS_IRIDESCENCE_THICKNESS_RANGE_WITHOUT_TEXTURE",
            pointer=child(at, "iridescenceThicknessMinimum"),
        )


def _check_effects(
    material: dict, extensions: dict[str, Any], at: str, linked: frozenset[str], issues: FileIssues
) -> None:
    """The rules about extensions that have no effect as the material stands."""

    def ours(name: str) -> dict | None:
        value = extensions.get(name)
        return value if name in linked and isinstance(value, dict) else None

    if ours(DISPERSION) is not None and not isinstance(extensions.get(VOLUME), dict):
        issues.add("KHR_MATERIALS_DISPERSION_NO_VOLUME", pointer=child(at, DISPERSION))
    strength = ours(EMISSIVE_STRENGTH)
    if strength is not None:
        value = read_number(
            strength,
            "emissiveStrength",
            EXTENSIONS[EMISSIVE_STRENGTH]["material"].properties["emissiveStrength"],
            1,
        )
        if not math.isnan(value) and value != 1 and _has_zero_emission(material):
            issues.add(
                "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR", pointer=child(at, EMISSIVE_STRENGTH)
            )
    if ours(IRIDESCENCE) is not None:
        _check_iridescence(extensions[IRIDESCENCE], child(at, IRIDESCENCE), issues)
    normal = material.get("normalTexture")
    for name, (key, code) in NORMAL_TEXCOORD_PEERS.items():
        texture = (ours(name) or {}).get(key)
        if (
            isinstance(normal, dict)
            and isinstance(texture, dict)
            and _texcoord(normal) != _texcoord(texture)
        ):
            issues.add(code, pointer=child(child(at, name), key))


def _check_material(material: dict, at: str, linked: frozenset[str], issues: FileIssues) -> None:
    extensions = material.get("extensions")
    if not isinstance(extensions, dict):
        return
    pointer = child(at, "extensions")
    for name in extensions:
        if name in EXCLUSIVE and name in linked and len(extensions) > 1:
            issues.add("MULTIPLE_EXTENSIONS", pointer=child(pointer, name))
    if VOLUME in linked and isinstance(extensions.get(VOLUME), dict):
        if not isinstance(extensions.get(TRANSMISSION), dict):
            issues.add("KHR_MATERIALS_VOLUME_NO_TRANSMISSION", pointer=child(pointer, VOLUME))
        elif material.get("doubleSided") is True:
            issues.add("KHR_MATERIALS_VOLUME_DOUBLE_SIDED", pointer=child(pointer, VOLUME))
    _check_effects(material, extensions, pointer, linked, issues)


def check_material_extensions(asset: Asset, context: CheckContext) -> None:
    if asset.document is None:
        return
    linked = linked_extensions(asset.document)
    for index, material in enumerate(collection(asset.document, "materials")):
        if material is not None:
            _check_material(material, child("/materials", index), linked, context.issues)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-material-extensions",
            "Material extensions that clash or have no "
            "effect: exclusive shading models with others, volume without transmission "
            "or double-sided, dispersion without volume, emissive strength without "
            "emission, iridescence thickness, texture coordinates of normal-map peers.",
            check_material_extensions,
            CODES,
            GLTF_FORMATS,
        )
    ]
