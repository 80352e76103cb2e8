"""meshopt-compressed buffer views: the extension's rules, the decoders, the fallback buffers."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest

from assetcheck.formats.gltf.meshopt import decoded_component_types
from assetcheck.formats.gltf.meshopt_decoder import (
    MeshoptError,
    MeshoptView,
    decode_view,
    decode_views,
    layout_problem,
)
from assetcheck.sandbox import decoder
from assetcheck.sandbox.child import run_in_child
from assetcheck.sandbox.helper import run_in_helper
from assetcheck.testing.compressed import encode_filter, encode_meshopt, join_glb, split_glb
from assetcheck.testing.harness import validate_bytes

FIXTURE = Path(__file__).resolve().parents[2] / "assets" / "compressed" / "pawn_meshopt.glb"
EXT = "EXT_meshopt_compression"


def findings(edit) -> dict[str, list[str]]:
    """Each issue code found in the meshopt fixture after ``edit(document, binary)``."""
    document, binary = split_glb(FIXTURE.read_bytes())
    edit(document, binary)
    found: dict[str, list[str]] = {}
    for issue in validate_bytes(join_glb(document, binary)).issues:
        found.setdefault(issue.code, []).append(issue.message)
    return found


def extension(document: dict, view: int = 0) -> dict:
    return document["bufferViews"][view]["extensions"][EXT]


# -- the decoders -------------------------------------------------------------------------------


def test_attributes_triangles_and_index_sequences_decode_to_what_was_encoded():
    rng = np.random.default_rng(1)
    vertices = rng.random((300, 4), dtype=np.float32)
    triangles = rng.integers(0, 300, (200, 3)).astype(np.uint32)
    cases = [
        (MeshoptView(EXT, 300, 16, "ATTRIBUTES"), vertices, vertices.tobytes()),
        (MeshoptView(EXT, 600, 4, "TRIANGLES"), triangles, triangles.tobytes()),
        (MeshoptView(EXT, 600, 2, "TRIANGLES"), triangles, triangles.astype(np.uint16).tobytes()),
        (MeshoptView(EXT, 600, 4, "INDICES"), triangles, triangles.tobytes()),
    ]
    for view, data, expected in cases:
        payload = encode_meshopt(
            data, view.count, 16 if view.mode == "ATTRIBUTES" else 4, view.mode
        )
        assert bytes(decode_view(view, payload)) == expected


def test_views_decoded_in_the_helper_come_back_as_their_bytes_or_their_reason():
    vertices = np.arange(400, dtype=np.float32)
    payload = encode_meshopt(vertices, 100, 16, "ATTRIBUTES")
    view = MeshoptView(EXT, 100, 16, "ATTRIBUTES")
    decoded, refused = run_in_helper(
        partial(decode_views, [(view, memoryview(payload)), (view, payload[:-1])]),
        timeout=10.0,
        memory_limit_mb=64,
    )
    assert isinstance(decoded, memoryview) and bytes(decoded) == vertices.tobytes()
    assert isinstance(refused, str)


def test_a_decoder_answer_of_another_length_is_reported_not_read(monkeypatch):
    monkeypatch.setattr(decoder, "run_decoder", lambda *args: [memoryview(b"short")])

    assert findings(lambda document, binary: None)["MESHOPT_DECODE_FAILED"] == [
        "The meshopt payload of this buffer view does not decode: the decoder sent 5 bytes, "
        "not the 5376 bytes it decodes to."
    ]


@pytest.mark.parametrize(
    ("filter_", "stride", "dtype"),
    [
        ("OCTAHEDRAL", 8, np.int16),
        ("OCTAHEDRAL", 4, np.int8),
        ("QUATERNION", 8, np.int16),
        ("EXPONENTIAL", 16, np.float32),
    ],
)
def test_each_filter_decodes_back_to_the_values_it_encoded(filter_, stride, dtype):
    rng = np.random.default_rng(2)
    values = rng.normal(size=(64, 4)).astype(np.float32)
    if filter_ != "EXPONENTIAL":
        values /= np.linalg.norm(
            values if filter_ == "QUATERNION" else values[:, :3], axis=1, keepdims=True
        )
        values[:, 3] = 1.0 if filter_ == "OCTAHEDRAL" else values[:, 3]
    bits = {"OCTAHEDRAL": 8 if stride == 4 else 16, "QUATERNION": 16, "EXPONENTIAL": 23}[filter_]
    filtered = encode_filter(values, filter_, 64, stride, bits)
    view = MeshoptView(EXT, 64, stride, "ATTRIBUTES", filter_)
    decoded = (
        np.frombuffer(decode_view(view, encode_meshopt(filtered, 64, stride, "ATTRIBUTES")), dtype)
        .reshape(64, 4)
        .astype(np.float64)
    )
    if dtype != np.float32:
        decoded /= np.iinfo(dtype).max
    if filter_ == "QUATERNION":  # q and -q are the same rotation
        decoded *= np.sign(np.sum(decoded * values, axis=1, keepdims=True))
    columns = 3 if filter_ == "OCTAHEDRAL" else 4
    assert np.allclose(decoded[:, :columns], values[:, :columns], atol=0.02)


def test_truncated_or_foreign_payloads_are_rejected_not_read_past():
    vertices = np.arange(400, dtype=np.float32)
    payload = encode_meshopt(vertices, 100, 16, "ATTRIBUTES")
    view = MeshoptView(EXT, 100, 16, "ATTRIBUTES")
    for broken in (payload[:1], payload[: len(payload) // 2], payload[:-1], b"\xe1" + payload[1:]):
        with pytest.raises(MeshoptError):
            decode_view(view, broken)


def test_ext_meshopt_compression_refuses_the_attribute_codec_version_only_khr_allows():
    payload = b"\xa1" + encode_meshopt(np.zeros(4, np.float32), 1, 16, "ATTRIBUTES")[1:]
    with pytest.raises(MeshoptError, match="version 1 is not allowed by EXT"):
        decode_view(MeshoptView(EXT, 1, 16, "ATTRIBUTES"), payload)


@pytest.mark.parametrize(
    ("view", "reason"),
    [
        (MeshoptView(EXT, 3, 6, "ATTRIBUTES"), "byteStride 6 of ATTRIBUTES data"),
        (MeshoptView(EXT, 3, 260, "ATTRIBUTES"), "byteStride 260 of ATTRIBUTES data"),
        (MeshoptView(EXT, 4, 4, "TRIANGLES"), "count 4 of TRIANGLES data"),
        (MeshoptView(EXT, 3, 8, "INDICES"), "byteStride 8 of INDICES data"),
        (MeshoptView(EXT, 3, 4, "INDICES", "OCTAHEDRAL"), "INDICES data takes no filter"),
        (MeshoptView(EXT, 3, 12, "ATTRIBUTES", "OCTAHEDRAL"), "OCTAHEDRAL filter needs"),
        (MeshoptView(EXT, 3, 4, "ATTRIBUTES", "QUATERNION"), "QUATERNION filter needs"),
        (MeshoptView(EXT, 3, 4, "POINTS"), "mode 'POINTS'"),
    ],
)
def test_layouts_the_extension_forbids_are_named(view, reason):
    assert reason in layout_problem(view)


# -- the fixture, mutated -----------------------------------------------------------------------


def test_the_meshopt_fixture_is_valid_and_reads_like_the_original():
    assert "MESHOPT_DECODE_FAILED" not in findings(lambda document, binary: None)


def test_a_truncated_payload_does_not_decode():
    def truncate(document, binary):
        extension(document)["byteLength"] -= 40

    assert "MESHOPT_DECODE_FAILED" in findings(truncate)


def test_a_payload_with_a_flipped_header_does_not_decode():
    def flip(document, binary):
        binary[extension(document)["byteOffset"]] ^= 0x40

    found = findings(flip)
    assert "does not start with the ATTRIBUTES header" in found["MESHOPT_DECODE_FAILED"][0]


def test_a_lying_count_with_a_matching_byte_length_does_not_decode():
    def lie(document, binary):
        extension(document)["count"] *= 4
        document["bufferViews"][0]["byteLength"] *= 4

    assert "MESHOPT_DECODE_FAILED" in findings(lie)


def test_a_byte_length_that_is_not_count_times_stride_is_reported():
    def lie(document, binary):
        document["bufferViews"][0]["byteLength"] -= 12

    assert findings(lie)["MESHOPT_BYTE_LENGTH_MISMATCH"] == [
        "The buffer view is 5364 bytes long, but its meshopt payload decodes to 448 elements "
        "of 12 bytes (5376 bytes)."
    ]


def test_a_parent_stride_other_than_the_extension_s_is_reported():
    def lie(document, binary):
        document["bufferViews"][0]["byteStride"] = 16

    assert "differs from its 12" in findings(lie)["MESHOPT_INVALID_LAYOUT"][0]


def test_compressed_bytes_outside_their_buffer_are_reported():
    def lie(document, binary):
        extension(document)["byteOffset"] = len(binary)

    assert "run past the end of buffer 0" in findings(lie)["MESHOPT_DECODE_FAILED"][0]


def test_a_payload_declaring_gigabytes_ends_as_resource_limit_before_any_allocation():
    def inflate(document, binary):
        extension(document).update(count=1 << 30, byteStride=256)
        document["bufferViews"][0].update(byteLength=256 << 30, byteStride=256)
        document["buffers"][1]["byteLength"] = 256 << 31

    assert "RESOURCE_LIMIT" in findings(inflate)


def test_a_payload_that_fits_the_limit_but_not_what_is_left_of_it_ends_as_resource_limit():
    """The validation runs with 128 MB to spare (as a job's may have, once it has read the
    file); the view's 512 MB are within the 2 GB limit it is checked against."""

    def inflate(document, binary):
        extension(document).update(count=2 << 20, byteStride=256)
        document["bufferViews"][0].update(byteLength=512 << 20, byteStride=256)
        document["buffers"][1]["byteLength"] = 1 << 30

    found = run_in_child(lambda: findings(inflate), timeout=60.0, memory_limit_mb=128)
    assert "RESOURCE_LIMIT" in found and "READER_CRASHED" not in found


