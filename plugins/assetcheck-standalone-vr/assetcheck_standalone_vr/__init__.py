"""The ``standalone-vr`` engine profile: budgets for Quest-class standalone VR headsets."""

from __future__ import annotations

from assetcheck import hookimpl
from assetcheck.profiles import Budgets, EngineProfile

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


@hookimpl
def register_engine_profiles() -> list[EngineProfile]:
    return [STANDALONE_VR]
