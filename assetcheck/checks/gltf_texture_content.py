"""What the pixels of a glTF's textures hold, against what the materials using them expect:
normal maps that are not unit length, not in tangent space or saved in sRGB; base colours
outside the physically based range; metallic-roughness channels that never change or are
swapped; textures of one colour; alpha channels that are fully opaque or ignored
(``docs/textures.md`` gives each rule, its threshold and source).

Only images a material samples are decoded, each once, all of a file's in one child process
under the job's limits (:mod:`assetcheck.formats.image_content`); their size is read from the
header first, and an image too large to decode is reported, not decoded. KTX2 images stay
structural (they would need transcoding) and images whose structure the image check finds
broken are left to it.
"""

from __future__ import annotations

from functools import partial

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import resolve
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.texture_uses import (
    BASE_COLOR,
    METALLIC_ROUGHNESS,
    NORMAL,
    SampledImage,
    Use,
    image_label,
    image_structures,
    material_label,
    sampled_images,
)
from assetcheck.formats.image_content import (
    RESULT_TYPES,
    UNIT_LENGTH_TOLERANCE,
    ContentRequest,
    ImageContent,
    ImageTooLarge,
    decodable_pixels,
    load_decoders,
    measure_all,
)
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

#: The formats decoded; KTX2 (Basis Universal) would need transcoding and stays structural.
DECODED = frozenset({"image/png", "image/jpeg", "image/webp"})
#: Khronos 3D Commerce Real-time Asset Creation Guidelines 1.0: base colours from 30 to 240
#: in sRGB (a texel's brightest channel at least 30; its darkest at most 240, for non-metals).
PBR_DARKEST, PBR_BRIGHTEST = 30, 240
#: The share of texels past a rule's line before it is reported, so that a few texels
#: (seams, padding, anti-aliased edges) decide nothing.
REPORTED_SHARE = 0.05
#: A normal map whose vectors average at least this far along +x and along +y is taken for
#: one saved in sRGB: the flat vector, stored 128, 128, 255, averages 0; sRGB-encoded it is
#: 188, 188, 255, 0.47 along each.
SRGB_LEAN = 0.25
#: Values a metalness map is made of: a channel with this share of texels within
#: :data:`PURE` of black or white is "pure" (metal or not), as metalness is and roughness is
#: not.
PURE_SHARE, PURE = 0.9, 25
#: Texels with alpha below this are transparent enough to matter under alphaMode OPAQUE.
TRANSPARENT = 250

CODES = (
    "TEXTURE_DECODE_REFUSED",
    "TEXTURE_DECODE_FAILED",
    "NORMAL_MAP_NOT_UNIT_LENGTH",
    "NORMAL_MAP_NOT_TANGENT_SPACE",
    "NORMAL_MAP_SRGB_ENCODED",
    "NORMAL_MAP_COLOR_PROFILE",
    "BASE_COLOR_OUTSIDE_PBR_RANGE",
    "METALLIC_ROUGHNESS_CONSTANT",
    "METALLIC_ROUGHNESS_SWAPPED",
    "TEXTURE_SINGLE_COLOR",
    "TEXTURE_ALPHA_OPAQUE",
    "TEXTURE_ALPHA_IGNORED",
)


