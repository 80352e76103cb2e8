"""The decoder helper: many requests in one child, each failure costing its request only, each
request under a fresh child's limits, and the helper replaced whenever it cannot be trusted
to give them."""

from __future__ import annotations

import faulthandler
import gc
import mmap
import os
import pickle
import resource
import signal
import subprocess
import sys
import threading
import time
import types
from collections import OrderedDict
from functools import partial

import pytest

from assetcheck.sandbox import helper
from assetcheck.sandbox.child import ChildCrashed, ChildOutOfMemory, ChildTimeout, run_in_child
from assetcheck.sandbox.containment import address_space_in_use
from assetcheck.sandbox.helper import (
    HEADROOM_MB,
    OUT_OF_BAND_BYTES,
    run_in_helper,
    start_in_helper,
    stop_helper,
)
from tests.process_tree import (
    assert_children_die_with_their_caller,
)

LIMITS = {"timeout": 10.0, "memory_limit_mb": 256}
#: What a request keeps mapped in the helper after it answers (the helper's growth).
_KEPT: list[mmap.mmap] = []


@pytest.fixture(autouse=True)
def no_helper_left():
    stop_helper()
    yield
    stop_helper()


def helper_pid() -> int:
    return run_in_helper(os.getpid, **LIMITS)


def assert_reaped(pid: int) -> None:
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def keep_mapped(megabytes: int) -> int:
    """In the helper: map ``megabytes`` and keep them (its address space grows)."""
    _KEPT.append(mmap.mmap(-1, megabytes << 20))
    return os.getpid()


def abort() -> None:
    """In the helper: die of SIGABRT (without pytest's handler printing a traceback)."""
    faulthandler.disable()
    os.abort()


def limits_here() -> tuple[int, int, int, int]:
    """In the helper: its address-space soft and hard limits, what it maps, its pid."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    return soft, hard, address_space_in_use(), os.getpid()


def test_requests_are_served_by_one_child_that_is_reaped_when_stopped():
    first = helper_pid()

    assert first != os.getpid()
    assert helper_pid() == first
    assert run_in_helper(partial(sum, [1, 2, 3]), **LIMITS) == 6
    stop_helper()
    assert_reaped(first)


def test_the_helper_holds_no_descriptor_its_parent_opened_before_forking_it():
    read_end, write_end = os.pipe()
    try:
        helper_pid()  # forked now, while this process holds both ends
        os.close(write_end)
        os.set_blocking(read_end, False)
        assert os.read(read_end, 1) == b""  # the end of the pipe: nobody else holds its writer
    finally:
        os.close(read_end)


def test_a_function_that_cannot_be_pickled_runs_in_a_fresh_child():
    served = helper_pid()
    fresh = {run_in_helper(lambda: os.getpid(), **LIMITS) for _ in range(2)}

    assert len(fresh) == 2
    assert served not in fresh
    assert helper_pid() == served


def test_the_bytes_of_a_memoryview_in_a_request_reach_the_helper():
    assert run_in_helper(partial(bytes, memoryview(b"upload")[1:]), **LIMITS) == b"pload"


def received(*views: memoryview) -> list[tuple[str, bytes, int]]:
    """In the helper: each view's type, bytes and the size of the mapping it lies in."""
    return [(type(view).__name__, view.tobytes(), len(view.obj)) for view in views]


def test_a_requests_large_memoryviews_reach_the_helper_out_of_band_and_alone():
    upload = os.urandom(1 << 20)
    large = memoryview(upload)[10 : 10 + OUT_OF_BAND_BYTES]
    small = memoryview(upload)[5000:5003]
    request = helper._request(partial(received, large, small), (), 10, 256)
    assert request is not None and request.payloads is not None
    try:
        assert len(request.stream) < 500  # the socket carries no large payload
        assert request.lengths == [OUT_OF_BAND_BYTES]
        assert os.pread(request.payloads, 1 << 20, 0) == bytes(large)
    finally:
        request.close()

    answer = run_in_helper(partial(received, large, small), **LIMITS)

    # The large one arrives as a view of a file holding its bytes, never the rest of the
    # upload; the small one in the stream.
    assert answer == [
        ("memoryview", bytes(large), OUT_OF_BAND_BYTES),
        ("memoryview", bytes(small), 3),
    ]


def test_a_sent_request_keeps_no_view_of_its_memoryviews():
    """A view exporting one, caught in a reference cycle, could crash the collector."""
    payload = memoryview(bytes(OUT_OF_BAND_BYTES))
    with start_in_helper(partial(len, payload), **LIMITS) as started:
        payload.release()  # BufferError if anything still exported it
        assert started.result() == OUT_OF_BAND_BYTES


def address_space_now(view: memoryview) -> int:
    return address_space_in_use()


def test_a_requests_payloads_are_let_go_once_it_is_answered():
    payload = memoryview(bytes(64 << 20))
    before = run_in_helper(partial(address_space_now, memoryview(b"x")), **LIMITS)
    during = run_in_helper(partial(address_space_now, payload), **LIMITS)
    after = run_in_helper(partial(address_space_now, memoryview(b"x")), **LIMITS)

    assert during - before >= 60 << 20
    assert after - before < 16 << 20


