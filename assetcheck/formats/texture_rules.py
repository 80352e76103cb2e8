"""The texture content rules every format's texture check applies to a decoded image's
statistics (:class:`~assetcheck.formats.image_content.ImageContent`): pure functions giving
each finding as its code and message fields, and the one way to decode a file's images in the
sandboxed child (``docs/textures.md`` gives each rule, its threshold and source).
"""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING

from assetcheck.asset.options import Limits
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module

if TYPE_CHECKING:
    from assetcheck.formats import image_content
    from assetcheck.formats.image_content import ContentRequest, ImageContent
    from assetcheck.sandbox.helper import Started
else:  # imported by the first file with an image to decode
    image_content = lazy_module("assetcheck.formats.image_content")

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
#: Texels with alpha below this are transparent enough to matter on an opaque material.
TRANSPARENT = 250

#: How many times denser than needed a texture may be before it is reported: room for
#: zooming in to a quarter of the model, and one mip level of sharpness to spare.
DENSITY_MARGIN = 8.0

#: A finding: its code and its message fields.
Finding = tuple[str, dict[str, object]]


def start_decoding(
    requests: list[ContentRequest], limit: int, limits: Limits
) -> Started[list[ImageContent | Exception]]:
    """Each request sent now to be measured in one sandboxed child under ``limits`` (images
    of more than ``limit`` pixels refused there too), while the caller goes on; collected by
    :func:`decode_contents`. Close it (a ``with`` block) whatever happens."""
    image_content.load_decoders()  # before the fork: the child imports nothing
    from assetcheck.sandbox.decoder import start_decoder

    return start_decoder(
        partial(image_content.measure_all, requests, limit),
        limits,
        result_types=image_content.RESULT_TYPES,
    )


def decode_contents(
    requests: list[ContentRequest],
    limit: int,
    limits: Limits,
    issues: FileIssues,
    started: Started[list[ImageContent | Exception]] | None = None,
) -> list[ImageContent | Exception] | None:
    """Each request measured in one sandboxed child under ``limits`` (images of more than
    ``limit`` pixels refused there too), or the measures of ``started`` (the same requests'
    :func:`start_decoding`, sent earlier), which is closed here; None when the child failed,
    which is reported as ``TEXTURE_DECODE_FAILED`` (or the limit it hit)."""
    from assetcheck.sandbox.decoder import decoded

    with started or start_decoding(requests, limit, limits) as sent:
        return decoded(sent, limits, issues, "TEXTURE_DECODE_FAILED")


def single_color(content: ImageContent) -> dict[str, object] | None:
    """``TEXTURE_SINGLE_COLOR``'s colour fields when every texel holds one colour."""
    extremes = [content.extremes(channel) for channel in range(4)]
    if any(low != high for low, high in extremes):
        return None
    red, green, blue, alpha = (low for low, _ in extremes)
    return {"red": red, "green": green, "blue": blue, "alpha": alpha}


def opaque_alpha(content: ImageContent) -> bool:
    """Whether the image has an alpha channel that is 255 at every texel."""
    return content.has_alpha and content.extremes(3)[0] == 255


def normal_map_findings(content: ImageContent) -> list[Finding]:
    """The findings on a normal map: not in tangent space (then nothing else is judged), else
    saved in sRGB or not unit length; and a colour profile in its file."""
    normals = content.normals
    if normals is None or not normals.texels:
        return []
    below = normals.below_surface / normals.texels
    if below > REPORTED_SHARE:
        return [("NORMAL_MAP_NOT_TANGENT_SPACE", {"percent": percent(below)})]
    found: list[Finding] = []
    not_unit = normals.not_unit / normals.texels
    if normals.mean_x >= SRGB_LEAN and normals.mean_y >= SRGB_LEAN:
        found.append(
            ("NORMAL_MAP_SRGB_ENCODED", {"mean_x": normals.mean_x, "mean_y": normals.mean_y})
        )
    elif not_unit > REPORTED_SHARE:
        found.append(
            (
                "NORMAL_MAP_NOT_UNIT_LENGTH",
                {"percent": percent(not_unit), "tolerance": image_content.UNIT_LENGTH_TOLERANCE},
            )
        )
    if content.colour_hints:
        found.append(("NORMAL_MAP_COLOR_PROFILE", {"hints": ", ".join(content.colour_hints)}))
    return found


def base_color_findings(content: ImageContent, non_metal: bool) -> list[Finding]:
    """Base colour texels darker than the PBR range, and, for a material that says it is not
    metal (metals may be brighter), brighter than it."""
    if content.brightest is None or content.darkest is None:
        return []
    counted = sum(content.brightest)
    if not counted:
        return []
    dark = sum(content.brightest[:PBR_DARKEST]) / counted
    bright = sum(content.darkest[PBR_BRIGHTEST + 1 :]) / counted if non_metal else 0.0
    return [
        (
            "BASE_COLOR_OUTSIDE_PBR_RANGE",
            {
                "percent": percent(share),
                "direction": direction,
                "look": look,
                "low": PBR_DARKEST,
                "high": PBR_BRIGHTEST,
            },
        )
        for share, direction, look in (
            (dark, "darker", "flat and dirty"),
            (bright, "brighter", "glowing"),
        )
        if share > REPORTED_SHARE
    ]


def transparent_share(content: ImageContent) -> float:
    """The share of texels transparent enough to matter on an opaque material (0 without an
    alpha channel)."""
    return content.share(3, 0, TRANSPARENT - 1) if content.has_alpha else 0.0


def percent(share: float) -> str:
    return f"{share * 100:.3g}"


def gpu_megabytes(width: int, height: int) -> float:
    """The GPU memory of an image as engines store it: RGBA8 with its mip chain."""
    return width * height * 4 * 4 / 3 / 1e6


def density_fields(
    width: int, height: int, uv: float, surface: float, size: float, screen: int
) -> dict[str, object] | None:
    """``TEXTURE_DENSITY_EXCESSIVE``'s fields (but the image's and material's names) when an
    image of ``width`` x ``height`` covering ``uv`` texture units on ``surface`` square
    metres is more than :data:`DENSITY_MARGIN` times denser than a screen of ``screen``
    pixels showing the whole model, ``size`` metres across, shows; else None."""
    if uv <= 0 or surface <= 0 or size <= 0:
        return None
    needed = screen / size
    density = math.sqrt(width * height * uv / surface)
    if not math.isfinite(density) or density <= DENSITY_MARGIN * needed:
        return None
    return {
        "width": width,
        "height": height,
        "density": round(density),
        "needed": round(needed),
        "ratio": density / needed,
        "screen": screen,
        "suggested": _power_of_two_at_least(max(width, height) * needed / density),
    }


def _power_of_two_at_least(value: float) -> int:
    return 1 << max(0, math.ceil(math.log2(max(value, 1.0))))
