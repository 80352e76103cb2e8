"""What the pixels of an FBX scene's embedded images say against the material properties that
sample them: found here, reported by the ``fbx-texture-content`` check
(:mod:`assetcheck.checks.fbx_texture_content`), which imports this module for the first FBX file
with images: other runs never load it (``docs/performance.md``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assetcheck.asset.options import Limits
from assetcheck.formats.images import image_info
from assetcheck.formats.texture_rules import (
    DECODED,
    REPORTED_SHARE,
    base_color_findings,
    decode_contents,
    gpu_megabytes,
    normal_map_findings,
    opaque_alpha,
    percent,
    single_color,
    transparent_share,
)
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module

if TYPE_CHECKING:
    from assetcheck.formats import image_content
    from assetcheck.formats.fbx.model import FbxMaterial, FbxScene, FbxTextureSlot
else:  # imported by the first file with an image to decode
    image_content = lazy_module("assetcheck.formats.image_content")

#: The material properties whose texture is a base colour: FBX's own (Lambert, Phong, and
#: Blender's export; ``Diffuse`` is FBX 6's layer), Maya's Standard Surface and Stingray PBS,
#: 3ds Max's PBR and Physical materials.
BASE_COLOR_SLOTS = frozenset(
    {
        "DiffuseColor",
        "Diffuse",
        "Maya|baseColor",
        "Maya|TEX_color_map",
        "3dsMax|main|base_color_map",
        "3dsMax|Parameters|base_color_map",
    }
)
#: The properties whose texture is a tangent-space normal map. ``Bump`` is left out: it holds
#: a height map as often as a normal map.
NORMAL_SLOTS = frozenset(
    {
        "NormalMap",
        "Maya|normalCamera",
        "Maya|TEX_normal_map",
        "3dsMax|main|norm_map",
    }
)
#: The properties whose texture says how opaque the surface is: a material with one uses
#: alpha.
OPACITY_SLOTS = frozenset(
    {
        "TransparentColor",
        "TransparencyFactor",
        "Transparent",
        "Maya|opacity",
        "Maya|transmission",
        "3dsMax|main|opacity_map",
        "3dsMax|Parameters|cutout_map",
        "3dsMax|Parameters|transparency_map",
    }
)
#: The properties that give a material's metalness (0 says it is not metal).
METALNESS = ("Maya|metalness", "3dsMax|main|metalness", "3dsMax|Parameters|metalness")


@dataclass(frozen=True)
class _Use:
    """One material property sampling an image."""

    material: FbxMaterial
    slot: FbxTextureSlot

    @property
    def label(self) -> str:
        """The material and the property, as an artist finds them: ``Wood (slot NormalMap)``."""
        return self.material.slot_label(self.slot)


def report_texture_faults(scene: FbxScene, issues: FileIssues, limits: Limits) -> None:
    """Report what the images the materials of ``scene`` sample hold, decoded under ``limits``
    (``scene`` has images)."""
    uses: dict[int, list[_Use]] = defaultdict(list)
    for material in scene.materials:
        for slot in material.slots:
            if slot.image is not None:
                uses[slot.image].append(_Use(material, slot))
    limit = image_content.decodable_pixels(limits.memory_limit_mb)
    decoded: list[tuple[int, tuple[int, int]]] = []
    requests = []
    for index in uses:
        data = scene.image_data(index)
        info = image_info(data) if data is not None else None
        if data is None or info is None or info.mime_type not in DECODED:
            continue  # not an image format that is decoded (TGA, DDS...), or unreadable
        size = (info.width or 0, info.height or 0)
        if size[0] * size[1] > limit:
            _refuse(issues, scene, index, size, limit)
            continue
        slots = {use.slot.slot for use in uses[index]}
        requests.append(
            image_content.ContentRequest(
                data,
                size[0] * size[1],
                normal=bool(slots & NORMAL_SLOTS),
                colour=bool(slots & BASE_COLOR_SLOTS),
            )
        )
        decoded.append((index, size))
    if not requests:
        return
    measured = decode_contents(requests, limit, limits, issues)
    for (index, size), content in zip(decoded, measured or [], strict=False):
        if isinstance(content, image_content.ImageContent):
            _ImageRules(issues, scene.images[index].label, size, uses[index], content).report()
        elif isinstance(content, image_content.ImageTooLarge):
            _refuse(issues, scene, index, size, limit)
        else:
            issues.add(
                "TEXTURE_DECODE_FAILED",
                reason=f"image {scene.images[index].label} does not decode ({content})",
            )


def _refuse(
    issues: FileIssues, scene: FbxScene, index: int, size: tuple[int, int], limit: int
) -> None:
    issues.add(
        "TEXTURE_DECODE_REFUSED",
        image=scene.images[index].label,
        width=size[0],
        height=size[1],
        limit=limit,
    )


class _ImageRules:
    """The rules on one decoded image, for each material property that samples it."""

    def __init__(
        self,
        issues: FileIssues,
        name: str,
        size: tuple[int, int],
        uses: list[_Use],
        content: image_content.ImageContent,
    ) -> None:
        self.issues = issues
        self.name = name
        self.size = size
        self.uses = uses
        self.content = content

    def report(self) -> None:
        colour = single_color(self.content)
        if colour is not None:
            megabytes = f"{gpu_megabytes(*self.size):.2g}"
            self.issues.add("TEXTURE_SINGLE_COLOR", image=self.name, megabytes=megabytes, **colour)
        elif opaque_alpha(self.content):
            self.issues.add("TEXTURE_ALPHA_OPAQUE", image=self.name)
        for use in self.uses:
            if use.slot.slot in NORMAL_SLOTS:
                for code, fields in normal_map_findings(self.content):
                    self._add(code, use, fields)
            if use.slot.slot in BASE_COLOR_SLOTS:
                for code, fields in base_color_findings(self.content, _non_metal(use.material)):
                    self._add(code, use, fields)
                self._check_ignored_alpha(use)

    def _add(self, code: str, use: _Use, fields: dict[str, object]) -> None:
        self.issues.add(code, image=self.name, material=use.label, **fields)

    def _check_ignored_alpha(self, use: _Use) -> None:
        """Transparent texels in a base colour on a material that says it is opaque: no
        texture on an opacity property, no transparency factor, full opacity."""
        share = transparent_share(self.content)
        if share > REPORTED_SHARE and _opaque(use.material):
            self._add("TEXTURE_ALPHA_IGNORED", use, {"percent": percent(share)})


def _opaque(material: FbxMaterial) -> bool:
    """Whether the material draws opaque: no texture on an opacity property, no
    ``TransparencyFactor`` above 0 and no ``Opacity`` under 1."""
    if any(slot.slot in OPACITY_SLOTS for slot in material.slots):
        return False
    transparency = material.properties.get("TransparencyFactor") or [0.0]
    opacity = material.properties.get("Opacity") or [1.0]
    return transparency[0] <= 0 and opacity[0] >= 1


def _non_metal(material: FbxMaterial) -> bool:
    """Whether the material says it is not metal: a metalness of 0 and no metalness texture
    (a Lambert or Phong material says nothing of metal)."""
    metalness = [material.properties.get(name) for name in METALNESS]
    textured = any("metal" in slot.slot.lower() for slot in material.slots)
    return not textured and any(value is not None and value[:1] == [0.0] for value in metalness)
