"""The FBX walk's security scan (docs/security.md, FBX) on hostile files built in code, and end
to end."""

from __future__ import annotations

import struct
import tracemalloc
import zlib

import pytest

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.engine import validate
from assetcheck.formats.fbx import reader as fbx_reader
from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.scan_rules import FbxScan
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.testing.fbx import (
    MaterialSpec,
    MeshSpec,
    Scene,
    VideoSpec,
    ascii_fbx,
    binary_fbx,
    cube,
)
from assetcheck.testing.fbx_nodes import Array, Node, encode_ascii, encode_binary, nested

LIMITS = Limits()
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)
PE = b"MZ" + bytes(0x3A) + struct.pack("<I", 0x40) + b"PE\x00\x00" + bytes(64)
SCENE = Scene(
    meshes=[
        cube("Box", ["Red"]),
        MeshSpec("Tri", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]], uv_sets=3),
    ],
    materials=[MaterialSpec("Red")],
    animations=[("Idle", 1.0)],
    videos=[VideoSpec("Skin", "skin.png", PNG)],
)
EXPORTS = {
    "binary-6100": binary_fbx(SCENE, 6100),
    "binary-7400": binary_fbx(SCENE, 7400),
    "binary-7400-zlib": binary_fbx(SCENE, 7400, compress=True),
    "binary-7500-64bit": binary_fbx(SCENE, 7500, compress=True),
    "ascii-6100": ascii_fbx(SCENE, 6100),
    "ascii-7400": ascii_fbx(SCENE, 7400),
}
FIRST_NODE = 27  # after the binary header: magic, endianness byte, version


def vertices(array: Array) -> bytes:
    """A binary FBX whose one mesh has ``array`` as its Vertices."""
    geometry = Node("Geometry", [1, "Mesh\x00\x01Geometry", "Mesh"], [Node("Vertices", [array])])
    return encode_binary([Node("Objects", children=[geometry])])


