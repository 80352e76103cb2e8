"""Texture content: each image decoded once with Pillow and summarised as statistics.

Decoding is native code fed with an upload, so it runs only in a child process
(:func:`measure_images`, through :mod:`assetcheck.sandbox.decoder`), every image of a file in
one child under the job's limits. The size an image's header gives is checked before Pillow
sees it (:func:`decodable_pixels`), and Pillow's own decompression-bomb guard is set to the same
limit in the child, so an image that lies about its size is refused too.

What crosses back is small: per image, the histogram of each channel (exact, over every texel),
the colour-space hints the file carries, and, where asked, the histograms of each texel's
brightest and darkest channel (base colours) and the share of normal vectors that are not unit
length or point below the surface (normal maps). JPEG images are decoded at a reduced scale
(:data:`JPEG_STATISTICS_SIDE`, Pillow's ``draft``: the DCT is scaled, so decoding costs up to 64
times less) and their statistics are those of 8x8, 4x4 or 2x2 block averages; PNG and WebP
images are decoded whole, and every statistic is over every texel (``docs/textures.md``).
"""

from __future__ import annotations

import io
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.mesh._kernels import count_off_length
from assetcheck.sandbox.containment import worker_threads

if TYPE_CHECKING:  # Pillow is loaded only where images are decoded
    from PIL.Image import Image as PillowImage

#: The most pixels an image may have to be decoded (8192 x 8192, the largest texture side any
#: engine profile allows); the job's memory limit may lower it (:func:`decodable_pixels`).
MAX_DECODED_PIXELS = 8192 * 8192
#: Bytes of memory one decoded pixel may take at once: the decoded image, its RGBA copy, one
#: channel image and the band of texels the normal statistics read.
BYTES_PER_DECODED_PIXEL = 16
#: JPEG images are decoded at the smallest DCT scale that keeps this many texels on their
#: longer side (or whole when smaller).
JPEG_STATISTICS_SIDE = 1024
#: A normal vector whose length is off 1 by more than this counts as not unit length: 8-bit
#: storage alone moves a unit vector's length by under 0.01.
UNIT_LENGTH_TOLERANCE = 0.1
#: Texels whose normal vectors are measured at once: bounds the memory of the band's copy,
#: and keeps it small enough (192 to 256 kB) for the allocator to reuse from one band to the
#: next; a band of 2^20 texels took fresh pages each time, and measuring a 1024 x 1024 normal
#: map three times the CPU time (``docs/performance.md``, Texture decoding in the helper).
NORMAL_BAND_TEXELS = 1 << 16

#: The modes Pillow gives images with an alpha channel.
_ALPHA_MODES = frozenset({"RGBA", "LA", "PA", "RGBa", "La"})


@dataclass(frozen=True)
class ContentRequest:
    """One image to measure: its encoded bytes (a memoryview of a large image reaches the
    decoder helper out of band, :mod:`assetcheck.sandbox.helper`), and which statistics its
    uses need."""

    data: bytes | memoryview
    #: Its pixels, as its header gives them (what decoding it will take).
    pixels: int = 0
    #: It is a normal map: measure its vectors.
    normal: bool = False
    #: It is a base colour: histogram its texels' brightest and darkest channels.
    colour: bool = False


@dataclass(frozen=True)
class NormalStatistics:
    """Of the ``texels`` of a normal map read as vectors (``2 * value / 255 - 1``): those
    whose length is off 1 by more than :data:`UNIT_LENGTH_TOLERANCE`, those whose z (blue) is
    below 0, and the mean x and y."""

    texels: int
    not_unit: int
    below_surface: int
    mean_x: float
    mean_y: float