class Finalized:
    """Counts the instances finalized in this process."""

    count = 0

    def __del__(self) -> None:
        type(self).count += 1


def finalized_after_collecting() -> int:
    gc.collect()
    return Finalized.count


def test_garbage_the_helper_inherits_is_never_finalized_in_it():
    """Its finalizer could close a descriptor number the helper freed and reuses (an upload's
    mapping closing a request's payloads)."""
    gc.disable()
    try:
        cycle: list[object] = [Finalized()]
        cycle.append(cycle)
        del cycle  # garbage, not collected yet
        helper_pid()
    finally:
        gc.enable()
    finalized = Finalized.count

    assert run_in_helper(finalized_after_collecting, **LIMITS) == finalized
    assert finalized_after_collecting() == finalized + 1  # here it is


def test_an_exception_the_function_raises_is_raised_here_and_the_helper_stays():
    served = helper_pid()

    with pytest.raises(ValueError, match="invalid literal"):
        run_in_helper(partial(int, "x"), **LIMITS)
    assert helper_pid() == served


@pytest.mark.parametrize(
    ("request_", "failure", "message"),
    [
        (partial(os._exit, 1), ChildCrashed, "exited with status 1"),
        (abort, ChildCrashed, "killed by SIGABRT"),
        (partial(bytearray, 512 << 20), ChildOutOfMemory, "out of memory"),
        (OrderedDict, ChildCrashed, "unexpected result"),
    ],
)
def test_a_failed_request_costs_that_request_and_the_helper_is_replaced(request_, failure, message):
    served = helper_pid()

    with pytest.raises(failure, match=message):
        run_in_helper(request_, timeout=10.0, memory_limit_mb=64)
    assert_reaped(served)
    assert helper_pid() != served


def test_a_started_request_runs_while_the_caller_goes_on(tmp_path):
    # The request leaves a file, which the caller sees before asking for the result. (A signal
    # to the caller would do, but a process-directed one goes to any thread that does not
    # block it, and under pytest-xdist another thread may run and be killed by it.)
    served = helper_pid()
    ran = tmp_path / "ran"
    with start_in_helper(partial(ran.touch), **LIMITS) as started:
        deadline = time.monotonic() + 30.0
        while not ran.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ran.exists()  # before asking
        assert started.result() is None
    assert helper_pid() == served


def sleep_holding(payload: memoryview, seconds: float) -> None:
    time.sleep(seconds)


@pytest.mark.parametrize(
    "request_",
    [partial(time.sleep, 60), partial(sleep_holding, memoryview(bytes(1 << 20)), 60)],
    ids=["no payload", "a payload out of band"],
)
def test_a_started_request_closed_unanswered_ends_the_helper(request_):
    served = helper_pid()

    with start_in_helper(request_, **LIMITS):
        pass
    assert_reaped(served)
    assert helper_pid() != served


def test_while_a_started_request_holds_the_helper_others_run_in_a_fresh_child():
    served = helper_pid()

    with start_in_helper(os.getpid, **LIMITS) as started:
        assert helper_pid() != served
        assert started.result() == served
    assert helper_pid() == served


def test_a_request_started_while_the_helper_was_busy_takes_it_once_free():
    served = helper_pid()

    with start_in_helper(os.getpid, **LIMITS) as first:
        second = start_in_helper(os.getpid, **LIMITS)
        assert first.result() == served
    with second:
        assert second.result() == served


def test_a_helper_that_cannot_be_forked_leaves_the_helper_free(monkeypatch):
    stop_helper()

    def no_fork(cpu_limit: int) -> None:
        raise BlockingIOError("fork: resource temporarily unavailable")

    monkeypatch.setattr(helper, "_start", no_fork)
    with pytest.raises(BlockingIOError):
        start_in_helper(os.getpid, **LIMITS)
    assert not helper._lock.locked()


def zeros(megabytes: int) -> pickle.PickleBuffer:
    """In the helper: ``megabytes`` of zeros, sent back in the answer's file."""
    return pickle.PickleBuffer(bytearray(megabytes << 20))


def answer_without_room() -> str:
    """In a child with 128 MB to spare: its helper, started while the room was free, sends 64
    MB back once the child has taken 96 MB of it."""
    run_in_helper(os.getpid, **LIMITS)
    taken = mmap.mmap(-1, 96 << 20)
    try:
        run_in_helper(partial(zeros, 64), timeout=10.0, memory_limit_mb=128)
    except ChildOutOfMemory:
        return "out of memory"
    finally:
        taken.close()
        stop_helper()
    return "mapped"


def test_an_answer_whose_arrays_do_not_fit_here_is_out_of_memory_not_an_error():
    assert run_in_child(answer_without_room, timeout=30.0, memory_limit_mb=128) == "out of memory"


