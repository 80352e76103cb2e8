"""The job page's 3D viewer in a real Chromium (WebGL through SwiftShader): it draws every
format, shows issues on the model, works from the keyboard, loads only from the server's own
origin and leaves the page's content security policy as it was."""

from __future__ import annotations

import base64
import re
import struct
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import requests

from assetcheck.service.accounts.store import find_account, issue_key
from assetcheck.service.dashboard.handlers.base import CONTENT_SECURITY_POLICY
from assetcheck.testing.fbx import ClusterSpec, Scene, binary_fbx, cube, grid
from assetcheck.testing.gltf import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, GltfBuilder
from assetcheck.testing.shapes import lathe, pawn_glb
from assetcheck.testing.zip import zip_of
from tests.formats.obj.test_obj_reader import CUBE
from tests.formats.usd.test_usd_reader import ASSETS as USD_ASSETS
from tests.previews.test_fbx_materials import textured_parts_fbx
from tests.service.dashboard.browser import log_in, open_chromium
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import upload, wait_for_job

sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright")
Page, expect = sync_api.Page, sync_api.expect

#: One pawn, Draco- and meshopt-compressed by the real encoders (tools/make_compressed_fixtures.py).
COMPRESSED = Path(__file__).resolve().parents[2] / "assets" / "compressed"

#: The pixels of a PNG screenshot, summarised in the page (Chromium decodes its own PNG).
PIXEL_SUMMARY = """async (data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d");
    context.drawImage(bitmap, 0, 0);
    const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    const colours = new Set();
    let differing = 0, pink = 0, red = 0;
    for (let i = 0; i < pixels.length; i += 4) {
        // the UV checker's colour for a mesh without UVs (viewer.js NO_UV)
        if (Math.abs(pixels[i] - 0xd6) + Math.abs(pixels[i + 1] - 0x33)
            + Math.abs(pixels[i + 2] - 0x6c) < 40) pink++;
        // clearly red (textured_parts_fbx's base colour; clay and faded parts are grey)
        if (pixels[i] - pixels[i + 1] > 40 && pixels[i] - pixels[i + 2] > 40) red++;
        colours.add((pixels[i] >> 3) << 10 | (pixels[i + 1] >> 3) << 5 | pixels[i + 2] >> 3);
        if (Math.abs(pixels[i] - pixels[0]) + Math.abs(pixels[i + 1] - pixels[1])
            + Math.abs(pixels[i + 2] - pixels[2]) > 24) differing++;
    }
    return {colours: colours.size, drawn: differing / (pixels.length / 4),
            pink: pink / (pixels.length / 4), red: red / (pixels.length / 4)};
}"""


def textured_pawn(builder: GltfBuilder, *, duplicate: bool = False) -> None:
    """A pawn with UVs and a checkered base colour texture; with ``duplicate`` 40 of its
    triangles are listed twice (MESH_DUPLICATE_TRIANGLES)."""
    positions, indices = lathe()
    if duplicate:
        indices = np.concatenate([indices, indices[64:104]])
    uvs = np.stack(
        [np.arctan2(positions[:, 2], positions[:, 0]) / (2 * np.pi) + 0.5, positions[:, 1]], axis=1
    ).astype(np.float32)
    primitive = {
        "attributes": {
            "POSITION": builder.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER),
            "TEXCOORD_0": builder.add_accessor(uvs, "VEC2", target=ARRAY_BUFFER),
        },
        "indices": builder.add_accessor(indices.reshape(-1), "SCALAR", target=ELEMENT_ARRAY_BUFFER),
        "material": 0,
    }
    builder.document["meshes"] = [{"name": "Pawn", "primitives": [primitive]}]
    builder.add_node(mesh=0, name="Pawn")


