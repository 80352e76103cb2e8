"""Running a function in a forked child: results, failures, waiting, and nothing left behind."""

from __future__ import annotations

import errno
import faulthandler
import mmap
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from assetcheck.sandbox import answer
from assetcheck.sandbox.child import (
    ChildCrashed,
    ChildFailure,
    ChildOutOfMemory,
    ChildTimeout,
    run_in_child,
    start_child,
)
from tests.process_tree import (
    Process,
    assert_children_die_with_their_caller,
    kill_all,
    process,
    wait_for_descendants,
    wait_until_gone,
)

LIMITS = {"timeout": 10.0, "memory_limit_mb": 256}
original_send = answer._send


def open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def assert_reaped(pid: int) -> None:
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_returns_what_the_function_returns():
    assert run_in_child(lambda: {"data": list(range(5))}, **LIMITS) == {"data": [0, 1, 2, 3, 4]}


def test_runs_in_another_process_that_is_reaped():
    pid = run_in_child(os.getpid, **LIMITS)

    assert pid != os.getpid()
    assert_reaped(pid)


def _dump_settings() -> tuple[int, int]:
    import ctypes
    import resource

    dumpable = ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
    return dumpable, resource.getrlimit(resource.RLIMIT_CORE)[1]


def test_a_child_writes_no_core_file_and_cannot_be_traced():
    assert run_in_child(_dump_settings, **LIMITS) == (0, 0)


def test_a_large_result_crosses_the_pipe_whole():
    payload = os.urandom(5 << 20)

    assert run_in_child(lambda: payload, **LIMITS) == payload


def test_large_arrays_come_back_whole_and_writable_without_crossing_the_pipe(monkeypatch):
    arrays = [
        np.arange(3 << 20, dtype=np.float32),
        np.arange(7, dtype=np.uint8),
        np.empty(0, np.float64),
        np.arange(12, dtype=np.uint16).reshape(3, 4),
        np.empty(0, np.int32),
    ]
    sent = []
    monkeypatch.setattr(
        answer,
        "_send",
        lambda fd, data: (sent.append(len(memoryview(data).cast("B"))), original_send(fd, data)),
    )

    views = run_in_child(lambda: [pickle.PickleBuffer(a) for a in arrays], **LIMITS)

    back = [
        np.frombuffer(view, a.dtype).reshape(a.shape) for view, a in zip(views, arrays, strict=True)
    ]
    for got, expected in zip(back, arrays, strict=True):
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == expected.dtype and got.ctypes.data % 16 == 0
    back[0][0] = 5  # a private copy of the child's pages
    assert sum(sent) < 4096


def write_unsealed(fd: int, buffers: list[memoryview]) -> None:
    for offset, buffer in zip(answer._offsets(map(len, buffers)), buffers, strict=True):
        os.pwrite(fd, buffer, offset)


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="seals are Linux's")
def test_arrays_left_unsealed_are_refused(monkeypatch):
    """An unsealed file could be shrunk under the parent's mapping (SIGBUS on reading)."""
    monkeypatch.setattr(answer, "write_buffers", write_unsealed)

    with pytest.raises(ChildCrashed, match="unsealed"):
        run_in_child(lambda: pickle.PickleBuffer(bytes(1000)), **LIMITS)


def test_arrays_shorter_than_announced_are_refused(monkeypatch):
    monkeypatch.setattr(answer, "write_buffers", lambda fd, buffers: os.ftruncate(fd, 100))

    with pytest.raises(ChildCrashed, match="not what it said"):
        run_in_child(lambda: pickle.PickleBuffer(bytes(1000)), **LIMITS)


def test_an_exception_in_the_child_is_raised_in_the_caller():
    def fail() -> None:
        raise ValueError("bad value")

    with pytest.raises(ValueError, match="bad value"):
        run_in_child(fail, **LIMITS)


def test_an_exception_of_a_named_type_is_raised_in_the_caller():
    def fail() -> None:
        raise ChildFailure("named")

    with pytest.raises(ChildFailure, match="named"):
        run_in_child(fail, result_types=[ChildFailure], **LIMITS)


