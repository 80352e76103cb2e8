"""Reading FBX animation curves from the node tree: keys, interpolation and slopes as written,
in every layout the writers of ``assetcheck.testing`` produce."""

from __future__ import annotations

import pytest

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.animation import CONSTANT, CONSTANT_NEXT, CUBIC, LINEAR
from assetcheck.formats.fbx.curves import CurveFault, read_curves
from assetcheck.formats.fbx.objects import FbxObjects
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.testing.fbx import (
    CONSTANT_KEY,
    CUBIC_KEY,
    LINEAR_KEY,
    CurveSpec,
    Scene,
    binary_fbx,
    cube,
)
from tests.formats.fbx import WRITERS

FLAGS = [CUBIC_KEY, LINEAR_KEY, CONSTANT_KEY, CONSTANT_KEY | 0x100]


def curves_of(data: bytes):
    return read_curves(FbxObjects.of(walk_fbx(data, Limits()).tree))


def scene(*curves: CurveSpec, seconds: float = 2.0) -> Scene:
    return Scene(meshes=[cube()], animations=[("Walk", seconds)], curves=curves)


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
def test_keys_their_interpolation_and_slopes_are_read_as_written(writer):
    curve = CurveSpec(
        "Hips",
        [0.0, 0.5, 1.0, 2.0],
        [0.0, 1.5, -2.0, 4.0],
        "Lcl Rotation",
        "Y",
        flags=FLAGS,
        slopes=[(3.0, -1.0), (9.0, 9.0), (9.0, 9.0), (9.0, 9.0)],
    )
    curves = curves_of(writer(scene(curve)))

    assert (curves.stacks, curves.spans.tolist()) == (["Walk"], [[0.0, 2.0]])
    assert (curves.target, curves.property_name, curves.component) == (
        ["Hips"],
        ["Lcl Rotation"],
        ["Y"],
    )
    assert curves.times.tolist() == [0.0, 0.5, 1.0, 2.0]
    assert curves.values.tolist() == [0.0, 1.5, -2.0, 4.0]
    assert curves.modes.tolist() == [CUBIC, LINEAR, CONSTANT, CONSTANT_NEXT]
    # Only cubic keys have slopes; the others' data is not theirs.
    assert curves.slopes.tolist() == [[3.0, -1.0], [0, 0], [0, 0], [0, 0]]
    assert curves.in_scene.tolist() == [True]


def test_key_attributes_covering_more_keys_than_the_curve_has_are_cut_as_ufbx_cuts_them():
    curve = CurveSpec("Hips", [0.0, 1.0], [0.0, 1.0], ref_counts=[5])
    assert curves_of(binary_fbx(scene(curve))).modes.tolist() == [LINEAR, LINEAR]


def test_key_attributes_covering_fewer_keys_than_the_curve_has_are_a_fault():
    curve = CurveSpec("Hips", [0.0, 0.5, 1.0], [0.0, 1.0, 2.0], ref_counts=[2])
    with pytest.raises(CurveFault, match="its 1 key attributes cover 2 of its 3 keys"):
        curves_of(binary_fbx(scene(curve)))


def test_a_model_not_connected_to_the_scene_is_marked():
    curves = curves_of(binary_fbx(scene(CurveSpec("Lost", [0.0], [1.0], in_scene=False))))
    assert curves.in_scene.tolist() == [False]


def test_fbx_6_takes_are_not_read():
    data = binary_fbx(Scene(meshes=[cube()], animations=[("Walk", 1.0)]), 6100)
    curves = curves_of(data)
    assert (curves.stacks, len(curves.times)) == ([], 0)
