"""An OBJ's statistics in every report format."""

from __future__ import annotations

import pytest

from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import render, report_formats
from assetcheck.reports.document import build_report

PM = get_plugin_manager()
#: The formats that present statistics; the others (badge, JUnit, SARIF) show the grade and
#: the issues only, for an OBJ as for any format.
WITH_STATISTICS = {"json", "markdown", "text"}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("obj")
    rows = [f"v {x} {y} 0" for y in range(40) for x in range(40)]
    faces = [
        f"f {1 + x + 40 * y} {2 + x + 40 * y} {42 + x + 40 * y} {41 + x + 40 * y}"
        for y in range(39)
        for x in range(39)
    ]
    (folder / "grid.obj").write_text("\n".join(["o grid", *rows, *faces]) + "\n")
    return build_report(validate(folder / "grid.obj"))


def test_the_report_lists_the_obj_with_its_format_and_facts(report):
    (file,) = report["files"]
    assert (file["filename"], file["format"]) == ("grid.obj", "obj")
    assert file["details"] == {
        "meshes": 1,
        "faces": 1521,
        "lines": 0,
        "points": 0,
        "material_libraries": 0,
    }
    (mesh,) = report["result"]["meshes"]
    assert (mesh["vertexCount"], mesh["triangleCount"]) == (1600, 3042)


@pytest.mark.parametrize("name", sorted(report_formats(PM)))
def test_every_report_format_renders_an_obj(report, name):
    text, _ = render(PM, report, name)

    if name in WITH_STATISTICS:
        assert "grid.obj" in text
        assert "3,042" in text or "3042" in text
        assert "1,600" in text or "1600" in text
