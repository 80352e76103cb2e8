"""The garbage collector is paused while ``assetcheck validate`` starts and collects again,
with the start-up's objects frozen, once the plugins are loaded; a command that did not pause
it (a test, an embedding program) never freezes anything."""

import json
import subprocess
import sys
from pathlib import Path

from assetcheck.testing.gltf import GltfBuilder, Primitive

_COLLECTOR_DURING_VALIDATE = """
import gc, json, sys
from assetcheck import start_up
from assetcheck.cli import validate_command

seen = []
build = validate_command.get_plugin_manager

def watching(*args, **kwargs):
    seen.append(gc.isenabled())
    return build(*args, **kwargs)

validate_command.get_plugin_manager = watching
if sys.argv[1] == "paused":
    start_up.pause_collector()
from assetcheck.cli import main
status = main(["validate", "--format", "json", sys.argv[2]])
print(json.dumps([status, seen, gc.isenabled(), gc.get_freeze_count() > 0]), file=sys.stderr)
"""


def collector_during_validate(how: str, model: Path) -> list[object]:
    run = subprocess.run(
        [sys.executable, "-c", _COLLECTOR_DURING_VALIDATE, how, str(model)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(run.stderr.splitlines()[-1])


def triangle(folder: Path) -> Path:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)]))
    return builder.write_glb(folder / "triangle.glb")


def test_a_paused_collector_collects_again_once_validate_loaded_its_plugins(tmp_path: Path):
    status, seen, enabled, frozen = collector_during_validate("paused", triangle(tmp_path))
    assert (status, seen, enabled, frozen) == (0, [False], True, True)


def test_validate_run_without_a_pause_freezes_nothing(tmp_path: Path):
    status, seen, enabled, frozen = collector_during_validate("running", triangle(tmp_path))
    assert (status, seen, enabled, frozen) == (0, [True], True, False)


def test_the_program_pauses_the_collector_only_for_a_command_it_validates_itself(
    tmp_path: Path,
):
    check = (  # the command, replaced by one that tells whether the collector runs
        "import gc, sys; import assetcheck.cli as cli; from assetcheck import __main__;"
        "cli.main = lambda: print(gc.isenabled()) or 0;"
        "sys.argv = ['assetcheck', *sys.argv[1:]]; __main__.main()"
    )
    for arguments, enabled in (
        (["validate", "--no-daemon", "x.glb"], "False"),
        (["plugins"], "True"),
    ):
        run = subprocess.run(
            [sys.executable, "-c", check, *arguments], capture_output=True, text=True
        )
        assert run.stdout.strip() == enabled
