"""The archive security scan (docs/security.md, Archives), on hostile ZIPs built in code.

Every test goes through ``validate_zip`` or ``expand``, which also fail when the scan writes
anything to disk beside the upload or in the working or temporary folder.
"""

import io
import random
import tracemalloc
import zipfile

import pytest

from assetcheck.asset.options import Limits
from assetcheck.formats.zip.layout import END_RECORD_SEARCH
from assetcheck.formats.zip.polyglot import MAX_INNER_CANDIDATES, find_embedded_zip
from assetcheck.formats.zip.rules import unsafe_path_reason
from assetcheck.testing.zip import (
    FLAG_ENCRYPTED,
    MIB,
    SYMLINK_ATTRIBUTES,
    Member,
    build_zip,
    elf_program,
    nested_bomb,
    nested_zips,
    overlapping_zip,
    tiny_glb,
    unicode_path_extra,
    zeros_deflate,
    zip_of,
)
from tests.zip_scans import expand, only_warning, validate_zip


def random_bytes(size: int, seed: int = 0) -> bytes:
    return random.Random(seed).randbytes(size)


@pytest.fixture(scope="module")
def ten_gib_bomb() -> bytes:
    return nested_bomb(members=10, member_gib=1)


# -- ZIP_BOMB ---------------------------------------------------------------------------------


def test_small_zip_inflating_to_10_gib_is_a_bomb_found_without_inflating_it(tmp_path, ten_gib_bomb):
    assert len(ten_gib_bomb) < 30_000
    tracemalloc.start()
    try:
        result = validate_zip(ten_gib_bomb, tmp_path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    bomb = only_warning(result, "ZIP_BOMB")
    assert (bomb.file, bomb.severity) == ("bomb.zip", "critical")
    assert "100 times" in bomb.message
    assert not result.security.safe
    assert peak < 32 * MIB


def test_fifield_overlapping_bomb_reports_overlap_and_bomb(tmp_path):
    result = validate_zip(overlapping_zip(entries=100, kernel_mib=1), tmp_path)

    overlap = only_warning(result, "ZIP_OVERLAPPING_ENTRIES")
    assert (overlap.file, overlap.severity) == ("0001.bin", "critical")
    assert "0000.bin" in overlap.message and "100 entries" in overlap.message
    assert only_warning(result, "ZIP_BOMB").file == "0000.bin"
    assert not result.security.safe


def test_overlapping_entries_are_reported_even_when_they_inflate_to_little(tmp_path):
    expansion = expand(overlapping_zip(entries=3, kernel=b"tiny kernel"), tmp_path)

    overlap = expansion.only("ZIP_OVERLAPPING_ENTRIES")
    assert (overlap.file, overlap.security_level) == ("0001.bin", "critical")
    assert "ZIP_BOMB" not in expansion.codes
    assert not expansion.security.safe


def test_member_whose_header_understates_its_size_is_judged_by_the_bytes_it_inflates_to(tmp_path):
    liar = Member("small.bin", payload=zeros_deflate(64), declared_size=100, crc=0)

    result = validate_zip(build_zip([liar]), tmp_path)

    bomb = only_warning(result, "ZIP_BOMB")
    assert (bomb.file, bomb.severity) == ("small.bin", "critical")
    assert not result.security.safe


def test_member_whose_header_overstates_its_size_is_corrupt_not_a_bomb(tmp_path):
    boaster = Member("model.glb", tiny_glb(), declared_size=0xFFFF_FFF0)

    result = validate_zip(build_zip([boaster]), tmp_path)

    assert "ZIP_BOMB" not in result.issue_counts
    corrupt = next(i for i in result.issues if i.code == "ZIP_CORRUPT")
    assert corrupt.file == "model.glb"
    assert result.security.safe


def test_uncompressed_total_over_the_limit_is_a_bomb_counted_across_nested_archives(tmp_path):
    inner = zip_of({"part.bin": random_bytes(600_000)}, compression=zipfile.ZIP_STORED)
    archive = zip_of({"one.zip": inner, "two.zip": inner})

    result = validate_zip(archive, tmp_path, limits=Limits(max_uncompressed_bytes=2 * MIB))

    bomb = only_warning(result, "ZIP_BOMB")
    assert (bomb.file, bomb.severity) == ("two.zip/part.bin", "critical")
    assert "in all" in bomb.message
    assert not result.security.safe


def test_small_run_of_zeros_is_not_judged_by_its_ratio(tmp_path):
    archive = zip_of({"model.glb": tiny_glb(), "blank.bin": bytes(64 * 1024)})

    result = validate_zip(archive, tmp_path)

    assert "ZIP_BOMB" not in result.issue_counts
    assert result.security.safe


def test_megabyte_of_zeros_is_over_the_ratio_limit(tmp_path):
    result = validate_zip(zip_of({"blank.bin": bytes(MIB)}), tmp_path)

    assert only_warning(result, "ZIP_BOMB").severity == "critical"


# -- ZIP_PATH_TRAVERSAL -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "../../etc/passwd",
        "models/../../outside.glb",
        "/etc/passwd",
        "\\Windows\\model.glb",
        "C:\\Users\\Public\\model.glb",
        "C:model.glb",
        "..\\..\\model.glb",
    ],
)
def test_member_names_leaving_the_target_folder_are_path_traversal(tmp_path, name):
    result = validate_zip(build_zip([Member(name, tiny_glb())]), tmp_path)

    traversal = only_warning(result, "ZIP_PATH_TRAVERSAL")
    assert (traversal.file, traversal.severity) == (name, "critical")
    assert not result.security.safe


