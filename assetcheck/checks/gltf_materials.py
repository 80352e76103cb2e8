"""Materials: properties that only mean something together (alpha cutoff with the MASK mode)."""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import collection
from assetcheck.plugins.hookspecs import hookimpl


def check_materials(asset: Asset, context: CheckContext) -> None:
    if asset.document is None:
        return
    for index, material in enumerate(collection(asset.document, "materials")):
        if (
            material is not None
            and "alphaCutoff" in material
            and material.get("alphaMode", "OPAQUE") != "MASK"
        ):
            context.issues.add(
                "MATERIAL_ALPHA_CUTOFF_INVALID_MODE",
                pointer=child(child("/materials", index), "alphaCutoff"),
            )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-materials",
            "Material properties that depend on each other.",
            check_materials,
            ("MATERIAL_ALPHA_CUTOFF_INVALID_MODE",),
            GLTF_FORMATS,
        )
    ]
