"""What the daemon loads before it listens: every built-in format's reader and every report
format, so that no child it forks imports them again."""

import json
import subprocess
import sys

from assetcheck.daemon.warm import samples

_LOADED_AFTER_WARMING = """
import json, sys
from assetcheck.daemon.warm import warm_up
warm_up()
print(json.dumps(sorted(sys.modules)))
"""

LOADED = {
    "assetcheck.formats.fbx.reader",
    "assetcheck.formats.fbx.walk",
    "assetcheck.formats.obj.reader",
    "assetcheck.formats.obj.mtl",
    "assetcheck.formats.zip.reader",
    "assetcheck.reports.sarif",
    "assetcheck.reports.junit",
    "assetcheck.reports.markdown",
    "orjson",
    "ufbx",
}


def test_warming_up_loads_every_format_reader_and_report_format():
    run = subprocess.run(
        [sys.executable, "-c", _LOADED_AFTER_WARMING], capture_output=True, check=True
    )
    assert set(json.loads(run.stdout)) >= LOADED


def test_the_samples_cover_every_built_in_format():
    endings = {name.rsplit(".", 1)[1] for name in samples()}
    assert endings == {"glb", "gltf", "fbx", "obj", "mtl", "zip"}
