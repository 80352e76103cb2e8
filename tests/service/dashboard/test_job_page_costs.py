"""The job page shows where the bytes go and the textures' GPU memory, as a bar chart with
text labels that passes the axe-core audit, for a GLB and an FBX validated by the real worker."""

from __future__ import annotations

import pytest

from assetcheck.reports.costs import format_size
from assetcheck.testing.fbx import Scene, binary_fbx, cube, grid
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes
from tests.service.dashboard.browser import log_in
from tests.service.dashboard.conftest import NO_PLAYWRIGHT, Site
from tests.service.dashboard.test_accessibility import WIDTHS, audited, violations
from tests.service.dashboard.test_browser import drop_files

sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
Page, expect = sync_api.Page, sync_api.expect

__all__ = ["audited"]  # the fixture, used by name


def textured_glb() -> bytes:
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes(64, 64), name="Albedo"))
    material = builder.add_material("M_Body", base_color_texture=texture)
    mesh = [Primitive(100, 300, material=material, normals=True, texcoords=True)]
    builder.add_node(builder.add_mesh(mesh, "Body"))
    return builder.glb()


def open_report(page: Page, site: Site, name: str, data: bytes) -> None:
    """Upload ``data`` as ``name`` from the upload page and open its report once completed."""
    drop_files(page, {name: data})
    item = page.locator(".upload-item", has_text=name)
    expect(item).to_contain_text("Completed")
    item.get_by_role("link", name="Open the report").click()


def chart_rows(page: Page, caption: str) -> list[str]:
    chart = page.get_by_role("figure", name=caption)
    expect(chart).to_be_visible()
    return [row.inner_text().replace("\n", " ") for row in chart.locator(".bar-row").all()]


def test_a_glbs_page_charts_its_bytes_and_its_textures_gpu_memory(site: Site, audited: Page):
    log_in(audited, site.url, site.account())
    data = textured_glb()
    open_report(audited, site, "body.glb", data)
    section = audited.get_by_role("region", name="Bytes and GPU memory")
    expect(section).to_be_visible()
    rows = chart_rows(audited, f"Where the {format_size(len(data))} go")
    assert rows[0] == f"geometry 3.1 KB ({3200 / len(data):.0%})"  # positions, normals, UVs
    assert [row.split(" ")[0] for row in rows] == [
        "geometry", "indices", "images", "json", "container", "padding"
    ]  # fmt: skip
    assert chart_rows(audited, "GPU memory of textures: 21.3 KB") == [
        "Albedo (64 x 64 RGBA8) 21.3 KB (100%)"
    ]
    expect(section.get_by_role("row", name="mesh 'Body' POSITION")).to_contain_text("1.2 KB")
    expect(section.get_by_role("table", name="Estimated savings")).to_contain_text(
        "Quantization (KHR_mesh_quantization)"
    )
    for width in WIDTHS:
        audited.set_viewport_size({"width": width, "height": 900})
        assert violations(audited, site) == [], f"the job page at {width} px"


def test_an_fbxs_page_charts_its_objects_bytes(site: Site, audited: Page):
    log_in(audited, site.url, site.account())
    data = binary_fbx(Scene(meshes=[cube("Crate"), grid("Floor", 10, 10)]))
    open_report(audited, site, "scene.fbx", data)
    rows = chart_rows(audited, f"Where the {format_size(len(data))} go")
    assert [row.split(" ")[0] for row in rows] == ["geometry", "scene", "container"]
    largest = audited.get_by_role("table", name="Largest items")
    expect(largest.get_by_role("row", name="geometry 'Floor'")).to_be_visible()
    assert violations(audited, site) == []
