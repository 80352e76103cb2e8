"""The numpy data layer: accessors decoded the way Khronos glTF-Validator decodes them."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.asset import Asset
from assetcheck.formats.gltf.accessor_data import AccessorReader, asset_cache, primitive_triangles

TRIANGLE_STRIP, TRIANGLE_FAN, LINES = 5, 6, 1


def asset_with(
    data: bytes,
    accessors: list[dict],
    views: list[dict] | None = None,
    meshes: list[dict] | None = None,
) -> Asset:
    """An asset whose one buffer holds ``data`` (one view over all of it unless ``views``)."""
    document = {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": views or [{"buffer": 0, "byteLength": len(data)}],
        "accessors": accessors,
        "meshes": meshes or [],
    }
    return Asset("test.glb", "glb", document=document, buffers=[memoryview(data)])


def test_packed_float_accessor_is_a_view_of_the_buffer_not_a_copy():
    values = np.arange(12, dtype=np.float32)
    asset = asset_with(
        values.tobytes(), [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}]
    )
    read = AccessorReader.for_asset(asset).read(0)
    assert read.shape == (4, 3)
    assert np.array_equal(read.ravel(), values)
    assert not read.flags.owndata and not read.flags.writeable


def test_byte_stride_interleaves_two_accessors_in_one_view():
    interleaved = np.arange(10, dtype=np.float32).tobytes()  # (x y z u v) x 2
    views = [{"buffer": 0, "byteLength": 40, "byteStride": 20}]
    asset = asset_with(
        interleaved,
        [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "VEC3"},
            {"bufferView": 0, "byteOffset": 12, "componentType": 5126, "count": 2, "type": "VEC2"},
        ],
        views,
    )
    reader = AccessorReader.for_asset(asset)
    assert reader.read(0).tolist() == [[0, 1, 2], [5, 6, 7]]
    assert reader.read(1).tolist() == [[3, 4], [8, 9]]


def test_normalized_integers_map_to_unit_range_exactly():
    data = np.array([127, -127, -128, 0], dtype=np.int8).tobytes()
    asset = asset_with(
        data,
        [{"bufferView": 0, "componentType": 5120, "count": 1, "type": "VEC4", "normalized": True}],
    )
    assert AccessorReader.for_asset(asset).normalized(0).tolist() == [[1.0, -1.0, -1.0, 0.0]]


def test_padded_byte_matrix_columns_are_skipped():
    # MAT2 of bytes: each 2-byte column starts on a 4-byte boundary.
    data = bytes([1, 2, 0, 0, 3, 4, 0, 0])
    asset = asset_with(data, [{"bufferView": 0, "componentType": 5121, "count": 1, "type": "MAT2"}])
    assert AccessorReader.for_asset(asset).read(0).tolist() == [[1, 2, 3, 4]]


def test_sparse_values_replace_a_zero_base():
    indices = np.array([1, 3], dtype=np.uint16).tobytes()
    values = np.array([5, 6, 7, 8], dtype=np.float32).tobytes()
    views = [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 16}]
    asset = asset_with(
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
    assert AccessorReader.for_asset(asset).read(0).tolist() == [[0, 0], [5, 6], [0, 0], [7, 8]]


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
    asset = asset_with(bytes(48), [accessor])
    assert AccessorReader.for_asset(asset).read(0) is None


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
    asset = asset_with(
        indices.tobytes(),
        [{"bufferView": 0, "componentType": 5123, "count": len(indices), "type": "SCALAR"}],
        meshes=[{"primitives": [{"attributes": {}, "indices": 0, "mode": mode}]}],
    )
    triangles = primitive_triangles(asset, 0, 0)
    assert (triangles.tolist() if triangles is not None else None) == expected


def test_unindexed_primitive_triangles_number_the_vertices():
    asset = asset_with(
        bytes(72),
        [{"bufferView": 0, "componentType": 5126, "count": 6, "type": "VEC3"}],
        meshes=[{"primitives": [{"attributes": {"POSITION": 0}}]}],
    )
    assert primitive_triangles(asset, 0, 0).tolist() == [[0, 1, 2], [3, 4, 5]]


def test_the_cache_is_dropped_when_the_engine_releases_the_buffers():
    asset = asset_with(
        bytes(12), [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC3"}]
    )
    first = AccessorReader.for_asset(asset)
    assert AccessorReader.for_asset(asset) is first
    asset.buffers = []
    assert AccessorReader.for_asset(asset) is not first
    assert asset_cache(asset, "answer", lambda: 42) == 42