def test_an_exception_of_an_unnamed_type_arrives_as_its_text():
    class Local(Exception):
        pass

    def fail() -> None:
        raise Local("local trouble")

    with pytest.raises(RuntimeError, match="Local: local trouble"):
        run_in_child(fail, **LIMITS)


def test_results_of_named_types_are_accepted_and_others_refused():
    assert run_in_child(lambda: Path("a"), result_types=[type(Path("a"))], **LIMITS) == Path("a")
    with pytest.raises(ChildCrashed, match="unexpected result"):
        run_in_child(lambda: Path("a"), **LIMITS)


class _Subverted:
    """What a child taken over through a parser bug could send: a pickle that runs a command."""

    def __reduce__(self):
        return (os.system, ("echo subverted > /dev/null",))


def test_a_pickle_that_would_run_code_in_the_caller_is_refused():
    with pytest.raises(ChildCrashed, match="system is not an expected type"):
        run_in_child(_Subverted, **LIMITS)


def test_a_child_past_its_time_limit_is_killed_and_reaped(tmp_path: Path):
    pid_file = tmp_path / "pid"

    def hang() -> None:
        pid_file.write_text(str(os.getpid()))
        time.sleep(60)

    with pytest.raises(ChildTimeout):
        run_in_child(hang, timeout=0.5, memory_limit_mb=256)
    assert_reaped(int(pid_file.read_text()))


def test_allocating_past_the_memory_limit_is_out_of_memory():
    with pytest.raises(ChildOutOfMemory):
        run_in_child(lambda: len(bytearray(512 << 20)), timeout=10.0, memory_limit_mb=64)


def test_an_allocation_a_system_call_refuses_under_the_limit_is_out_of_memory():
    with pytest.raises(ChildOutOfMemory):
        run_in_child(lambda: len(mmap.mmap(-1, 512 << 20)), timeout=10.0, memory_limit_mb=64)


def test_a_lower_memory_limit_already_on_the_process_stays_in_force():
    """The outer child holds a hard limit, as a worker may: the inner child keeps to it."""

    def nested() -> int:
        return run_in_child(lambda: 42, timeout=10.0, memory_limit_mb=1 << 20)

    assert run_in_child(nested, **LIMITS) == 42


def test_a_child_killed_by_a_signal_has_crashed():
    def segfault() -> None:
        faulthandler.disable()  # pytest's handler would print a traceback for the signal
        os.kill(os.getpid(), signal.SIGSEGV)

    with pytest.raises(ChildCrashed, match="SIGSEGV"):
        run_in_child(segfault, **LIMITS)


def test_a_child_that_exits_without_a_result_has_crashed():
    with pytest.raises(ChildCrashed, match="status 7"):
        run_in_child(lambda: os._exit(7), **LIMITS)


def test_the_wait_wakes_when_the_child_dies_while_another_process_holds_its_pipe(tmp_path):
    """No end-of-file comes while the child's own child keeps a copy of the pipe: the caller
    learns of the death from the child's pidfd, long before the deadline."""
    holder_file = tmp_path / "holder"

    def leave_a_holder_and_exit() -> None:
        holder = os.fork()
        if holder == 0:
            time.sleep(600)
            os._exit(0)
        holder_file.write_text(str(holder))
        os._exit(7)

    try:
        with pytest.raises(ChildCrashed, match="status 7"):
            run_in_child(leave_a_holder_and_exit, timeout=120, memory_limit_mb=256)
    finally:
        os.kill(int(holder_file.read_text()), signal.SIGKILL)


def test_waiting_a_while_ends_without_an_answer_until_the_child_has_one():
    """As the worker waits, renewing its lease between waits."""
    read_end, write_end = os.pipe()
    try:
        with start_child(lambda: os.read(read_end, 5), **LIMITS) as child:
            assert not child.wait(0.05)
            os.write(write_end, b"go on")
            assert child.wait(60)
            assert child.result() == b"go on"
    finally:
        os.close(read_end)
        os.close(write_end)


