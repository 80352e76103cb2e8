"""A validation frees what it made by reference counting alone: it leaves no reference cycles
for Python's cyclic garbage collector, whose collections cost the more objects they walk."""

from __future__ import annotations

import gc
from pathlib import Path

from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports.document import build_report
from tests.collector import collector_paused

ASSETS = Path(__file__).parent / "assets"

#: Plain, Draco and meshopt GLB (the decoder helper), a textured GLB (the texture decoding),
#: a glTF with accessor errors, and an FBX.
FILES = [
    ASSETS / "compressed/pawn.glb",
    ASSETS / "compressed/pawn_draco.glb",
    ASSETS / "compressed/pawn_meshopt.glb",
    ASSETS / "topology/textured_cube.glb",
    ASSETS / "gltf/accessor_index_oob.gltf",
    ASSETS / "scale/fbx_z_up.fbx",
]


def test_validating_real_files_leaves_no_reference_cycles():
    # One plugin manager for every file, as every long-running caller has: a plugin manager
    # is cyclic itself (pluggy's hooks and their implementations refer to each other).
    pm = get_plugin_manager()
    for path in FILES:  # the first validations import modules and fill caches
        build_report(validate(path, plugin_manager=pm))
    gc.collect()
    with collector_paused():
        for path in FILES:
            build_report(validate(path, plugin_manager=pm))
        assert gc.collect() == 0
