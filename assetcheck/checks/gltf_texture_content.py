"""What the pixels of a glTF's textures hold, against what the materials using them expect:
normal maps that are not unit length, not in tangent space or saved in sRGB; base colours
outside the physically based range; metallic-roughness channels that never change or are
swapped; textures of one colour; alpha channels that are fully opaque or ignored
(``docs/textures.md`` gives each rule, its threshold and source).

Only images a material samples are decoded, each once, all of a file's in one child process
under the job's limits (:mod:`assetcheck.formats.image_content`); their size is read from the
header first, and an image too large to decode is reported, not decoded. They are sent to the
decoder helper as soon as the file is read (the check's ``start``) and decode on another core
while the other checks run; the check collects them. KTX2 images stay
structural (they would need transcoding) and images whose structure the image check finds
broken are left to it.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.asset.options import Limits, ValidationOptions
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
    start_decoding,
    transparent_share,
)
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats import image_content
    from assetcheck.formats.image_content import ImageContent
    from assetcheck.sandbox.helper import Started
else:  # imported by the first file with an image to decode
    image_content = lazy_module("assetcheck.formats.image_content")

#: Values a metalness map is made of: a channel with this share of texels within
#: :data:`PURE` of black or white is "pure" (metal or not), as metalness is and roughness is
#: not.
PURE_SHARE, PURE = 0.9, 25

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


class _FileImages:
    """A file's images as the check sees them, found once per file (by the check's ``start``,
    or by its ``run`` when nothing was started): which ones to decode, which are refused for
    their size, and the names and materials their findings mention."""

    def __init__(self, asset: Asset, document: GltfDocument, limits: Limits) -> None:
        self.document = document
        self.links = document.links
        self.structures = image_structures(asset, self.links)
        self.limits = limits

    @cached_property
    def limit(self) -> int:
        """The most pixels an image may have to be decoded (asked only of a file with one)."""
        return image_content.decodable_pixels(self.limits.memory_limit_mb)

    def decoding(self) -> _Decoding:
        """The images a material samples to decode, each once, and those refused for their
        size, their decoding not sent yet."""
        sampled, refused = [], []
        for image in sampled_images(self.links).values():
            if self._decodable(image.index):
                if self.pixels(image.index) > self.limit:
                    refused.append(image.index)
                else:
                    sampled.append(image)
        return _Decoding(self, sampled, self._requests(sampled), refused)

    def _requests(self, sampled: list[SampledImage]) -> list[image_content.ContentRequest]:
        return [
            image_content.ContentRequest(
                # A view: the child reads it where it lies, the decoder helper out of band.
                memoryview(self.document.images[image.index]),
                self.pixels(image.index),
                normal=bool(image.used_as(NORMAL)),
                colour=bool(image.used_as(BASE_COLOR)),
            )
            for image in sampled
        ]

    def _decodable(self, index: int) -> bool:
        """Whether image ``index`` has bytes of a decoded format, a size its header gives and
        no structural fault (the image check's)."""
        structure = self.structures.get(index)
        return not (
            index not in self.document.images
            or structure is None
            or not structure.readable
            or structure.mime_type not in DECODED
            or not structure.width
            or not structure.height
        )

    def size(self, index: int) -> tuple[int, int]:
        """The width and height of image ``index`` as its header gives them (0 when unknown)."""
        structure = self.structures.get(index)
        return (structure.width or 0, structure.height or 0) if structure else (0, 0)

    def pixels(self, index: int) -> int:
        """The pixels of image ``index`` as its header gives them (0 when unknown)."""
        width, height = self.size(index)
        return width * height

    def image_name(self, index: int) -> str:
        return image_label(self.links, index)

    def material(self, number: int) -> dict:
        return resolve(number, self.links.items("materials")) or {}

    def material_name(self, number: int) -> str:
        return material_label(self.links, number)


@dataclass
class _Decoding:
    """The images of a file (:class:`_FileImages`) to decode (the sampled images and their
    requests) and those refused for their size (image indices), the decoding sent to the
    decoder helper as soon as the file is read (:meth:`start`); what the check reports on."""

    images: _FileImages
    sampled: list[SampledImage]
    requests: list[image_content.ContentRequest]
    refused: list[int]
    sent: Started[list[ImageContent | Exception]] | None = None

    def start(self) -> _Decoding:
        """This decoding, its images sent to be decoded."""
        if self.requests:
            self.sent = start_decoding(self.requests, self.images.limit, self.images.limits)
        return self

    def close(self) -> None:
        if self.sent is not None:
            self.sent.close()


class _ContentChecker:
    """Reports on the images of one file's :class:`_Decoding` into ``issues``."""

    def __init__(self, decoding: _Decoding, issues: FileIssues) -> None:
        self.decoding = decoding
        self.images = decoding.images
        self.issues = issues

    def check(self) -> None:
        """Report on the images of the decoding (sent or not; closed here)."""
        decoding, images = self.decoding, self.images
        with closing(decoding):
            for index in decoding.refused:
                self._refuse(index)
            if not decoding.sampled:
                return
            measured = decode_contents(
                decoding.requests, images.limit, images.limits, self.issues, decoding.sent
            )
        for image, content in zip(decoding.sampled, measured or [], strict=False):
            if isinstance(content, image_content.ImageContent):
                _ImageRules(self, image, content).report()
            elif isinstance(content, image_content.ImageTooLarge):
                self._refuse(image.index)
            else:
                self.issues.add(
                    "TEXTURE_DECODE_FAILED",
                    pointer=child("/images", image.index),
                    reason=f"image {images.image_name(image.index)} does not decode ({content})",
                )

    def _refuse(self, index: int) -> None:
        width, height = self.images.size(index)
        self.issues.add(
            "TEXTURE_DECODE_REFUSED",
            pointer=child("/images", index),
            image=self.images.image_name(index),
            width=width,
            height=height,
            limit=self.images.limit,
        )


class _ImageRules:
    """The rules on one decoded image, for each of its uses."""

    def __init__(
        self, checker: _ContentChecker, image: SampledImage, content: image_content.ImageContent
    ):
        self.images = checker.images
        self.issues = checker.issues
        self.image = image
        self.content = content
        self.name = self.images.image_name(image.index)

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
        self.issues.add(code, pointer=pointer, image=self.name, **fields)

    def _add_use(self, code: str, use: Use, **fields: object) -> None:
        self._add(code, use.pointer, material=self.images.material_name(use.material), **fields)

    def _check_single_color(self) -> bool:
        colour = single_color(self.content)
        if colour is None:
            return False
        self._add(
            "TEXTURE_SINGLE_COLOR",
            child("/images", self.image.index),
            megabytes=f"{gpu_megabytes(*self.images.size(self.image.index)):.2g}",
            **colour,
        )
        return True

    def _check_opaque_alpha(self) -> None:
        if opaque_alpha(self.content):
            self._add("TEXTURE_ALPHA_OPAQUE", child("/images", self.image.index))

    def _check_normal_map(self, use: Use) -> None:
        for code, fields in normal_map_findings(self.content):
            self._add_use(code, use, **fields)

    def _check_base_color(self, use: Use) -> None:
        # Metals may be brighter: the upper line is for materials that say they are not metal.
        metallic = _number(self.images.material(use.material), "metallicFactor", 1.0)
        for code, fields in base_color_findings(self.content, non_metal=metallic == 0):
            self._add_use(code, use, **fields)

    def _check_ignored_alpha(self, use: Use) -> None:
        mode = self.images.material(use.material).get("alphaMode", "OPAQUE")
        transparent = transparent_share(self.content)
        if mode == "OPAQUE" and transparent > REPORTED_SHARE:
            self._add_use("TEXTURE_ALPHA_IGNORED", use, percent=percent(transparent))

    def _check_metallic_roughness(self, use: Use) -> None:
        content = self.content
        factors = _pbr(self.images.material(use.material))
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
                green=percent(green),
                blue=percent(blue),
            )


def _pure_share(content: image_content.ImageContent, channel: int) -> float:
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


def start_texture_content(asset: Asset, options: ValidationOptions) -> _Decoding | None:
    """The check's ``start``: a file's textures are sent to the decoder helper as soon as the
    file is read, and decode on another core while the other checks run."""
    if asset.gltf is None:
        return None
    return _FileImages(asset, asset.gltf, options.limits).decoding().start()


def check_texture_content(asset: Asset, context: CheckContext) -> None:
    """The check's ``run``: reports on what its ``start`` sent, or decodes the file's images
    now when nothing was started (no ``start``, or one that crashed)."""
    if asset.gltf is None:
        return
    decoding = context.started
    if decoding is None:
        decoding = _FileImages(asset, asset.gltf, context.options.limits).decoding()
    _ContentChecker(decoding, context.issues).check()


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
            start=start_texture_content,
        )
    ]