@dataclass(frozen=True)
class ImageContent:
    """What an image holds: its decoded size, whether it has an alpha channel, the 256-bin
    histogram of its red, green, blue and alpha channels (a grey image's three colour channels
    are equal; alpha is all 255 without an alpha channel), and the colour-space hints of its
    file (``sRGB chunk``, ``ICC profile``, ``gamma 0.45455``)."""

    width: int
    height: int
    has_alpha: bool
    histograms: tuple[tuple[int, ...], ...]
    colour_hints: tuple[str, ...] = ()
    #: For base colours: histograms of each texel's brightest and darkest colour channel,
    #: over the texels that are not fully transparent.
    brightest: tuple[int, ...] | None = None
    darkest: tuple[int, ...] | None = None
    #: For normal maps.
    normals: NormalStatistics | None = None

    @property
    def texels(self) -> int:
        return sum(self.histograms[0])

    def extremes(self, channel: int) -> tuple[int, int]:
        """The lowest and highest value of ``channel`` (0 red .. 3 alpha)."""
        present = np.flatnonzero(self.histograms[channel])
        return int(present[0]), int(present[-1])

    def share(self, channel: int, low: int, high: int) -> float:
        """The share of texels whose ``channel`` is within ``low..high``."""
        counts = self.histograms[channel]
        return sum(counts[low : high + 1]) / max(self.texels, 1)


class ImageDecodeError(ValueError):
    """Pillow cannot decode the image; the message says why."""


class ImageTooLarge(ValueError):
    """The image has more pixels than may be decoded (a decompression bomb, or just huge);
    the message is Pillow's, with the counts."""


#: The classes a child's answer may hold, for :func:`~assetcheck.sandbox.decoder.run_decoder`.
RESULT_TYPES = (ImageContent, NormalStatistics, ImageDecodeError, ImageTooLarge)


