"""Material extensions that do not combine as their author meant, as Khronos glTF-Validator
warns about them: an unlit or specular-glossiness material with other extensions
(``MULTIPLE_EXTENSIONS``), and a volume without transmission or on a double-sided material."""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.checks.gltf_links import collection, linked_extensions
from assetcheck.checks.gltf_schema import GLTF_FORMATS
from assetcheck.formats.gltf_fields import child
from assetcheck.hookspecs import hookimpl
from assetcheck.issues import FileIssues

#: Extensions that replace the whole shading model, so others on the same material may clash.
EXCLUSIVE = ("KHR_materials_unlit", "KHR_materials_pbrSpecularGlossiness")
VOLUME = "KHR_materials_volume"
TRANSMISSION = "KHR_materials_transmission"

CODES = ("MULTIPLE_EXTENSIONS", "KHR_MATERIALS_VOLUME_NO_TRANSMISSION",
         "KHR_MATERIALS_VOLUME_DOUBLE_SIDED")


def _check_material(material: dict, at: str, linked: frozenset[str],
                    issues: FileIssues) -> None:
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


def check_material_extensions(asset: Asset, context: CheckContext) -> None:
    if asset.document is None:
        return
    linked = linked_extensions(asset.document)
    for index, material in enumerate(collection(asset.document, "materials")):
        if material is not None:
            _check_material(material, child("/materials", index), linked, context.issues)


@hookimpl
def register_checks() -> list[Check]:
    return [Check("gltf-material-extensions", "Material extensions that clash: exclusive "
                  "shading models with others, volume without transmission or double-sided.",
                  check_material_extensions, CODES, GLTF_FORMATS)]
