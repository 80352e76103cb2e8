"""Skin weights that do not sum to one, at the precision of their component type: single
precision rounding for floats (2e-7 per weight added, as Khronos), the exact integer sum for
normalized unsigned bytes and shorts, whose steps (1/255, 1/65535) are far coarser."""

import numpy as np
import pytest

from assetcheck.engine import validate
from tests.checks.skinned import skinned_glb
from tests.formats import codes, only_issue


@pytest.mark.parametrize(
    ("weights", "dtype"),
    [
        ([0.25, 0.25, 0.25, 0.25], np.float32),
        ([0.1, 0.2, 0.3, 0.4], np.float32),
        ([85, 85, 85, 0], np.uint8),
        ([255, 0, 0, 0], np.uint8),
        ([21845, 21845, 21845, 0], np.uint16),
    ],
)
def test_weights_summing_to_one_at_their_precision_are_normalized(tmp_path, weights, dtype):
    result = validate(skinned_glb(tmp_path, weights, dtype=dtype))
    assert "ACCESSOR_WEIGHTS_NON_NORMALIZED" not in codes(result)


@pytest.mark.parametrize(
    ("weights", "dtype", "total"),
    [
        ([0.25, 0.25, 0.25, 0.2499], np.float32, "0.9998"),
        ([85, 85, 84, 0], np.uint8, "0.996"),
        ([85, 85, 86, 0], np.uint8, "1.0039"),
        ([21845, 21845, 21844, 0], np.uint16, "0.99998"),
    ],
)
def test_weights_one_step_off_are_reported_with_their_sum(tmp_path, weights, dtype, total):
    issue = only_issue(
        validate(skinned_glb(tmp_path, weights, dtype=dtype)), "ACCESSOR_WEIGHTS_NON_NORMALIZED"
    )
    assert issue.pointer == "/meshes/0/primitives/0/attributes/WEIGHTS_0"
    assert f"(sum {total}" in issue.message
    assert "3 vertices" in issue.message


def test_weights_sum_over_every_set_of_a_vertex(tmp_path):
    eight = [0.125] * 8
    assert "ACCESSOR_WEIGHTS_NON_NORMALIZED" not in codes(validate(skinned_glb(tmp_path, eight)))
