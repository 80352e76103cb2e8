"""FBX animation curves under the rules of glTF animation keys (``docs/animations.md``): key
times that do not increase, values that are not finite, stacks of no length, curves that never
change, keys that interpolation makes redundant, Euler rotation keys that jump by more than half
a turn, and curves on models not connected to the scene.

The curves come from the reader (``FbxScene.curves``), every stack's laid end to end; the
constant and redundant-key rules are the format-neutral ones of :mod:`assetcheck.animation.keys`,
judging all the curves together. Findings are grouped by animated property (one curve node:
``Lcl Translation`` of a model, in one stack), each naming its first key.

The rules (:mod:`assetcheck.formats.fbx.animation_faults`) are imported by the first FBX file
with animation curves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:  # a run without FBX files never loads the rules
    from assetcheck.formats.fbx import animation_faults
else:
    animation_faults = lazy_module("assetcheck.formats.fbx.animation_faults")

CODES = (
    "FBX_ANIMATION_KEY_TIMES_NOT_INCREASING",
    "FBX_ANIMATION_VALUE_NOT_FINITE",
    "FBX_ANIMATION_ZERO_LENGTH",
    "FBX_ANIMATION_CURVE_CONSTANT",
    "FBX_ANIMATION_REDUNDANT_KEYS",
    "FBX_ANIMATION_ROTATION_JUMP",
    "FBX_ANIMATION_TARGET_NOT_IN_SCENE",
)


def check_fbx_animation_content(asset: Asset, context: CheckContext) -> None:
    if asset.fbx is None or asset.fbx.curves is None:
        return
    animation_faults.report_curve_faults(asset.fbx.curves, context.issues)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "fbx-animation-content",
            "FBX animation curves: key times that do not increase, keys that are not "
            "finite, stacks of no length, curves that never change, redundant keys, Euler "
            "rotations that jump by more than half a turn, models not in the scene.",
            check_fbx_animation_content,
            CODES,
            frozenset({"fbx"}),
        )
    ]