def checker_png(size: int = 64) -> bytes:
    """A ``size`` x ``size`` red and yellow checker PNG."""
    tile = (np.indices((size, size)).sum(axis=0) // 8) % 2
    pixels = np.where(tile[..., None], [230, 200, 30], [200, 30, 30]).astype(np.uint8)
    rows = b"".join(b"\0" + row.tobytes() for row in pixels)

    def block(kind: bytes, payload: bytes) -> bytes:
        return (
            struct.pack(">I", len(payload))
            + kind
            + payload
            + struct.pack(">I", zlib.crc32(kind + payload))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + block(b"IHDR", header)
        + block(b"IDAT", zlib.compress(rows))
        + block(b"IEND", b"")
    )


def faulty_glb() -> bytes:
    """A textured pawn with duplicate triangles and a 48 x 48 texture (IMAGE_NPOT_DIMENSIONS)."""
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(checker_png(48)))
    builder.add_material("Checker", base_color_texture=texture)
    textured_pawn(builder, duplicate=True)
    return builder.glb()


def textured_gltf_zip(tmp_path: Path) -> bytes:
    """A ZIP of a .gltf, its .bin and its PNG texture beside it."""
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(uri="checker.png"))
    builder.add_material("Checker", base_color_texture=texture)
    textured_pawn(builder)
    gltf = builder.write_gltf(tmp_path / "textured", "pawn")
    return zip_of(
        {
            "pawn.gltf": gltf.read_bytes(),
            "pawn.bin": (gltf.parent / "pawn.bin").read_bytes(),
            "checker.png": checker_png(),
        }
    )


def open_job(site: Site, page: Page, content: bytes, filename: str) -> str:
    """Upload ``content`` with a key of a new account, log that account in, open the job."""
    email = site.account()
    key = issue_key(find_account(email), "viewer")[1]
    job_id = upload(site.url, key, content, filename=filename).json()["job_id"]
    assert wait_for_job(site.url, key, job_id, timeout=120)["status"] == "completed"
    log_in(page, site.url, email)
    page.goto(f"{site.url}/jobs/{job_id}")
    return job_id


def wait_for_view(page: Page, name: str):
    """The job's own view of ``name`` (not a comparison's, shown when the name was uploaded
    before), once ready."""
    figure = page.locator(f'.viewer[data-filename="{name}"]:not([data-compare])')
    expect(figure).to_have_attribute("data-state", "ready", timeout=60_000)
    return figure


def pixels(page: Page, figure) -> tuple[bytes, dict]:
    shot = figure.locator("canvas").screenshot()
    return shot, page.evaluate(PIXEL_SUMMARY, base64.b64encode(shot).decode())


def assert_drawn(summary: dict) -> None:
    """Not blank (a real share of the view differs from its corner) and not uniform (shaded:
    more colours than a background and a silhouette)."""
    assert summary["drawn"] > 0.03 and summary["colours"] > 8, summary


def assert_spans_its_card(figure) -> None:
    """The view is as wide as its card's content (a model file alone on its page), and the
    server-drawn picture no longer sits above it."""
    widths = figure.evaluate(
        """(figure) => {
            const card = figure.closest(".card");
            const style = getComputedStyle(card);
            return {
                canvas: figure.querySelector("canvas").getBoundingClientRect().width,
                card: card.clientWidth - parseFloat(style.paddingLeft)
                      - parseFloat(style.paddingRight),
            };
        }"""
    )
    assert widths["canvas"] >= widths["card"] - 2 and widths["canvas"] > 480, widths
    expect(figure.locator(".viewer-fallback")).to_be_hidden()


def pawn_with_hints() -> bytes:
    """A pawn whose buffer views do not say what they hold (BUFFER_VIEW_TARGET_MISSING, a
    hint), whose foot and crown close in zero-area triangles (information), and whose position
    accessor stores a wrong minimum (ACCESSOR_MIN_MISMATCH at ``/accessors/0/min/1``)."""
    builder = GltfBuilder()
    positions, indices = lathe()
    primitive = {
        "attributes": {"POSITION": builder.add_accessor(positions, "VEC3", minmax=True)},
        "indices": builder.add_accessor(indices.reshape(-1), "SCALAR"),
    }
    builder.document["accessors"][0]["min"][1] -= 1.0
    builder.document["meshes"] = [{"name": "Pawn", "primitives": [primitive]}]
    builder.add_node(mesh=0, name="Pawn")
    return builder.glb()