@pytest.mark.parametrize("name", ["models/a.glb", "a..b.glb", "..hidden/x.glb", "./a.glb"])
def test_ordinary_member_names_are_not_traversal(name):
    assert unsafe_path_reason(name) is None


def test_traversal_hidden_in_the_local_header_name_is_found(tmp_path):
    member = Member("model.glb", tiny_glb(), local_name="../../model.glb")

    result = validate_zip(build_zip([member]), tmp_path)

    traversal = only_warning(result, "ZIP_PATH_TRAVERSAL")
    assert traversal.file == "model.glb"
    assert "local header" in traversal.message
    assert any(i.code == "ZIP_CORRUPT" and "local header" in i.message for i in result.issues)
    assert not result.security.safe


def test_traversal_hidden_in_the_unicode_path_field_is_found(tmp_path):
    member = Member(
        "model.glb", tiny_glb(), extra=unicode_path_extra("../model.glb", named="model.glb")
    )

    result = validate_zip(build_zip([member]), tmp_path)

    traversal = only_warning(result, "ZIP_PATH_TRAVERSAL")
    assert "Unicode path field" in traversal.message
    assert not result.security.safe


# -- ZIP_SYMLINK, ZIP_ENCRYPTED, ZIP_TOO_MANY_ENTRIES -----------------------------------------


def test_symlink_member_is_reported_and_never_followed_or_read(tmp_path):
    link = Member("model.glb", b"/etc/passwd", method=0, external_attr=SYMLINK_ATTRIBUTES)

    result = validate_zip(build_zip([link]), tmp_path)

    symlink = only_warning(result, "ZIP_SYMLINK")
    assert (symlink.file, symlink.severity) == ("model.glb", "high")
    assert result.assets == []
    assert not result.security.safe


def test_encrypted_member_is_reported_as_not_scanned(tmp_path):
    secret = Member("model.glb", payload=random_bytes(60), declared_size=48, flags=FLAG_ENCRYPTED)

    result = validate_zip(build_zip([secret, Member("open.glb", tiny_glb())]), tmp_path)

    encrypted = only_warning(result, "ZIP_ENCRYPTED")
    assert (encrypted.file, encrypted.severity) == ("model.glb", "medium")
    assert [asset.filename for asset in result.assets] == ["open.glb"]
    assert result.security.safe  # medium: reported, but not unsafe


def test_archive_of_20000_entries_is_scanned_only_to_the_limit(tmp_path):
    members = (Member(f"notes/{i}.txt", b"x", method=0) for i in range(20_000))

    result = validate_zip(build_zip(members), tmp_path)

    too_many = only_warning(result, "ZIP_TOO_MANY_ENTRIES")
    assert (too_many.file, too_many.severity) == ("upload.zip", "high")
    assert "10000" in too_many.message
    assert result.security.scanned_files == 1 + 10_000
    assert not result.security.safe


def test_entry_limit_counts_the_members_of_nested_archives(tmp_path):
    inner = build_zip(Member(f"{i}.txt", b"x", method=0) for i in range(60))
    archive = build_zip(
        [Member("inner.zip", inner), *(Member(f"{i}.txt", b"x", method=0) for i in range(60))]
    )

    expansion = expand(archive, tmp_path, limits=Limits(max_archive_entries=100))

    assert expansion.only("ZIP_TOO_MANY_ENTRIES").file == "inner.zip"
    assert expansion.scanned_members == 100


# -- EXECUTABLE_CONTENT -----------------------------------------------------------------------


def test_elf_program_inside_a_zip_is_executable_content(tmp_path):
    result = validate_zip(
        zip_of({"model.glb": tiny_glb(), "tools/convert": elf_program()}), tmp_path
    )

    program = only_warning(result, "EXECUTABLE_CONTENT")
    assert (program.file, program.severity) == ("tools/convert", "critical")
    assert "ELF" in program.message
    assert not result.security.safe


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("install.sh", b"echo hello"),
        ("setup.exe", b"not really"),
        ("payload.ps1", b"Write-Host hi"),
        ("viewer.js", b"alert(1)"),
        ("notes.txt", b"#!/bin/sh\nrm -rf ~\n"),
    ],
)
def test_scripts_inside_a_zip_are_executable_content_by_name_or_content(tmp_path, name, content):
    result = validate_zip(zip_of({name: content}), tmp_path)

    assert only_warning(result, "EXECUTABLE_CONTENT").file == name
    assert not result.security.safe


