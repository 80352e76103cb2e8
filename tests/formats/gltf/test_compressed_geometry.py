"""Draco-compressed primitives: decoded in a child, checked, and seen decoded by every check.

The fixtures of tests/assets/compressed/ are one model three ways, made by the real encoders
(tools/make_compressed_fixtures.py); the error cases mutate them.
"""

from __future__ import annotations

import faulthandler
import os
import signal
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.previews.drawing import preview_path
from assetcheck.sandbox.decoder import run_decoder
from assetcheck.testing.compressed import (
    draco_glb,
    join_glb,
    meshopt_glb,
    pawn_mesh,
    plain_glb,
    split_glb,
)
from assetcheck.testing.gltf import data_uri
from assetcheck.testing.harness import validate_bytes
from assetcheck.testing.shapes import PAWN_PROFILE
from tests.previews import draw_previews
from tests.previews.test_drawing import decode_png

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "compressed"
GEOMETRY_CODES = {
    "MESH_ZERO_AREA_TRIANGLES",
    "MESH_DUPLICATE_TRIANGLES",
    "MESH_UNUSED_VERTICES",
    "MESH_MISSING_NORMALS",
}


def fixture(name: str) -> bytes:
    return (ASSETS / name).read_bytes()


def findings(model: bytes, options: ValidationOptions | None = None) -> dict[str, list[str]]:
    """Each issue code found, with its messages."""
    found: dict[str, list[str]] = {}
    for issue in validate_bytes(model, options=options).issues:
        found.setdefault(issue.code, []).append(issue.message)
    return found


def mutated(name: str, edit) -> bytes:
    """The fixture ``name`` after ``edit(document, binary)`` (which may return a new binary)."""
    document, binary = split_glb(fixture(name))
    binary = edit(document, binary) or binary
    return join_glb(document, binary)