def start_a_descendant() -> Process:
    """In a child: fork a process that sleeps; that process, as /proc shows it."""
    pid = os.fork()
    if pid == 0:
        time.sleep(600)
        os._exit(0)
    found = process(pid)
    assert found is not None
    return found


def test_a_child_leading_its_own_group_takes_its_descendants_along_when_it_answers():
    with start_child(start_a_descendant, own_group=True, result_types=[Process], **LIMITS) as child:
        descendant = child.result()
    try:
        assert wait_until_gone({descendant}) == set()
    finally:
        kill_all({descendant})


def test_a_child_leading_its_own_group_takes_its_descendants_along_when_closed_early():
    """As when a job is deleted or handed back while it runs."""

    def start_a_descendant_and_wait() -> None:
        start_a_descendant()
        time.sleep(600)

    started = set()
    try:
        with start_child(start_a_descendant_and_wait, own_group=True, **LIMITS) as child:
            # The child and what it started: not this process's other children (its decoder
            # helper, forked by an earlier test, outlives every request by design).
            leader = process(child.pid)
            assert leader is not None
            started = wait_for_descendants(child.pid, depth=1) | {leader}
            assert {recorded.pid for recorded in started} > {child.pid}
        assert wait_until_gone(started) == set()
    finally:
        kill_all(started)


@pytest.fixture
def without_pidfds(monkeypatch):
    """As on a kernel older than pidfds (Linux 5.3)."""

    def missing(pid: int) -> int:
        raise OSError(errno.ENOSYS, "Function not implemented")

    monkeypatch.setattr(os, "pidfd_open", missing)


@pytest.mark.usefixtures("without_pidfds")
def test_without_pidfds_the_end_of_the_pipe_tells_of_the_child_s_death():
    assert run_in_child(lambda: 42, **LIMITS) == 42
    with pytest.raises(ChildCrashed, match="status 7"):
        run_in_child(lambda: os._exit(7), **LIMITS)
    with pytest.raises(ChildOutOfMemory):
        run_in_child(lambda: len(bytearray(512 << 20)), timeout=10.0, memory_limit_mb=64)
    with pytest.raises(ChildTimeout):
        run_in_child(lambda: time.sleep(60), timeout=0.2, memory_limit_mb=256)


def test_no_descriptor_is_left_open_whatever_the_outcome():
    before = open_descriptors()

    run_in_child(lambda: 1, **LIMITS)
    with pytest.raises(ChildTimeout):
        run_in_child(lambda: time.sleep(60), timeout=0.2, memory_limit_mb=256)
    with pytest.raises(ChildCrashed):
        run_in_child(lambda: os._exit(1), **LIMITS)

    assert open_descriptors() == before


#: A caller that runs a child for ten minutes.
CALLER = """
import time
from assetcheck.sandbox.child import run_in_child
run_in_child(lambda: time.sleep(600), timeout=600, memory_limit_mb=256)
"""


@pytest.mark.parametrize("signal_number", [signal.SIGKILL, signal.SIGTERM])
def test_a_child_dies_with_the_process_that_started_it(signal_number):
    assert_children_die_with_their_caller(CALLER, signal_number, "child")


#: Calls ``run_in_child`` after registering an at-fork hook that sends the process SIGINT, as
#: Ctrl-C pressed while the caller forks; prints what the call did.
SIGINT_DURING_FORK = """
import os, signal
from assetcheck.sandbox.child import run_in_child

os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
try:
    run_in_child(lambda: 1, timeout=60, memory_limit_mb=256)
except KeyboardInterrupt:
    print("interrupted")
else:
    print("returned")
"""


def test_ctrl_c_pressed_while_forking_interrupts_the_caller():
    # Taken during the fork, the signal would be raised inside the at-fork hook, where Python
    # ignores exceptions: the caller would wait for its child as if nothing had been pressed.
    run = subprocess.run(
        [sys.executable, "-c", SIGINT_DURING_FORK], capture_output=True, text=True, timeout=60
    )
    assert run.stdout == "interrupted\n", run.stderr
