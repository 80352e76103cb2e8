"""The KTX2 parser on files built to the KTX 2.0 specification, on real files from the shared
corpus, and on each kind of damage: every structural problem has its own code."""

from __future__ import annotations

import struct
import tracemalloc
from pathlib import Path

import pytest
import zstandard

from assetcheck.formats.ktx2 import parse_ktx2
from assetcheck.formats.ktx2.header import HEADER
from assetcheck.testing.ktx2 import UASTC, Ktx2Texture, level_entry, patch_header, patch_level

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "gltf"
ETC1S_RGBA = Ktx2Texture(64, 32, alpha=True)
UASTC_ZSTD = Ktx2Texture(64, 32, model=UASTC)
UASTC_RAW = Ktx2Texture(64, 32, model=UASTC, zstd=False)


def codes(data: bytes) -> list[str]:
    return [problem.code for problem in parse_ktx2(data).findings]


def reasons(data: bytes) -> list[str]:
    return [problem.fields.get("reason") for problem in parse_ktx2(data).findings]


@pytest.mark.parametrize(
    "texture",
    [
        Ktx2Texture(),
        ETC1S_RGBA,
        UASTC_ZSTD,
        UASTC_RAW,
        Ktx2Texture(8, 8, model=UASTC, alpha=True),
        Ktx2Texture(12, 8, levels=1),
        Ktx2Texture(1024, 4, model=UASTC),
    ],
    ids=["etc1s", "etc1s-rgba", "uastc-zstd", "uastc", "uastc-rgba", "one-level-npot", "wide"],
)
def test_files_built_to_the_specification_parse_without_problems(texture):
    image = parse_ktx2(texture.build())
    assert image.findings == ()
    assert (image.header.width, image.header.height) == (texture.width, texture.height)


def test_the_builders_zstandard_levels_are_real_zstandard_frames():
    data = UASTC_ZSTD.build()
    for p in range(parse_ktx2(data).header.level_count):
        offset, length, uncompressed = level_entry(data, p)
        assert (
            len(zstandard.ZstdDecompressor().decompress(data[offset : offset + length]))
            == uncompressed
        )


def test_levels_compressed_by_the_real_zstandard_encoder_parse_without_problems():
    texture = UASTC_RAW.build()
    frames = []
    for p in reversed(range(parse_ktx2(texture).header.level_count)):
        offset, length, _ = level_entry(texture, p)
        level = texture[offset : offset + length]
        frames.append((p, zstandard.ZstdCompressor(level=19).compress(level), length))
    data = bytearray(patch_header(texture, scheme=2))
    start = min(level_entry(texture, p)[0] for p, _, _ in frames)
    data = data[:start]
    for p, frame, uncompressed in frames:
        data = (
            bytearray(
                patch_level(
                    bytes(data), p, offset=len(data), length=len(frame), uncompressed=uncompressed
                )
            )
            + frame
        )
    assert parse_ktx2(bytes(data)).findings == ()


def _corpus_ktx2() -> list:
    files = sorted(CORPUS.rglob("*.ktx2")) if CORPUS.is_dir() else []
    if not files:
        return [
            pytest.param(
                None,
                marks=pytest.mark.skip(
                    reason=f"the shared glTF corpus is absent (looked in {CORPUS})"
                ),
            )
        ]
    return [pytest.param(path, id=path.name) for path in files]


@pytest.mark.parametrize("path", _corpus_ktx2())
def test_real_ktx2_files_of_every_format_parse_without_problems(path):
    image = parse_ktx2(path.read_bytes())
    assert image.findings == ()
    assert image.gpu_bytes > 0


def test_gpu_size_of_basis_textures_is_one_byte_per_texel_over_the_levels_present():
    # 64x32: levels of 64x32, 32x16, 16x8, 8x4, 4x4, 2x4 and 1x4 texels' worth of 4x4 blocks.
    assert parse_ktx2(ETC1S_RGBA.build()).gpu_bytes == 16 * (128 + 32 + 8 + 2 + 1 + 1 + 1)
    assert parse_ktx2(Ktx2Texture(64, 32, levels=1).build()).gpu_bytes == 64 * 32