class _ContentChecker:
    def __init__(self, asset: Asset, document: GltfDocument, context: CheckContext) -> None:
        self.document = document
        self.links = document.links
        self.structures = image_structures(asset, self.links)
        self.issues: FileIssues = context.issues
        self.limits = context.options.limits
        self.limit = decodable_pixels(self.limits.memory_limit_mb)

    def check(self) -> None:
        sampled = [
            image for image in sampled_images(self.links).values() if self._decodable(image.index)
        ]
        if not sampled:
            return
        requests = [
            ContentRequest(
                self.document.images[image.index],  # the child reads it where it lies
                self._pixels(image.index),
                normal=bool(image.used_as(NORMAL)),
                colour=bool(image.used_as(BASE_COLOR)),
            )
            for image in sampled
        ]
        load_decoders()
        from assetcheck.sandbox.decoder import run_decoder

        measured = run_decoder(
            partial(measure_all, requests, self.limit),
            self.limits,
            self.issues,
            "TEXTURE_DECODE_FAILED",
            result_types=RESULT_TYPES,
        )
        for image, content in zip(sampled, measured or [], strict=False):
            if isinstance(content, ImageContent):
                _ImageRules(self, image, content).report()
            elif isinstance(content, ImageTooLarge):
                self._refuse(image.index)
            else:
                self.issues.add(
                    "TEXTURE_DECODE_FAILED",
                    pointer=child("/images", image.index),
                    reason=f"image {self.image_name(image.index)} does not decode ({content})",
                )

    def _decodable(self, index: int) -> bool:
        """Whether image ``index`` has bytes of a decoded format, a size its header gives
        within the limit (reported when over it) and no structural fault (the image check's)."""
        structure = self.structures.get(index)
        if (
            index not in self.document.images
            or structure is None
            or not structure.readable
            or structure.mime_type not in DECODED
            or not structure.width
            or not structure.height
        ):
            return False
        if self._pixels(index) > self.limit:
            self._refuse(index)
            return False
        return True

    def _pixels(self, index: int) -> int:
        """The pixels of image ``index`` as its header gives them (0 when unknown)."""
        structure = self.structures.get(index)
        return (structure.width or 0) * (structure.height or 0) if structure else 0

    def _refuse(self, index: int) -> None:
        structure = self.structures.get(index)
        width, height = (structure.width or 0, structure.height or 0) if structure else (0, 0)
        self.issues.add(
            "TEXTURE_DECODE_REFUSED",
            pointer=child("/images", index),
            image=self.image_name(index),
            width=width,
            height=height,
            limit=self.limit,
        )

    def image_name(self, index: int) -> str:
        return image_label(self.links, index)

    def material(self, number: int) -> dict:
        return resolve(number, self.links.items("materials")) or {}

    def material_name(self, number: int) -> str:
        return material_label(self.links, number)


