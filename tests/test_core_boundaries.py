"""The validation core knows nothing of HTTP, the database or the scheduler."""

import subprocess
import sys

from assetcheck.testing.gltf import GltfBuilder, Primitive

SERVICE_PACKAGES = ("tornado", "peewee", "apscheduler", "psycopg2", "jinja2", "multipart")

PROGRAM = """
import sys
from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import render, report_formats
from assetcheck.reports.document import build_report

pm = get_plugin_manager()
report = build_report(validate(sys.argv[1], plugin_manager=pm))
for name in report_formats(pm):
    render(pm, report, name)
print(" ".join(sorted({m.split(".")[0] for m in sys.modules})))
"""


def test_validating_and_rendering_every_format_loads_no_service_package(tmp_path):
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, normals=True)]))
    path = builder.write_glb(tmp_path / "tri.glb")
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(path)], capture_output=True, text=True, check=True
    )
    loaded = set(done.stdout.split())
    assert "assetcheck" in loaded
    assert loaded.isdisjoint(SERVICE_PACKAGES), loaded & set(SERVICE_PACKAGES)
