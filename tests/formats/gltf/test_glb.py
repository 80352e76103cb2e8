"""The GLB reader: Khronos container checks with their codes and offsets; BIN chunk as buffer 0."""

import random
import struct

import pytest

from assetcheck.asset.options import ValidationOptions
from assetcheck.formats.gltf import glb
from assetcheck.formats.gltf.codes.glb import ISSUE_TYPES as GLB_ISSUE_TYPES
from assetcheck.formats.source import SourceFile
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.testing.gltf import (
    BIN_CHUNK_TYPE,
    JSON_CHUNK_TYPE,
    Chunk,
    GltfBuilder,
    Primitive,
    glb_container,
    json_chunk_data,
)
from assetcheck.testing.zip import zip_of
from tests.formats import codes, only_issue, reader_codes, validate_bytes

#: Default severities of Khronos glTF-Validator 2.0.0-dev.3.10 (its ISSUES.md).
KHRONOS_SEVERITIES = {
    "GLB_CHUNK_LENGTH_UNALIGNED": "error",
    "GLB_CHUNK_TOO_BIG": "error",
    "GLB_DUPLICATE_CHUNK": "error",
    "GLB_EMPTY_BIN_CHUNK": "info",
    "GLB_EMPTY_CHUNK": "error",
    "GLB_EXTRA_DATA": "warning",
    "GLB_INVALID_MAGIC": "error",
    "GLB_INVALID_VERSION": "error",
    "GLB_LENGTH_MISMATCH": "error",
    "GLB_LENGTH_TOO_SMALL": "error",
    "GLB_UNEXPECTED_BIN_CHUNK": "error",
    "GLB_UNEXPECTED_END_OF_CHUNK_DATA": "error",
    "GLB_UNEXPECTED_END_OF_CHUNK_HEADER": "error",
    "GLB_UNEXPECTED_END_OF_HEADER": "error",
    "GLB_UNEXPECTED_FIRST_CHUNK": "error",
    "GLB_UNKNOWN_CHUNK_TYPE": "warning",
}

DOCUMENT = {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 8}]}
JSON_DATA = json_chunk_data(DOCUMENT)
BIN_DATA = bytes(8)
JSON = Chunk(JSON_CHUNK_TYPE, JSON_DATA)
BIN = Chunk(BIN_CHUNK_TYPE, BIN_DATA)
UNKNOWN = Chunk(b"XYZW", b"abcd")
#: Offsets of the first three chunk headers when the first two are JSON and BIN.
SECOND_CHUNK = 12 + 8 + len(JSON_DATA)
THIRD_CHUNK = SECOND_CHUNK + 8 + len(BIN_DATA)
VALID = glb_container([JSON, BIN])


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def cube() -> GltfBuilder:
    builder = GltfBuilder()
    material = builder.add_material("paint")
    builder.add_mesh([Primitive(24, 36, material=material, normals=True)], name="cube")
    builder.add_animation("bounce", keyframes=4, duration=1.5)
    return builder


def test_glb_codes_keep_khronos_default_severities():
    assert {t.code: t.severity for t in GLB_ISSUE_TYPES} == KHRONOS_SEVERITIES


def test_builder_glb_has_known_counts_and_no_issues(tmp_path, plugin_manager):
    result = validate_bytes(tmp_path, "cube.glb", cube().glb(), plugin_manager)
    [asset] = result.assets
    assert (
        asset.vertex_count,
        asset.triangle_count,
        asset.material_count,
        asset.animation_count,
    ) == (24, 12, 1, 1)
    assert asset.format == "glb"
    assert reader_codes(result) == []
    assert result.valid


def test_bin_chunk_is_buffer_zero_without_a_copy():
    data = cube().glb()
    registry = build_registry(get_plugin_manager())
    issues = IssueCollector(registry).for_file("cube.glb")
    asset = glb.read_asset(
        source=SourceFile("cube.glb", data, "glb"), issues=issues, options=ValidationOptions()
    )
    [bin_chunk] = asset.buffers
    assert isinstance(bin_chunk, memoryview)
    assert bin_chunk.obj is data
    (json_length,) = struct.unpack_from("<I", data, 12)
    assert bytes(bin_chunk[:4]) == data[28 + json_length : 32 + json_length]


