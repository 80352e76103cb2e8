"""Profiles of the places assets ship to that publish their requirements: Google's Scene
Viewer, the Khronos 3D Commerce asset guidelines and Shopify's 3D model requirements.

Each limit cites the public document it comes from (:attr:`EngineProfile.sources`, shown in
``docs/profiles.md``). Where a document gives no number for a budget the profile must have,
the citation says so and names the value used instead; nothing here claims more precision
than the documents give. These documents state recommendations ("should"), so an overrun is a
warning, as under ``generic``: it never makes a file invalid.
"""

from __future__ import annotations

from assetcheck.plugins.hookspecs import hookimpl
from assetcheck.scoring.budget_codes import ISSUE_TYPES as BUDGET_ISSUE_TYPES
from assetcheck.scoring.profiles import Budgets, EngineProfile, MeshRules

_BUDGETS_ARE_ADVICE = {issue_type.code: "warning" for issue_type in BUDGET_ISSUE_TYPES}

#: A product seen in AR stands where it would in a room: from a ring to a car or a shed.
#: Outside 5 mm .. 50 m it is most likely in the wrong unit (``docs/scale.md``).
_PRODUCT_SIZES = MeshRules(
    lightmap_uv_set=-1, texel_density_spread=16.0, smallest_size=0.005, largest_size=50.0
)

KHRONOS_AUDITOR = (
    "Khronos glTF Asset Auditor, the 3D Commerce working group's checker, version 1.0.4: "
    "the recommended values of `Schema.getRecommended()` "
    "(https://github.com/KhronosGroup/gltf-asset-auditor/blob/main/src/Schema.ts), which its "
    "README calls 'the default recommendations of the Khronos 3D Commerce Asset Creation "
    "Guidelines'"
)
KHRONOS_GUIDELINES = (
    "Khronos 3D Commerce Real-time Asset Creation Guidelines, version 1.0.0, 20 October 2020 "
    "(https://github.com/KhronosGroup/3DC-Asset-Creation/blob/main/asset-creation-guidelines/"
    "RealtimeAssetCreationGuidelines.md)"
)
SHOPIFY_CHECKLIST = (
    "Shopify Help Center, 3D modeling checklist for Shopify Partners, copy printed 14 January "
    "2025 (https://help.shopify.com/en/partners/resources/creating-media/3d-models/"
    "creating-3d-models/3d-modeling-checklist)"
)
SCENE_VIEWER_PAGE = (
    "Google ARCore, Use Scene Viewer to display interactive 3D models in AR "
    "(https://developers.google.com/ar/develop/scene-viewer), as stored for this project in "
    "November 2026: it states the runtime requirements (an ARCore device on Android 7.0 or "
    "later, glTF 2.0 / GLB models) and no numeric model limits"
)

_NOT_GIVEN = "not given by the document; the `mobile` profile's value"
_COMMERCE_SOURCES = {
    "triangles_per_file": "Auditor: `model.triangles.maximum` 100,000",
    "triangles_per_mesh": "Auditor: the file's 100,000 (no limit per mesh is given)",
    "materials": "Auditor: `materials.maximum` 5",
    "draw_calls": _NOT_GIVEN,
    "texture_size": "Auditor: `textures.width` and `height` `maximum` 2048 (minimum 512, "
    "not checked here)",
    "bones": _NOT_GIVEN,
    "influences_per_vertex": "not given; 4, one `JOINTS_0`/`WEIGHTS_0` set, what every glTF "
    "viewer draws",
    "uv_sets": _NOT_GIVEN,
    "index_32bit": "not given; glTF allows 32-bit indices and WebGL 2 / OpenGL ES 3 phones "
    "draw them",
    "file_size_mb": "Auditor: `fileSizeInKb.maximum` 5120 (5 MB)",
    "smallest_size": "AssetCheck's range for real products (`docs/scale.md`); the guidelines "
    "ask for real-world scale in metres",
    "largest_size": "as `smallest_size`",
}

STORE_PROFILES: dict[str, EngineProfile] = {
    profile.name: profile
    for profile in (
        EngineProfile(
            "3d-commerce",
            "Khronos 3D Commerce asset guidelines (web and AR product viewers)",
            Budgets(100_000, 100_000, 5, 50, 2048, 64, 4, 2, True, 5),
            # requireDimensionsBePowersOfTwo: true in the recommended schema.
            severity=_BUDGETS_ARE_ADVICE | {"IMAGE_NPOT_DIMENSIONS": "warning"},
            mesh_rules=_PRODUCT_SIZES,
            reference=(KHRONOS_AUDITOR, KHRONOS_GUIDELINES),
            sources={
                **_COMMERCE_SOURCES,
                "IMAGE_NPOT_DIMENSIONS": "Auditor: `requireDimensionsBePowersOfTwo` true",
            },
        ),
        EngineProfile(
            "scene-viewer",
            "Google Scene Viewer (Android AR, Google Search)",
            Budgets(100_000, 100_000, 5, 50, 2048, 64, 4, 2, True, 5),
            severity=_BUDGETS_ARE_ADVICE,
            mesh_rules=_PRODUCT_SIZES,
            reference=(SCENE_VIEWER_PAGE, KHRONOS_AUDITOR),
            sources=dict.fromkeys(
                _COMMERCE_SOURCES,
                "not verified: Google's page gives no number; the `3d-commerce` value",
            ),
        ),
        EngineProfile(
            "shopify",
            "Shopify product media (3D models for merchants)",
            Budgets(100_000, 100_000, 1, 50, 2048, 64, 4, 2, True, 15),
            # "Product origin" is one of the checklist's mandatory requirements.
            severity=_BUDGETS_ARE_ADVICE | {"MODEL_PIVOT_FAR_FROM_BASE": "warning"},
            mesh_rules=_PRODUCT_SIZES,
            reference=(SHOPIFY_CHECKLIST, KHRONOS_AUDITOR),
            sources={
                **_COMMERCE_SOURCES,
                "triangles_per_file": "not verified: the checklist asks for 'only as much "
                "geometry as is necessary' without a number; the 3D Commerce 100,000",
                "triangles_per_mesh": "as `triangles_per_file`",
                "materials": "checklist, Material quality: 'Only one material is assigned to "
                "the model when it's exported'",
                "texture_size": "not verified: the checklist asks for one base colour, one "
                "normal and one occlusion-roughness-metalness texture, without a size; the 3D "
                "Commerce 2048",
                "file_size_mb": "checklist, Technical requirements: 'model file size should be "
                "less than 15 MB' (files up to 500 MB are accepted and optimized)",
                "MODEL_PIVOT_FAR_FROM_BASE": "checklist: Product origin, a mandatory requirement",
            },
        ),
    )
}


@hookimpl
def register_engine_profiles() -> list[EngineProfile]:
    return list(STORE_PROFILES.values())
