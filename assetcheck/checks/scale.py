"""Scale and placement: the model's size in metres against what the profile finds plausible
(with the unit mistake that most likely explains it), its origin against its base, and its
dimensions against the real product's (``options.dimensions``); ``docs/scale.md``.

Every format is measured in metres, +Y up: glTF in its own unit, FBX through its unit and axis
system, OBJ taken as metres (:mod:`assetcheck.mesh.bounds`).
"""

from __future__ import annotations

import numpy as np

from assetcheck.asset import Asset
from assetcheck.asset.dimensions import ProductDimensions
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.links import DocumentLinks, index_list, index_of, resolve
from assetcheck.mesh.bounds import Box, describe_length, polygon_scene_box
from assetcheck.plugins.hookspecs import hookimpl

#: The unit mistakes that make a model too large, most common first: how many times too large
#: each makes it. The first that brings the model to a typical size is reported, else the
#: first that brings it into the profile's range (``docs/scale.md``).
TOO_LARGE_BECAUSE = (
    ("centimetres exported as metres", 100.0),
    ("millimetres exported as metres", 1000.0),
    ("inches exported as metres", 1 / 0.0254),
)
#: The unit mistakes that make a model too small, most common first.
TOO_SMALL_BECAUSE = (
    ("a conversion to metres applied to centimetres twice", 100.0),
    ("a conversion to metres applied to millimetres twice", 1000.0),
    ("metres read as inches", 1 / 0.0254),
)
#: The sizes most models have (furniture, people, vehicles, props), in metres: among the unit
#: mistakes that bring a model into the profile's range, one that makes it this size wins.
TYPICAL_SIZES = (0.1, 10.0)
#: How far the origin may be from the centre of the model's base, in model sizes (its
#: largest side): an origin at a corner of the base or at the top of a cube is within it.
PIVOT_DISTANCE = 1.0
#: How much each side may differ from the product's: the Khronos glTF Asset Auditor's
#: recommended ``percentTolerance`` of the 3D Commerce guidelines, 3 % (``docs/scale.md``).
DIMENSION_TOLERANCE = 0.03

CODES = (
    "MODEL_EXTREMELY_LARGE",
    "MODEL_EXTREMELY_SMALL",
    "MODEL_PIVOT_FAR_FROM_BASE",
    "MODEL_DIMENSIONS_MISMATCH",
)


def describe_box(sides: np.ndarray | list[float]) -> str:
    """Sides in metres as ``0.6 x 0.9 x 0.4 m`` (3 significant digits)."""
    return " x ".join(f"{float(side):.3g}" for side in sides) + " m"


def check_scale(asset: Asset, context: CheckContext) -> None:
    box, root = _model_box(asset)
    if box is None:
        return
    _check_size(box.size, context)
    _check_pivot(box, root, context)
    if context.options.dimensions is not None:
        _check_dimensions(box, context.options.dimensions, context)


def _model_box(asset: Asset) -> tuple[Box | None, str | None]:
    """The model's world box, and the pointer of the one root node its scene has (glTF)."""
    if asset.gltf is not None:
        return asset.gltf.scene_box, _single_root(asset.gltf.links)
    scene = asset.fbx if asset.fbx is not None else asset.obj
    return (polygon_scene_box(scene) if scene is not None else None), None


def _single_root(links: DocumentLinks) -> str | None:
    """``/nodes/<n>`` when the scene shown (the default, else the first) has one root node."""
    scenes = links.items("scenes")
    shown = resolve(index_of(links.document, "scene"), scenes)
    if shown is None:
        shown = next((scene for scene in scenes if scene is not None), None)
    roots = index_list(shown, "nodes")
    return f"/nodes/{roots[0]}" if len(roots) == 1 else None


def _check_size(size: float, context: CheckContext) -> None:
    """MODEL_EXTREMELY_LARGE or _SMALL when ``size`` metres is outside the profile's range."""
    rules = context.profile.mesh_rules
    smallest, largest = rules.smallest_size, rules.largest_size
    if size > largest:
        code, limit, causes, factors = "MODEL_EXTREMELY_LARGE", largest, TOO_LARGE_BECAUSE, -1
    elif size < smallest:
        code, limit, causes, factors = "MODEL_EXTREMELY_SMALL", smallest, TOO_SMALL_BECAUSE, 1
    else:
        return
    direction = "too large" if factors < 0 else "too small"
    fitting = [
        (cause, factor, size * factor**factors)
        for cause, factor in causes
        if smallest <= size * factor**factors <= largest
    ]
    typical = [fit for fit in fitting if TYPICAL_SIZES[0] <= fit[2] <= TYPICAL_SIZES[1]]
    likely = "no usual unit mistake (centimetres, millimetres, inches) explains it"
    if fitting:
        cause, factor, fixed = (typical or fitting)[0]
        likely = (
            f"most likely {cause}, {factor:.4g}x {direction} (at its real size it would be "
            f"{describe_length(fixed)} across)"
        )
    context.issues.add(
        code,
        size=describe_length(size),
        limit=describe_length(limit),
        engine=context.profile.name,
        likely=likely,
    )


def _check_pivot(box: Box, root: str | None, context: CheckContext) -> None:
    """MODEL_PIVOT_FAR_FROM_BASE when the scene's origin is further from the centre of the
    model's base than the model is large."""
    distance = float(np.linalg.norm(box.bottom_centre))
    if distance > PIVOT_DISTANCE * box.size:
        context.issues.add(
            "MODEL_PIVOT_FAR_FROM_BASE",
            pointer=root,
            distance=describe_length(distance),
            size=describe_length(box.size),
        )


def _check_dimensions(box: Box, product: ProductDimensions, context: CheckContext) -> None:
    """MODEL_DIMENSIONS_MISMATCH when a side given differs from the model's by more than the
    tolerance; the hint names a factor common to every side given, when there is one."""
    extents = box.extents
    given = product.sides()
    wrong = [
        f"{side} {describe_length(float(extents[axis]))} instead of {describe_length(value)}"
        for axis, side, value in given
        if abs(float(extents[axis]) - value) > DIMENSION_TOLERANCE * value
    ]
    if not wrong:
        return
    ratios = [value / float(extents[axis]) for axis, _, value in given if extents[axis] > 0]
    hint = ""
    if len(ratios) == len(given) and max(ratios) <= min(ratios) * (1 + DIMENSION_TOLERANCE):
        hint = f"; every side is off by the same factor: scaled by {np.mean(ratios):.4g} it fits"
    context.issues.add(
        "MODEL_DIMENSIONS_MISMATCH",
        model=describe_box(extents),
        product=" x ".join(
            f"{value:.3g}" if value is not None else "?"
            for value in (product.width, product.height, product.depth)
        )
        + " m",
        sides=", ".join(wrong),
        tolerance=f"{DIMENSION_TOLERANCE:.0%}",
        hint=hint,
    )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "scale",
            "The model's size against the profile's plausible range (with the likely unit "
            "mistake), its origin against its base, and its dimensions against the product's.",
            check_scale,
            CODES,
        )
    ]
