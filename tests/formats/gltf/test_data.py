"""The numpy data layer: accessors decoded the way Khronos glTF-Validator decodes them."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from assetcheck.formats.gltf.accessor_data import (
    _plain_layout,
    _read_layout,
    accessor_layout,
    element_format,
    primitive_triangles,
)
from assetcheck.formats.gltf.model import GltfDocument

TRIANGLE_STRIP, TRIANGLE_FAN, LINES = 5, 6, 1


def document_with(
    data: bytes,
    accessors: list[dict],
    views: list[dict] | None = None,
    meshes: list[dict] | None = None,
) -> GltfDocument:
    """A document whose one buffer holds ``data`` (one view over all of it unless ``views``)."""
    document = {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": views or [{"buffer": 0, "byteLength": len(data)}],
        "accessors": accessors,
        "meshes": meshes or [],
    }
    return GltfDocument(document, [memoryview(data)])


def test_packed_float_accessor_is_a_view_of_the_buffer_not_a_copy():
    values = np.arange(12, dtype=np.float32)
    document = document_with(
        values.tobytes(), [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}]
    )
    read = document.reader.read(0)
    assert read.shape == (4, 3)
    assert np.array_equal(read.ravel(), values)
    assert not read.flags.owndata and not read.flags.writeable


def test_byte_stride_interleaves_two_accessors_in_one_view():
    interleaved = np.arange(10, dtype=np.float32).tobytes()  # (x y z u v) x 2
    views = [{"buffer": 0, "byteLength": 40, "byteStride": 20}]
    document = document_with(
        interleaved,
        [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "VEC3"},
            {"bufferView": 0, "byteOffset": 12, "componentType": 5126, "count": 2, "type": "VEC2"},
        ],
        views,
    )
    reader = document.reader
    assert reader.read(0).tolist() == [[0, 1, 2], [5, 6, 7]]
    assert reader.read(1).tolist() == [[3, 4], [8, 9]]


def test_normalized_integers_map_to_unit_range_exactly():
    data = np.array([127, -127, -128, 0], dtype=np.int8).tobytes()
    document = document_with(
        data,
        [{"bufferView": 0, "componentType": 5120, "count": 1, "type": "VEC4", "normalized": True}],
    )
    assert document.reader.normalized(0).tolist() == [[1.0, -1.0, -1.0, 0.0]]


def test_padded_byte_matrix_columns_are_skipped():
    # MAT2 of bytes: each 2-byte column starts on a 4-byte boundary.
    data = bytes([1, 2, 0, 0, 3, 4, 0, 0])
    document = document_with(
        data, [{"bufferView": 0, "componentType": 5121, "count": 1, "type": "MAT2"}]
    )
    assert document.reader.read(0).tolist() == [[1, 2, 3, 4]]


def test_sparse_values_replace_a_zero_base():
    indices = np.array([1, 3], dtype=np.uint16).tobytes()
    values = np.array([5, 6, 7, 8], dtype=np.float32).tobytes()
    views = [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 16}]
    document = document_with(
        indices + values,
        [
            {
                "componentType": 5126,
                "count": 4,
                "type": "VEC2",
                "sparse": {
                    "count": 2,
                    "indices": {"bufferView": 0, "componentType": 5123},
                    "values": {"bufferView": 1},
                },
            }
        ],
        views,
    )
    assert document.reader.read(0).tolist() == [[0, 0], [5, 6], [0, 0], [7, 8]]


@pytest.mark.parametrize(
    "accessor",
    [
        {"bufferView": 0, "componentType": 5126, "count": 5, "type": "VEC3"},  # past the view
        {"bufferView": 0, "byteOffset": 2, "componentType": 5126, "count": 1, "type": "VEC3"},
        {"componentType": 5126, "count": 1, "type": "VEC3"},  # no data at all
        {"bufferView": 0, "componentType": 5124, "count": 1, "type": "SCALAR"},  # not glTF
    ],
)
def test_accessors_khronos_cannot_decode_read_as_none(accessor):
    document = document_with(bytes(48), [accessor])
    assert document.reader.read(0) is None


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (4, [[0, 1, 2], [2, 1, 3]]),
        (TRIANGLE_STRIP, [[0, 1, 2], [2, 1, 2], [2, 2, 1], [1, 2, 3]]),
        (TRIANGLE_FAN, [[0, 1, 2], [0, 2, 2], [0, 2, 1], [0, 1, 3]]),
        (LINES, None),
    ],
)
def test_primitive_triangles_unroll_every_triangle_mode(mode, expected):
    indices = np.array([0, 1, 2, 2, 1, 3], dtype=np.uint16)
    document = document_with(
        indices.tobytes(),
        [{"bufferView": 0, "componentType": 5123, "count": len(indices), "type": "SCALAR"}],
        meshes=[{"primitives": [{"attributes": {}, "indices": 0, "mode": mode}]}],
    )
    triangles = primitive_triangles(document.reader, document.json["meshes"][0]["primitives"][0])
    assert (triangles.tolist() if triangles is not None else None) == expected


def test_unindexed_primitive_triangles_number_the_vertices():
    document = document_with(
        bytes(72),
        [{"bufferView": 0, "componentType": 5126, "count": 6, "type": "VEC3"}],
        meshes=[{"primitives": [{"attributes": {"POSITION": 0}}]}],
    )
    [primitive] = document.links.primitives
    assert document.mesh(primitive).triangles.tolist() == [[0, 1, 2], [3, 4, 5]]


@pytest.mark.parametrize(
    ("component_type", "kind", "sizes"),
    [
        (5126, "VEC3", (3, 4, 12, 12, 12)),
        (5121, "VEC3", (3, 1, 4, 3, 3)),
        (5121, "MAT2", (4, 1, 4, 6, 8)),
        (5121, "MAT3", (9, 1, 4, 11, 12)),
        (5123, "MAT3", (9, 2, 8, 22, 24)),
        (5123, "MAT4", (16, 2, 8, 32, 32)),
        (5126, "MAT4", (16, 4, 16, 64, 64)),
    ],
)
def test_element_sizes_start_every_matrix_column_on_four_bytes(component_type, kind, sizes):
    element = element_format(component_type, kind)
    assert element is not None
    assert (
        element.components,
        element.component_size,
        element.column_stride,
        element.element_length,
        element.packed_stride,
    ) == sizes
    assert element.span(3, None) == 2 * sizes[4] + sizes[3]
    assert element.span(3, 100) == 200 + sizes[3]


MISSING = object()
#: Values of an accessor's integer fields: plain ones, the edges of the ranges read, and the
#: hostile ones (wrong types, bools, floats, NaN, numbers beyond 2**53 and the float range).
FIELD_VALUES: list[object] = [
    MISSING,
    None,
    0,
    1,
    24,
    -1,
    2**53,
    2**53 + 1,
    10**400,
    3.0,
    1.5,
    math.nan,
    True,
    False,
    "3",
    [3],
]


def test_a_plain_accessor_gets_the_layout_the_general_reading_gives():
    kinds = [(5126, "VEC3"), (5121, "MAT3"), (5126.0, "VEC3"), (5127, "VEC3"), (5126, "VEC9")]
    kinds += [(True, "SCALAR"), (5123, None), (5123, ["SCALAR"])]
    plain = 0
    for (component_type, kind), count, view, offset, normalized in itertools.product(
        kinds, FIELD_VALUES, FIELD_VALUES, FIELD_VALUES, [MISSING, True, 1, None]
    ):
        values = {
            "componentType": component_type,
            "type": kind,
            "count": count,
            "bufferView": view,
            "byteOffset": offset,
            "normalized": normalized,
        }
        accessor = {key: value for key, value in values.items() if value is not MISSING}
        quick = _plain_layout(accessor)
        general = _read_layout(accessor)
        if quick is not None:
            plain += 1
            assert quick == general, accessor
            assert accessor_layout(accessor) == general
        for sparse in ({"count": 1}, None):
            assert _plain_layout({**accessor, "sparse": sparse}) is None
    assert plain > 500