def test_a_request_past_its_deadline_is_killed_with_the_helper():
    served = helper_pid()
    started = time.monotonic()

    with pytest.raises(ChildTimeout):
        run_in_helper(partial(time.sleep, 60), timeout=0.3, memory_limit_mb=64)
    assert time.monotonic() - started < 30
    assert_reaped(served)
    assert helper_pid() != served


def test_each_request_may_grow_by_its_memory_limit_over_what_the_helper_maps():
    helper_pid()
    for limit_mb in (256, 128):  # a lower limit for a later request is no reason to replace it
        soft, hard, in_use, _ = run_in_helper(limits_here, timeout=10.0, memory_limit_mb=limit_mb)

        assert (limit_mb - 8) << 20 <= soft - in_use <= limit_mb << 20
        assert soft < hard <= soft + ((limit_mb + HEADROOM_MB) << 20)


def test_a_helper_grown_past_its_headroom_is_replaced_before_the_next_request():
    grown = run_in_helper(partial(keep_mapped, HEADROOM_MB + 64), timeout=10.0, memory_limit_mb=512)
    soft, _, in_use, served = run_in_helper(limits_here, timeout=10.0, memory_limit_mb=512)

    assert served != grown
    assert_reaped(grown)
    assert soft - in_use >= 500 << 20  # its whole limit


def test_a_request_allowed_more_cpu_time_than_the_helper_has_left_gets_a_new_helper():
    served = run_in_helper(os.getpid, timeout=1.0, memory_limit_mb=64)

    assert run_in_helper(os.getpid, timeout=60.0, memory_limit_mb=64) != served
    assert_reaped(served)


def test_a_process_that_imported_modules_since_the_helper_started_gets_a_new_one(monkeypatch):
    served = helper_pid()
    monkeypatch.setitem(sys.modules, "imported_later", types.ModuleType("imported_later"))

    assert helper_pid() != served
    assert_reaped(served)


def test_a_function_defined_after_the_helper_started_is_run_by_a_new_one(monkeypatch):
    served = helper_pid()

    def defined_later() -> int:
        return os.getpid()

    defined_later.__qualname__ = "defined_later"
    monkeypatch.setattr(sys.modules[__name__], "defined_later", defined_later, raising=False)

    new = run_in_helper(defined_later, **LIMITS)
    assert new not in (served, os.getpid())
    assert helper_pid() == new


def test_a_request_from_another_thread_runs_in_a_fresh_child():
    served = helper_pid()
    pids: list[int] = []
    thread = threading.Thread(target=lambda: pids.append(helper_pid()))
    thread.start()
    thread.join()

    assert pids and pids[0] not in (served, os.getpid())
    assert helper_pid() == served


def test_without_pidfds_every_request_runs_in_a_fresh_child(monkeypatch):
    monkeypatch.setattr(helper, "_open_pidfd", lambda pid: None)

    pids = {helper_pid() for _ in range(2)}
    assert len(pids) == 2
    assert helper._current is None


def open_descriptors() -> dict[str, str]:
    """This process's open descriptors and what each is (``socket:[inode]``, a path...)."""
    found = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            found[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except FileNotFoundError:  # the listing's own descriptor, closed since
            continue
    return found


def test_no_descriptor_is_left_open_once_the_helper_is_stopped():
    gc.collect()  # what earlier tests left to finalizers is closed now, not during the test
    before = open_descriptors()

    helper_pid()
    with pytest.raises(ChildTimeout):
        run_in_helper(partial(time.sleep, 60), timeout=0.2, memory_limit_mb=64)
    helper_pid()
    stop_helper()
    opened = {fd: what for fd, what in open_descriptors().items() if before.get(fd) != what}
    assert opened == {}


#: Starts a helper with a request that sleeps for ten minutes.
CALLER = """
import time
from functools import partial
from assetcheck.sandbox.helper import run_in_helper
run_in_helper(partial(time.sleep, 600), timeout=600, memory_limit_mb=256)
"""


@pytest.mark.parametrize("signal_number", [signal.SIGKILL, signal.SIGTERM])
def test_the_helper_dies_with_the_process_that_started_it(signal_number):
    assert_children_die_with_their_caller(CALLER, signal_number, "helper")


#: Calls ``run_in_helper`` after registering an at-fork hook that sends the process SIGINT, as
#: Ctrl-C pressed while the helper is forked; prints what the call did and what is left.
SIGINT_DURING_FORK = """
import os, signal
from functools import partial
from assetcheck.sandbox import helper

os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
try:
    helper.run_in_helper(partial(int, 1), timeout=60, memory_limit_mb=256)
except KeyboardInterrupt:
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG)
    except ChildProcessError:
        print("interrupted, no helper left", helper._current)
else:
    print("returned")
"""


def test_ctrl_c_pressed_while_the_helper_is_forked_interrupts_the_caller_and_ends_it():
    run = subprocess.run(
        [sys.executable, "-c", SIGINT_DURING_FORK], capture_output=True, text=True, timeout=60
    )
    assert run.stdout == "interrupted, no helper left None\n", run.stderr