@pytest.mark.parametrize(
    ("code", "data", "offset"),
    [
        ("GLB_INVALID_VERSION", glb_container([JSON, BIN], version=3), 4),
        ("GLB_UNEXPECTED_END_OF_HEADER", VALID[:8], 8),
        ("GLB_LENGTH_TOO_SMALL", glb_container([JSON, BIN], declared_length=8), 8),
        (
            "GLB_LENGTH_MISMATCH",
            glb_container([JSON, BIN], declared_length=len(VALID) + 100),
            len(VALID),
        ),
        ("GLB_EXTRA_DATA", VALID + bytes(4), len(VALID)),
        (
            "GLB_UNEXPECTED_END_OF_CHUNK_HEADER",
            glb_container([JSON, BIN], declared_length=len(VALID) + 4) + b"\x04\0\0\0",
            len(VALID) + 4,
        ),
        ("GLB_UNEXPECTED_END_OF_CHUNK_DATA", VALID[:-4], len(VALID) - 4),
        (
            "GLB_CHUNK_LENGTH_UNALIGNED",
            glb_container([Chunk(JSON_CHUNK_TYPE, JSON_DATA + b"  ")]),
            12,
        ),
        (
            "GLB_CHUNK_TOO_BIG",
            glb_container([JSON, BIN], declared_length=len(VALID) - 4),
            SECOND_CHUNK,
        ),
        ("GLB_UNEXPECTED_FIRST_CHUNK", glb_container([BIN, JSON]), 12),
        ("GLB_DUPLICATE_CHUNK", glb_container([JSON, BIN, BIN]), THIRD_CHUNK),
        ("GLB_UNKNOWN_CHUNK_TYPE", glb_container([JSON, UNKNOWN, BIN]), SECOND_CHUNK),
        ("GLB_UNEXPECTED_BIN_CHUNK", glb_container([JSON, UNKNOWN, BIN]), SECOND_CHUNK + 12),
        ("GLB_EMPTY_CHUNK", glb_container([Chunk(JSON_CHUNK_TYPE, b""), BIN]), 12),
        (
            "GLB_EMPTY_BIN_CHUNK",
            glb_container([JSON, Chunk(BIN_CHUNK_TYPE, b""), UNKNOWN]),
            SECOND_CHUNK,
        ),
    ],
)
def test_container_error_is_reported_with_khronos_code_and_offset(
    tmp_path, plugin_manager, code, data, offset
):
    result = validate_bytes(tmp_path, "broken.glb", data, plugin_manager)
    issue = only_issue(result, code)
    assert issue.offset == offset
    assert issue.file == "broken.glb"
    assert issue.severity == KHRONOS_SEVERITIES[code]


@pytest.mark.parametrize(
    "data",
    [
        glb_container([JSON, BIN], declared_length=len(VALID) + 100),
        VALID + bytes(4),
        glb_container([JSON, UNKNOWN, BIN]),
        glb_container([Chunk(JSON_CHUNK_TYPE, JSON_DATA + b"  "), BIN]),
    ],
    ids=["length-mismatch", "extra-data", "unknown-chunk", "unaligned-chunk"],
)
def test_document_is_still_read_after_a_recoverable_container_error(tmp_path, plugin_manager, data):
    result = validate_bytes(tmp_path, "model.glb", data, plugin_manager)
    [asset] = result.assets
    assert asset.details["version"] == "2.0"


