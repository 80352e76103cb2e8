"""FBX animation curves against ufbx, an independent reader, on every real FBX 7 file that has
animation stacks (the shared corpus, the production corpus, Debian's assimp-testmodels).

pyufbx gives no keyframes, but per stack its name and time range and per curve its key count,
first and last times and smallest and largest values: each curve of ours must be one of ufbx's
by those numbers, and our stacks must be ufbx's, with the same range where the file writes
``LocalStop``. FBX 6 takes are not read (``docs/animations.md``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.curves import read_curves
from assetcheck.formats.fbx.objects import FbxObjects
from assetcheck.formats.fbx.walk import walk_fbx
from tests.formats.fbx.real_files import assert_known_files_found, real_fbx_files, ufbx_scene
from tests.formats.fbx.test_fbx_corpus import ASSIMP_FBX, CORPUS
from tests.formats.fbx.test_fbx_production_corpus import PRODUCTION

#: Animated FBX 7 files each corpus must hold (the test proves nothing if they are gone).
ANIMATED = {
    PRODUCTION: {"Characters-and-Animals_Piranha.fbx"},
    ASSIMP_FBX: {"animation_with_skeleton.fbx", "huesitos.fbx"},
    CORPUS: {"maya_anim_interpolation_7700_binary.fbx", "maya_auto_clamp_7100_ascii.fbx"},
}


def test_the_known_animated_files_are_found():
    assert_known_files_found(real_fbx_files(b"AnimationCurve"), ANIMATED)


def _summary(count: int, times: np.ndarray, values: np.ndarray) -> tuple:
    return (
        count,
        round(float(times.min()), 5),
        round(float(times.max()), 5),
        round(float(values.min()), 3),
        round(float(values.max()), 3),
    )


@pytest.mark.parametrize("path", real_fbx_files(b"AnimationCurve"))
def test_stacks_and_curves_equal_ufbx(path: Path):
    with ufbx_scene(path) as scene:
        stacks = [(stack.name, stack.time_begin, stack.time_end) for stack in scene.anim_stacks]
        theirs = {
            _summary(
                c.num_keyframes,
                np.array([c.min_time, c.max_time]),
                np.array([c.min_value, c.max_value]),
            )
            for c in scene.anim_curves
        }

    curves = read_curves(FbxObjects.of(walk_fbx(path.read_bytes(), Limits()).tree))
    assert curves.stacks == [name for name, _, _ in stacks]
    for (start, stop), (_, begin, end) in zip(curves.spans, stacks, strict=True):
        if np.isfinite(stop):
            assert (start, stop) == pytest.approx((begin, end), abs=1e-9)
    for start, end in zip(curves.starts, curves.ends, strict=True):
        times, values = curves.times[start:end], curves.values[start:end]
        assert _summary(end - start, times, values) in theirs