@pytest.fixture
def requests_seen(page: Page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def assert_same_origin(site: Site, seen: list[str]) -> None:
    assert seen and all(
        url.startswith(site.url + "/") or url.startswith("data:") for url in seen
    ), [url for url in seen if not url.startswith(site.url)]


def test_a_glb_is_drawn_and_clicking_an_issue_marks_its_triangles(
    site: Site, page: Page, requests_seen: list[str], artifacts: Path
):
    job_id = open_job(site, page, faulty_glb(), "faulty.glb")
    response = page.request.get(f"{site.url}/jobs/{job_id}")
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    figure = wait_for_view(page, "faulty.glb")
    before, summary = pixels(page, figure)
    assert_drawn(summary)
    page.screenshot(path=artifacts / "viewer-glb.png", full_page=True)

    issue = page.locator("details.issue", has_text="MESH_DUPLICATE_TRIANGLES")
    issue.locator("summary").click()
    issue.get_by_role("button", name="Show on model").click()
    expect(figure).to_have_attribute("data-focus", "/meshes/0/primitives/0")
    expect(figure.locator(".viewer-caption")).to_have_text(
        "Duplicate triangles (40 of 872) — orange marks the 40 triangles."
    )
    expect(figure.locator(".viewer-legend")).to_contain_text("Orange: what this finding is about.")
    marked, summary = pixels(page, figure)
    assert marked != before
    figure.screenshot(path=artifacts / "viewer-issue.png")  # docs/images/viewer.png

    issue = page.locator("details.issue", has_text="IMAGE_NPOT_DIMENSIONS")
    issue.locator("summary").click()
    issue.get_by_role("button", name="Show on model").click()
    expect(figure).to_have_attribute("data-focus", "/images/0")
    expect(figure.locator(".viewer-caption")).to_contain_text(
        "Texture size not a power of two — the texture it is about is shown alone"
    )
    texture, summary = pixels(page, figure)
    assert_drawn(summary)
    assert texture not in (before, marked)
    figure.get_by_role("button", name="Reset view").click()
    expect(figure).to_have_attribute("data-focus", "")
    assert_same_origin(site, requests_seen)


def test_every_view_mode_has_a_legend_and_the_view_spans_its_card(
    site: Site, page: Page, artifacts: Path
):
    open_job(site, page, faulty_glb(), "legend.glb")
    figure = wait_for_view(page, "legend.glb")
    assert_spans_its_card(figure)
    legend = figure.locator(".viewer-legend")
    expect(legend).to_be_hidden()

    figure.get_by_role("button", name="UV checker").click()
    expect(figure).to_have_attribute("data-legend", "uv-checker")
    expect(legend.locator(".viewer-caption")).to_have_text("UV checker")
    expect(legend).to_contain_text("Coloured squares: the texture layout (UVs).")
    figure.get_by_role("button", name="Wireframe").click()
    expect(legend.locator(".viewer-caption")).to_have_text(["UV checker", "Wireframe"])
    expect(legend).to_contain_text("Lines: the edges of every triangle.")
    figure.get_by_role("button", name="UV checker").click()
    expect(figure).to_have_attribute("data-legend", "wireframe")

    issue = page.locator("details.issue", has_text="MESH_NON_MANIFOLD_EDGES")
    issue.locator("summary").click()
    issue.get_by_role("button", name="Show on model").click()
    expect(figure).to_have_attribute("data-legend", "issue")
    expect(legend.locator(".viewer-caption").first).to_have_text(
        "Non-manifold edges (81 of 1,152) — it is about the whole model."
    )
    figure.screenshot(path=artifacts / "viewer-legend.png")
    figure.get_by_role("button", name="Reset view").click()
    expect(figure).to_have_attribute("data-legend", "wireframe")
    figure.get_by_role("button", name="Wireframe").click()
    expect(legend).to_be_hidden()


@pytest.mark.parametrize(
    ("name", "content"),
    [("plain.glb", pawn_glb()), ("plain.fbx", binary_fbx(Scene(meshes=[grid("Grid", 4, 4)])))],
)
def test_a_model_without_uvs_says_so_under_the_uv_checker_instead_of_turning_pink(
    site: Site, page: Page, name: str, content: bytes
):
    open_job(site, page, content, name)
    figure = wait_for_view(page, name)
    figure.get_by_role("button", name="UV checker").click()
    expect(figure.locator(".viewer-caption")).to_contain_text("This model has no UV coordinates")
    _, summary = pixels(page, figure)
    assert_drawn(summary)
    assert summary["pink"] == 0, summary


@pytest.mark.parametrize(
    ("severity", "code", "title"),
    [
        ("info", "MESH_ZERO_AREA_TRIANGLES", "Zero-area triangles (64 of 832)"),
        ("hint", "BUFFER_VIEW_TARGET_MISSING", "Data block does not say what it holds"),
        ("error", "ACCESSOR_MIN_MISMATCH", "Stored minimum does not match the data"),
    ],
)
def test_information_hints_and_accessor_findings_are_shown_on_the_model_too(
    site: Site, page: Page, severity: str, code: str, title: str
):
    open_job(site, page, pawn_with_hints(), "hints.glb")
    figure = wait_for_view(page, "hints.glb")
    issue = page.locator(f"details.issue.severity-{severity}", has_text=code)
    if issue.get_attribute("open") is None:  # errors are open from the start
        issue.locator("summary").click()
    issue.get_by_role("button", name="Show on model").first.click()
    expect(figure).to_have_attribute("data-focus-meshes", "1")
    expect(figure.locator(".viewer-caption")).to_contain_text(title + " — ")


def test_the_view_turns_zooms_and_resets_from_the_keyboard(site: Site, page: Page, artifacts: Path):
    open_job(site, page, faulty_glb(), "keys.glb")
    figure = wait_for_view(page, "keys.glb")
    canvas = figure.locator("canvas")
    canvas.focus()
    first, _ = pixels(page, figure)
    page.keyboard.press("ArrowLeft")
    turned, _ = pixels(page, figure)
    assert turned != first
    page.keyboard.press("+")
    zoomed, _ = pixels(page, figure)
    assert zoomed != turned
    page.keyboard.press("0")
    assert pixels(page, figure)[0] == first

    wireframe = figure.get_by_role("button", name="Wireframe")
    wireframe.focus()
    page.keyboard.press("Enter")
    expect(wireframe).to_have_attribute("aria-pressed", "true")
    assert pixels(page, figure)[0] != first
    checker = figure.get_by_role("button", name="UV checker")
    checker.focus()
    page.keyboard.press("Space")
    expect(checker).to_have_attribute("aria-pressed", "true")
    canvas.screenshot(path=artifacts / "viewer-keyboard.png")


def test_a_gltf_with_external_textures_is_drawn_with_them(
    site: Site, page: Page, requests_seen: list[str], tmp_path: Path, artifacts: Path
):
    open_job(site, page, textured_gltf_zip(tmp_path), "textured.zip")
    figure = wait_for_view(page, "pawn.gltf")
    shot, summary = pixels(page, figure)
    (artifacts / "viewer-gltf.png").write_bytes(shot)
    assert_drawn(summary)
    assert_same_origin(site, requests_seen)
    assert not any(
        url.endswith((".png", ".bin")) and "/previews/" not in url for url in requests_seen
    )  # the texture came inside the viewer's GLB


def test_an_fbx_is_drawn_from_the_geometry_the_reader_decoded(
    site: Site, page: Page, artifacts: Path
):
    open_job(site, page, binary_fbx(Scene(meshes=[cube()])), "cube.fbx")
    figure = wait_for_view(page, "cube.fbx")
    shot, summary = pixels(page, figure)
    (artifacts / "viewer-fbx.png").write_bytes(shot)
    assert_drawn(summary)
    assert_spans_its_card(figure)


def test_an_obj_is_drawn_and_its_finding_shown_on_the_mesh_it_names(
    site: Site, page: Page, artifacts: Path
):
    strip = b"o strip\nv 0 0 0.5\nv 0.5 0 0.5\nv 1 0 0.5\nf -3 -2 -1\n"  # no area
    open_job(site, page, CUBE + strip, "cube.obj")
    figure = wait_for_view(page, "cube.obj")
    before, summary = pixels(page, figure)
    (artifacts / "viewer-obj.png").write_bytes(before)
    assert_drawn(summary)
    issue = page.locator("details.issue", has_text="MESH_ZERO_AREA_TRIANGLES")
    issue.locator("summary").click()
    occurrence = issue.locator("li", has_text="Mesh strip (plain):")  # its group and material
    occurrence.get_by_role("button", name="Show on model").click()
    expect(figure).to_have_attribute("data-focus", "strip (plain)")
    expect(figure.locator(".viewer-caption")).to_have_text(
        "Zero-area triangles (1 of 1) — an orange dot marks the centre of the triangle."
    )
    expect(figure.locator(".viewer-legend")).to_contain_text("Faded grey: the rest of the model.")


def test_a_usdz_is_drawn_from_the_meshes_usd_composed(site: Site, page: Page, artifacts: Path):
    open_job(site, page, (USD_ASSETS / "cube.usdz").read_bytes(), "cube.usdz")
    figure = wait_for_view(page, "cube.usdz")
    shot, summary = pixels(page, figure)
    (artifacts / "viewer-usdz.png").write_bytes(shot)
    assert_drawn(summary)
    assert_spans_its_card(figure)


@pytest.mark.parametrize("name", ["pawn_draco.glb", "pawn_meshopt.glb"])
def test_a_compressed_file_is_drawn_from_the_decoded_copy(
    site: Site, page: Page, artifacts: Path, name: str
):
    open_job(site, page, (COMPRESSED / name).read_bytes(), name)
    figure = wait_for_view(page, name)
    shot, summary = pixels(page, figure)
    (artifacts / f"viewer-{name}.png").write_bytes(shot)
    assert_drawn(summary)


def test_viewer_files_go_only_to_the_jobs_owner_and_are_never_sniffed(site: Site, page: Page):
    job_id = open_job(site, page, faulty_glb(), "private.glb")
    mine = page.request.get(f"{site.url}/jobs/{job_id}/models/0.glb")
    assert mine.status == 200 and mine.body()[:4] == b"glTF"
    assert mine.headers["x-content-type-options"] == "nosniff"
    assert mine.headers["cross-origin-resource-policy"] == "same-origin"
    assert "access-control-allow-origin" not in mine.headers
    overlays = page.request.get(f"{site.url}/jobs/{job_id}/models/0.json").json()
    assert {entry["code"] for entry in overlays["entries"]} >= {"MESH_DUPLICATE_TRIANGLES"}

    anonymous = requests.get(
        f"{site.url}/jobs/{job_id}/models/0.glb", allow_redirects=False, timeout=30
    )
    assert anonymous.status_code == 302 and re.search(r"/login", anonymous.headers["Location"])
    stranger = Visitor(site.url)
    assert stranger.log_in(site.account()).status_code == 302
    for kind in ("glb", "json"):
        answer = stranger.http.get(f"{site.url}/jobs/{job_id}/models/0.{kind}", timeout=30)
        assert answer.status_code == 404 and b"glTF" not in answer.content


def test_without_webgl_the_server_drawn_picture_stays_and_says_why(
    site: Site, playwright_driver, tmp_path: Path
):
    context = open_chromium(playwright_driver, tmp_path / "profile", args=["--disable-3d-apis"])
    try:
        page = context.pages[0] if context.pages else context.new_page()
        open_job(site, page, faulty_glb(), "nogl.glb")
        figure = page.locator('.viewer[data-filename="nogl.glb"]')
        expect(figure.locator(".viewer-status")).to_contain_text("no WebGL")
        expect(figure.get_by_role("img", name="Preview of nogl.glb")).to_be_visible()
        assert figure.locator("canvas").count() == 0
        expect(page.get_by_role("button", name="Show on model")).to_have_count(0)
    finally:
        context.close()


#: Debian's assimp-testmodels: a real FBX whose meshes have zero-area triangles, flipped
#: windings and non-unit normals (``Zahn`` and ``klZahn``, ``Kopf`` and ``Kopf2`` among them).
SPIDER = Path("/usr/share/assimp/models/FBX/spider.fbx")


@pytest.mark.skipif(
    not SPIDER.exists(), reason=f"needs {SPIDER} (apt-get install assimp-testmodels)"
)
def test_an_fbx_finding_is_shown_on_the_mesh_it_names(site: Site, page: Page, artifacts: Path):
    open_job(site, page, SPIDER.read_bytes(), "spider.fbx")
    figure = wait_for_view(page, "spider.fbx")
    before, _ = pixels(page, figure)
    issue = page.locator("details.issue.severity-info", has_text="MESH_ZERO_AREA_TRIANGLES")
    issue.locator("summary").click()
    button = issue.locator("li", has_text="Mesh klZahn:").get_by_role(
        "button", name="Show on model"
    )
    expect(button).to_have_attribute("data-mesh", "klZahn")
    button.click()
    expect(figure).to_have_attribute("data-focus", "klZahn")
    expect(figure.locator(".viewer-caption")).to_have_text(
        "Zero-area triangles (14 of 42) — an orange dot marks the centre of each of the 14 "
        "triangles."
    )
    expect(figure.locator(".viewer-legend")).to_contain_text("Faded grey: the rest of the model.")
    marked, summary = pixels(page, figure)
    assert_drawn(summary)
    assert marked != before
    figure.screenshot(path=artifacts / "viewer-fbx-issue.png")

    winding = page.locator("details.issue", has_text="MESH_INCONSISTENT_WINDING")
    winding.locator("summary").click()
    winding.locator("li", has_text="Mesh Kopf:").get_by_role("button", name="Show on model").click()
    expect(figure).to_have_attribute("data-focus", "Kopf")
    expect(figure).to_have_attribute("data-focus-meshes", "1")  # Kopf only, not Kopf2 too
    expect(figure.locator(".viewer-caption")).to_have_text(
        "Flipped faces along 5 edges — the mesh it is about is shown, the rest is faded."
    )

    figure.get_by_role("button", name="Reset view").click()
    figure.get_by_role("button", name="UV checker").click()  # the FBX's own UVs
    expect(figure.locator(".viewer-legend")).to_contain_text("Coloured squares")
    checker, summary = pixels(page, figure)
    figure.screenshot(path=artifacts / "viewer-fbx-checker.png")
    assert_drawn(summary)
    assert checker != before
    figure.get_by_role("button", name="Wireframe").click()
    expect(figure.locator(".viewer-caption")).to_have_text(["UV checker", "Wireframe"])
    assert_spans_its_card(figure)


def show_texture_finding(
    page: Page, figure, code: str, image: str, material: str | None, *, shown: bool = True
):
    """Click "Show on model" on the occurrence of the FBX texture finding ``code``, which
    names ``image`` (and ``material``, a material property); the view focuses on it, or on
    nothing when it is not ``shown``."""
    issue = page.locator("details.issue", has_text=code)
    if issue.get_attribute("open") is None:
        issue.locator("summary").click()
    button = issue.get_by_role("button", name="Show on model")
    expect(button).to_have_attribute("data-image", image)
    if material is None:
        expect(button).not_to_have_attribute("data-material", re.compile(".*"))
    else:
        expect(button).to_have_attribute("data-material", material)
    button.click()
    expect(figure).to_have_attribute("data-focus", (material or image) if shown else "")


def test_an_fbx_texture_finding_shows_its_texture_on_the_parts_drawn_with_its_material(
    site: Site, page: Page, artifacts: Path
):
    """A box whose facing polygons are drawn with Wood (three textures) and the others with
    Stone, beside an untextured crate: a texture finding keeps Wood's polygons only, the
    texture it is about laid on them, and fades the rest."""
    open_job(site, page, textured_parts_fbx(), "wood.fbx")
    figure = wait_for_view(page, "wood.fbx")
    before, summary = pixels(page, figure)
    assert_drawn(summary)
    assert summary["red"] == 0  # clay, no texture

    show_texture_finding(
        page, figure, "TEXTURE_ALPHA_IGNORED", "wood (wood.png)", "Wood (slot DiffuseColor)"
    )
    expect(figure).to_have_attribute("data-focus-meshes", "1")  # of 3: Wood, Stone, Crate
    expect(figure.locator(".viewer-caption")).to_have_text(
        "Transparent texels on an opaque material (99.6% of texels) — the texture it is about "
        "is shown alone on the meshes that use it."
    )
    legend = figure.locator(".viewer-legend")
    expect(legend).to_contain_text("The texture, without lighting, as its UVs lay it out.")
    expect(legend).to_contain_text("Faded grey: the rest of the model.")
    textured, summary = pixels(page, figure)
    assert_drawn(summary)
    assert summary["red"] > 0.02
    figure.screenshot(path=artifacts / "viewer-fbx-texture.png")

    show_texture_finding(
        page, figure, "NORMAL_MAP_NOT_TANGENT_SPACE", "bumps (bumps.png)", "Wood (slot NormalMap)"
    )
    expect(figure).to_have_attribute("data-focus-meshes", "1")
    normal_map, summary = pixels(page, figure)
    assert_drawn(summary)
    assert normal_map not in (before, textured)

    show_texture_finding(page, figure, "TEXTURE_SINGLE_COLOR", "shine (shine.png)", None)
    expect(figure).to_have_attribute("data-focus-meshes", "1")
    expect(figure.locator(".viewer-caption")).to_contain_text(
        "Texture of one colour — the texture it is about is shown alone on the meshes that use it."
    )

    # Spare's image: no polygon is drawn with Spare, so there is nothing to show.
    show_texture_finding(
        page, figure, "TEXTURE_ALPHA_OPAQUE", "glass (glass.png)", None, shown=False
    )
    expect(figure).to_have_attribute("data-focus-meshes", "0")
    expect(figure.locator(".viewer-status")).to_have_text(
        "Alpha channel that is fully opaque: this finding has nothing that can be shown on the "
        "model."
    )
    figure.get_by_role("button", name="Reset view").click()
    expect(figure).to_have_attribute("data-focus", "")
    assert pixels(page, figure)[0] == before


def skinned_pawn_glb() -> bytes:
    """A pawn skinned to a joint and its child at the origin (identity inverse bind
    matrices): the 32 vertices of its foot's upper rim weigh 0.5 in all
    (ACCESSOR_WEIGHTS_NON_NORMALIZED), the 32 of a ring of its crown 1.5 and -0.5
    (ACCESSOR_WEIGHTS_NEGATIVE, and not normalized either: Khronos leaves negative weights out
    of the sum). A third joint, inside the pawn, weighs on no vertex (SKIN_JOINT_UNUSED)."""
    builder = GltfBuilder()
    root = builder.add_node(name="root")
    nodes = builder.document["nodes"]
    nodes += [{"name": "brace"}, {"name": "tip", "translation": [0.0, 0.5, 0.0]}]
    nodes[root]["children"] = [root + 1, root + 2]
    joints = [root, root + 1, root + 2]
    positions, indices = lathe()
    weights = np.tile(np.array([1, 0, 0, 0], np.float32), (len(positions), 1))
    joint_indices = np.zeros(weights.shape, np.uint16)
    weights[64:96, 0] = 0.5
    weights[-96:-64, :2] = (1.5, -0.5)
    joint_indices[-96:-64, 1] = 1
    primitive = {
        "attributes": {
            "POSITION": builder.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER),
            "JOINTS_0": builder.add_accessor(joint_indices, "VEC4", target=ARRAY_BUFFER),
            "WEIGHTS_0": builder.add_accessor(weights, "VEC4", target=ARRAY_BUFFER),
        },
        "indices": builder.add_accessor(indices.reshape(-1), "SCALAR", target=ELEMENT_ARRAY_BUFFER),
    }
    builder.document["meshes"] = [{"name": "Pawn", "primitives": [primitive]}]
    matrices = np.tile(np.identity(4, np.float32).reshape(1, 16), (len(joints), 1))
    builder.document["skins"] = [
        {"joints": joints, "inverseBindMatrices": builder.add_accessor(matrices, "MAT4")}
    ]
    pawn = builder.add_node(mesh=0, name="Pawn")
    builder.document["nodes"][pawn]["skin"] = 0
    return builder.glb()


