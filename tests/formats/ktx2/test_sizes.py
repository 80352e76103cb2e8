"""The GPU memory of a KTX2 texture, level by level, in the format the file names."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.formats.ktx2.dfd import DataFormat
from assetcheck.formats.ktx2.fixed_part import Ktx2Header, Section
from assetcheck.formats.ktx2.parse import parse_ktx2
from assetcheck.formats.ktx2.sizes import gpu_memory
from assetcheck.testing.ktx2 import Ktx2Texture

CORPUS = (
    Path(__file__).parents[3] / "../shared/corpus/gltf/gltftransform/packages/extensions/test/in"
)
#: The 40 x 40 textures with 6 levels (40, 20, 10, 5, 2, 1 texels a side) of glTF-Transform's
#: tests: the bytes of each level on the GPU.
CORPUS_LEVELS = {
    # 10x10, 5x5, 3x3, 2x2, 1x1, 1x1 blocks of 8 bytes
    "2d_bc1.ktx2": ("BC1", (800, 200, 72, 32, 8, 8)),
    "2d_bc7.ktx2": ("BC7", (1600, 400, 144, 64, 16, 16)),
    "2d_astc4x4.ktx2": ("ASTC 4x4", (1600, 400, 144, 64, 16, 16)),
    # transcoded to BC7 or ASTC 4x4
    "2d_uastc.ktx2": (
        "BC7 or ASTC 4x4 (Basis Universal, transcoded)",
        (1600, 400, 144, 64, 16, 16),
    ),
    "2d_etc1s.ktx2": (
        "BC7 or ASTC 4x4 (Basis Universal, transcoded)",
        (1600, 400, 144, 64, 16, 16),
    ),
    # R8G8B8A8_SRGB: 4 bytes a texel, 40x40 ... 1x1
    "2d_rgba8.ktx2": ("vkFormat 43 (4 B a block)", (6400, 1600, 400, 100, 16, 4)),
}


@pytest.mark.parametrize(("name", "expected"), CORPUS_LEVELS.items())
def test_real_ktx2_files_take_their_formats_blocks_level_by_level(name, expected):
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"the shared glTF corpus is absent (looked in {CORPUS})")
    memory = parse_ktx2(path.read_bytes()).gpu_memory
    assert memory is not None and (memory.format, memory.levels) == expected


def test_a_basis_texture_without_levels_counts_the_chain_the_loader_makes():
    memory = parse_ktx2(Ktx2Texture(64, 32, levels=0).build()).gpu_memory
    # 64x32, 32x16, 16x8, 8x4, 4x2, 2x1, 1x1 in 4x4 blocks of 16 bytes.
    assert memory is not None and memory.levels == tuple(16 * b for b in (128, 32, 8, 2, 1, 1, 1))


def test_an_astc_6x6_array_of_cube_maps_counts_every_layer_and_face():
    header = Ktx2Header(
        vk_format=165,  # ASTC 6x6 UNORM
        type_size=1,
        width=100,
        height=50,
        depth=0,
        layers=3,
        faces=6,
        level_count=2,
        scheme=0,
        dfd=Section(0, 0),
        kvd=Section(0, 0),
        sgd=Section(0, 0),
        levels=(),
    )
    data_format = DataFormat(162, 1, 1, 0, (6, 6, 1), (16,), (0,))
    memory = gpu_memory(header, data_format)
    # 17 x 9 blocks, then 50 x 25 texels: 9 x 5 blocks; 18 images each.
    assert memory is not None and memory.format == "ASTC 6x6"
    assert memory.levels == (17 * 9 * 16 * 18, 9 * 5 * 16 * 18)
