"""The document's links read each accessor's layout once, as the accessor reader reads it."""

from __future__ import annotations

import math

from assetcheck.formats.gltf.links import Primitive
from assetcheck.formats.gltf.model import GltfDocument
from tests.formats.gltf.cases import triangle


def test_an_accessors_layout_is_the_readers_and_none_where_there_is_none():
    document = triangle().document
    document["accessors"].append({"componentType": 5126, "type": "VEC3", "count": 0})
    document["accessors"].append("not an accessor")
    gltf = GltfDocument(document, [None])
    links = gltf.links
    count = len(document["accessors"])
    assert len(links.layouts) == count
    for index in range(count):
        assert links.layout(index) == gltf.reader.layout(index)
    assert links.layout(count - 2) is None  # a count of 0 is unusable
    assert links.layout(count - 1) is None  # not an object
    assert links.layout(count) is None
    assert links.layout(None) is None
    assert links.layout(0) is not None


def primitive_of(attributes: dict, **json: object) -> Primitive:
    document = {
        "asset": {"version": "2.0"},
        "accessors": [
            {"componentType": 5126, "type": "VEC3", "count": 0},  # resolves, no usable layout
            {"componentType": 5126, "type": "VEC3", "count": 7},
            {"componentType": 5126, "type": "VEC3", "count": 9},
            "not an accessor",
        ],
        "meshes": [{"primitives": [{"attributes": attributes, **json}]}],
    }
    (primitive,) = GltfDocument(document, []).links.primitives
    return primitive


def test_a_primitives_vertex_count_is_its_first_attribute_with_a_usable_layout():
    assert primitive_of({"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}).vertex_count == 7
    assert primitive_of({"POSITION": 3, "NORMAL": 2}).vertex_count == 9
    assert primitive_of({"POSITION": 0}).vertex_count is None


def test_a_primitive_keeps_the_attributes_and_targets_that_resolve_in_order():
    primitive = primitive_of(
        {"NORMAL": 2, "POSITION": 1.0, "TANGENT": -1, "COLOR_0": 3, "_X": True, "TEXCOORD_0": 9},
        targets=[{"POSITION": 2, "NORMAL": "1"}, {}],
        indices=1,
        material=0,
    )
    assert list(primitive.attributes.items()) == [("NORMAL", 2), ("POSITION", 1)]
    assert primitive.targets == [{"POSITION": 2}, {}]
    assert (primitive.indices, primitive.material) == (1, None)
    assert primitive.pointer == "/meshes/0/primitives/0"
    semantics = primitive.semantics
    assert (semantics.has_position, semantics.has_normal, semantics.has_tangent) == (
        True,
        True,
        True,
    )
    assert semantics.counts["TEXCOORD"] == 1 and semantics.counts["COLOR"] == 1


def test_a_primitive_mode_is_an_integer_from_0_to_6_else_none():
    modes = [(4, 4), (0, 0), (6, 6), (7, None), (-1, None), (4.0, 4), (True, None)]
    modes += [("4", None), (2**80, None), (10**400, None), (math.nan, None)]
    for mode, expected in modes:
        assert primitive_of({"POSITION": 1}, mode=mode).mode == expected, mode
    assert primitive_of({"POSITION": 1}, mode=None).mode is None
    assert primitive_of({"POSITION": 1}).mode == 4