def test_a_ktx1_or_mangled_identifier_is_reported_as_such():
    ktx1 = b"\xabKTX 11\xbb\r\n\x1a\n" + bytes(64)
    mangled = Ktx2Texture().build().replace(b"\r\n", b"\n", 1)
    for data in (ktx1, mangled):
        assert codes(data) == ["KTX2_IDENTIFIER_INVALID"]


@pytest.mark.parametrize("length", [40, HEADER.size, HEADER.size + 30])
def test_a_file_cut_inside_its_header_or_level_index_is_truncated(length):
    image = parse_ktx2(Ktx2Texture().build()[:length])
    assert [p.code for p in image.findings] == ["KTX2_HEADER_TRUNCATED"]
    assert image.header is None and image.gpu_bytes is None


def test_a_file_cut_inside_its_levels_names_the_level_out_of_the_file():
    data = UASTC_ZSTD.build()
    problems = parse_ktx2(data[:-10]).findings
    assert [p.code for p in problems] == ["KTX2_DATA_OUT_OF_FILE"]
    assert problems[0].fields["section"] == "level 0"
    assert problems[0].fields["size"] == len(data) - 10


def test_a_level_that_claims_gigabytes_is_out_of_the_file_and_allocates_nothing():
    data = patch_level(UASTC_RAW.build(), 0, length=8 << 30, uncompressed=8 << 30)
    tracemalloc.start()
    found = codes(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "KTX2_DATA_OUT_OF_FILE" in found and "KTX2_LEVEL_LENGTH_INVALID" in found
    assert peak < 1 << 20


def test_a_huge_size_is_its_own_error_and_lies_about_the_level_lengths():
    data = patch_header(UASTC_RAW.build(), width=1 << 31, height=1 << 31)
    found = codes(data)
    assert "KTX2_DIMENSION_TOO_LARGE" in found and "KTX2_LEVEL_LENGTH_INVALID" in found


@pytest.mark.parametrize(
    "fields",
    [{"level_count": 0xFFFFFFFF}, {"layers": 0xFFFFFFFF}, {"depth": 0xFFFFFFFF}],
    ids=["levels", "layers", "depth"],
)
def test_hostile_counts_end_as_problems_without_reading_or_allocating(fields):
    data = patch_header(ETC1S_RGBA.build(), **fields)
    tracemalloc.start()
    image = parse_ktx2(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert image.findings and peak < 1 << 20


def test_too_many_levels_for_the_size_is_an_invalid_level_count():
    data = patch_header(Ktx2Texture(16, 16, levels=5).build(), level_count=6)
    assert "KTX2_LEVEL_COUNT_INVALID" in codes(data)


def test_level_count_zero_is_not_allowed_for_block_compressed_formats():
    data = Ktx2Texture(16, 16, model=UASTC, zstd=False, levels=0).build()
    assert codes(data) == ["KTX2_LEVEL_COUNT_INVALID"]
    assert "levelCount is 0" in reasons(data)[0]


def test_overlapping_levels_are_reported():
    data = UASTC_RAW.build()
    level_1 = level_entry(data, 1)
    data = patch_level(data, 2, offset=level_1[0] + 16)
    assert "KTX2_SECTIONS_OVERLAP" in codes(data)


def test_levels_stored_largest_first_are_out_of_order():
    texture = UASTC_RAW.build()
    data = patch_level(
        patch_level(texture, 0, offset=level_entry(texture, 1)[0]),
        1,
        offset=level_entry(texture, 0)[0],
    )
    data = patch_level(data, 1, length=level_entry(texture, 1)[1])
    assert "KTX2_SECTION_ORDER_INVALID" in codes(data)


def test_a_level_of_raw_data_off_its_block_alignment_is_reported():
    texture = UASTC_RAW.build()
    offset = level_entry(texture, 0)[0]
    data = patch_level(texture + bytes(8), 0, offset=offset + 8)
    assert codes(data) == ["KTX2_ALIGNMENT_INVALID"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"uncompressed": 1}, "differs from uncompressedByteLength"),
        ({"length": 32, "uncompressed": 32}, "but its size takes 2048 in this format"),
        ({"length": 0, "uncompressed": 0}, "it is empty"),
    ],
    ids=["lengths-differ", "wrong-size", "empty"],
)
def test_lying_level_lengths_are_reported_with_the_reason(change, reason):
    data = patch_level(UASTC_RAW.build(), 0, **change)
    problems = [p for p in parse_ktx2(data).findings if p.code == "KTX2_LEVEL_LENGTH_INVALID"]
    assert reason in problems[0].fields["reason"] and problems[0].fields["level"] == 0


