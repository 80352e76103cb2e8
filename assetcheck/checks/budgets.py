"""The engine budget check: each model file's metrics against its engine profile's budgets."""

from __future__ import annotations

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.fields import child
from assetcheck.plugins.hookspecs import hookimpl

#: Budget name -> the code reported when a file goes over it.
FILE_BUDGET_CODES = {
    "triangles_per_file": "BUDGET_TRIANGLES_PER_FILE",
    "materials": "BUDGET_MATERIALS",
    "draw_calls": "BUDGET_DRAW_CALLS",
    "texture_size": "BUDGET_TEXTURE_SIZE",
    "bones": "BUDGET_BONES",
    "uv_sets": "BUDGET_UV_SETS",
    "file_size_mb": "BUDGET_FILE_SIZE",
}


def over_budget(asset: Asset, context: CheckContext) -> None:
    """Report each budget the file exceeds, each mesh over the per-mesh triangle budget, and
    32-bit indices where the profile does not allow them."""
    budgets = context.profile.budgets
    engine = context.profile.name
    for name, code in FILE_BUDGET_CODES.items():
        used, limit = asset.metrics.get(name, 0), getattr(budgets, name)
        if used > limit:
            context.issues.add(code, used=used, limit=limit, engine=engine)
    for index, part in enumerate(asset.parts):
        if part.triangle_count > budgets.triangles_per_mesh:
            context.issues.add(
                "BUDGET_TRIANGLES_PER_MESH",
                name=part.name,
                used=part.triangle_count,
                limit=budgets.triangles_per_mesh,
                engine=engine,
                pointer=f"/meshes/{index}" if asset.document is not None else None,
            )
    if asset.metrics.get("index_32bit") and not budgets.index_32bit:
        context.issues.add("BUDGET_32BIT_INDICES", engine=engine)
    _over_influences(asset, context)


def _over_influences(asset: Asset, context: CheckContext) -> None:
    """Each glTF primitive and FBX mesh with vertices influenced by more bones than the budget
    allows."""
    limit = context.profile.budgets.influences_per_vertex
    if asset.metrics.get("influences_per_vertex", 0) <= limit:
        return
    if asset.fbx is not None:
        for mesh in asset.fbx.meshes:
            if mesh.skin is not None:
                _report_influences(mesh.skin.influences, limit, context, f" of mesh {mesh.name}")
    if asset.gltf is None:
        return
    for primitive in asset.gltf.links.primitives:
        influences = asset.gltf.influences(primitive)
        if influences is not None:
            pointer = child(primitive.pointer, "attributes")
            _report_influences(influences.counts, limit, context, pointer=pointer)


def _report_influences(
    counts: np.ndarray,
    limit: int,
    context: CheckContext,
    of_mesh: str = "",
    pointer: str | None = None,
) -> None:
    """One finding when some of the vertices' influence ``counts`` are over ``limit``, located
    by a glTF ``pointer`` or, after the first vertex's number, by ``of_mesh`` (FBX)."""
    over = np.flatnonzero(counts > limit)
    if over.size:
        context.issues.add(
            "BUDGET_INFLUENCES",
            pointer=pointer,
            count=over.size,
            first=f"{over[0]}{of_mesh}",
            used=int(counts.max()),
            limit=limit,
            engine=context.profile.name,
        )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "engine-budgets",
            "Triangles, materials, draw calls, textures, bones, bone influences per "
            "vertex, UV sets, index size and file size within the engine profile's budgets",
            over_budget,
            codes=(
                *FILE_BUDGET_CODES.values(),
                "BUDGET_TRIANGLES_PER_MESH",
                "BUDGET_32BIT_INDICES",
                "BUDGET_INFLUENCES",
            ),
        )
    ]
