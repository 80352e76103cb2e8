"""Expanding ZIP uploads into the model files inside them (the security rules have their own
module, tests/formats/zip/test_zip_security.py)."""

import random
import zipfile

import pytest

from assetcheck.testing.fbx import Scene, binary_fbx, cube
from assetcheck.testing.gltf import GltfBuilder, Primitive
from assetcheck.testing.zip import Member, build_zip, tiny_glb, zip64_sizes_extra, zip_of
from tests.zip_scans import expand, validate_zip

FBX_HEAD = b"Kaydara FBX Binary  \x00\x1a\x00" + bytes(64)


def gltf_with_buffer(bin_uri: str = "model.bin") -> tuple[bytes, bytes]:
    """A one-triangle glTF whose buffer is the external file ``bin_uri``, and that buffer."""
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(vertex_count=3, index_count=3)]))
    return builder.gltf_json(bin_uri), bytes(builder.binary)


def test_zip_of_three_models_gives_three_sources_named_by_their_path_in_the_archive(tmp_path):
    archive = zip_of(
        {
            "a.glb": tiny_glb(),
            "models/b.glb": tiny_glb(),
            "models/deep/c.glb": tiny_glb(),
            "readme.txt": b"not a model",
        }
    )

    expansion = expand(archive, tmp_path)

    assert expansion.names == ["a.glb", "models/b.glb", "models/deep/c.glb"]
    assert [s.kind for s in expansion.sources] == ["glb"] * 3
    assert [s.base for s in expansion.sources] == ["", "models", "models/deep"]
    assert all(s.data == tiny_glb() for s in expansion.sources)
    assert expansion.scanned_members == 4
    assert expansion.issues == []


def test_engine_reports_each_model_of_the_zip_under_its_path(tmp_path):
    archive = zip_of({"a.glb": tiny_glb(), "models/b.glb": tiny_glb(), "x/c.glb": tiny_glb()})

    result = validate_zip(archive, tmp_path)

    assert [asset.filename for asset in result.assets] == ["a.glb", "models/b.glb", "x/c.glb"]
    assert result.security.safe
    assert result.security.scanned_files == 4  # the archive and its three members


def test_engine_reads_an_fbx_member_and_leaves_no_file_behind(tmp_path):
    archive = zip_of({"props/crate.fbx": binary_fbx(Scene(meshes=[cube()]))})

    [asset] = validate_zip(archive, tmp_path).assets

    assert (asset.filename, asset.format, asset.triangle_count) == ("props/crate.fbx", "fbx", 12)


def test_gltf_in_a_zip_reads_its_bin_from_beside_it(tmp_path):
    document, binary = gltf_with_buffer()
    archive = zip_of({"scene/model.gltf": document, "scene/model.bin": binary})

    [source] = expand(archive, tmp_path).sources

    assert (source.name, source.kind, source.base) == ("scene/model.gltf", "gltf", "scene")
    assert source.read_resource("model.bin") == binary


def test_engine_counts_the_triangle_of_a_gltf_whose_bin_is_in_the_same_zip(tmp_path):
    document, binary = gltf_with_buffer()
    archive = zip_of({"scene/model.gltf": document, "scene/model.bin": binary})

    [asset] = validate_zip(archive, tmp_path).assets

    assert (asset.filename, asset.vertex_count, asset.triangle_count) == ("scene/model.gltf", 3, 1)


def test_gltf_in_a_zip_cannot_reach_above_the_archive_root(tmp_path):
    (tmp_path / "model.bin").write_bytes(b"a file beside the upload")
    document, binary = gltf_with_buffer()
    archive = build_zip(
        [
            Member("model.gltf", document),
            Member("../model.bin", binary),
            Member("../../model.bin", binary),
        ]
    )

    [source] = expand(archive, tmp_path).sources

    assert source.read_resource("../model.bin") is None
    assert source.read_resource("../../model.bin") is None
    assert source.read_resource("model.bin") is None


def test_gltf_in_a_nested_zip_reaches_only_members_of_its_own_archive(tmp_path):
    document, binary = gltf_with_buffer("shared.bin")
    inner = zip_of({"model.gltf": document})
    archive = zip_of({"inner.zip": inner, "shared.bin": binary})

    [source] = expand(archive, tmp_path).sources

    assert source.name == "inner.zip/model.gltf"
    assert source.read_resource("shared.bin") is None
    assert source.read_resource("../shared.bin") is None


def test_members_of_a_nested_archive_are_named_through_the_archive_path(tmp_path):
    inner = zip_of({"oak.glb": tiny_glb(), "leaves/birch.glb": tiny_glb()})
    archive = zip_of({"packs/trees.zip": inner})

    expansion = expand(archive, tmp_path)

    assert expansion.names == ["packs/trees.zip/oak.glb", "packs/trees.zip/leaves/birch.glb"]
    assert expansion.sources[1].base == "leaves"
    assert expansion.scanned_members == 3


def test_member_whose_name_lies_about_its_format_reports_file_type_mismatch(tmp_path):
    expansion = expand(zip_of({"model.glb": FBX_HEAD}), tmp_path)

    [source] = expansion.sources
    assert source.kind == "fbx"
    mismatch = expansion.only("FILE_TYPE_MISMATCH")
    assert (mismatch.file, mismatch.security_level) == ("model.glb", "medium")


def test_json_member_not_named_gltf_is_a_resource_not_a_model(tmp_path):
    expansion = expand(zip_of({"meta.json": b'{"author": "me"}'}), tmp_path)

    assert expansion.sources == []
    assert expansion.scanned_members == 1


