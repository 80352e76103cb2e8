"""The ``standalone-vr`` engine profile, and a check that matters most on such headsets."""

from __future__ import annotations

from assetcheck import hookimpl
from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.issues import IssueArea, IssueType
from assetcheck.scoring.profiles import Budgets, EngineProfile

STANDALONE_VR = EngineProfile(
    "standalone-vr",
    "Standalone VR headsets (Quest class: mobile GPU, stereo, 72-120 Hz)",
    Budgets(
        triangles_per_file=50_000,
        triangles_per_mesh=25_000,
        materials=4,
        draw_calls=8,
        texture_size=2048,
        bones=64,
        influences_per_vertex=4,
        uv_sets=2,
        index_32bit=False,
        file_size_mb=16,
    ),
)

#: Image types a GPU cannot sample directly: they are decoded to 4 bytes per pixel on load.
UNCOMPRESSED_ON_GPU = frozenset({"image/png", "image/jpeg", "image/webp"})
BYTES_PER_PIXEL = 4
MIPMAPS = 4 / 3

UNCOMPRESSED_TEXTURE = IssueArea("vr").declare(
    "VR_UNCOMPRESSED_TEXTURE",
    "warning",
    "Texture {name} ({mime}, {width}x{height}) takes {megabytes:.1f} MB of GPU memory once "
    "decoded; headsets share a few GB between both eyes' frames and the whole scene.",
    "Ship the texture as KTX2 (Basis Universal, KHR_texture_basisu): about 4 to 8 times less "
    "memory, and no decoding on the headset.",
    title="Uncompressed texture too heavy for a headset",
    count_phrase="({megabytes:.1f} MB)",
)


def uncompressed_textures(asset: Asset, context: CheckContext) -> None:
    """On the standalone-vr profile only: every texture the GPU must hold uncompressed."""
    if context.profile.name != STANDALONE_VR.name:
        return
    for index, texture in enumerate(asset.textures):
        if texture.mime_type in UNCOMPRESSED_ON_GPU and texture.width and texture.height:
            megabytes = texture.width * texture.height * BYTES_PER_PIXEL * MIPMAPS / 1e6
            context.issues.add(
                UNCOMPRESSED_TEXTURE.code,
                name=texture.name,
                mime=texture.mime_type,
                width=texture.width,
                height=texture.height,
                megabytes=megabytes,
                pointer=f"/images/{index}" if asset.document is not None else None,
            )


@hookimpl
def register_engine_profiles() -> list[EngineProfile]:
    return [STANDALONE_VR]


@hookimpl
def register_issue_types() -> list[IssueType]:
    return [UNCOMPRESSED_TEXTURE]


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "uncompressed-textures",
            "Textures a headset must decode into GPU memory",
            uncompressed_textures,
            codes=(UNCOMPRESSED_TEXTURE.code,),
        )
    ]
