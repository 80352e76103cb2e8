"""What Khronos glTF-Validator checks in extension objects beyond their schema.

- ``KHR_lights_punctual``: a spot light needs its ``spot`` object, which no other light may
  have, nor may a directional light have a ``range`` (``EXTRA_PROPERTY``); the outer cone
  angle must exceed the inner one (``KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES``); a node's light
  needs the root's object (``UNSATISFIED_DEPENDENCY``).
- ``KHR_materials_variants``: a primitive maps each variant once
  (``KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT``), its mappings need the root's object, and a
  mapped material must find the texture coordinates it samples.
- ``KHR_animation_pointer``: the channel target it extends has no node and the path
  ``pointer``; its validation is incomplete in Khronos (``INCOMPLETE_EXTENSION_SUPPORT``).

Unresolved references of these extensions are reported by the reference check, unused lights
and variants by the unused-object check.
"""

from __future__ import annotations

import math

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.extension_schemas import (
    ANIMATION_POINTER,
    LIGHT,
    LIGHT_SPOT,
    SPOT_DEFAULTS,
)
from assetcheck.formats.gltf.extension_uses import (
    LIGHTS,
    VARIANTS,
    node_lights,
    root_items,
    root_pointer,
    variant_mappings,
)
from assetcheck.formats.gltf.fields import child, extensions_used, preview, read_number
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    animation_samplers,
    index_of,
    linked_extensions,
    resolves,
)
from assetcheck.formats.gltf.schema import SchemaWalker
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

CODES = (
    "EXTRA_PROPERTY",
    "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES",
    "KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT",
    "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE",
    "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH",
    "INCOMPLETE_EXTENSION_SUPPORT",
)


def _check_light(light: dict, at: str, walker: SchemaWalker, issues: FileIssues) -> None:
    kind = light.get("type")
    if kind != "spot":
        if "spot" in light:
            issues.add("EXTRA_PROPERTY", pointer=child(at, "spot"), name="spot")
        if kind == "directional" and not math.isnan(
            read_number(light, "range", LIGHT.properties["range"])
        ):
            issues.add("EXTRA_PROPERTY", pointer=child(at, "range"), name="range")
        return
    spot = light.get("spot")
    if spot is None:
        issues.add("UNDEFINED_PROPERTY", pointer=at, name="spot")
    elif not isinstance(spot, dict):
        issues.add(
            "TYPE_MISMATCH", pointer=child(at, "spot"), value=preview(spot), expected="an object"
        )
    else:
        walker.check_object(LIGHT_SPOT, spot, child(at, "spot"))
        inner, outer = (
            read_number(spot, key, LIGHT_SPOT.properties[key], SPOT_DEFAULTS[key])
            for key in ("innerConeAngle", "outerConeAngle")
        )
        if outer <= inner:  # False when either is NaN
            issues.add(
                "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES",
                pointer=child(child(at, "spot"), "outerConeAngle"),
                inner=preview(inner),
                outer=preview(outer),
            )


def _check_lights(document: dict, issues: FileIssues) -> None:
    lights = root_items(document, LIGHTS)
    walker = SchemaWalker(issues, extensions_used(document))
    for index, light in enumerate(lights or ()):
        _check_light(light, root_pointer(LIGHTS, index), walker, issues)
    if lights is None:
        for at, _ in node_lights(document):
            issues.add(
                "UNSATISFIED_DEPENDENCY",
                pointer=at,
                name=LIGHTS,
                dependency=f"/extensions/{LIGHTS}",
            )


def _check_variants(links: DocumentLinks, issues: FileIssues) -> None:
    linked = root_items(links.document, VARIANTS) is not None
    seen: dict[int, set[int]] = {}
    for mapping in variant_mappings(links):
        if not linked:
            issues.add(
                "UNSATISFIED_DEPENDENCY",
                pointer=mapping.pointer,
                name=VARIANTS,
                dependency=f"/extensions/{VARIANTS}",
            )
            continue
        unique = seen.setdefault(id(mapping.primitive), set())
        for pointer, index in mapping.variants:
            if index in unique:
                issues.add(
                    "KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT", pointer=pointer, index=index
                )
            unique.add(index)
        material = index_of(mapping.json, "material")
        needs = links.materials[material] if resolves(material, links.items("materials")) else None
        for texture, texcoord in needs.texcoords.items() if needs is not None else ():
            if texcoord != -1 and texcoord + 1 > mapping.primitive.semantics.texcoord_count:
                issues.add(
                    "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS",
                    pointer=child(mapping.pointer, "material"),
                    texture=texture,
                    texcoord=texcoord,
                )


def _check_animation_pointers(links: DocumentLinks, issues: FileIssues) -> None:
    if ANIMATION_POINTER not in linked_extensions(links.document):
        return
    for number, animation in enumerate(links.items("animations")):
        channels = (animation or {}).get("channels")
        if not isinstance(channels, list) or not all(isinstance(c, dict) for c in channels):
            continue
        linked = bool(animation_samplers(animation))
        for index, channel in enumerate(channels):
            target = channel.get("target")
            extensions = target.get("extensions") if isinstance(target, dict) else None
            if not isinstance(extensions, dict) or not isinstance(
                extensions.get(ANIMATION_POINTER), dict
            ):
                continue
            at = f"/animations/{number}/channels/{index}/target/extensions/{ANIMATION_POINTER}"
            issues.add("INCOMPLETE_EXTENSION_SUPPORT", pointer=at, name=ANIMATION_POINTER)
            if linked and resolves(index_of(target, "node"), links.items("nodes")):
                issues.add("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", pointer=at)
            path = target.get("path")
            if path != "pointer":
                issues.add(
                    "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH",
                    pointer=at,
                    path=preview(path if isinstance(path, str) else None),
                )


def check_extension_objects(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    _check_lights(links.document, context.issues)
    _check_variants(links, context.issues)
    _check_animation_pointers(links, context.issues)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-extension-objects",
            "Lights, material variants and animation pointers "
            "as their extensions define them, beyond the JSON schema.",
            check_extension_objects,
            CODES,
            GLTF_FORMATS,
        )
    ]
