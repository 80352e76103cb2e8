"""``assetcheck validate`` with a daemon running: the same output, streams and exit status as
validating in its own process, for every report format, every file format and every way a
command can end; and the cases where it does not use the daemon."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assetcheck.daemon.client import command_name
from assetcheck.daemon.location import NO_DAEMON_VARIABLE, SOCKET_VARIABLE
from assetcheck.testing import GltfBuilder, Primitive, Scene, binary_fbx, cube, zip_of
from tests.daemon.conftest import Assetcheck

REPORT_FORMATS = ["text", "json", "sarif", "junit", "markdown"]


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of a GLB, a broken GLB, an FBX cube, an OBJ and a ZIP of them."""
    folder = tmp_path_factory.mktemp("models")
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(4, 6, normals=True)]), "quad")
    (folder / "quad.glb").write_bytes(builder.glb())
    (folder / "broken.glb").write_bytes(builder.glb()[:40])
    (folder / "cube.fbx").write_bytes(binary_fbx(Scene(meshes=[cube()])))
    (folder / "triangle.obj").write_bytes(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    (folder / "all.zip").write_bytes(
        zip_of({name: (folder / name).read_bytes() for name in ("quad.glb", "cube.fbx")})
    )
    return folder


def comparable(run) -> tuple[int, bytes, bytes]:
    """A run's status and streams, without the JSON report's timings (they differ between
    any two runs)."""
    stdout = run.stdout
    if stdout.startswith((b"{", b"[")) and b'"timings"' in stdout:
        reports = json.loads(stdout)
        for report in reports if isinstance(reports, list) else [reports]:
            report.pop("timings")
        stdout = json.dumps(reports).encode()
    return run.returncode, stdout, run.stderr


@pytest.mark.parametrize("report_format", REPORT_FORMATS)
@pytest.mark.parametrize(
    "paths",
    [["quad.glb"], ["broken.glb"], ["cube.fbx"], ["triangle.obj"], ["all.zip"], ["."]],
    ids=["glb", "broken-glb", "fbx", "obj", "zip", "folder"],
)
def test_validate_through_the_daemon_answers_as_validating_in_process_does(
    shared_daemon: Assetcheck, models: Path, report_format: str, paths: list[str]
):
    daemon = shared_daemon
    arguments = ["validate", "--format", report_format, "--jobs", "2", *paths]
    served = daemon.served()
    through_daemon = daemon.run(*arguments, cwd=models)
    assert daemon.served() == served + 1
    in_process = daemon.run(*arguments, "--no-daemon", cwd=models)
    assert daemon.served() == served + 1
    assert comparable(through_daemon) == comparable(in_process)
    assert through_daemon.stdout


@pytest.mark.parametrize(
    "arguments",
    [
        ["validate", "missing.glb"],
        ["validate", "--format", "yaml", "quad.glb"],
        ["validate", "--jobs", "0", "quad.glb"],
        ["validate", "--no-such-option", "quad.glb"],
        ["validate", "--help"],
        ["validate", "--engine", "no-such-engine", "quad.glb"],
    ],
)
def test_usage_errors_and_help_through_the_daemon_are_the_same(
    shared_daemon: Assetcheck, models: Path, arguments: list[str]
):
    daemon = shared_daemon
    served = daemon.served()
    through_daemon = daemon.run(*arguments, cwd=models)
    in_process = daemon.run(*arguments, "--no-daemon", cwd=models)
    assert comparable(through_daemon) == comparable(in_process)
    assert daemon.served() == served + 1


def test_each_command_reads_its_own_configuration_and_environment(
    daemon: Assetcheck, models: Path, tmp_path: Path
):
    """The daemon holds code, never configuration: a config file in the caller's folder and
    one named by the caller's $ASSETCHECK_CONFIG both apply."""
    (tmp_path / "assetcheck.toml").write_text("[engines.generic]\ntriangles_per_file = 1\n")
    (tmp_path / "quad.glb").write_bytes((models / "quad.glb").read_bytes())
    default = daemon.run("validate", "--format", "json", models / "quad.glb")
    from_folder = daemon.run("validate", "--format", "json", "quad.glb", cwd=tmp_path)
    daemon.env["ASSETCHECK_CONFIG"] = str(tmp_path / "assetcheck.toml")
    from_environment = daemon.run("validate", "--format", "json", models / "quad.glb")
    assert daemon.served() == 3

    def budget_codes(run) -> set[str]:
        return {group["code"] for group in json.loads(run.stdout)["issues"]} & {
            "BUDGET_TRIANGLES_PER_FILE"
        }

    assert budget_codes(default) == set()
    assert (
        budget_codes(from_folder) == budget_codes(from_environment) == {"BUDGET_TRIANGLES_PER_FILE"}
    )


def test_a_caller_running_other_code_validates_in_its_own_process(
    daemon: Assetcheck, models: Path, tmp_path: Path
):
    """Another import path (here: PYTHONPATH) is other code: the daemon declines, keeps
    running for its own callers, and the command's output is the same."""
    daemon.env["PYTHONPATH"] = str(tmp_path)
    other = daemon.run("validate", "quad.glb", cwd=models)
    assert other.returncode == 0 and b"quad.glb" in other.stdout
    del daemon.env["PYTHONPATH"]
    assert daemon.served() == 0
    assert daemon.run("validate", "quad.glb", cwd=models).stdout == other.stdout
    assert daemon.served() == 1


@pytest.mark.parametrize("switch", ["option", "environment"])
def test_no_daemon_keeps_validate_in_its_own_process(daemon: Assetcheck, models: Path, switch: str):
    arguments = ["validate", "quad.glb"]
    if switch == "option":
        arguments.append("--no-daemon")
    else:
        daemon.env["ASSETCHECK_NO_DAEMON"] = "1"
    assert daemon.run(*arguments, cwd=models).returncode == 0
    assert daemon.served() == 0


def test_without_a_daemon_validate_runs_in_its_own_process(assetcheck: Assetcheck, models):
    run = assetcheck.run("validate", "quad.glb", cwd=models)
    assert run.returncode == 0 and b"quad.glb" in run.stdout


def test_a_socket_folder_other_users_can_enter_is_not_used(daemon: Assetcheck, models: Path):
    os.chmod(daemon.socket.parent, 0o755)
    try:
        run = daemon.run("validate", "quad.glb", cwd=models)
    finally:
        os.chmod(daemon.socket.parent, 0o700)
    assert run.returncode == 0
    assert daemon.served() == 0


def test_the_command_name_is_the_first_argument_that_is_not_an_option():
    assert command_name(["--version"]) is None
    assert command_name(["validate", "--format", "json", "a.glb"]) == "validate"


_MODULES_AFTER_DELEGATING = """
import json, sys
from assetcheck.daemon.client import delegate
status = delegate(["validate", "model.glb"])
print(json.dumps([status, sorted(sys.modules)]))
"""


def test_with_no_socket_the_caller_gives_up_without_importing_the_socket_or_messages(
    tmp_path: Path,
):
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    environment = {**os.environ, SOCKET_VARIABLE: str(folder / "daemon.sock")}
    environment.pop(NO_DAEMON_VARIABLE, None)
    run = subprocess.run(
        [sys.executable, "-c", _MODULES_AFTER_DELEGATING],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    status, modules = json.loads(run.stdout)
    assert status is None
    assert not {"socket", "assetcheck.daemon.handoff", "assetcheck.daemon.protocol"} & set(modules)
