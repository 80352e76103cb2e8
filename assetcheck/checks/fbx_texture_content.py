"""What the pixels of an FBX file's embedded textures hold, against the material properties
they are connected to: normal maps that are not unit length, not in tangent space or saved in
sRGB; base colours outside the physically based range; textures of one colour; alpha channels
that are fully opaque or that an opaque material ignores (``docs/textures.md``, FBX).

Only embedded images a material property samples are decoded, each once, all of a file's in
one child process under the job's limits, as glTF's are
(:func:`assetcheck.formats.texture_rules.decode_contents`); their size is read from the header
first. Image files beside the model are not read: ``FBX_EXTERNAL_TEXTURE`` reports them.

The rules (:mod:`assetcheck.formats.fbx.texture_faults`) are imported by the first FBX file
with images.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:  # a run without FBX files never loads the rules
    from assetcheck.formats.fbx import texture_faults
else:
    texture_faults = lazy_module("assetcheck.formats.fbx.texture_faults")

CODES = (
    "TEXTURE_DECODE_REFUSED",
    "TEXTURE_DECODE_FAILED",
    "NORMAL_MAP_NOT_UNIT_LENGTH",
    "NORMAL_MAP_NOT_TANGENT_SPACE",
    "NORMAL_MAP_SRGB_ENCODED",
    "NORMAL_MAP_COLOR_PROFILE",
    "BASE_COLOR_OUTSIDE_PBR_RANGE",
    "TEXTURE_SINGLE_COLOR",
    "TEXTURE_ALPHA_OPAQUE",
    "TEXTURE_ALPHA_IGNORED",
)


def check_texture_content(asset: Asset, context: CheckContext) -> None:
    scene = asset.fbx
    if scene is None or not scene.images:
        return
    texture_faults.report_texture_faults(scene, context.issues, context.options.limits)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "fbx-texture-content",
            "What embedded FBX textures hold, decoded, against the material properties they "
            "feed: normal maps that are not unit length, not tangent space or saved in sRGB; "
            "base colours outside the PBR range; one-colour textures; unused or ignored alpha.",
            check_texture_content,
            CODES,
            frozenset({"fbx"}),
        )
    ]