def test_directory_entries_are_not_counted_as_scanned_files(tmp_path):
    archive = zip_of({"models/": b"", "models/a.glb": tiny_glb()})

    expansion = expand(archive, tmp_path)

    assert expansion.names == ["models/a.glb"]
    assert expansion.scanned_members == 1


def test_zip64_sizes_and_end_records_are_followed(tmp_path):
    glb = tiny_glb()
    member = Member(
        "big.glb",
        glb,
        method=0,
        declared_size=0xFFFFFFFF,
        declared_compressed_size=0xFFFFFFFF,
        extra=zip64_sizes_extra(len(glb), len(glb)),
    )
    archive = build_zip([member], zip64_end=True)

    expansion = expand(archive, tmp_path)

    assert [s.data for s in expansion.sources] == [glb]
    assert expansion.issues == []


def test_member_with_a_wrong_crc_is_corrupt_and_not_read(tmp_path):
    archive = build_zip([Member("bad.glb", tiny_glb(), crc=1234), Member("good.glb", tiny_glb())])

    result = validate_zip(archive, tmp_path)

    [issue] = [issue for issue in result.issues if issue.code == "ZIP_CORRUPT"]
    assert (issue.file, issue.severity) == ("bad.glb", "error")
    assert "CRC-32" in issue.message
    assert [asset.filename for asset in result.assets] == ["good.glb"]


def test_member_with_damaged_deflate_data_is_corrupt_and_the_others_are_still_read(tmp_path):
    archive = build_zip(
        [
            Member("bad.glb", tiny_glb(), payload=b"\xff" * 40),
            Member("good.glb", tiny_glb()),
        ]
    )

    expansion = expand(archive, tmp_path)

    assert expansion.only("ZIP_CORRUPT").file == "bad.glb"
    assert expansion.names == ["good.glb"]


def test_member_compressed_with_bzip2_is_reported_as_not_scanned(tmp_path):
    archive = zip_of({"model.glb": tiny_glb()}, compression=zipfile.ZIP_BZIP2)

    result = validate_zip(archive, tmp_path)

    issue = next(i for i in result.issues if i.code == "ZIP_UNSUPPORTED_COMPRESSION")
    assert (issue.file, issue.security_level) == ("model.glb", "medium")
    assert "bzip2" in issue.message
    assert result.security.safe


def test_truncated_zip_reports_corrupt_and_still_yields_the_members_before_the_cut(tmp_path):
    archive = zip_of(
        {"a.glb": tiny_glb(), "b.glb": tiny_glb(), "c.glb": bytes(5000)},
        compression=zipfile.ZIP_STORED,
    )
    cut = archive.index(b"c.glb") + 100  # inside the third member's data

    expansion = expand(archive[:cut], tmp_path)

    corrupt = expansion.only("ZIP_CORRUPT")
    assert (corrupt.file, corrupt.severity) == ("upload.zip", "error")
    assert "truncated" in corrupt.message
    assert expansion.names == ["a.glb", "b.glb"]
    assert expansion.security.safe


def test_bit_flipped_central_directory_keeps_the_entries_before_the_damage(tmp_path):
    archive = bytearray(zip_of({"a.glb": tiny_glb(), "b.glb": tiny_glb(), "c.glb": tiny_glb()}))
    second_entry = archive.index(b"PK\x01\x02", archive.index(b"PK\x01\x02") + 1)
    archive[second_entry + 2] ^= 0x40

    expansion = expand(bytes(archive), tmp_path)

    corrupt = expansion.only("ZIP_CORRUPT")
    assert corrupt.file == "upload.zip"
    assert "entry 1 is damaged" in corrupt.message
    assert expansion.names == ["a.glb"]


def test_flipped_local_header_offset_reports_the_member_corrupt(tmp_path):
    archive = bytearray(zip_of({"a.glb": tiny_glb(), "b.glb": tiny_glb()}))
    second_entry = archive.index(b"PK\x01\x02", archive.index(b"PK\x01\x02") + 1)
    archive[second_entry + 42] ^= 0x01  # the low byte of its local header offset

    expansion = expand(bytes(archive), tmp_path)

    assert expansion.only("ZIP_CORRUPT").file == "b.glb"
    assert expansion.names == ["a.glb"]


@pytest.mark.parametrize(
    "data",
    [
        b"PK\x03\x04",
        b"PK\x03\x04" + bytes(100),
        b"PK\x05\x06" + bytes(10),
        b"PK\x03\x04" + b"\xff" * 4000,
    ],
    ids=["signature only", "zeros", "short end record", "garbage"],
)
def test_damaged_archive_reports_corrupt_and_never_raises(tmp_path, data):
    result = validate_zip(data, tmp_path)

    assert "ZIP_CORRUPT" in result.issue_counts
    assert result.assets == []
    assert result.security.safe


def test_randomly_damaged_archives_never_raise(tmp_path):
    document, binary = gltf_with_buffer()
    original = zip_of(
        {
            "a.glb": tiny_glb(),
            "s/model.gltf": document,
            "s/model.bin": binary,
            "inner.zip": zip_of({"b.glb": tiny_glb()}),
        }
    )
    rng = random.Random(2024)
    for _ in range(300):
        damaged = bytearray(original)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        for source in expand(bytes(damaged[: rng.randint(1, len(damaged))]), tmp_path).sources:
            source.read_resource("model.bin")


def test_empty_archive_reports_that_it_holds_no_model(tmp_path):
    result = validate_zip(zip_of({}), tmp_path)

    assert [issue.code for issue in result.issues] == ["NO_MODEL_FILES"]
