"""Every report format shows where the bytes go and the GPU memory of the textures."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from assetcheck.engine import validate
from assetcheck.reports.costs import format_size
from assetcheck.reports.document import build_report, cap_report, json_size
from assetcheck.reports.junit import render_junit
from assetcheck.reports.markdown import render_markdown
from assetcheck.reports.sarif import render_sarif
from assetcheck.reports.text import render_text
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes
from tests.reports.cases import cube_fbx
from tests.reports.test_schema import VALIDATOR

#: A 64 x 64 PNG decoded to RGBA8, 7 levels: 64, 32 ... 1 texels a side.
RGBA8_LEVELS = [4 * side * side for side in (64, 32, 16, 8, 4, 2, 1)]


@pytest.fixture(scope="module")
def glb_report(tmp_path_factory) -> dict:
    builder = GltfBuilder()
    builder.add_image(png_bytes(64, 64), name="Albedo")
    builder.add_node(builder.add_mesh([Primitive(100, 300, normals=True)], "Body"))
    path = tmp_path_factory.mktemp("costs") / "body.glb"
    path.write_bytes(builder.glb())
    return build_report(validate(path))


@pytest.fixture(scope="module")
def fbx_report(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("costs") / "box.fbx"
    path.write_bytes(cube_fbx())
    return build_report(validate(path))


def test_the_json_report_has_each_files_bytes_and_gpu_memory(glb_report, fbx_report):
    for report in (glb_report, fbx_report):
        VALIDATOR.validate(report)
        (entry,) = report["files"]
        usage = entry["byteUsage"]
        assert usage["totalBytes"] == entry["byteSize"]
        assert sum(usage["categories"].values()) == entry["byteSize"]
    (texture,) = glb_report["files"][0]["gpuMemory"]["textures"]
    assert texture == {
        "name": "Albedo",
        "width": 64,
        "height": 64,
        "format": "RGBA8",
        "assumedFormat": False,
        "levels": RGBA8_LEVELS,
        "bytes": sum(RGBA8_LEVELS),
    }
    assert glb_report["files"][0]["gpuMemory"]["totalBytes"] == sum(RGBA8_LEVELS) == 21_844
    assert fbx_report["files"][0]["gpuMemory"] == {"totalBytes": 0, "textures": []}


def test_the_text_report_shows_the_section(glb_report):
    text = render_text(glb_report)
    section = text[text.index("Bytes and GPU memory (~ marks estimates):") :]
    assert "mesh 'Body' POSITION 1.2 KB" in section
    assert "geometry by attribute: POSITION 1.2 KB, NORMAL 1.2 KB" in section
    assert "estimated, Quantization (KHR_mesh_quantization): ~1.2 KB smaller" in section
    assert "GPU memory of textures: 21.3 KB" in section
    assert "Albedo: 64 x 64 RGBA8, 7 levels: 21.3 KB" in section


def test_the_markdown_report_shows_the_section(glb_report, fbx_report):
    markdown = render_markdown(glb_report)
    assert "## Bytes and GPU memory" in markdown
    assert "| mesh 'Body' POSITION | 1.2 KB |" in markdown
    assert "| Albedo | 64 \N{MULTIPLICATION SIGN} 64 | RGBA8 | 7 | 21.3 KB |" in markdown
    assert "Savings are estimates, not encodings" in markdown
    assert "| geometry 'Box' |" in render_markdown(fbx_report)


def test_the_junit_report_carries_the_figures_as_suite_properties(glb_report):
    suite = ET.fromstring(render_junit(glb_report)).find("testsuite")
    assert suite is not None
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    size = glb_report["files"][0]["byteSize"]
    assert properties["bytes body.glb"] == str(size)
    assert properties["bytes body.glb POSITION"] == "1200"
    assert properties["gpu memory body.glb"] == str(sum(RGBA8_LEVELS))
    assert properties["gpu memory body.glb Albedo"] == "64 x 64 RGBA8, 7 levels: 21.3 KB"
    assert properties["estimated saving body.glb meshopt"].startswith("~")
    assert next(iter(suite)).tag == "properties"  # before the test cases, as JUnit's schema wants


def test_the_sarif_log_carries_them_as_run_properties(glb_report):
    run = json.loads(render_sarif(glb_report))["runs"][0]
    (entry,) = run["properties"]["bytesAndGpuMemory"]
    assert entry["file"] == "body.glb"
    assert entry["byteUsage"] == glb_report["files"][0]["byteUsage"]
    assert entry["gpuMemory"]["totalBytes"] == sum(RGBA8_LEVELS)


def test_a_report_stored_before_the_figures_existed_renders_without_the_section(glb_report):
    old = json.loads(json.dumps(glb_report))
    for entry in old["files"]:
        del entry["byteUsage"], entry["gpuMemory"]
    assert "Bytes and GPU memory" not in render_text(old) + render_markdown(old)
    assert "<properties>" not in render_junit(old)


def test_a_capped_report_keeps_the_totals_and_drops_the_rows_first(glb_report):
    report = json.loads(json.dumps(glb_report))
    memory = report["files"][0]["gpuMemory"]
    memory["textures"] *= 2000  # a model of 2,000 textures
    capped = cap_report(report, json_size(report) // 10)
    (entry,) = capped["files"]
    assert entry["gpuMemory"] == {"totalBytes": memory["totalBytes"], "textures": []}
    assert entry["byteUsage"]["largest"] == []
    assert entry["byteUsage"]["categories"] == glb_report["files"][0]["byteUsage"]["categories"]
    assert {"files[].gpuMemory.textures", "files[].byteUsage.largest"} <= set(
        capped["summary"]["capped"]["omitted"]
    )
    VALIDATOR.validate(capped)


def test_a_file_not_broken_down_still_shows_its_textures_gpu_memory(glb_report):
    report = json.loads(json.dumps(glb_report))
    report["files"][0]["byteUsage"] = None  # as for an OBJ, whose bytes are not broken down
    size = report["files"][0]["byteSize"]
    assert f"body.glb: {format_size(size)} (GLB file, not broken down)" in render_text(report)
    markdown = render_markdown(report)
    assert f"GLB file, not broken down: {format_size(size)}." in markdown
    assert "| Albedo |" in markdown
