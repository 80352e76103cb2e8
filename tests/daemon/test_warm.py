"""What the daemon loads before it listens: every built-in format's reader and every report
format, so that no child it forks imports them again, all frozen, so that no child's garbage
collector walks them."""

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
    "assetcheck.formats.image_content",
    "assetcheck.animation.keys",
    "assetcheck.formats.gltf.skins",
    "assetcheck.formats.gltf.skin_binding",
    "assetcheck.formats.fbx.skin_faults",
    "assetcheck.reports.sarif",
    "assetcheck.reports.junit",
    "assetcheck.reports.markdown",
    "orjson",
    "ufbx",
}


_FROZEN_AFTER_WARMING = """
import gc, json
from assetcheck.daemon.warm import warm_up
warm_up()
print(json.dumps([gc.get_freeze_count(), len(gc.get_objects())]))
"""


def test_warming_up_freezes_what_it_loaded():
    run = subprocess.run(
        [sys.executable, "-c", _FROZEN_AFTER_WARMING], capture_output=True, check=True
    )
    frozen, tracked = json.loads(run.stdout)
    # A forked child's collector starts with next to nothing of the daemon's to walk.
    assert frozen > 10_000
    assert tracked < 100


def test_warming_up_loads_every_format_reader_and_report_format():
    run = subprocess.run(
        [sys.executable, "-c", _LOADED_AFTER_WARMING], capture_output=True, check=True
    )
    assert set(json.loads(run.stdout)) >= LOADED


def test_the_samples_cover_every_built_in_format():
    endings = {name.rsplit(".", 1)[1] for name in samples()}
    assert endings == {"glb", "gltf", "fbx", "obj", "mtl", "zip"}


_CHILDREN_AFTER_WARMING = """
import os
from assetcheck.daemon.warm import warm_up
warm_up()
print(len(open(f"/proc/self/task/{os.getpid()}/children").read().split()))
"""


def test_warming_up_leaves_no_decoder_helper_behind():
    # The samples start one (the FBX parser, the texture decoder); left running, it would hold
    # the pipes of the command that started the daemon, which would wait for their end.
    run = subprocess.run(
        [sys.executable, "-c", _CHILDREN_AFTER_WARMING],
        capture_output=True,
        check=True,
        timeout=120,
    )
    assert run.stdout == b"0\n"
