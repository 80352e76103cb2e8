"""Any damage to a KTX2 file ends as problems, never as an exception: the parser and the
KHR_texture_basisu rules on files cut short and overwritten at random places (derandomized, so
every run checks the same files)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assetcheck.formats.ktx2 import parse_ktx2
from assetcheck.formats.ktx2.basisu import basisu_findings, color_space_finding
from assetcheck.testing.ktx2 import UASTC, Ktx2Texture

SEEDS = (
    Ktx2Texture(32, 16, alpha=True).build(),
    Ktx2Texture(32, 16, model=UASTC).build(),
    Ktx2Texture(16, 16, model=UASTC, zstd=False, alpha=True).build(),
)


@settings(max_examples=500, deadline=None, database=None, derandomize=True)
@given(
    seed=st.sampled_from(SEEDS),
    cut=st.integers(0, 2000),
    writes=st.lists(st.tuples(st.integers(0, 2000), st.binary(min_size=1, max_size=8)), max_size=6),
)
def test_a_damaged_ktx2_file_gives_problems_and_never_raises(seed, cut, writes):
    data = bytearray(seed[:cut])
    for position, value in writes:
        if data:
            start = position % len(data)
            data[start : start + len(value)] = value
    image = parse_ktx2(bytes(data))
    basisu_findings(image, needs_mipmaps=True)
    color_space_finding(image, "/materials/0/normalTexture", colour=False)
