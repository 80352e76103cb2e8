"""Buffer views and accessor layouts: the gltf-buffers check on real glTF files."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.testing.gltf import ARRAY_BUFFER, GltfBuilder, Primitive
from tests.formats import codes, only_issue, validate_bytes


@pytest.mark.parametrize("kind", [["VEC3"], {"VEC3": 3}])
def test_an_accessor_type_that_is_not_a_string_is_a_type_mismatch(tmp_path, kind):
    # Khronos glTF-Validator: TYPE_MISMATCH on /accessors/3/type, and the accessor unused.
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    index = builder.add_accessor(np.zeros((1, 3), np.float32), "VEC3", target=ARRAY_BUFFER)
    builder.document["accessors"][index].update(type=kind, min=[0, 0, 0], max=[0, 0, 0])
    result = validate_bytes(tmp_path, "m.gltf", builder.embedded_gltf())
    assert only_issue(result, "TYPE_MISMATCH").pointer == f"/accessors/{index}/type"
    assert "CHECK_CRASHED" not in codes(result)
