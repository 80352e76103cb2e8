"""Textures: non-power-of-two sizes and the GPU memory all textures of a model take.

Sizes come from image headers (:mod:`assetcheck.formats.images`), never from decoding pixels;
each texture's GPU memory is its full mip chain computed level by level in the format the
engine stores it (:func:`assetcheck.formats.texture_memory.gpu_memory`, ``docs/statistics.md``).
glTF images with non-power-of-two sizes are reported by the glTF image check, as Khronos does;
this check reports them for the other formats.
"""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.texture_memory import (
    DECODED_BLOCK,
    DECODED_BYTES_PER_TEXEL,
    mip_chain,
    texture_memory,
)
from assetcheck.plugins.hookspecs import hookimpl

MB = 1_000_000
#: Base colour, normal, metallic-roughness and occlusion/emission: one full PBR material.
PBR_SET = 4

CODES = ("IMAGE_NPOT_DIMENSIONS", "TEXTURE_GPU_MEMORY")


def gpu_memory_limit(texture_size: int) -> int:
    """The most GPU memory a model's textures may take before it is worth saying: a full PBR
    set of RGBA8 textures with full mip chains at the largest texture size the engine profile
    allows (89 MB at 2048 px, 358 MB at 4096, 1.4 GB at 8192). A model over it needs that
    memory for its textures alone."""
    chain = mip_chain(texture_size, texture_size, DECODED_BLOCK, DECODED_BYTES_PER_TEXEL)
    return PBR_SET * sum(chain)


def check_textures(asset: Asset, context: CheckContext) -> None:
    if asset.document is None:
        for texture in asset.textures:
            width, height = texture.width, texture.height
            if width and height and not (_power_of_two(width) and _power_of_two(height)):
                context.issues.add("IMAGE_NPOT_DIMENSIONS", width=width, height=height)
    textures = texture_memory(asset)
    used = sum(texture.memory.bytes for texture in textures)
    size = context.profile.budgets.texture_size
    limit = gpu_memory_limit(size)
    if used > limit:
        context.issues.add(
            "TEXTURE_GPU_MEMORY",
            megabytes=round(used / MB),
            images=len(textures),
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
