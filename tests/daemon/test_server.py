"""The daemon's life: a private socket, one daemon per socket, stopping on request, when idle,
when its code changed or on SIGTERM, and no process left behind when a caller or the daemon
goes away mid-validation."""

from __future__ import annotations

import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from assetcheck.testing.compressed import truncated_draco_glb
from tests.daemon.conftest import SCRIPT, Assetcheck, wait_for_exit
from tests.process_tree import kill_all, wait_for_descendants, wait_until_gone


@pytest.fixture(scope="module")
def slow_glb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A GLB whose Draco payloads keep a decoder child busy for minutes."""
    path = tmp_path_factory.mktemp("slow") / "slow.glb"
    path.write_bytes(truncated_draco_glb())
    return path


def test_only_its_user_can_reach_the_socket(daemon: Assetcheck):
    assert stat.S_IMODE(daemon.socket.stat().st_mode) == 0o600
    assert stat.S_IMODE(daemon.socket.parent.stat().st_mode) == 0o700


def test_a_second_start_finds_the_daemon_running(daemon: Assetcheck):
    pid = daemon.status()["pid"]
    again = daemon.run("daemon", "start")
    assert again.returncode == 0
    assert f"already running (pid {pid})".encode() in again.stdout
    assert daemon.status()["pid"] == pid


def test_status_and_stop_say_when_none_runs(assetcheck: Assetcheck):
    status = assetcheck.run("daemon", "status")
    assert status.returncode == 1 and b"none is running" in status.stdout
    assert assetcheck.run("daemon", "stop").returncode == 0


def test_stop_removes_the_socket_and_ends_the_daemon(assetcheck: Assetcheck):
    assert assetcheck.run("daemon", "start").returncode == 0
    pid = assetcheck.status()["pid"]
    assert wait_for_exit(pid, lambda: assetcheck.run("daemon", "stop"))
    assert not assetcheck.socket.exists()
    assert assetcheck.run("daemon", "status").returncode == 1


def test_an_idle_daemon_stops_by_itself(assetcheck: Assetcheck):
    daemon = subprocess.Popen(
        [SCRIPT, "daemon", "run", "--idle-timeout", "0.2"], env=assetcheck.env
    )
    assert daemon.wait(120) == 0
    assert not assetcheck.socket.exists()


def test_start_refuses_a_socket_folder_others_can_enter(assetcheck: Assetcheck):
    assetcheck.socket.parent.mkdir(mode=0o755)
    assetcheck.socket.parent.chmod(0o755)
    started = assetcheck.run("daemon", "start")
    assert started.returncode == 2
    assert b"open to other users" in started.stderr


def test_a_daemon_whose_code_changed_declines_and_stops(assetcheck: Assetcheck, tmp_path: Path):
    """A daemon whose files changed since it loaded them (here: one that believes it loaded
    other ones) sends the caller back to its own process and stops."""
    script = (
        "import sys\nfrom pathlib import Path\n"
        "from assetcheck.cli import main\n"
        "from assetcheck.daemon.server import Daemon, listen\n"
        "path = Path(sys.argv[1])\n"
        "listener = listen(path)\n"
        "print('listening', flush=True)\n"
        "Daemon(listener, path, 600.0, main, fingerprint=['loaded before an upgrade']).serve()\n"
    )
    assetcheck.socket.parent.mkdir(mode=0o700)
    daemon = subprocess.Popen(
        [sys.executable, "-c", script, str(assetcheck.socket)], stdout=subprocess.PIPE
    )
    assert daemon.stdout is not None
    assert daemon.stdout.readline() == b"listening\n"
    (tmp_path / "triangle.obj").write_bytes(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    run = assetcheck.run("validate", "triangle.obj", cwd=tmp_path)
    assert run.returncode == 0 and b"triangle.obj" in run.stdout
    assert daemon.wait(60) == 0
    daemon.stdout.close()


def test_a_caller_interrupted_stops_its_validation_in_the_daemon(daemon: Assetcheck, slow_glb):
    daemon_pid = daemon.status()["pid"]
    caller = subprocess.Popen(
        [SCRIPT, "validate", slow_glb], env=daemon.env, stderr=subprocess.PIPE
    )
    started = set()
    try:
        started = wait_for_descendants(daemon_pid, depth=2)  # its child and the decoder
        assert started, "the decoder never started"
        caller.send_signal(signal.SIGINT)
        _, stderr = caller.communicate(timeout=60)
        assert caller.returncode == 130
        assert stderr == b"assetcheck: interrupted\n"
        assert wait_until_gone(started) == set()
    finally:
        kill_all(started)
        caller.kill()
        caller.wait()
    assert daemon.run("validate", "--help").returncode == 0


def test_a_daemon_stopped_mid_validation_leaves_nothing_running(assetcheck: Assetcheck, slow_glb):
    assert assetcheck.run("daemon", "start").returncode == 0
    daemon_pid = assetcheck.status()["pid"]
    caller = subprocess.Popen(
        [SCRIPT, "validate", slow_glb], env=assetcheck.env, stderr=subprocess.PIPE
    )
    started = set()
    try:
        started = wait_for_descendants(daemon_pid, depth=2)
        assert started, "the decoder never started"
        assert wait_for_exit(daemon_pid, lambda: subprocess.run(["kill", str(daemon_pid)]))
        _, stderr = caller.communicate(timeout=60)
        assert caller.returncode == 2
        assert b"the daemon stopped while validating" in stderr
        assert wait_until_gone(started) == set()
        assert not assetcheck.socket.exists()
    finally:
        kill_all(started)
        caller.kill()
        caller.wait()
