"""``assetcheck validate --jobs N`` in worker processes: the same output as one process, a file
that kills its worker or times out still reported, and nothing left running when stopped."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from assetcheck.cli.worker_messages import (
    pack_outcome,
    receive_message,
    send_message,
    unpack_outcome,
)
from assetcheck.testing.compressed import truncated_draco_glb
from tests.process_tree import kill_all, wait_for_descendants, wait_until_gone

SCRIPT = Path(sys.executable).with_name("assetcheck")
MODELS = Path("/usr/share/assimp/models")
#: The measured-time block of a JSON report: the one part two runs may differ in.
TIMINGS = re.compile(rb'"timings": \{[^}]*\}')

pytestmark = pytest.mark.skipif(not MODELS.is_dir(), reason="needs Debian's assimp-testmodels")


def run(*args: str | Path, config: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """``assetcheck validate --format json ARGS`` as its own process."""
    options = ["--config", str(config)] if config else []
    return subprocess.run(
        [SCRIPT, "validate", "--format", "json", *options, *map(str, args)],
        capture_output=True,
        timeout=300,
    )


def names(result: subprocess.CompletedProcess[bytes]) -> list[str]:
    return [report["filename"] for report in json.loads(result.stdout)]


@pytest.fixture(scope="module")
def real_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of real models of every format: glTF with its resources, GLB, Draco and
    meshopt, FBX, and a ZIP of a glTF with its buffer and texture."""
    folder = tmp_path_factory.mktemp("real")
    for name in (
        "glTF2/BoxTextured-glTF",
        "glTF2/2CylinderEngine-glTF-Binary",
        "glTF2/draco",
        "glTF2/IndexOutOfRange",
        "glTF2/SchemaFailures",
        "glTF2/simple_skin",
    ):
        shutil.copytree(MODELS / name, folder / Path(name).name)
    for name in ("FBX/box.fbx", "FBX/animation_with_skeleton.fbx"):
        shutil.copy(MODELS / name, folder)
    with zipfile.ZipFile(folder / "boxtextured.zip", "w") as archive:
        for member in (MODELS / "glTF2/BoxTextured-glTF").iterdir():
            archive.write(member, member.name)
    return folder


def test_jobs_2_prints_byte_for_byte_what_jobs_1_prints_but_the_timings(real_files):
    serial = run("--jobs", "1", real_files)
    parallel = run("--jobs", "2", real_files)
    assert b".fbx" in serial.stdout and b".zip" in serial.stdout
    assert serial.stdout.count(b'"filename"') > 10
    assert TIMINGS.sub(b"", parallel.stdout) == TIMINGS.sub(b"", serial.stdout)
    assert (parallel.returncode, parallel.stderr) == (serial.returncode, serial.stderr)


@pytest.fixture
def crashing_plugin(tmp_path: Path) -> Path:
    """A configuration whose loose plugin kills the process reading any file named crash*,
    as a native crash in a reader would."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "crasher.py").write_text(
        "import os, signal\n"
        "from assetcheck import hookimpl\n\n"
        "@hookimpl(tryfirst=True)\n"
        "def read_asset(source, issues, options):\n"
        "    if source.name.rsplit('/', 1)[-1].startswith('crash'):\n"
        "        os.kill(os.getpid(), signal.SIGSEGV)\n"
    )
    config = tmp_path / "assetcheck.toml"
    config.write_text(f'[plugins]\ndir = "{tmp_path / "rules"}"\n')
    return config


def test_a_file_that_kills_its_worker_is_reported_and_the_others_are_validated(
    tmp_path, crashing_plugin
):
    box = MODELS / "glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"
    files = [tmp_path / f"{name}.glb" for name in ("a", "crash", "b", "c", "d", "e")]
    for path in files:
        shutil.copy(box, path)
    result = run("--jobs", "2", *files, config=crashing_plugin)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        f"assetcheck validate: {files[1]}: not validated: "
        "its worker process was killed by signal 11 (Segmentation fault)\n"
    )
    assert names(result) == [str(path) for path in files if path.stem != "crash"]


def test_a_file_that_times_out_in_a_worker_gets_its_timeout_and_the_others_are_validated(
    tmp_path,
):
    slow = tmp_path / "slow.glb"
    slow.write_bytes(truncated_draco_glb())
    config = tmp_path / "assetcheck.toml"
    config.write_text("[workers]\njob_timeout = 1\n")
    box = MODELS / "glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"
    engine = MODELS / "glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
    result = run("--jobs", "2", box, slow, engine, config=config)
    assert names(result) == [str(box), str(slow), str(engine)]
    codes = [{issue["code"] for issue in report["issues"]} for report in json.loads(result.stdout)]
    assert ["VALIDATION_TIMEOUT" in found for found in codes] == [False, True, False]


def test_ctrl_c_at_the_terminal_stops_workers_and_decoders_with_one_line(tmp_path):
    """A terminal's Ctrl-C reaches the whole process group: the workers ignore it, the command
    alone answers, and kills them with their decoders."""
    files = [tmp_path / f"slow{n}.glb" for n in range(3)]
    for path in files:
        path.write_bytes(truncated_draco_glb())
    command = subprocess.Popen(
        [SCRIPT, "validate", "--jobs", "2", *map(str, files)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started = set()
    try:
        started = wait_for_descendants(command.pid, 2, count=2)
        assert started, "the decoders never started"
        os.killpg(command.pid, signal.SIGINT)
        _, errors = command.communicate(timeout=60)
        left = wait_until_gone(started)
    finally:
        kill_all(started)
        command.kill()
        command.wait()
    assert (command.returncode, errors, left) == (130, "assetcheck: interrupted\n", set())


class Label(str):
    """A type a plugin might put in a report, which ``marshal`` refuses."""


@pytest.mark.parametrize(
    "report", [{"valid": True, "issues": [{"code": "A", "count": 2.5}]}, {"name": Label("x")}]
)
def test_a_workers_outcome_crosses_whole_whatever_types_its_report_holds(report):
    assert unpack_outcome(pack_outcome(7, report, None)) == (7, report, None)
    assert unpack_outcome(pack_outcome(3, None, "No such file")) == (3, None, "No such file")


def test_a_message_larger_than_the_socket_buffer_crosses_whole_and_a_closed_end_is_eof():
    ours, theirs = socket.socketpair()
    payload = os.urandom(5 << 20)

    def send_and_close() -> None:
        send_message(theirs, payload)
        theirs.close()

    sender = threading.Thread(target=send_and_close)
    sender.start()
    try:
        assert receive_message(ours) == payload
        with pytest.raises(EOFError):
            receive_message(ours)
    finally:
        sender.join()
        ours.close()
