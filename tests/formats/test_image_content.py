"""Measuring decoded texture content with Pillow (``assetcheck.formats.image_content``): the
statistics of images encoded here, Pillow's bomb guard set to the limit, JPEG decoded at a
reduced scale, and the decoder run in a child under the job's limits."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import warnings
import zlib

import numpy as np
import pytest
from PIL import Image, PngImagePlugin

from assetcheck.asset.options import Limits
from assetcheck.formats.image_content import (
    JPEG_STATISTICS_SIDE,
    MAX_DECODED_PIXELS,
    NORMAL_BAND_TEXELS,
    ContentRequest,
    ImageDecodeError,
    ImageTooLarge,
    decodable_pixels,
    measure,
    measure_all,
)
from assetcheck.issues import IssueCollector, IssueRegistry, IssueType
from assetcheck.sandbox.decoder import run_decoder

LIMIT = MAX_DECODED_PIXELS


def png(pixels: np.ndarray, **save: object) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG", **save)
    return out.getvalue()


def test_histograms_count_every_texel_of_each_channel():
    pixels = np.zeros((4, 8, 4), np.uint8)
    pixels[:, :4] = (10, 20, 30, 0)
    pixels[:, 4:] = (200, 20, 40, 255)
    content = measure(ContentRequest(png(pixels)), LIMIT)
    assert (content.width, content.height, content.has_alpha) == (8, 4, True)
    assert content.texels == 32
    assert content.extremes(0) == (10, 200)
    assert content.extremes(1) == (20, 20)
    assert content.share(3, 0, 0) == 0.5


def test_an_image_without_alpha_counts_as_opaque():
    content = measure(ContentRequest(png(np.full((2, 2, 3), 90, np.uint8))), LIMIT)
    assert not content.has_alpha
    assert content.extremes(3) == (255, 255)


def test_a_palette_image_with_transparency_has_alpha():
    image = Image.new("P", (2, 2), 0)
    image.putpalette([0, 0, 0, 255, 255, 255])
    image.putpixel((1, 1), 1)
    out = io.BytesIO()
    image.save(out, "PNG", transparency=0)
    content = measure(ContentRequest(out.getvalue()), LIMIT)
    assert content.has_alpha
    assert content.extremes(3) == (0, 255)


def test_sixteen_bit_grey_keeps_its_high_byte():
    values = np.array([[0x1234, 0xFF00]], dtype="<u2")
    out = io.BytesIO()
    Image.frombytes("I;16", (2, 1), values.tobytes()).save(out, "PNG")
    content = measure(ContentRequest(out.getvalue()), LIMIT)
    assert content.extremes(0) == (0x12, 0xFF)


def test_base_colour_statistics_leave_out_fully_transparent_texels():
    pixels = np.zeros((2, 2, 4), np.uint8)
    pixels[0] = (0, 0, 0, 0)  # transparent black: not seen
    pixels[1] = (100, 150, 200, 255)
    content = measure(ContentRequest(png(pixels), colour=True), LIMIT)
    assert content.brightest is not None and content.darkest is not None
    assert sum(content.brightest) == 2
    assert content.brightest[200] == 2 and content.darkest[100] == 2


def test_unit_tangent_space_normals_measure_clean():
    flat = np.zeros((4, 4, 3), np.uint8)
    flat[...] = (128, 128, 255)
    normals = measure(ContentRequest(png(flat), normal=True), LIMIT).normals
    assert normals is not None
    assert (normals.texels, normals.not_unit, normals.below_surface) == (16, 0, 0)
    assert abs(normals.mean_x) < 0.01 and abs(normals.mean_y) < 0.01


def test_short_and_downward_normals_are_counted():
    pixels = np.zeros((1, 4, 3), np.uint8)
    pixels[0] = [(128, 128, 255), (128, 128, 200), (128, 128, 10), (255, 128, 128)]
    normals = measure(ContentRequest(png(pixels), normal=True), LIMIT).normals
    assert normals is not None
    assert normals.not_unit == 1  # (128, 128, 200): length 0.57
    assert normals.below_surface == 1  # (128, 128, 10): pointing down, unit length


def test_normals_counted_band_by_band_are_those_of_the_whole_image():
    width = 300
    height = 2 * NORMAL_BAND_TEXELS // width + 7  # two whole bands and a partial one
    pixels = np.random.default_rng(28).integers(0, 256, (height, width, 3), dtype=np.uint8)
    normals = measure(ContentRequest(png(pixels), normal=True), LIMIT).normals
    vectors = pixels.astype(np.int64) * 2 - 255
    lengths = (vectors**2).sum(axis=2)
    low, high = round((255 * 0.9) ** 2), round((255 * 1.1) ** 2)
    assert normals is not None
    assert normals.not_unit == int(((lengths < low) | (lengths > high)).sum())
    assert normals.below_surface == int((pixels[..., 2] < 128).sum())


def test_colour_space_hints_are_read():
    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", b"\0")
    pixels = np.full((2, 2, 3), 128, np.uint8)
    assert measure(ContentRequest(png(pixels, pnginfo=info)), LIMIT).colour_hints == ("sRGB chunk",)
    gamma = PngImagePlugin.PngInfo()
    gamma.add(b"gAMA", struct.pack(">I", 45455))
    assert measure(ContentRequest(png(pixels, pnginfo=gamma)), LIMIT).colour_hints == (
        "gamma 0.45455",
    )
    assert measure(ContentRequest(png(pixels)), LIMIT).colour_hints == ()


def test_jpeg_is_decoded_at_a_reduced_scale():
    out = io.BytesIO()
    Image.fromarray(np.full((2048, 4096, 3), 90, np.uint8)).save(out, "JPEG")
    content = measure(ContentRequest(out.getvalue()), LIMIT)
    assert JPEG_STATISTICS_SIDE <= content.width < 4096
    assert content.width == 2 * content.height


def test_pillows_bomb_guard_refuses_an_image_over_the_limit():
    data = png(np.zeros((40, 50, 3), np.uint8))
    for limit in (1999, 900):  # Pillow warns over the limit and refuses over twice it
        with pytest.raises(ImageTooLarge, match="2000 pixels"):
            measure(ContentRequest(data), limit)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert measure(ContentRequest(data), 2000).texels == 2000


def test_an_image_pillow_cannot_decode_is_a_decode_error():
    header = struct.pack(">IIBBBBB", 4, 4, 8, 0, 0, 0, 0)

    def chunk(kind: bytes, payload: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + payload))
        return struct.pack(">I", len(payload)) + kind + payload + crc

    truncated = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"\x78\x9c")
    with pytest.raises(ImageDecodeError):
        measure(ContentRequest(truncated), LIMIT)
    with pytest.raises(ImageDecodeError):
        measure(ContentRequest(b"not an image"), LIMIT)


def test_the_memory_limit_bounds_the_pixels_decoded():
    assert decodable_pixels(4096) == MAX_DECODED_PIXELS
    assert decodable_pixels(256) == (256 << 20) // 16


@pytest.mark.parametrize("pixels", [0, LIMIT])  # together under the limit (threads), or not
def test_measure_all_runs_in_a_child_and_gives_each_image_its_outcome(pixels):
    from assetcheck.formats.image_content import RESULT_TYPES, ImageContent

    registry = IssueRegistry([IssueType("DECODER_CRASHED", "warning", "{reason}", "", "test")])
    issues = IssueCollector(registry).for_file("t.gltf")
    image = png(np.zeros((2, 2, 3), np.uint8))
    requests = [ContentRequest(image, pixels), ContentRequest(b"junk", pixels)]
    found = run_decoder(
        lambda: measure_all(requests, LIMIT),
        Limits(parse_timeout=30, memory_limit_mb=512),
        issues,
        "DECODER_CRASHED",
        result_types=RESULT_TYPES,
    )
    assert found is not None
    assert isinstance(found[0], ImageContent) and found[0].texels == 4
    assert isinstance(found[1], ImageDecodeError)


def test_images_measured_side_by_side_give_what_one_at_a_time_gives(monkeypatch):
    from assetcheck.formats import image_content

    rng = np.random.default_rng(7)
    images = [
        png(rng.integers(0, 256, (64, 48, 4), np.uint8)),
        png(rng.integers(100, 200, (33, 17, 3), np.uint8)),
        png(np.full((16, 16, 3), (128, 128, 255), np.uint8)),
    ]
    requests = [
        ContentRequest(memoryview(data), 64 * 64, normal=index == 2, colour=index < 2)
        for index, data in enumerate(images)
    ]
    monkeypatch.setattr(image_content, "worker_threads", lambda wanted: min(wanted, 3))
    side_by_side = measure_all(requests, LIMIT)
    monkeypatch.setattr(image_content, "worker_threads", lambda wanted: 1)

    assert side_by_side == measure_all(requests, LIMIT)
    assert all(isinstance(content, image_content.ImageContent) for content in side_by_side)


#: Run in a fresh interpreter: the modules a child forked to measure the image of the file
#: given imports, after load_decoders or without it (the control).
_CHILD_IMPORTS = """
import json, sys
from pathlib import Path
from assetcheck.formats.image_content import ContentRequest, load_decoders, measure_all
from assetcheck.sandbox.child import run_in_child
if sys.argv[1] == "load":
    load_decoders()
requests = [ContentRequest(Path(sys.argv[2]).read_bytes(), 4, normal=True, colour=True)]
def imported():
    before = set(sys.modules)
    assert all(not isinstance(o, Exception) for o in measure_all(requests, 1 << 20))
    return sorted(set(sys.modules) - before)
print(json.dumps(run_in_child(imported, timeout=60, memory_limit_mb=512)))
"""


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "WEBP"])
def test_a_child_forked_after_load_decoders_imports_nothing_to_decode(tmp_path, kind):
    path = tmp_path / f"image.{kind.lower()}"
    Image.fromarray(np.full((2, 2, 3), 128, np.uint8)).save(path, kind)
    imported = {}
    for how in ("load", "control"):
        command = [sys.executable, "-c", _CHILD_IMPORTS, how, str(path)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        imported[how] = json.loads(done.stdout)
    assert imported["load"] == []
    assert any(name.startswith("PIL.") for name in imported["control"])