def test_basislz_levels_must_not_claim_an_uncompressed_length():
    data = patch_level(Ktx2Texture().build(), 0, uncompressed=64)
    assert "BasisLZ levels must give uncompressedByteLength 0" in reasons(data)


def _dfd_offset(data: bytes) -> int:
    return HEADER.unpack_from(data)[10]


@pytest.mark.parametrize(
    ("word", "value", "reason"),
    [
        (0, 999, "dfdTotalSize is 999"),
        (1, 1, "not the Khronos basic block"),
        (2, 3 | 40 << 16, "version is 3"),
        (2, 2 | 30 << 16, "not 24 plus 16 per sample"),
        (4, 0x0101, "4x4 texel blocks, not 2x2x1"),
    ],
    ids=["total-size", "vendor", "version", "block-size", "block-dimensions"],
)
def test_a_bad_data_format_descriptor_is_reported_with_the_reason(word, value, reason):
    data = bytearray(UASTC_RAW.build())
    struct.pack_into("<I", data, _dfd_offset(data) + 4 * word, value)
    assert any(reason in (r or "") for r in reasons(bytes(data)))
    assert "KTX2_DFD_INVALID" in codes(bytes(data))


def test_key_value_data_that_does_not_follow_the_descriptor_is_a_bad_descriptor():
    texture = UASTC_RAW.build()
    kvd_offset, kvd_length = HEADER.unpack_from(texture)[11:13]
    data = patch_header(texture, kvd_offset=kvd_offset + 4, kvd_length=kvd_length - 4)
    assert "but the key/value data that follows it starts at" in reasons(data)[0]


def test_etc1s_channels_other_than_the_allowed_combinations_are_a_bad_descriptor():
    data = bytearray(Ktx2Texture().build())
    struct.pack_into("<B", data, _dfd_offset(data) + 4 + 24 + 3, 7)  # the first channelType
    assert codes(bytes(data)) == ["KTX2_DFD_INVALID"]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"faces": 3}, "faceCount is 3"),
        ({"faces": 6, "height": 8}, "a cube map's faces must be square"),
        ({"width": 0}, "pixelWidth is 0"),
        ({"height": 0}, "pixelHeight is 0, but UASTC is block-compressed"),
    ],
    ids=["faces", "cube-not-square", "no-width", "no-height"],
)
def test_sizes_layers_and_faces_of_no_texture_type_are_reported(fields, reason):
    data = patch_header(UASTC_RAW.build(), **fields)
    found = [p for p in parse_ktx2(data).findings if p.code == "KTX2_TEXTURE_TYPE_INVALID"]
    assert reason in found[0].fields["reason"]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"type_size": 4}, "typeSize is 4"),
        ({"vk_format": 11}, "vkFormat 11 is one KTX2 prohibits"),
        ({"scheme": 7}, "supercompressionScheme 7 is reserved"),
        ({"sgd_offset": 64}, "sgdByteOffset is 64 but sgdByteLength is 0"),
    ],
    ids=["type-size", "prohibited-format", "reserved-scheme", "offset-without-length"],
)
def test_invalid_header_fields_are_reported_with_the_reason(fields, reason):
    data = patch_header(UASTC_RAW.build(), **fields)
    assert any(reason in (r or "") for r in reasons(data))
    assert "KTX2_HEADER_INVALID" in codes(data)


