"""The rules ``KHR_texture_basisu`` adds to a KTX2 image it names as a texture source: a 2D
Basis Universal texture (ETC1S with BasisLZ, or UASTC with no or Zstandard supercompression),
sides that are multiples of 4, no swizzle or orientation other than the defaults, a full mip
chain when the sampler filters with mipmaps, and the sRGB transfer function for colour data,
linear for other data.

The extension also fixes the colour primaries (BT.709 for colour, unspecified for data); they
are not checked, because common encoders write BT.709 for every texture and no engine reads
them, while a wrong transfer function visibly changes the rendering."""

from __future__ import annotations

from dataclasses import dataclass, field

from assetcheck.formats.ktx2.dfd import MODEL_ETC1S, MODEL_UASTC
from assetcheck.formats.ktx2.key_values import text_value
from assetcheck.formats.ktx2.parse import Ktx2Image
from assetcheck.formats.ktx2.sizes import full_level_count
from assetcheck.issues.findings import Finding, Findings

#: The supercompression schemes each universal model allows under the extension.
ALLOWED_SCHEMES = {MODEL_ETC1S: (1,), MODEL_UASTC: (0, 2)}
#: KHR_DF_TRANSFER values the extension names.
TRANSFER_LINEAR, TRANSFER_SRGB = 1, 2
TRANSFER_NAMES = {0: "unspecified", TRANSFER_LINEAR: "linear", TRANSFER_SRGB: "sRGB"}
#: Key/value metadata the extension restricts, and the one value it allows.
DEFAULT_METADATA = {"KTXswizzle": "rgba", "KTXorientation": "rd"}


@dataclass
class BasisuUse:
    """How a document uses one image through the extension."""

    #: Some texture samples it with mipmaps (no sampler, or no minFilter, counts).
    needs_mipmaps: bool = False
    #: Each material slot that shows it: the slot's pointer and whether it holds colour.
    slots: list[tuple[str, bool]] = field(default_factory=list)


def use_findings(image: Ktx2Image, use: BasisuUse) -> tuple[Finding, ...]:
    """What ``image`` breaks of the extension as ``use`` says it is used: its rules
    (:func:`basisu_findings`), and the colour space rule once per kind of slot."""
    findings = basisu_findings(image, needs_mipmaps=use.needs_mipmaps)
    reported = set()
    for pointer, colour in use.slots:
        finding = color_space_finding(image, pointer, colour)
        if finding is not None and colour not in reported:
            reported.add(colour)
            findings += (finding,)
    return findings


def basisu_findings(image: Ktx2Image, needs_mipmaps: bool) -> tuple[Finding, ...]:
    """What ``image`` breaks of the extension; ``needs_mipmaps``: some texture samples it
    with a mipmap filter (or with no sampler, which means the same)."""
    header, data_format = image.header, image.data_format
    findings = Findings()
    if header is None:
        return ()
    if header.vk_format != 0:
        findings.add(
            "KTX2_BASISU_FORMAT_INVALID",
            reason=f"vkFormat is {header.vk_format}, not 0 (VK_FORMAT_UNDEFINED)",
        )
    if data_format is not None:
        allowed = ALLOWED_SCHEMES.get(data_format.color_model)
        if allowed is None:
            findings.add(
                "KTX2_BASISU_FORMAT_INVALID",
                reason=f"the colour model is {data_format.model_name}, not ETC1S or UASTC",
            )
        elif header.scheme not in allowed:
            findings.add(
                "KTX2_BASISU_FORMAT_INVALID",
                reason=(
                    f"{data_format.model_name} allows supercompressionScheme "
                    f"{' or '.join(map(str, allowed))}, not {header.scheme}"
                ),
            )
    kind = _texture_kind(header.height, header.depth, header.layers, header.faces)
    if kind is not None:
        findings.add("KTX2_BASISU_NOT_2D", kind=kind)
    if header.width % 4 or header.height % 4:
        findings.add("KTX2_BASISU_DIMENSIONS", width=header.width, height=header.height)
    for key, default in DEFAULT_METADATA.items():
        if key in image.key_values and text_value(image.key_values[key]) != default:
            findings.add(
                "KTX2_BASISU_METADATA",
                key=key,
                value=text_value(image.key_values[key]),
                default=default,
            )
    full = full_level_count(header)
    if needs_mipmaps and 0 < header.level_count < full:
        findings.add("KTX2_MIPMAPS_INCOMPLETE", levels=header.level_count, full=full)
    return tuple(findings)


def color_space_finding(image: Ktx2Image, usage: str, colour: bool) -> Finding | None:
    """``KTX2_BASISU_COLOR_SPACE`` when the descriptor's transfer function does not suit a use
    as ``usage``, colour data or not; None when it does or the descriptor is unknown."""
    if image.data_format is None:
        return None
    actual, expected = (
        image.data_format.transfer_function,
        TRANSFER_SRGB if colour else TRANSFER_LINEAR,
    )
    if actual == expected:
        return None
    return Finding(
        "KTX2_BASISU_COLOR_SPACE",
        usage=usage,
        transfer=TRANSFER_NAMES.get(actual, str(actual)),
        expected=TRANSFER_NAMES[expected],
    )


def _texture_kind(height: int, depth: int, layers: int, faces: int) -> str | None:
    """What the texture is when it is not 2D, or None."""
    if faces == 6:
        return "a cube map"
    if layers:
        return f"an array of {layers} layers"
    if depth:
        return f"a 3D texture {depth} deep"
    if height == 0:
        return "a 1D texture"
    return None
