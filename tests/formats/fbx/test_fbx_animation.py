"""The FBX animation curves of the asset model: keys laid end to end, and their safe transfer
from the reader's child process."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.formats.fbx.animation import CUBIC, LINEAR, FbxCurves, unpack_curves
from assetcheck.formats.fbx.scene import RESULT_TYPES
from assetcheck.sandbox.child import ChildCrashed, run_in_child


def two_curves() -> FbxCurves:
    """Curve 0 (3 linear keys) in stack Walk, curve 1 (2 cubic keys) in stack Run."""
    return FbxCurves(
        stacks=["Walk", "Run"],
        spans=np.array([[0.0, 1.0], [0.0, np.nan]]),
        stack=np.array([0, 1], np.int32),
        target=["Hips", "Lost"],
        property_name=["Lcl Translation", "Lcl Rotation"],
        component=["X", "Z"],
        in_scene=np.array([True, False]),
        starts=np.array([0, 3], np.int32),
        times=np.array([0.0, 0.5, 1.0, 0.0, 1.0]),
        values=np.array([0.0, 1.0, 2.0, 0.0, 90.0]),
        modes=np.array([LINEAR] * 3 + [CUBIC] * 2, np.int32),
        slopes=np.array([[0, 0]] * 3 + [[90, 90]] * 2, float),
    )


def test_curves_arrive_from_the_child_with_their_keys():
    back = run_in_child(two_curves, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)

    assert back.stacks == ["Walk", "Run"]
    assert back.target == ["Hips", "Lost"]
    assert back.ends.tolist() == [3, 5]
    assert back.owner.tolist() == [0, 0, 0, 1, 1]
    assert back.slopes[3:].tolist() == [[90, 90], [90, 90]]


def test_a_file_without_curves_has_no_keys():
    empty = FbxCurves.empty()
    assert empty.ends.tolist() == empty.owner.tolist() == []


class ForgedCurves:
    """The curves' rebuilder called with arguments of a subverted child's choosing."""

    def __init__(self, *arguments: object) -> None:
        self.arguments = arguments

    def __reduce_ex__(self, protocol):
        return unpack_curves, self.arguments


def forged_curves(index: int, value: object) -> ForgedCurves:
    arguments = list(two_curves().__reduce_ex__(4)[1])
    arguments[index] = value
    return ForgedCurves(*arguments)


@pytest.mark.parametrize(
    ("index", "value"),
    [
        (0, (["Walk", "Run"], ["Hips", 2], ["X", "Y"], ["X", "Z"])),
        (0, (["Walk", "Run"], ["Hips"], ["X", "Y"], ["X", "Z"])),
        (2, ("<i4", (2,), np.array([0, 2], np.int32).tobytes())),
        (4, ("<i4", (2,), np.array([0, 9], np.int32).tobytes())),
        (4, ("<i4", (2,), np.array([3, 0], np.int32).tobytes())),
        (8, ("<f8", (5, 3), np.zeros(15).tobytes())),
    ],
    ids=[
        "a name that is not text",
        "fewer targets than curves",
        "a curve in a stack that does not exist",
        "a curve starting past the keys",
        "curves out of order",
        "slopes of the wrong shape",
    ],
)
def test_curves_whose_arrays_do_not_fit_together_are_refused(index, value):
    forged = forged_curves(index, value)

    with pytest.raises(ChildCrashed, match="unexpected result"):
        run_in_child(lambda: forged, timeout=10, memory_limit_mb=256, result_types=RESULT_TYPES)