def test_truncated_glb_reports_unexpected_end_of_chunk_data_and_reads_nothing(
    tmp_path, plugin_manager
):
    data = cube().glb()
    result = validate_bytes(tmp_path, "cut.glb", data[: len(data) // 2], plugin_manager)
    [asset] = result.assets
    assert "GLB_UNEXPECTED_END_OF_CHUNK_DATA" in codes(result)
    assert asset.vertex_count == 0
    assert not result.valid


def test_chunk_length_far_past_the_end_is_reported_without_allocating(tmp_path, plugin_manager):
    huge = Chunk(BIN_CHUNK_TYPE, BIN_DATA, declared_length=0xFFFFFFFC)
    result = validate_bytes(tmp_path, "huge.glb", glb_container([JSON, huge]), plugin_manager)
    assert only_issue(result, "GLB_CHUNK_TOO_BIG").offset == SECOND_CHUNK
    assert "GLB_UNEXPECTED_END_OF_CHUNK_DATA" in codes(result)


def test_random_bytes_named_glb_are_unsupported_alone_and_an_invalid_magic_in_an_archive(
    tmp_path, plugin_manager
):
    noise = b"\0" + random.Random(7).randbytes(4095)
    alone = validate_bytes(tmp_path, "noise.glb", noise, plugin_manager)
    assert codes(alone) == ["UNSUPPORTED_FILE_TYPE"] and alone.assets == []
    packed = validate_bytes(tmp_path, "pack.zip", zip_of({"noise.glb": noise}), plugin_manager)
    assert only_issue(packed, "GLB_INVALID_MAGIC").offset == 0
    assert "READER_CRASHED" not in codes(packed)
    [asset] = packed.assets
    assert asset.vertex_count == 0


def test_a_glb_with_another_magic_in_an_archive_is_an_invalid_magic(tmp_path, plugin_manager):
    member = glb_container([JSON, BIN], magic=b"glTX")
    packed = validate_bytes(tmp_path, "pack.zip", zip_of({"broken.glb": member}), plugin_manager)
    issue = only_issue(packed, "GLB_INVALID_MAGIC")
    assert (issue.offset, issue.severity) == (0, KHRONOS_SEVERITIES["GLB_INVALID_MAGIC"])


def test_an_empty_file_named_glb_is_an_empty_file_not_a_cut_glb(tmp_path, plugin_manager):
    result = validate_bytes(tmp_path, "empty.glb", b"", plugin_manager)
    assert codes(result) == ["EMPTY_FILE"]
    assert (
        only_issue(result, "EMPTY_FILE").message == "empty.glb is empty: it has no bytes to read."
    )


def test_glb_version_1_is_explained_as_gltf_1(tmp_path, plugin_manager):
    result = validate_bytes(tmp_path, "old.glb", glb_container([JSON], version=1), plugin_manager)
    assert "glTF 1.0" in only_issue(result, "GLB_INVALID_VERSION").message


def test_json_chunk_with_invalid_utf8_is_invalid_json(tmp_path, plugin_manager):
    data = glb_container([Chunk(JSON_CHUNK_TYPE, b'{"a":"\xff"} ')])
    result = validate_bytes(tmp_path, "bad.glb", data, plugin_manager)
    assert "UTF-8" in only_issue(result, "INVALID_JSON").message


@pytest.mark.parametrize(
    ("code", "chunks"),
    [
        ("BUFFER_MISSING_GLB_DATA", [JSON]),
        ("BUFFER_GLB_CHUNK_TOO_BIG", [JSON, Chunk(BIN_CHUNK_TYPE, bytes(16))]),
        ("BUFFER_BYTE_LENGTH_MISMATCH", [JSON, Chunk(BIN_CHUNK_TYPE, bytes(4))]),
    ],
)
def test_bin_chunk_is_checked_against_buffer_zero(tmp_path, plugin_manager, code, chunks):
    result = validate_bytes(tmp_path, "model.glb", glb_container(chunks), plugin_manager)
    assert only_issue(result, code).pointer == "/buffers/0"


def test_padding_of_up_to_three_bytes_after_buffer_zero_is_fine(tmp_path, plugin_manager):
    document = {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 5}]}
    data = glb_container([Chunk(JSON_CHUNK_TYPE, json_chunk_data(document)), BIN])
    assert reader_codes(validate_bytes(tmp_path, "model.glb", data, plugin_manager)) == []