def compressed_zeros(size: int) -> bytes:
    """``size`` zero bytes, deflated without ever holding them all."""
    compressor = zlib.compressobj(9)
    step = bytes(1 << 20)
    return b"".join(compressor.compress(step) for _ in range(size // len(step))) + (
        compressor.flush()
    )


def security_scan(data: bytes, limits: Limits = LIMITS) -> FbxScan:
    """The findings of the walk of ``data``."""
    return walk_fbx(data, limits).scan


def reasons(data: bytes, limits: Limits = LIMITS) -> list[str]:
    findings = security_scan(data, limits).findings
    return [f.fields["reason"] for f in findings if f.code == "FBX_MALFORMED"]


@pytest.mark.parametrize("data", EXPORTS.values(), ids=EXPORTS.keys())
def test_files_as_exporters_write_them_have_no_findings_and_their_walk_keeps_the_geometry(data):
    walk = walk_fbx(data, LIMITS)

    assert walk.scan.findings == []
    assert not walk.scan.rejected
    meshes = read_geometries(walk.tree)
    assert [(mesh.fault, mesh.triangles, mesh.uv_sets) for mesh in meshes] == [
        (None, 12, 1),
        (None, 1, 3),
    ]


def test_zlib_bomb_declaring_over_a_gigabyte_is_malformed_without_inflating():
    bomb = vertices(
        Array(
            "d", [], compress=True, declared_count=150_000_000, payload=zlib.compress(bytes(4096))
        )
    )

    assert len(bomb) < 1024
    assert reasons(bomb) == ["its arrays declare 1200000000 bytes, over the limit of 1073741824"]


def test_compressed_array_declaring_more_than_zlib_can_produce_is_malformed():
    lie = vertices(
        Array("d", [], compress=True, declared_count=10_000_000, payload=zlib.compress(bytes(4096)))
    )

    (reason,) = reasons(lie)
    assert "more than zlib can produce" in reason


@pytest.mark.parametrize(("declared", "found"), [(999, "more"), (1001, "8000 bytes")])
def test_compressed_array_inflating_to_another_size_than_declared_is_malformed(declared, found):
    array = Array("d", [0.0] * 1000, compress=True, declared_count=declared)

    assert reasons(vertices(array)) == [
        f"a compressed array declares {declared * 8} bytes but inflates to {found}"
    ]


def test_compressed_array_that_is_not_zlib_data_is_malformed():
    array = Array("d", [], compress=True, declared_count=4, payload=b"definitely not zlib")

    assert reasons(vertices(array)) == ["a compressed array is not valid zlib data"]


def test_raw_array_whose_bytes_do_not_match_its_count_is_malformed():
    array = Array("i", [1, 2, 3], declared_count=1_000_000)

    assert reasons(vertices(array)) == [
        "an array of 1000000 items declares 4000000 bytes but holds 12"
    ]


def test_arrays_over_the_configured_uncompressed_limit_are_malformed():
    data = vertices(Array("d", [0.0] * 200))

    assert reasons(data, Limits(max_uncompressed_bytes=1000)) == [
        "its arrays declare 1600 bytes, over the limit of 1000"
    ]


def test_inflating_a_real_bomb_keeps_memory_to_one_step():
    items = 16 << 20  # 128 MiB of doubles that compress to about 128 KiB
    bomb = vertices(
        Array("d", [], compress=True, declared_count=items, payload=compressed_zeros(items * 8))
    )

    tracemalloc.start()
    try:
        scan = security_scan(bomb, LIMITS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert scan.findings == []  # it is what it says it is: the parser's limits take over
    assert peak < 4 << 20


@pytest.mark.parametrize("version", [6100, 7400, 7500])
def test_binary_nodes_nested_deeper_than_64_are_malformed(version):
    assert reasons(encode_binary([nested(64)], version)) == []
    assert reasons(encode_binary([nested(65)], version)) == ["nodes are nested more than 64 deep"]
    assert reasons(encode_binary([nested(100)], version)) == ["nodes are nested more than 64 deep"]


def test_ascii_nodes_nested_deeper_than_64_are_malformed():
    assert reasons(encode_ascii([nested(64)])) == []
    assert reasons(encode_ascii([nested(65)])) == ["nodes are nested more than 64 deep"]
    assert reasons(encode_ascii([nested(100)])) == ["nodes are nested more than 64 deep"]


def truncation(data: bytes) -> list[str]:
    """The reasons of the ``FBX_TRUNCATED`` findings, once no ``FBX_MALFORMED`` one is among
    them (a file cut short is damaged, not hostile)."""
    findings = security_scan(data, LIMITS).findings
    assert "FBX_MALFORMED" not in {f.code for f in findings}
    return [f.fields["reason"] for f in findings if f.code == "FBX_TRUNCATED"]


@pytest.mark.parametrize("version", [7400, 7500])
def test_binary_file_ending_inside_a_node_is_truncated_not_malformed(version):
    data = binary_fbx(SCENE, version)

    (reason,) = truncation(data[: len(data) // 2])
    assert "past the last byte" in reason
    assert security_scan(data[: len(data) // 2], LIMITS).rejected


def test_ascii_file_ending_inside_a_block_is_truncated_not_malformed():
    data = ascii_fbx(SCENE)

    (reason,) = truncation(data[: len(data) // 2])
    assert "unclosed blocks" in reason


def test_truncated_upload_is_an_error_but_not_a_security_finding(tmp_path):
    path = tmp_path / "cut.fbx"
    path.write_bytes(binary_fbx(SCENE)[:400])

    result = validate(path)

    assert "FBX_TRUNCATED" in {issue.code for issue in result.issues}
    assert result.security.safe and not result.valid


def test_node_ending_outside_its_parent_is_malformed():
    data = bytearray(encode_binary([Node("A", [], [Node("B", [1]), Node("C", [2])])]))
    child = FIRST_NODE + 13 + len("A")
    struct.pack_into("<I", data, child, len(data) - 30)  # B claims to run past A's end

    (reason,) = reasons(bytes(data))
    assert "outside its parent" in reason


def test_node_declaring_more_properties_than_its_bytes_can_hold_is_malformed():
    data = bytearray(encode_binary([Node("Vertices", [1, 2, 3])]))
    struct.pack_into("<I", data, FIRST_NODE + 4, 4_000_000_000)

    (reason,) = reasons(bytes(data))
    assert reason.startswith("a node declares 4000000000 properties")


def test_unknown_property_type_is_malformed():
    data = bytearray(encode_binary([Node("Count", [7])]))
    data[FIRST_NODE + 13 + len("Count")] = ord("Q")

    assert reasons(bytes(data)) == ["unknown property type 0x51"]


def test_ascii_array_counting_more_values_than_the_file_has_bytes_is_malformed():
    data = (
        b'; FBX 7.4.0 project file\nObjects:  {\n\tGeometry: 1, "Geometry::", "Mesh" {\n'
        b"\t\tVertices: *999999999999 {\n\t\t\ta: 0,0,0\n\t\t}\n\t}\n}\n"
    )

    (reason,) = reasons(data)
    assert reason.startswith("an array declares 999999999999 values")


@pytest.mark.parametrize("encode", [encode_binary, encode_ascii], ids=["binary", "ascii"])
def test_a_walk_outlasting_the_time_limit_stops_and_rejects_the_file(encode):
    flood = encode([Node("Objects", children=[Node("Empty", [1]) for _ in range(10_000)])])

    scan = security_scan(flood, Limits(parse_timeout=0.0))

    assert [(f.code, f.fields) for f in scan.findings] == [("VALIDATION_TIMEOUT", {"seconds": 0.0})]
    assert scan.rejected


def connections(count: int) -> list[Node]:
    """A ``Connections`` node of ``count`` links: nodes the geometry reader keeps."""
    return [Node("Connections", children=[Node("C", ["OO", i, i + 1]) for i in range(count)])]


@pytest.mark.parametrize("encode", [encode_binary, encode_ascii], ids=["binary", "ascii"])
def test_nodes_kept_past_the_memory_limit_stop_the_tree_and_reject_the_file(encode):
    flood = encode(connections(50_000))

    tracemalloc.start()
    try:
        walk = walk_fbx(flood, Limits(memory_limit_mb=1))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert [(f.code, f.fields) for f in walk.scan.findings] == [("RESOURCE_LIMIT", {"limit_mb": 1})]
    assert walk.scan.rejected
    assert walk.tree.nodes == [] and walk.tree.fault == "its node tree needs more than 1 MB"
    assert peak < 2 << 20


@pytest.mark.parametrize("encode", [encode_binary, encode_ascii], ids=["binary", "ascii"])
def test_a_file_rejected_for_its_structure_is_not_also_out_of_memory(encode):
    flood = encode(connections(50_000))

    scan = security_scan(flood[: len(flood) * 3 // 4], Limits(memory_limit_mb=1))

    assert [f.code for f in scan.findings] == ["FBX_TRUNCATED"]


@pytest.mark.parametrize("encode", [encode_binary, encode_ascii], ids=["binary", "ascii"])
def test_nodes_the_reader_does_not_need_cost_the_walk_no_memory(encode):
    flood = encode([Node("Takes", children=connections(50_000))])

    walk = walk_fbx(flood, Limits(memory_limit_mb=1))

    assert walk.scan.findings == [] and walk.tree.nodes == []


def test_an_upload_whose_kept_nodes_pass_the_memory_limit_never_reaches_the_parser(
    tmp_path, monkeypatch
):
    def parser_must_not_run(*args, **kwargs):
        raise AssertionError("the parser was handed a file the walk rejected")

    monkeypatch.setattr(fbx_reader, "run_decoder", parser_must_not_run)
    path = tmp_path / "links.fbx"
    path.write_bytes(encode_binary(connections(50_000)))

    result = validate(path, options=ValidationOptions(limits=Limits(memory_limit_mb=1)))

    assert [issue.code for issue in result.issues] == ["RESOURCE_LIMIT"]
    assert (result.assets[0].vertex_count, result.assets[0].triangle_count) == (0, 0)


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (b"\x7fELF\x02\x01\x01" + bytes(64), "ELF executable"),
        (PE, "Windows (PE) executable"),
        (b"\xcf\xfa\xed\xfe" + bytes(64), "Mach-O executable"),
        (b"#!/bin/sh\nrm -rf ~\n", "script with a #! line"),
    ],
)
@pytest.mark.parametrize("encode", [binary_fbx, ascii_fbx], ids=["binary", "ascii"])
def test_embedded_media_that_is_a_program_is_executable_content(encode, content, kind):
    data = encode(Scene(meshes=[cube()], videos=[VideoSpec("Skin", "skin.png", content)]))

    findings = security_scan(data, LIMITS).findings

    assert [(f.code, f.fields) for f in findings] == [("EXECUTABLE_CONTENT", {"kind": kind})]


def test_executable_content_points_at_the_embedded_bytes():
    data = binary_fbx(Scene(meshes=[cube()], videos=[VideoSpec("Skin", "skin.png", PE)]))

    (finding,) = security_scan(data, LIMITS).findings

    assert data[finding.offset :].startswith(PE)


def test_embedded_media_named_like_a_program_is_executable_content():
    data = binary_fbx(Scene(meshes=[cube()], videos=[VideoSpec("Tool", "setup.exe", PNG)]))

    assert [(f.code, f.fields) for f in security_scan(data, LIMITS).findings] == [
        ("EXECUTABLE_CONTENT", {"kind": ".exe file"})
    ]


def test_a_bomb_upload_is_unsafe_and_never_reaches_the_parser(tmp_path, monkeypatch):
    def parser_must_not_run(*args, **kwargs):
        raise AssertionError("the parser was handed a file the pre-scan rejected")

    monkeypatch.setattr(fbx_reader, "run_decoder", parser_must_not_run)
    path = tmp_path / "bomb.fbx"
    path.write_bytes(
        vertices(
            Array(
                "d",
                [],
                compress=True,
                declared_count=150_000_000,
                payload=zlib.compress(bytes(4096)),
            )
        )
    )

    result = validate(path)

    assert [(w.code, w.severity) for w in result.security.warnings] == [("FBX_MALFORMED", "high")]
    assert not result.security.safe and not result.valid
    assert (result.assets[0].vertex_count, result.assets[0].triangle_count) == (0, 0)


def test_an_upload_nested_100_deep_is_unsafe(tmp_path):
    path = tmp_path / "deep.fbx"
    path.write_bytes(encode_binary([nested(100)]))

    result = validate(path)

    assert [w.code for w in result.security.warnings] == ["FBX_MALFORMED"]


def test_an_upload_with_an_embedded_program_is_critical_but_its_model_is_read(tmp_path):
    path = tmp_path / "trojan.fbx"
    path.write_bytes(binary_fbx(Scene(meshes=[cube()], videos=[VideoSpec("Skin", "a.png", PE)])))

    result = validate(path)

    assert [(w.code, w.severity) for w in result.security.warnings] == [
        ("EXECUTABLE_CONTENT", "critical")
    ]
    assert (result.assets[0].vertex_count, result.assets[0].triangle_count) == (8, 12)
