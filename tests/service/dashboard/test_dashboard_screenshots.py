"""tools/dashboard_screenshots.py against a real service: the six pictures of
docs/dashboard.md, each the width it claims, small enough to keep in the repository."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the screenshots need Playwright")

from tools.dashboard_screenshots import SCREENS, dashboard_screenshots, recompressed

#: The most the six PNGs may weigh together.
MOST_BYTES = 1_500_000


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_script_saves_the_upload_job_and_jobs_pages_at_each_width(
    playwright_driver, tmp_path: Path
):
    saved = dashboard_screenshots(playwright_driver, tmp_path / "images")
    assert sorted(path.name for path in saved) == sorted(
        f"dashboard-{page}-{width}.png" for page in ("upload", "job", "jobs") for width in SCREENS
    )
    for path in saved:
        width = int(path.stem.rsplit("-", 1)[1])
        assert png_size(path.read_bytes()) == (width, SCREENS[width])  # the viewport only
    assert sum(path.stat().st_size for path in saved) < MOST_BYTES


def test_recompressing_keeps_the_pixels_in_fewer_bytes():
    rows = b"".join(b"\0" + bytes(range(i, i + 96)) for i in range(64))
    header = struct.pack(">IIBBBBB", 32, 64, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, payload: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + payload))
        return struct.pack(">I", len(payload)) + kind + payload + crc

    fast = zlib.compress(rows, 1)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", fast[:40])
    png += chunk(b"IDAT", fast[40:]) + chunk(b"IEND", b"")
    smaller = recompressed(png)
    assert len(smaller) < len(png)
    idat = smaller.index(b"IDAT")
    (length,) = struct.unpack(">I", smaller[idat - 4 : idat])
    assert zlib.decompress(smaller[idat + 4 : idat + 4 + length]) == rows
    assert smaller.endswith(chunk(b"IEND", b""))
