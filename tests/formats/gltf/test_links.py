"""The document's links read each accessor's layout once, as the accessor reader reads it."""

from __future__ import annotations

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
