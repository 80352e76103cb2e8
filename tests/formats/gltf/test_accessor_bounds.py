"""Accessors' declared min and max, read as Khronos glTF-Validator reads them."""

from __future__ import annotations

import math

import pytest

from assetcheck.formats.gltf.accessor_bounds import declared_numbers
from assetcheck.formats.gltf.accessor_data import accessor_layout


def bounds(component_type: int, kind: str, value: object) -> list | None:
    accessor = {"componentType": component_type, "type": kind, "count": 1, "min": value}
    layout = accessor_layout(accessor)
    assert layout is not None
    return declared_numbers(accessor, "min", layout)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ([1, -2.5, 3], [1.0, -2.5, 3.0]),
        ([1.0, -2.5, 3.0], [1.0, -2.5, 3.0]),
        ([1.0, math.inf, 3.0], None),
        ([1.0, math.nan, 3.0], None),
        ([1, 10**400, 3], None),
        ([1.0, -(10**400), 3.0], None),
        ([1, True, 3], None),
        ([1, "2", 3], None),
        ([1, math.inf, 3], None),
        ([1, math.nan, 3], None),
        ([1, 2], None),
        ({"x": 1}, None),
    ],
)
def test_float_bounds_are_finite_numbers_one_per_component(value, expected):
    found = bounds(5126, "VEC3", value)
    assert found == expected
    assert found is None or all(type(number) is float for number in found)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ([0, 65535], [0, 65535]),
        ([0, 65536], None),
        ([-1, 3], None),
        ([0.0, 3.0], [0, 3]),
        ([0.5, 3], None),
        ([False, 3], None),
        ([2**80, 3], None),
    ],
)
def test_integer_bounds_fit_the_component_type(value, expected):
    assert bounds(5123, "VEC2", value) == expected