def show_on_model(
    page: Page, figure, code: str, expected_focus: str, caption: str, shot: Path | None = None
) -> None:
    """Click "Show on model" on the first occurrence of ``code``; the view focuses on
    ``expected_focus``, says ``caption``, and its pixels change (saved to ``shot``); then
    Reset view."""
    before, _ = pixels(page, figure)
    issue = page.locator("details.issue", has_text=code)
    if issue.get_attribute("open") is None:  # errors are listed open
        issue.locator("summary").click()
    issue.get_by_role("button", name="Show on model").first.click()
    expect(figure).to_have_attribute("data-focus", expected_focus)
    expect(figure.locator(".viewer-caption")).to_have_text(caption)
    expect(figure.locator(".viewer-legend")).to_contain_text("Orange: what this finding is about.")
    marked, summary = pixels(page, figure)
    assert_drawn(summary)
    assert marked != before
    if shot is not None:
        figure.screenshot(path=shot)
    figure.get_by_role("button", name="Reset view").click()
    expect(figure).to_have_attribute("data-focus", "")


def test_a_glb_skin_finding_marks_the_vertices_whose_weights_are_at_fault(
    site: Site, page: Page, artifacts: Path
):
    open_job(site, page, skinned_pawn_glb(), "skinned.glb")
    figure = wait_for_view(page, "skinned.glb")
    at = "/meshes/0/primitives/0/attributes/WEIGHTS_0"
    show_on_model(
        page,
        figure,
        "ACCESSOR_WEIGHTS_NON_NORMALIZED",
        at,
        "Skin weights that do not add up to 1 on 64 vertices — orange dots mark the 64 vertices.",
        artifacts / "viewer-skin-glb.png",
    )
    show_on_model(
        page,
        figure,
        "ACCESSOR_WEIGHTS_NEGATIVE",
        at,
        "Negative skin weights (32) — orange dots mark the 32 vertices.",
    )
    show_on_model(
        page,
        figure,
        "SKIN_JOINT_UNUSED",
        "/skins/0/joints",
        "Bones no vertex is weighted to (1 of 3) — an orange dot marks the joint.",
        artifacts / "viewer-skin-glb-joint.png",
    )


