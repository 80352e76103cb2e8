"""Textures: non-power-of-two sizes and the GPU memory all textures of a model take.

Sizes come from image headers (:mod:`assetcheck.formats.images`), never from decoding pixels; a KTX2
image's GPU memory is the one its structural parse computes from its levels
(:mod:`assetcheck.asset.gpu_memory`, ``docs/statistics.md``). glTF images with
non-power-of-two sizes are reported by the glTF image check, as Khronos does; this check
reports them for the other formats.
"""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.asset.gpu_memory import DECODED_BYTES_PER_PIXEL, MIPMAPS, gpu_bytes, sized
from assetcheck.checks import Check, CheckContext
from assetcheck.plugins.hookspecs import hookimpl

MB = 1_000_000
#: Base colour, normal, metallic-roughness and occlusion/emission: one full PBR material.
PBR_SET = 4

CODES = ("IMAGE_NPOT_DIMENSIONS", "TEXTURE_GPU_MEMORY")


def gpu_memory_limit(texture_size: int) -> float:
    """The most GPU memory a model's textures may take before it is worth saying: a full PBR
    set at the largest texture size the engine profile allows (89 MB at 2048 px, 358 MB at
    4096, 1.4 GB at 8192). A model over it needs that memory for its textures alone."""
    return PBR_SET * texture_size * texture_size * DECODED_BYTES_PER_PIXEL * MIPMAPS


def check_textures(asset: Asset, context: CheckContext) -> None:
    known = sized(asset.textures)
    if asset.document is None:
        for texture in known:
            width, height = texture.width, texture.height
            if width and height and not (_power_of_two(width) and _power_of_two(height)):
                context.issues.add("IMAGE_NPOT_DIMENSIONS", width=width, height=height)
    used = sum(gpu_bytes(texture) for texture in known)
    size = context.profile.budgets.texture_size
    limit = gpu_memory_limit(size)
    if used > limit:
        context.issues.add(
            "TEXTURE_GPU_MEMORY",
            megabytes=round(used / MB),
            images=len(known),
            size=size,
            engine=context.profile.name,
            limit=round(limit / MB),
        )


def _power_of_two(value: int) -> bool:
    return value & (value - 1) == 0


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "texture-memory",
            "Non-power-of-two textures outside glTF and the GPU "
            "memory of all textures against the engine profile.",
            check_textures,
            CODES,
        )
    ]
