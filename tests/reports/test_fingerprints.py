"""Fingerprints: a finding keeps its identity through a re-export that changes nothing about it
(glTF arrays reordered, another generator), and loses it when what it points at changes."""

import copy
import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from assetcheck.cli import main
from assetcheck.reports.fingerprints import Fingerprints, message_identity
from assetcheck.testing.gltf import GltfBuilder, Primitive
from assetcheck.testing.zip import zip_of


def scene(generator: str = "Exporter 1.0") -> GltfBuilder:
    """Named and unnamed meshes without normals, unused materials and an unused accessor, a
    chain of unnamed nodes and a constant animation: findings pointing into most arrays."""
    builder = GltfBuilder(generator)
    wood = builder.add_material("wood")
    builder.add_material("unused paint")
    builder.add_material()
    for name, vertices in (("crate", 4), ("barrel", 4), (None, 4), (None, 8)):
        mesh = builder.add_mesh([Primitive(vertices, index_count=6, material=wood)], name)
        builder.add_node(mesh, name)
    builder.add_accessor(np.zeros((3, 3), np.float32), "VEC3")
    builder.add_node_chain(3, leaf_mesh=2)
    builder.add_animation("walk")
    return builder


def reversed_arrays(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with its meshes, materials, accessors, buffer views and nodes in reverse
    order, every reference to them following: the same asset, as a re-export may write it."""
    document = copy.deepcopy(document)
    moved = {}
    for name in ("meshes", "materials", "accessors", "bufferViews", "nodes"):
        count = len(document[name])
        moved[name] = {index: count - 1 - index for index in range(count)}
        document[name].reverse()
    for accessor in document["accessors"]:
        accessor["bufferView"] = moved["bufferViews"][accessor["bufferView"]]
    for mesh in document["meshes"]:
        for primitive in mesh["primitives"]:
            primitive["attributes"] = {
                semantic: moved["accessors"][index]
                for semantic, index in primitive["attributes"].items()
            }
            primitive["indices"] = moved["accessors"][primitive["indices"]]
            primitive["material"] = moved["materials"][primitive["material"]]
    for node in document["nodes"]:
        if "mesh" in node:
            node["mesh"] = moved["meshes"][node["mesh"]]
        if "children" in node:
            node["children"] = [moved["nodes"][child] for child in node["children"]]
    for root in document["scenes"]:
        root["nodes"] = [moved["nodes"][node] for node in root["nodes"]]
    for animation in document["animations"]:
        for sampler in animation["samplers"]:
            sampler["input"] = moved["accessors"][sampler["input"]]
            sampler["output"] = moved["accessors"][sampler["output"]]
        for channel in animation["channels"]:
            channel["target"]["node"] = moved["nodes"][channel["target"]["node"]]
    return document


def reexported(builder: GltfBuilder, generator: str) -> GltfBuilder:
    again = copy.deepcopy(builder)
    again.document = reversed_arrays(builder.document)
    again.document["asset"]["generator"] = generator
    return again


def findings(capsys, path: Path, *args: str) -> tuple[int, list[dict], str]:
    status = main(["validate", "--jobs", "1", "--format", "json", str(path), *args])
    out, err = capsys.readouterr()
    report = json.loads(out)
    return status, [o for g in report["issues"] for o in g["occurrences"]], err


def test_a_reexport_with_arrays_reordered_and_another_generator_changes_no_finding(
    capsys, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    builder = scene()
    builder.write_glb(Path("model.glb"))
    _, before, _ = findings(capsys, Path("model.glb"), "--baseline", "b.json", "--update-baseline")
    reexported(builder, "Another exporter 7.2").write_glb(Path("model.glb"))
    status, after, err = findings(capsys, Path("model.glb"), "--baseline", "b.json")

    assert len(after) == len(before) >= 10
    # The re-export moved what the findings point at: the same findings at other pointers.
    assert [o["pointer"] for o in after] != [o["pointer"] for o in before]
    assert sorted(o["fingerprint"] for o in after) == sorted(o["fingerprint"] for o in before)
    assert status == 0 and {o["baselineState"] for o in after} == {"unchanged"}
    assert err.endswith(f": 0 new, {len(after)} unchanged, 0 fixed.\n")


def test_findings_in_a_zip_member_keep_their_identity_through_a_reexport(
    capsys, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    builder = scene()
    Path("pack.zip").write_bytes(zip_of({"props/scene.glb": builder.glb()}))
    _, before, _ = findings(capsys, Path("pack.zip"), "--baseline", "b.sarif", "--update-baseline")
    again = reexported(builder, "Another exporter 7.2").glb()
    Path("pack.zip").write_bytes(zip_of({"props/scene.glb": again}))
    status, after, err = findings(capsys, Path("pack.zip"), "--baseline", "b.sarif")
    assert {o["file"] for o in after} == {"props/scene.glb"} and len(after) >= 10
    assert [o["pointer"] for o in after] != [o["pointer"] for o in before]
    assert status == 0 and err.endswith(f": 0 new, {len(after)} unchanged, 0 fixed.\n")


def test_a_changed_name_or_content_makes_another_finding(tmp_path):
    builder = scene()
    pointer = "/meshes/0/primitives/0"
    fingerprint = Fingerprints(builder.document).of("Mesh crate has no normals", pointer, "m.glb")
    renamed = copy.deepcopy(builder.document)
    renamed["meshes"][0]["name"] = "box"
    assert Fingerprints(renamed).of("Mesh crate has no normals", pointer, "m.glb") != fingerprint
    assert Fingerprints(builder.document).of("Mesh crate has no normals", pointer, "n.glb") != (
        fingerprint
    )


def test_array_items_are_known_by_unique_name_then_content_then_position_among_twins():
    document = {
        "meshes": [{"name": "a"}, {"name": "twin"}, {"name": "twin", "extras": {"lod": 1}}],
        "materials": [{"alphaMode": "BLEND"}, {"alphaMode": "MASK"}, {"alphaMode": "MASK"}],
        "accessors": [{"bufferView": 0, "count": 3}, {"bufferView": 1, "count": 3}],
        "bufferViews": [
            {"buffer": 0, "byteLength": 12},
            {"buffer": 0, "byteOffset": 12, "byteLength": 12},
        ],
    }
    stable = Fingerprints(document).stable_pointer
    assert stable("/meshes/0/primitives/0") == "/meshes/name=a/primitives/0"
    assert stable("/meshes/1").startswith("/meshes/content=")
    assert stable("/meshes/2").startswith("/meshes/content=")
    assert stable("/meshes/1") != stable("/meshes/2")
    assert stable("/materials/1").endswith("+0") and stable("/materials/2").endswith("+1")
    # Only positions that no content identifies (byte offsets) tell these accessors apart.
    assert stable("/accessors/0").endswith("+0") and stable("/accessors/1").endswith("+1")
    assert stable("/accessors/7/count") == "/accessors/7/count"  # what is not there stays


def test_an_unnamed_node_is_known_by_where_it_hangs():
    document = {"nodes": [{"name": "root", "children": [2]}, {"name": "other"}, {}]}
    moved = {"nodes": [{}, {"name": "other"}, {"name": "root", "children": [0]}]}
    assert Fingerprints(document).stable_pointer("/nodes/2") == (
        Fingerprints(moved).stable_pointer("/nodes/0")
    )
    assert Fingerprints(document).stable_pointer("/nodes/2").startswith("/nodes/name=root>content=")


def test_fingerprints_in_a_malformed_document_stay_what_they_were():
    """Node cycles, a node its own child, references to nothing or of the wrong type, an item
    that is no object, a mapping that is not a dict: the fingerprints baselines already hold
    (computed by AssetCheck before November 30's faster digests) do not change."""
    document = {
        "nodes": [
            {"children": [1], "mesh": 0},
            {"children": [2, 0], "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]},
            {"children": [2, 7, "x"], "skin": 0},
            {"children": [3]},
            "not an object",
            MappingProxyType({"name": "proxy", "children": [0]}),
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 9}, "indices": 1.5}]}],
        "accessors": [{"bufferView": 0, "count": 3, "min": [0, 0, 0], "max": [1, 1, 1]}],
        "skins": [{"joints": [0, 1, 2], "skeleton": 3, "inverseBindMatrices": 0}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
    }
    fingerprints = Fingerprints(document)
    assert {
        pointer: fingerprints.of("Node 12 of 'x 2' is odd", pointer, "a.glb")
        for pointer in (
            "/nodes/0",
            "/nodes/1/children/1",
            "/nodes/2",
            "/nodes/3",
            "/nodes/4",
            "/nodes/5",
            "/skins/0/joints/2",
            "/meshes/0/primitives/0",
        )
    } == {
        "/nodes/0": "d8f7ef9003253723c017e51bcbed5fce",
        "/nodes/1/children/1": "bbe674e0cb821c044cac710dc254c3b2",
        "/nodes/2": "ac9173c0ae90d068ae04041d9e1fb9b0",
        "/nodes/3": "2503a2f160a1c2d6920425d9f9660ac5",
        "/nodes/4": "58cb2eae95622abb7ffa2df16525fe85",
        "/nodes/5": "eeca6a3df39460e951926d40097f181c",
        "/skins/0/joints/2": "4409cdb7475bacc13352616c93af8685",
        "/meshes/0/primitives/0": "152acc2198c2d466b812535f2fa73165",
    }


@pytest.mark.parametrize(
    ("message", "identity"),
    [
        ("Mesh 12 has 40000 triangles, over 1.5e4.", "Mesh # has # triangles, over #."),
        (
            "Mesh Body has 1,000 pieces, 12,345.5 m, 1,2 and 1,0000",
            "Mesh Body has # pieces, # m, #,# and #,#",
        ),
        ("Mesh Cube.001 of lod2 has -3 keys", "Mesh Cube.001 of lod2 has # keys"),
        ("Property 'uv 2' is 7 long", "Property 'uv 2' is # long"),
    ],
)
def test_a_message_is_known_without_the_numbers_that_stand_alone(message, identity):
    assert message_identity(message) == identity
