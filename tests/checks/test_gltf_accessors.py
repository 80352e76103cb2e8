"""Accessor contents against their declared bounds: the gltf-accessors check."""

from __future__ import annotations

import numpy as np

from assetcheck.checks.gltf_accessors import agreeing, column_extremes
from assetcheck.formats.gltf.accessor_bounds import declared_bounds
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.testing.gltf import GltfBuilder
from tests.formats import codes, validate_bytes

FLOAT, UNSIGNED_SHORT = 5126, 5123


def many_small_accessors(seed: int) -> GltfDocument:
    """Small accessors of several formats, most with exact bounds, some with bounds off by a
    little, some with NaN or infinities, some without bounds or with only one."""
    random = np.random.default_rng(seed)
    builder = GltfBuilder()
    for number in range(60):
        count = int(random.integers(1, 40))
        if number % 3:
            values = random.normal(size=(count, 3)).astype(np.float32)
            kind = "VEC3"
        else:
            values = random.integers(0, 5000, size=count).astype(np.uint16)
            kind = "SCALAR"
        if number % 7 == 1 and kind == "VEC3":
            values[random.integers(count), 0] = random.choice([np.nan, np.inf, -np.inf])
        index = builder.add_accessor(values, kind, minmax=True)
        accessor = builder.document["accessors"][index]
        if number % 5 == 2:
            accessor["max"][0] += 1
        if number % 11 == 3:
            del accessor["min"]
        if number % 13 == 4:
            del accessor["min"], accessor["max"]
    builder.add_node(None)
    return GltfDocument(builder.document, [memoryview(bytes(builder.binary))])


def agrees_alone(document: GltfDocument, index: int) -> bool:
    """What the check finds on the one accessor alone, reduced on its own."""
    layout, values = document.reader.layout(index), document.reader.read(index)
    assert layout is not None and values is not None
    if layout.component_type == FLOAT and not np.isfinite(values).all():
        return False
    accessor = document.json["accessors"][index]
    for key in ("min", "max"):
        declared = declared_bounds(accessor, key, layout)
        if declared is not None and (column_extremes(values, key, False) != declared).any():
            return False
    return True


def test_accessors_reduced_together_agree_with_their_bounds_exactly_when_each_alone_does():
    for seed in range(5):
        document = many_small_accessors(seed)
        readable = []
        for index in range(len(document.json["accessors"])):
            layout, values = document.reader.layout(index), document.reader.read(index)
            assert layout is not None and values is not None
            readable.append((index, layout, values))
        expected = {index for index, _, _ in readable if agrees_alone(document, index)}
        assert 0 < len(expected) < len(readable)
        assert agreeing(readable, document.declared_bounds) == expected


def test_each_accessor_of_many_is_reported_at_its_own_bounds(tmp_path):
    builder = GltfBuilder()
    for number in range(20):
        values = np.arange(number, number + 4, dtype=np.float32).reshape(-1, 1).repeat(3, axis=1)
        index = builder.add_accessor(values, "VEC3", minmax=True)
        if number in (4, 11):
            builder.document["accessors"][index]["min"][1] = -1.0
    builder.add_node(None)
    result = validate_bytes(tmp_path, "many.gltf", builder.embedded_gltf())
    mismatches = [i for i in result.issues if i.code == "ACCESSOR_MIN_MISMATCH"]
    assert [i.pointer for i in mismatches] == ["/accessors/4/min/1", "/accessors/11/min/1"]
    assert "CHECK_CRASHED" not in codes(result)