class _ImageRules:
    """The rules on one decoded image, for each of its uses."""

    def __init__(self, checker: _ContentChecker, image: SampledImage, content: ImageContent):
        self.checker = checker
        self.image = image
        self.content = content
        self.name = checker.image_name(image.index)

    def report(self) -> None:
        single = self._check_single_color()
        if not single:
            self._check_opaque_alpha()
        for use in self.image.used_as(NORMAL):
            self._check_normal_map(use)
        for use in self.image.used_as(BASE_COLOR):
            self._check_base_color(use)
            self._check_ignored_alpha(use)
        if not single:
            for use in self.image.used_as(METALLIC_ROUGHNESS):
                self._check_metallic_roughness(use)

    def _add(self, code: str, pointer: str, **fields: object) -> None:
        self.checker.issues.add(code, pointer=pointer, image=self.name, **fields)

    def _add_use(self, code: str, use: Use, **fields: object) -> None:
        self._add(code, use.pointer, material=self.checker.material_name(use.material), **fields)

    def _check_single_color(self) -> bool:
        content = self.content
        extremes = [content.extremes(channel) for channel in range(4)]
        if any(low != high for low, high in extremes):
            return False
        red, green, blue, alpha = (low for low, _ in extremes)
        self._add(
            "TEXTURE_SINGLE_COLOR",
            child("/images", self.image.index),
            red=red,
            green=green,
            blue=blue,
            alpha=alpha,
            megabytes=f"{_gpu_megabytes(self.checker, self.image.index):.2g}",
        )
        return True

    def _check_opaque_alpha(self) -> None:
        if self.content.has_alpha and self.content.extremes(3)[0] == 255:
            self._add("TEXTURE_ALPHA_OPAQUE", child("/images", self.image.index))

    def _check_normal_map(self, use: Use) -> None:
        normals = self.content.normals
        if normals is None or not normals.texels:
            return
        below = normals.below_surface / normals.texels
        if below > REPORTED_SHARE:
            self._add_use("NORMAL_MAP_NOT_TANGENT_SPACE", use, percent=_percent(below))
            return
        not_unit = normals.not_unit / normals.texels
        if normals.mean_x >= SRGB_LEAN and normals.mean_y >= SRGB_LEAN:
            self._add_use(
                "NORMAL_MAP_SRGB_ENCODED", use, mean_x=normals.mean_x, mean_y=normals.mean_y
            )
        elif not_unit > REPORTED_SHARE:
            self._add_use(
                "NORMAL_MAP_NOT_UNIT_LENGTH",
                use,
                percent=_percent(not_unit),
                tolerance=UNIT_LENGTH_TOLERANCE,
            )
        if self.content.colour_hints:
            self._add_use(
                "NORMAL_MAP_COLOR_PROFILE", use, hints=", ".join(self.content.colour_hints)
            )

    def _check_base_color(self, use: Use) -> None:
        content = self.content
        if content.brightest is None or content.darkest is None:
            return
        counted = sum(content.brightest)
        if not counted:
            return
        dark = sum(content.brightest[:PBR_DARKEST]) / counted
        # Metals may be brighter: the upper line is for materials that say they are not metal.
        metallic = _number(self.checker.material(use.material), "metallicFactor", 1.0)
        bright = sum(content.darkest[PBR_BRIGHTEST + 1 :]) / counted if metallic == 0 else 0.0
        for share, direction, look in (
            (dark, "darker", "flat and dirty"),
            (bright, "brighter", "glowing"),
        ):
            if share > REPORTED_SHARE:
                self._add_use(
                    "BASE_COLOR_OUTSIDE_PBR_RANGE",
                    use,
                    percent=_percent(share),
                    direction=direction,
                    look=look,
                    low=PBR_DARKEST,
                    high=PBR_BRIGHTEST,
                )

    def _check_ignored_alpha(self, use: Use) -> None:
        content = self.content
        mode = self.checker.material(use.material).get("alphaMode", "OPAQUE")
        if not content.has_alpha or mode != "OPAQUE":
            return
        transparent = content.share(3, 0, TRANSPARENT - 1)
        if transparent > REPORTED_SHARE:
            self._add_use("TEXTURE_ALPHA_IGNORED", use, percent=_percent(transparent))

    def _check_metallic_roughness(self, use: Use) -> None:
        content = self.content
        factors = _pbr(self.checker.material(use.material))
        for channel, label, key in (
            (1, "green (roughness)", "roughnessFactor"),
            (2, "blue (metalness)", "metallicFactor"),
        ):
            low, high = content.extremes(channel)
            if low == high:
                self._add_use(
                    "METALLIC_ROUGHNESS_CONSTANT",
                    use,
                    channel=label,
                    value=low,
                    factor=key,
                    scaled=_number(factors, key, 1.0) * low / 255,
                )
        # Swapped: green is pure as metalness is, blue is not; both vary (a constant channel
        # is reported above, and says nothing of what the other holds).
        green, blue = _pure_share(content, 1), _pure_share(content, 2)
        varies = all(len(set(content.extremes(channel))) == 2 for channel in (1, 2))
        if varies and green >= PURE_SHARE and blue < PURE_SHARE / 2:
            self._add_use(
                "METALLIC_ROUGHNESS_SWAPPED",
                use,
                green=_percent(green),
                blue=_percent(blue),
            )


def _pure_share(content: ImageContent, channel: int) -> float:
    return content.share(channel, 0, PURE) + content.share(channel, 255 - PURE, 255)


def _pbr(material: dict) -> dict:
    pbr = material.get("pbrMetallicRoughness")
    return pbr if isinstance(pbr, dict) else {}


def _number(json: dict, key: str, default: float) -> float:
    """A material factor: ``key`` of ``json`` (or of its ``pbrMetallicRoughness``) when a
    number, else ``default``."""
    value = json.get(key, _pbr(json).get(key, default))
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if number else default


def _percent(share: float) -> str:
    return f"{share * 100:.3g}"


def _gpu_megabytes(checker: _ContentChecker, index: int) -> float:
    """The GPU memory of the image as engines store it: RGBA8 with its mip chain."""
    structure = checker.structures.get(index)
    width, height = (structure.width or 0, structure.height or 0) if structure else (0, 0)
    return width * height * 4 * 4 / 3 / 1e6


def check_texture_content(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _ContentChecker(asset, asset.gltf, context).check()


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-texture-content",
            "What textures hold, decoded: normal maps that are not unit length, not tangent "
            "space or saved in sRGB; base colours outside the PBR range; metallic-roughness "
            "channels constant or swapped; one-colour textures; unused or ignored alpha.",
            check_texture_content,
            CODES,
            GLTF_FORMATS,
        )
    ]