def test_an_fbx_skin_finding_marks_the_control_points_or_the_bones_at_fault(
    site: Site, page: Page, artifacts: Path
):
    """A cube weighed on bone Root: control point 6 by 0.7 (FBX_SKIN_WEIGHTS_NOT_NORMALIZED),
    7 by 1.2 and -0.2 on Brace (FBX_SKIN_WEIGHTS_NEGATIVE); bone End weighs nothing
    (FBX_SKIN_BONE_UNUSED)."""
    root = ClusterSpec("Root", range(8), [1.0] * 6 + [0.7, 1.2])
    brace = ClusterSpec("Brace", [7], [-0.2], translation=(1.0, 1.0, 1.0))
    end = ClusterSpec("End", [0], [0.0], translation=(0.0, 0.5, 0.0))
    skinned = replace(cube(), skin=[root, brace, end])
    open_job(site, page, binary_fbx(Scene(meshes=[skinned])), "skinned.fbx")
    figure = wait_for_view(page, "skinned.fbx")
    show_on_model(
        page,
        figure,
        "FBX_SKIN_WEIGHTS_NOT_NORMALIZED",
        "Cube",
        "Bone weights that do not sum to 1 (1 of 8) — an orange dot marks the vertex.",
        artifacts / "viewer-skin-fbx.png",
    )
    show_on_model(
        page,
        figure,
        "FBX_SKIN_WEIGHTS_NEGATIVE",
        "Cube",
        "Negative bone weights (1) — an orange dot marks the vertex.",
    )
    show_on_model(
        page,
        figure,
        "FBX_SKIN_BONE_UNUSED",
        "Cube",
        "Clusters no vertex is weighted to (1 of 3) — an orange dot marks the bone.",
    )