def test_encrypted_program_is_still_caught_by_its_name(tmp_path):
    secret = Member("run.bat", payload=random_bytes(40), declared_size=28, flags=FLAG_ENCRYPTED)

    result = validate_zip(build_zip([secret]), tmp_path)

    assert only_warning(result, "EXECUTABLE_CONTENT").file == "run.bat"


# -- ZIP_NESTED_ARCHIVE -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("depth", "model"),
    [
        (1, "level1.zip/model.glb"),
        (2, "level1.zip/level2.zip/model.glb"),
    ],
)
def test_nested_archives_down_to_depth_2_are_reported_and_scanned(tmp_path, depth, model):
    result = validate_zip(nested_zips(depth, {"model.glb": tiny_glb()}), tmp_path)

    nested = [w for w in result.security.warnings if w.code == "ZIP_NESTED_ARCHIVE"]
    assert [w.severity for w in nested] == ["medium"] * depth
    assert [asset.filename for asset in result.assets] == [model]
    assert result.security.safe


def test_archive_nested_3_deep_is_reported_and_not_opened(tmp_path):
    result = validate_zip(nested_zips(3, {"model.glb": tiny_glb()}), tmp_path)

    nested = [w.file for w in result.security.warnings if w.code == "ZIP_NESTED_ARCHIVE"]
    assert nested == ["level1.zip", "level1.zip/level2.zip", "level1.zip/level2.zip/level3.zip"]
    too_deep = only_warning(result, "ZIP_NESTING_TOO_DEEP")
    assert (too_deep.file, too_deep.severity) == (nested[-1], "high")
    assert result.assets == []
    assert not result.security.safe


# -- POLYGLOT_FILE ----------------------------------------------------------------------------


def test_zip_appended_to_a_glb_is_found():
    glb = tiny_glb()
    polyglot = glb + zip_of({"payload.txt": b"hidden"})

    found = find_embedded_zip(polyglot)

    assert found is not None
    assert (found.start, found.entry_count) == (len(glb), 1)


def test_zip_appended_with_offsets_counted_from_the_file_start_is_found():
    buffer = io.BytesIO(tiny_glb())
    with zipfile.ZipFile(buffer, "a") as archive:  # appends, offsets from byte 0 of the file
        archive.writestr("payload.txt", b"hidden")

    found = find_embedded_zip(buffer.getvalue())

    assert found is not None and found.start == len(tiny_glb())


@pytest.mark.parametrize(
    "buffer",
    [
        b"PK\x05\x06" + bytes(18),
        b"PK\x05\x06" + random_bytes(200),
        b"PK\x01\x02" + bytes(42) + b"PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00" + bytes(10),
        random_bytes(100_000, seed=7),
    ],
    ids=["empty end record", "signature in noise", "lone entry signature", "noise"],
)
def test_stray_zip_signatures_inside_a_model_are_not_a_polyglot(buffer):
    assert find_embedded_zip(tiny_glb() + buffer + tiny_glb()) is None


def test_zip_appended_after_a_flood_of_decoy_signatures_is_still_found():
    archive = zip_of({"payload.txt": b"hidden"})
    polyglot = tiny_glb() + b"PK\x05\x06" * 100_000 + archive

    found = find_embedded_zip(polyglot)

    assert found is not None and found.start == len(polyglot) - len(archive)


def test_zip_hidden_far_from_the_end_is_found():
    archive = zip_of({"payload.txt": b"hidden"})
    polyglot = tiny_glb() + archive + bytes(END_RECORD_SEARCH + 1000)

    found = find_embedded_zip(polyglot)

    assert found is not None and found.start == len(tiny_glb())


def test_zip_far_from_the_end_after_too_many_decoy_signatures_is_not_searched_for():
    archive = zip_of({"payload.txt": b"hidden"})
    decoys = b"PK\x05\x06" * MAX_INNER_CANDIDATES
    padding = bytes(END_RECORD_SEARCH + 1000)

    assert find_embedded_zip(tiny_glb() + decoys + archive + padding) is None
    assert find_embedded_zip(tiny_glb() + decoys[4:] + archive + padding) is not None


def test_polyglot_model_inside_a_zip_is_reported_and_still_read(tmp_path):
    polyglot = tiny_glb() + zip_of({"payload.txt": b"hidden"})

    result = validate_zip(zip_of({"model.glb": polyglot}), tmp_path)

    hidden = only_warning(result, "POLYGLOT_FILE")
    assert (hidden.file, hidden.severity) == ("model.glb", "high")
    assert [asset.filename for asset in result.assets] == ["model.glb"]
    assert not result.security.safe
