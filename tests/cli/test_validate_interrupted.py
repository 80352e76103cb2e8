"""``assetcheck validate`` stopped part-way (Ctrl-C, a CI runner's SIGTERM, a closed terminal,
SIGKILL) leaves no process behind: no decoder child, no worker process, however it stops."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from assetcheck.testing.compressed import truncated_draco_glb
from tests.process_tree import kill_all, wait_for_descendants, wait_until_gone

SCRIPT = Path(sys.executable).with_name("assetcheck")


@pytest.fixture(scope="module")
def slow_glb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A GLB whose Draco payloads keep a decoder child busy for minutes."""
    path = tmp_path_factory.mktemp("slow") / "slow.glb"
    path.write_bytes(truncated_draco_glb())
    return path


def stop_when_decoding(args: list[str], signal_number: int, decoders: int, depth: int) -> set:
    """Run ``assetcheck validate ARGS`` until ``decoders`` decoder children run ``depth``
    levels below it, send it ``signal_number``, wait for it to exit; the processes it had
    started that are still alive after that (all of them are killed before returning)."""
    command = subprocess.Popen(
        [SCRIPT, "validate", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    started = set()
    try:
        started = wait_for_descendants(command.pid, depth, count=decoders)
        assert started, "the decoders never started"
        command.send_signal(signal_number)
        command.wait(60)
        return wait_until_gone(started)
    finally:
        kill_all(started)
        command.kill()
        command.wait()


@pytest.mark.parametrize(
    "signal_number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL]
)
def test_a_stopped_validation_leaves_no_decoder_running(slow_glb, signal_number):
    assert stop_when_decoding([str(slow_glb)], signal_number, decoders=1, depth=1) == set()


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_parallel_validation_leaves_no_worker_or_decoder_running(
    tmp_path, slow_glb, signal_number
):
    second = tmp_path / "second.glb"
    second.write_bytes(slow_glb.read_bytes())
    args = ["--jobs", "2", str(slow_glb), str(second)]
    assert stop_when_decoding(args, signal_number, decoders=2, depth=2) == set()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ends_the_validation_with_one_line_and_status_130(tmp_path, slow_glb, jobs):
    second = tmp_path / "second.glb"
    second.write_bytes(slow_glb.read_bytes())
    command = subprocess.Popen(
        [SCRIPT, "validate", "--jobs", jobs, str(slow_glb), str(second)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    started = set()
    try:
        started = wait_for_descendants(command.pid, int(jobs), count=1)
        command.send_signal(signal.SIGINT)
        _, errors = command.communicate(timeout=60)
    finally:
        kill_all(started)
        command.kill()
        command.wait()
    assert (command.returncode, errors) == (130, "assetcheck: interrupted\n")