@pytest.mark.parametrize(
    ("texture", "scheme", "reason"),
    [
        (UASTC_RAW, 1, "BasisLZ supercompresses only ETC1S, not UASTC"),
        (ETC1S_RGBA, 2, "ETC1S data must be supercompressed with BasisLZ"),
    ],
    ids=["uastc-basislz", "etc1s-zstd"],
)
def test_a_supercompression_scheme_the_colour_model_does_not_allow_is_reported(
    texture, scheme, reason
):
    data = patch_header(texture.build(), scheme=scheme)
    assert any(reason in (r or "") for r in reasons(data))
    assert "KTX2_HEADER_INVALID" in codes(data)


@pytest.mark.parametrize(
    ("pairs", "reason"),
    [
        ({"b": b"1", "a": b"2"}, "keys must be sorted"),
        (None, "not NUL-terminated"),
    ],
    ids=["unsorted", "no-nul"],
)
def test_malformed_key_value_data_is_reported(pairs, reason):
    data = bytearray(Ktx2Texture(model=UASTC, zstd=False).build())
    kvd_offset = HEADER.unpack_from(data)[12]
    if pairs is None:
        length = struct.unpack_from("<I", data, kvd_offset)[0]
        data[kvd_offset + 4 : kvd_offset + 4 + length] = b"x" * length
    else:
        entries = [struct.pack("<I", 3) + k.encode() + b"\0" + v + b"\0" for k, v in pairs.items()]
        entry = b"".join(entries)
        data[kvd_offset : kvd_offset + len(entry)] = entry
        data = bytearray(patch_header(bytes(data), kvd_length=len(entry)))
    assert any(reason in (r or "") for r in reasons(bytes(data)))
    assert "KTX2_KEY_VALUE_DATA_INVALID" in codes(bytes(data))


def _sgd_offset(data: bytes) -> int:
    return HEADER.unpack_from(data)[14]


@pytest.mark.parametrize(
    ("patch", "reason"),
    [
        (lambda data, sgd: struct.pack_into("<I", data, sgd + 4, 999), "sgdByteLength is"),
        (
            lambda data, sgd: struct.pack_into("<I", data, sgd + 20 + 8, 0),
            "rgbSliceByteLength is 0",
        ),
        (
            lambda data, sgd: struct.pack_into("<I", data, sgd + 20 + 4, 1 << 20),
            "its RGB slice runs past its level",
        ),
        (
            lambda data, sgd: struct.pack_into("<I", data, sgd + 20 + 16, 0),
            "the image has no alpha slice",
        ),
    ],
    ids=["lengths", "empty-slice", "slice-outside-level", "missing-alpha"],
)
def test_inconsistent_basislz_global_data_is_reported(patch, reason):
    data = bytearray(ETC1S_RGBA.build())
    patch(data, _sgd_offset(data))
    assert any(reason in (r or "") for r in reasons(bytes(data)))
    assert "KTX2_GLOBAL_DATA_INVALID" in codes(bytes(data))


def test_global_data_outside_basislz_is_reported():
    texture = UASTC_RAW.build()
    data = patch_header(texture + bytes(8), sgd_offset=len(texture), sgd_length=8)
    assert "KTX2_GLOBAL_DATA_INVALID" in codes(data)


@pytest.mark.parametrize(
    ("patch", "reason"),
    [
        (lambda level: level.__setitem__(slice(0, 4), b"ABCD"), "not a Zstandard frame's magic"),
        (lambda level: level.__setitem__(4, level[4] | 0x08), "reserved bit"),
        (lambda level: level.__setitem__(slice(5, 13), struct.pack("<Q", 7)), "its frames hold 7"),
        (
            lambda level: level.__setitem__(
                slice(13, 16), (1 | 1 << 20 << 3).to_bytes(3, "little")
            ),
            "runs past the level's byteLength",
        ),
    ],
    ids=["magic", "reserved-bit", "content-size", "block-size"],
)
def test_damaged_zstandard_levels_are_reported(patch, reason):
    data = bytearray(UASTC_ZSTD.build())
    offset, length, _ = level_entry(bytes(data), 0)
    level = bytearray(data[offset : offset + length])
    patch(level)
    data[offset : offset + length] = level
    found = [p for p in parse_ktx2(bytes(data)).findings if p.code == "KTX2_ZSTD_DATA_INVALID"]
    assert reason in found[0].fields["reason"] and found[0].fields["level"] == 0