def decodable_pixels(memory_limit_mb: int) -> int:
    """The most pixels an image may have to be decoded in a child of ``memory_limit_mb``."""
    return min(MAX_DECODED_PIXELS, (memory_limit_mb << 20) // BYTES_PER_DECODED_PIXEL)


def load_decoders() -> None:
    """Load in this process what decoding images takes, so that a child forked afterwards to
    run :func:`measure_all` imports nothing: Pillow, the plugins ``Image.open`` tries first
    (BMP, GIF, JPEG, PPM, PNG), WebP's (without it ``Image.open`` would load every plugin
    Pillow has; about 1 ms) and ``ImageChops``. A child left to import them spends about 20 ms
    on it, more than decoding a small texture takes, for every file; and its memory limit is
    then for decoding only."""
    from PIL import Image, ImageChops, WebPImagePlugin  # noqa: F401

    Image.preinit()


def measure_all(requests: list[ContentRequest], limit: int) -> list[ImageContent | Exception]:
    """:func:`measure` of each request, in order; an image that cannot be measured gives its
    :class:`ImageDecodeError` or :class:`ImageTooLarge`. Runs in the child, several images at
    a time on the cores there are (Pillow's decoders and numpy release the GIL) when all of
    them together have no more than ``limit`` pixels and the address space left holds the
    threads (:func:`~assetcheck.sandbox.containment.worker_threads`), one at a time otherwise:
    the memory decoding takes stays what one image of ``limit`` pixels takes."""
    from PIL import Image

    together = sum(request.pixels for request in requests) <= limit
    workers = worker_threads(len(requests)) if together else 1
    # Pillow warns of images between the limit and twice it: measure refuses them itself.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        if workers > 1:
            try:
                with ThreadPoolExecutor(workers) as pool:
                    return list(pool.map(partial(_outcome, limit=limit), requests))
            except RuntimeError:  # no room for a thread's stack under the memory limit
                pass
        return [_outcome(request, limit) for request in requests]


def _outcome(request: ContentRequest, limit: int) -> ImageContent | Exception:
    try:
        return measure(request, limit)
    except (ImageDecodeError, ImageTooLarge) as error:
        return error


def measure(request: ContentRequest, limit: int) -> ImageContent:
    """The content of the image in ``request``, decoded once (JPEG at a reduced scale).

    Raises :class:`ImageTooLarge` for an image of more than ``limit`` pixels, before decoding
    it (Pillow's bomb guard is set to ``limit`` too), and :class:`ImageDecodeError` for one
    Pillow cannot read.
    """
    from PIL import Image, ImageChops

    Image.MAX_IMAGE_PIXELS = limit
    try:
        opened = Image.open(io.BytesIO(request.data))
        pixels = opened.width * opened.height
        if pixels > limit:
            raise ImageTooLarge(f"{pixels} pixels, more than the {limit} decoded")
        opened.draft("RGB", _draft_size(opened.size))
        hints = _colour_hints(opened.info)
        image, has_alpha = _as_rgba_or_rgb(opened)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise ImageTooLarge(str(error)) from None
    except (OSError, ValueError, SyntaxError) as error:  # Pillow's ways of saying "broken"
        raise ImageDecodeError(str(error) or type(error).__name__) from None
    histogram = image.histogram()
    bands = [tuple(histogram[at : at + 256]) for at in range(0, len(histogram), 256)]
    if not has_alpha:
        bands.append((0,) * 255 + (image.width * image.height,))
    brightest = darkest = None
    if request.colour:  # texels fully transparent show no colour and are not counted
        red, green, blue = image.split()[:3]
        seen = image.getchannel("A") if has_alpha else None
        brightest = tuple(ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram(seen))
        darkest = tuple(ImageChops.darker(ImageChops.darker(red, green), blue).histogram(seen))
    normals = _normal_statistics(image, bands) if request.normal else None
    return ImageContent(
        image.width, image.height, has_alpha, tuple(bands), hints, brightest, darkest, normals
    )


def _draft_size(size: tuple[int, int]) -> tuple[int, int]:
    """The size asked of JPEG's ``draft``: the smallest DCT scale that keeps
    :data:`JPEG_STATISTICS_SIDE` texels on the longer side (other formats ignore it)."""
    width, height = size
    scale = max(1.0, max(width, height) / JPEG_STATISTICS_SIDE)
    return max(1, int(width / scale)), max(1, int(height / scale))


def _colour_hints(info: dict) -> tuple[str, ...]:
    """The colour-space hints a file carries: PNG's sRGB chunk, an ICC profile (PNG iCCP or
    JPEG APP2), a gamma other than linear (PNG gAMA)."""
    hints = []
    if "srgb" in info:
        hints.append("sRGB chunk")
    if info.get("icc_profile"):
        hints.append("ICC profile")
    gamma = info.get("gamma")
    if isinstance(gamma, (int, float)) and abs(gamma - 1.0) > 0.01:
        hints.append(f"gamma {gamma:.5g}")
    return tuple(hints)


def _as_rgba_or_rgb(image: PillowImage) -> tuple[PillowImage, bool]:
    """The image decoded, as 8-bit RGBA (with an alpha channel or transparency) or RGB, and
    which. 16-bit grey keeps its high byte."""
    from PIL import Image

    if image.mode in ("I", "I;16", "I;16B", "I;16L"):
        high = (np.asarray(image, dtype=np.uint32) >> 8).astype(np.uint8)
        image = Image.fromarray(high, "L")
    has_alpha = image.mode in _ALPHA_MODES or "transparency" in image.info
    mode = "RGBA" if has_alpha else "RGB"
    if image.mode == mode:
        image.load()
        return image, has_alpha
    return image.convert(mode), has_alpha


def _normal_statistics(image: PillowImage, bands: list[tuple[int, ...]]) -> NormalStatistics:
    """The vectors of a normal map: a texel ``(r, g, b)`` is ``(2r - 255, 2g - 255, 2b - 255) /
    255``. The direction and the means come from the channels' histograms; the lengths are
    counted a band of rows at a time, in integers (the compiled ``count_off_length``)."""
    width, height = image.size
    texels = max(width * height, 1)
    levels = np.arange(256) * 2 - 255
    mean_x, mean_y = (float(np.dot(bands[c], levels)) / texels / 255 for c in (0, 1))
    below = sum(bands[2][:128])
    rows = max(1, NORMAL_BAND_TEXELS // max(width, 1))
    low = round((255 * (1 - UNIT_LENGTH_TOLERANCE)) ** 2)
    high = round((255 * (1 + UNIT_LENGTH_TOLERANCE)) ** 2)
    not_unit = 0
    for top in range(0, height, rows):
        band = np.asarray(image.crop((0, top, width, min(height, top + rows))))
        not_unit += count_off_length(band, low, high)
    return NormalStatistics(width * height, not_unit, below, mean_x, mean_y)
