"""Where the extensions check finds extensible objects: each one's kind and JSON Pointer."""

from __future__ import annotations

from assetcheck.checks.gltf_extensions import extensible_objects, pointer_of


def test_every_extensible_object_is_found_with_its_pointer():
    texture = {"index": 0}
    document = {
        "asset": {"version": "2.0"},
        "accessors": [{"sparse": {"indices": {}, "values": {}}}],
        "animations": [{"channels": [{"target": {}}], "samplers": [{}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": texture}}],
        "meshes": [{"primitives": [{}, {}]}],
        "nodes": [None, {}],
    }
    found = [(kind, pointer_of(path)) for kind, path, _ in extensible_objects(document)]
    assert found == [
        ("glTF", ""),
        ("asset", "/asset"),
        ("accessor", "/accessors/0"),
        ("accessor.sparse", "/accessors/0/sparse"),
        ("accessor.sparse.indices", "/accessors/0/sparse/indices"),
        ("accessor.sparse.values", "/accessors/0/sparse/values"),
        ("animation", "/animations/0"),
        ("animation.channel", "/animations/0/channels/0"),
        ("animation.channel.target", "/animations/0/channels/0/target"),
        ("animation.sampler", "/animations/0/samplers/0"),
        ("material", "/materials/0"),
        ("material.pbrMetallicRoughness", "/materials/0/pbrMetallicRoughness"),
        ("textureInfo", "/materials/0/pbrMetallicRoughness/baseColorTexture"),
        ("mesh", "/meshes/0"),
        ("mesh.primitive", "/meshes/0/primitives/0"),
        ("mesh.primitive", "/meshes/0/primitives/1"),
        ("node", "/nodes/1"),
    ]


def test_a_pointer_escapes_the_keys_below_it():
    assert pointer_of(("/extensions/EXT~a/b", 2, "x/y")) == "/extensions/EXT~a/b/2/x~1y"
