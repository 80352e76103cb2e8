"""Screenshots of the dashboard for docs/dashboard.md, taken from the real service.

Starts ``assetcheck serve`` on 127.0.0.1 with SQLite in a temporary folder, signs up on its
sign-up page in Debian's Chromium (Playwright), uploads a pawn GLB (assetcheck.testing.shapes)
and, when Debian's assimp-testmodels is installed, its spider FBX through the upload page's file
picker, waits until the page says each job has ended, then saves the upload page, a job page
with its 3D viewer showing a finding on the model, and the jobs list, 1280 and 390 px wide:
six PNGs of the viewport (not the whole page), recompressed, in docs/images/.

    .venv/bin/python tools/dashboard_screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import struct
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from playwright.sync_api import sync_playwright  # noqa: E402

from assetcheck.testing.shapes import pawn_glb  # noqa: E402
from tests.service.dashboard.browser import open_chromium, sign_up, start_site  # noqa: E402

#: The widths shot, with the height of each viewport: a laptop and a phone.
SCREENS = {1280: 800, 390: 844}
#: Debian's assimp-testmodels: a real FBX with findings the viewer shows on its meshes.
SPIDER = Path("/usr/share/assimp/models/FBX/spider.fbx")
#: The finding shown on the model in the job page's picture: its code and occurrence.
SHOWN = {
    "spider.fbx": ("MESH_ZERO_AREA_TRIANGLES", "Mesh klZahn:"),
    "pawn.glb": ("MESH_ZERO_AREA_TRIANGLES", ""),
}
#: A job is followed on the upload page until its line says one of these.
ENDED = ("Completed", "Failed")
JOB_TIMEOUT_MS = 300_000
EMAIL = "lead@studio.example"


def models() -> dict[str, bytes]:
    """The files uploaded: the pawn, and the spider when assimp-testmodels is installed."""
    files = {"pawn.glb": pawn_glb()}
    if SPIDER.exists():
        files["spider.fbx"] = SPIDER.read_bytes()
    return files


def dashboard_screenshots(driver: Any, out: Path) -> list[Path]:
    """Run a service, take the six screenshots into ``out`` (made if missing) with
    ``driver`` (a running sync Playwright); their paths."""
    out.mkdir(parents=True, exist_ok=True)
    saved = []
    with tempfile.TemporaryDirectory() as folder:
        server = start_site(Path(folder) / "service")
        context = open_chromium(driver, Path(folder) / "profile")
        try:
            page = context.pages[0] if context.pages else context.new_page()
            sign_up(page, server.url, EMAIL, plan="pro")
            for width, height in SCREENS.items():
                page.set_viewport_size({"width": width, "height": height})
                saved += shoot_pages(page, server.url, width, out)
        finally:
            context.close()
            server.stop()
    return saved


def shoot_pages(page, url: str, width: int, out: Path) -> list[Path]:
    """Upload the models, then save the upload page, a job page and the jobs list."""
    files = models()
    page.goto(f"{url}/")
    page.locator("body[data-ready=true]").wait_for()
    page.set_input_files(
        "#files",
        [
            {"name": name, "mimeType": "application/octet-stream", "buffer": data}
            for name, data in files.items()
        ],
    )
    wait_for_jobs(page, len(files))
    page.evaluate("window.scrollTo(0, 0)")
    saved = [save(page, out / f"dashboard-upload-{width}.png")]

    shown = "spider.fbx" if "spider.fbx" in files else "pawn.glb"
    page.locator("#upload-list li", has_text=shown).get_by_role(
        "link", name="Open the report"
    ).click()
    # The job's own view: from the second width on, the file was uploaded before, and the
    # page also shows the comparison's two views (data-compare).
    figure = page.locator(f'.viewer[data-filename="{shown}"]:not([data-compare])')
    figure.and_(page.locator("[data-state=ready]")).wait_for()
    code, occurrence = SHOWN[shown]
    issue = page.locator("details.issue", has_text=code)
    issue.locator("summary").click()
    issue.locator("li", has_text=occurrence).first.get_by_role(
        "button", name="Show on model"
    ).click()
    figure.locator(".viewer-legend").wait_for()
    figure.evaluate("(element) => element.closest('section').scrollIntoView({block: 'start'})")
    saved.append(save(page, out / f"dashboard-job-{width}.png"))

    page.goto(f"{url}/jobs")
    saved.append(save(page, out / f"dashboard-jobs-{width}.png"))
    return saved


def wait_for_jobs(page, count: int) -> None:
    """Wait until the upload page's last ``count`` uploads have ended; fail on a failed job."""
    lines = page.locator("#upload-list li .status-text")
    page.wait_for_function(
        """([count, ended]) => {
            const lines = [...document.querySelectorAll("#upload-list li .status-text")];
            const done = (line) => ended.some((word) => line.textContent.startsWith(word));
            return lines.length >= count && lines.slice(-count).every(done);
        }""",
        arg=[count, list(ENDED)],
        timeout=JOB_TIMEOUT_MS,
    )
    failed = [text for text in lines.all_text_contents() if text.startswith("Failed")]
    if failed:
        raise RuntimeError(f"a job failed: {failed}")


def save(page, path: Path) -> Path:
    """The viewport as a PNG at ``path``, recompressed."""
    path.write_bytes(recompressed(page.screenshot()))
    return path


def recompressed(png: bytes) -> bytes:
    """``png`` with its image data deflated again at zlib's highest level (Chromium favours
    speed): the same pixels in fewer bytes."""
    chunks, offset, data = [], 8, b""
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind, payload = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        offset += 12 + length
        if kind == b"IDAT":
            data += payload
            continue
        if kind == b"IEND":
            chunks.append((b"IDAT", zlib.compress(zlib.decompress(data), 9)))
        chunks.append((kind, payload))
    return png[:8] + b"".join(
        struct.pack(">I", len(payload))
        + kind
        + payload
        + struct.pack(">I", zlib.crc32(kind + payload))
        for kind, payload in chunks
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPOSITORY / "docs" / "images")
    args = parser.parse_args()
    with sync_playwright() as driver:
        saved = dashboard_screenshots(driver, args.out)
    for path in saved:
        print(f"{path.stat().st_size / 1024:6.0f} KB  {path}")
    print(f"{sum(path.stat().st_size for path in saved) / 1024:6.0f} KB  in all")


if __name__ == "__main__":
    main()