def test_a_fallback_buffer_read_by_an_uncompressed_view_or_holding_compressed_data_is_misused():
    def misuse(document, binary):
        del document["bufferViews"][2]["extensions"]
        extension(document, 1)["buffer"] = 1

    found = findings(misuse)
    assert sorted(found["MESHOPT_FALLBACK_MISUSED"]) == [
        "Buffer 1 is a meshopt fallback buffer, but buffer view 1 takes its compressed data "
        "from it.",
        "Buffer 1 is a meshopt fallback buffer, but buffer view 2, which is not compressed, "
        "reads it.",
    ]


def test_a_fallback_buffer_without_data_needs_the_extension_required():
    def optional(document, binary):
        del document["extensionsRequired"]

    assert "MESHOPT_FALLBACK_NOT_REQUIRED" in findings(optional)


def test_an_accessor_reading_index_data_in_another_component_type_is_reported():
    def lie(document, binary):
        document["accessors"][2]["componentType"] = 5123

    assert findings(lie)["MESHOPT_INVALID_LAYOUT"] == [
        "The meshopt extension of this buffer view breaks the extension's rules: accessor 2 "
        "reads it as UNSIGNED_SHORT, but TRIANGLES data with the NONE filter and a byteStride "
        "of 4 decodes to UNSIGNED_INT."
    ]


def test_an_accessor_reading_filtered_data_in_another_component_type_is_reported():
    def lie(document, binary):
        extension(document, 1)["filter"] = "EXPONENTIAL"
        document["accessors"][1]["componentType"] = 5122

    assert (
        "reads it as SHORT, but ATTRIBUTES data with the EXPONENTIAL filter and a byteStride "
        "of 12 decodes to FLOAT" in findings(lie)["MESHOPT_INVALID_LAYOUT"][0]
    )
    assert decoded_component_types(MeshoptView(EXT, 3, 8, "ATTRIBUTES", "OCTAHEDRAL")) == (5122,)
    assert decoded_component_types(MeshoptView(EXT, 3, 4, "ATTRIBUTES", "OCTAHEDRAL")) == (5120,)
    assert decoded_component_types(MeshoptView(EXT, 3, 12, "ATTRIBUTES")) == ()
