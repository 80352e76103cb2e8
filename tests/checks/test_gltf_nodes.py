"""Node transforms (gltf-nodes): the determinant's quick path against numpy's."""

from __future__ import annotations

import math
from array import array

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assetcheck.checks.gltf_nodes import _determinant, is_trs_decomposable


def column_major(linear: np.ndarray, translation: np.ndarray) -> list[float]:
    """A column-major 4x4 of a 3x3 ``linear`` part and a ``translation``, rounded to single
    precision as the check reads it."""
    columns = [*linear.T.tolist(), translation.tolist()]
    flat = [v for number, column in enumerate(columns) for v in (*column, float(number == 3))]
    return array("f", flat).tolist()


def numpy_sign(m: list[float]) -> float:
    return float(np.sign(np.linalg.det(np.array(m).reshape(4, 4))))


def assert_same_sign(m: list[float]) -> None:
    with np.errstate(all="ignore"):  # infinities: numpy warns, as it does in the check
        ours, numpys = _determinant(m), numpy_sign(m)
    if math.isnan(numpys):
        assert math.isnan(ours)
    else:
        assert float(np.sign(ours)) == numpys


def hostile_matrices() -> list[list[float]]:
    """Singular, nearly singular, mirrored, tiny, huge, far-translated and overflowing
    matrices."""
    random = np.random.default_rng(7)
    found = []
    for _ in range(3000):
        linear = random.normal(size=(3, 3)) * 10.0 ** random.integers(-15, 15)
        kind = random.integers(6)
        if kind == 0:  # a repeated column: singular, or one rounding away
            linear[:, 2] = linear[:, 0] * random.choice([1.0, -1.0, 1 + 1e-7])
        elif kind == 1:  # a zero column
            linear[:, random.integers(3)] = 0.0
        elif kind == 2:  # a third column in the plane of the first two, nearly
            linear[:, 2] = linear[:, 0] * 0.3 + linear[:, 1] * 0.7 + 1e-9 * random.normal(size=3)
        elif kind == 3:  # mirrored
            linear[:, 0] = -linear[:, 0]
        translation = random.normal(size=3) * 10.0 ** random.integers(-5, 12)
        found.append(column_major(linear, translation))
    found.append(column_major(np.eye(3) * 1e39, np.zeros(3)))  # inf once in single precision
    found.append(column_major(np.eye(3), np.array([1e39, 0.0, 0.0])))
    found.append(column_major(np.eye(3) * 1e-40, np.zeros(3)))  # single-precision subnormals
    return found


def test_determinant_sign_is_numpys_on_hostile_matrices() -> None:
    for m in hostile_matrices():
        assert_same_sign(m)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=12, max_size=12)
)
def test_determinant_sign_is_numpys_on_any_matrix(values: list[float]) -> None:
    linear = np.array(values[:9]).reshape(3, 3)
    assert_same_sign(column_major(linear, np.array(values[9:])))


def test_trs_decomposable_rotation_scale_and_translation() -> None:
    c, s = math.cos(0.5), math.sin(0.5)
    rotation = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    assert is_trs_decomposable(column_major(rotation * 2.0, np.array([100.0, -3.0, 7.0])))
    assert is_trs_decomposable(column_major(-rotation, np.zeros(3)))  # mirrored


def test_trs_not_decomposable_when_singular_or_sheared() -> None:
    flat = np.diag([1.0, 1.0, 0.0])
    assert not is_trs_decomposable(column_major(flat, np.zeros(3)))
    shear = np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert not is_trs_decomposable(column_major(shear, np.zeros(3)))