def draco_extension(document: dict) -> dict:
    return document["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]


# -- the same model, three ways -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["pawn_draco.glb", "pawn_meshopt.glb"])
def test_a_compressed_model_reports_the_counts_and_geometry_findings_of_the_original(name):
    original, compressed = (validate_bytes(fixture(n)) for n in ("pawn.glb", name))
    assert (
        (compressed.assets[0].vertex_count, compressed.assets[0].triangle_count)
        == (original.assets[0].vertex_count, original.assets[0].triangle_count)
        == (448, 832)
    )
    geometry = [
        sorted((i.code, i.message) for i in result.issues if i.code in GEOMETRY_CODES)
        for result in (original, compressed)
    ]
    assert geometry[0] == geometry[1] and geometry[0]  # the 64 zero-area triangles of the poles
    assert {i.code for i in compressed.issues} == {i.code for i in original.issues}


def test_draco_default_encoding_keeps_the_counts_of_a_mesh_without_degenerate_triangles():
    mesh = pawn_mesh(PAWN_PROFILE[1:-1])
    original, compressed = validate_bytes(plain_glb(mesh)), validate_bytes(draco_glb(mesh))
    assert (compressed.assets[0].vertex_count, compressed.assets[0].triangle_count) == (
        original.assets[0].vertex_count,
        original.assets[0].triangle_count,
    )
    assert [i.code for i in compressed.issues] == [i.code for i in original.issues] == []


def test_khr_meshopt_compression_is_decoded_like_ext():
    model = meshopt_glb(pawn_mesh(PAWN_PROFILE[1:-1]), extension="KHR_meshopt_compression")
    result = validate_bytes(model)
    assert [(i.code, i.message) for i in result.issues] == []
    assert result.assets[0].vertex_count == 384


def several_meshes() -> list:
    """Three meshes of different sizes and places (without degenerate triangles, which Draco's
    default encoding drops)."""
    pawn, short = pawn_mesh(PAWN_PROFILE[1:-1]), pawn_mesh(PAWN_PROFILE[2:-2])
    return [pawn, short, replace(pawn, positions=pawn.positions * 3 + np.float32([5, 0, 0]))]


def test_several_draco_primitives_decoded_side_by_side_each_match_their_original():
    meshes = several_meshes()
    original, compressed = validate_bytes(plain_glb(meshes)), validate_bytes(draco_glb(meshes))
    assert [(m.name, m.vertex_count, m.triangle_count) for m in compressed.assets[0].parts] == [
        (m.name, m.vertex_count, m.triangle_count) for m in original.assets[0].parts
    ]
    assert sorted((i.code, i.pointer) for i in compressed.issues) == sorted(
        (i.code, i.pointer) for i in original.issues
    )


def test_several_payloads_decode_one_at_a_time_when_the_limit_leaves_no_room_for_threads():
    tight = ValidationOptions(limits=replace(Limits(), memory_limit_mb=8))
    result = validate_bytes(draco_glb(several_meshes()), options=tight)
    assert [(i.code, i.message) for i in result.issues] == []


def test_one_corrupt_payload_among_several_fails_alone():
    def corrupt_the_second(document, binary):
        extension = document["meshes"][1]["primitives"][0]["extensions"][
            "KHR_draco_mesh_compression"
        ]
        binary[document["bufferViews"][extension["bufferView"]]["byteOffset"]] ^= 0xFF

    document, binary = split_glb(draco_glb(several_meshes()))
    corrupt_the_second(document, binary)
    result = validate_bytes(join_glb(document, binary))
    assert [(i.code, i.pointer) for i in result.issues if i.code.startswith("DRACO")] == [
        ("DRACO_DECODE_FAILED", "/meshes/1/primitives/0/extensions/KHR_draco_mesh_compression")
    ]


@pytest.mark.parametrize("name", ["pawn_draco.glb", "pawn_meshopt.glb"])
def test_the_preview_is_drawn_from_the_decoded_mesh(tmp_path, name):
    pictures = {}
    for model in ("pawn.glb", name):
        job = tmp_path / model
        job.mkdir()
        (job / "upload").write_bytes(fixture(model))
        assert draw_previews(job / "upload", model, get_plugin_manager()) == 1
        pictures[model] = decode_png(preview_path(job, model).read_bytes())
    covered = [picture[..., 3] == 255 for picture in pictures.values()]
    assert covered[0].sum() > 1000
    assert np.count_nonzero(covered[0] != covered[1]) < covered[0].sum() * 0.01


# -- Draco payloads that lie or do not decode ---------------------------------------------------


def test_a_truncated_draco_payload_does_not_decode():
    def truncate(document, binary):
        document["bufferViews"][0]["byteLength"] //= 2

    assert "DRACO_DECODE_FAILED" in findings(mutated("pawn_draco.glb", truncate))


def test_a_draco_payload_without_its_magic_does_not_decode():
    def flip(document, binary):
        binary[0] ^= 0xFF

    found = findings(mutated("pawn_draco.glb", flip))
    assert "DRACO_DECODE_FAILED" in found and "not draco encoded" in found["DRACO_DECODE_FAILED"][0]


def test_bit_flips_in_a_draco_payload_never_crash_the_validation():
    rng = np.random.default_rng(7)
    for _ in range(8):

        def flip(document, binary):
            for at in rng.integers(11, document["bufferViews"][0]["byteLength"], 4):
                binary[at] ^= 1 << int(rng.integers(8))

        assert validate_bytes(mutated("pawn_draco.glb", flip)).assets[0].parsed


def test_an_accessor_count_that_is_not_the_decoded_vertex_count_is_reported():
    def lie(document, binary):
        document["accessors"][1]["count"] += 1

    found = findings(mutated("pawn_draco.glb", lie))
    assert found["DRACO_VERTEX_COUNT_MISMATCH"] == [
        "The accessor of NORMAL declares 449 vertices, but the Draco payload decodes to 448."
    ]


def test_an_indices_count_that_is_not_the_decoded_index_count_is_reported():
    def lie(document, binary):
        document["accessors"][2]["count"] -= 3

    assert "DRACO_INDEX_COUNT_MISMATCH" in findings(mutated("pawn_draco.glb", lie))


def test_an_attribute_id_the_payload_does_not_hold_is_reported():
    def lie(document, binary):
        draco_extension(document)["attributes"]["NORMAL"] = 9

    found = findings(mutated("pawn_draco.glb", lie))
    assert found["DRACO_ATTRIBUTE_MISSING"] == [
        "The Draco attribute NORMAL names attribute id 9, which the payload does not hold "
        "(it holds [0, 1])."
    ]


def test_an_accessor_type_that_does_not_fit_the_decoded_attribute_is_reported():
    def lie(document, binary):
        document["accessors"][1]["type"] = "VEC4"

    assert "DRACO_ATTRIBUTE_SHAPE_MISMATCH" in findings(mutated("pawn_draco.glb", lie))


# -- extension objects no loader can use --------------------------------------------------------


def meshopt_extensions(document: dict) -> list[dict]:
    return [
        view["extensions"]["EXT_meshopt_compression"]
        for view in document["bufferViews"]
        if "extensions" in view
    ]


def broken(name: str, key: str, value: object, *, required: bool = True) -> bytes:
    """The fixture ``name`` with an all-zero binary chunk, ``key`` of every compressed
    payload's extension object set to ``value``, and the extension required or only used."""

    def edit(document, binary):
        objects = meshopt_extensions(document) if "meshopt" in name else [draco_extension(document)]
        for extension in objects:
            extension[key] = value
        if not required:
            del document["extensionsRequired"]
        return bytes(len(binary))

    return mutated(name, edit)


SCHEMA_BREAKS = [
    ("pawn_draco.glb", "attributes", ["POSITION", "NORMAL"]),
    ("pawn_draco.glb", "attributes", "POSITION"),
    ("pawn_draco.glb", "attributes", {"POSITION": "0", "NORMAL": 1}),
    ("pawn_draco.glb", "bufferView", -1),
    ("pawn_draco.glb", "bufferView", "0"),
    ("pawn_draco.glb", "bufferView", 0.5),
    ("pawn_draco.glb", "bufferView", 99),
    ("pawn_meshopt.glb", "count", "448"),
    ("pawn_meshopt.glb", "count", 0),
    ("pawn_meshopt.glb", "mode", None),
    ("pawn_meshopt.glb", "filter", 3),
    ("pawn_meshopt.glb", "byteStride", 12.5),
    ("pawn_meshopt.glb", "byteLength", "x"),
    ("pawn_meshopt.glb", "byteOffset", -4),
    ("pawn_meshopt.glb", "buffer", "0"),
    ("pawn_meshopt.glb", "buffer", 99),
]


@pytest.mark.parametrize(("name", "key", "value"), SCHEMA_BREAKS)
def test_a_required_payload_whose_extension_object_breaks_its_schema_fails_to_decode(
    name, key, value
):
    result = validate_bytes(broken(name, key, value))
    code = "MESHOPT_DECODE_FAILED" if "meshopt" in name else "DRACO_DECODE_FAILED"
    failures = [issue.message for issue in result.issues if issue.code == code]
    assert failures and all(key in message for message in failures)
    assert not result.valid and result.grade != "excellent"


def test_a_required_meshopt_payload_whose_extension_object_lacks_its_mode_fails_to_decode():
    def drop_mode(document, binary):
        for extension in meshopt_extensions(document):
            del extension["mode"]

    result = validate_bytes(mutated("pawn_meshopt.glb", drop_mode))
    codes = {issue.code for issue in result.issues}
    failures = [issue.message for issue in result.issues if issue.code == "MESHOPT_DECODE_FAILED"]
    assert failures and all("its mode (null) is not a string" in message for message in failures)
    assert "READER_CRASHED" not in codes


@pytest.mark.parametrize(("name", "key", "value"), [SCHEMA_BREAKS[0], SCHEMA_BREAKS[7]])
def test_an_optional_payload_whose_extension_object_breaks_its_schema_is_left_to_the_fallback(
    name, key, value
):
    found = findings(broken(name, key, value, required=False))
    assert not {"DRACO_DECODE_FAILED", "MESHOPT_DECODE_FAILED"} & found.keys()
    assert "EXTENSION_SCHEMA_MISMATCH" in found


def test_checks_read_the_fallback_data_of_an_optional_meshopt_view_they_cannot_decode():
    uncompressed = split_glb(fixture("pawn.glb"))[1]

    def edit(document, binary):
        del document["extensionsRequired"]
        document["buffers"][1]["uri"] = data_uri(bytes(uncompressed))
        for extension in meshopt_extensions(document):
            extension["mode"] = None

    original, fallback = (
        validate_bytes(model) for model in (fixture("pawn.glb"), mutated("pawn_meshopt.glb", edit))
    )
    geometry = [
        sorted((i.code, i.message) for i in result.issues if i.code in GEOMETRY_CODES)
        for result in (original, fallback)
    ]
    assert geometry[0] == geometry[1] and geometry[0]


def test_decoded_positions_outside_the_declared_bounds_are_reported():
    def shrink(document, binary):
        document["accessors"][0]["max"][1] = 0.5

    found = findings(mutated("pawn_draco.glb", shrink))
    assert "DRACO_POSITION_OUT_OF_BOUNDS" in found
    assert "by up to 0.55" in found["DRACO_POSITION_OUT_OF_BOUNDS"][0]
    assert "DRACO_POSITION_OUT_OF_BOUNDS" not in findings(fixture("pawn_draco.glb"))


def test_a_draco_payload_declaring_a_huge_mesh_ends_as_a_limit_or_an_error_not_a_crash():
    def inflate(document, binary):
        # Sequential encoding: an 11-byte header, then the face and point counts as varints.
        huge = bytes([0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
        payload = bytes(binary[:11]) + huge + huge + bytes(binary[15 : len(binary)])
        document["bufferViews"][0]["byteLength"] = len(payload)
        document["buffers"][0]["byteLength"] = len(payload)
        return payload

    options = ValidationOptions(limits=replace(Limits(), memory_limit_mb=256))
    found = findings(mutated("pawn_draco.glb", inflate), options)
    assert {"RESOURCE_LIMIT", "DRACO_DECODE_FAILED"} & set(found)


# -- the child the decoders run in --------------------------------------------------------------


def collector_issues():
    collector = IssueCollector(build_registry(get_plugin_manager()))
    return collector, collector.for_file("model.glb")


def crash() -> None:
    faulthandler.disable()  # pytest's handler would print the child's stack
    os.kill(os.getpid(), signal.SIGSEGV)


def test_a_decoder_that_crashes_is_reported_with_the_codec_s_code():
    collector, issues = collector_issues()
    assert run_decoder(crash, Limits(), issues, "DRACO_DECODE_FAILED") is None
    assert [issue.code for issue in collector.issues] == ["DRACO_DECODE_FAILED"]


def test_a_decoder_past_the_memory_limit_ends_as_resource_limit():
    collector, issues = collector_issues()
    limits = replace(Limits(), memory_limit_mb=64)
    assert run_decoder(lambda: bytearray(1 << 30), limits, issues, "MESHOPT_DECODE_FAILED") is None
    assert [issue.code for issue in collector.issues] == ["RESOURCE_LIMIT"]
