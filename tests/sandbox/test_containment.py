"""What every child the service starts does to stay contained, and how its answer is read."""

from __future__ import annotations

import math
import os
import pickle
import resource
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from assetcheck.sandbox.child import run_in_child
from assetcheck.sandbox.containment import (
    THREAD_ADDRESS_SPACE,
    RestrictedUnpickler,
    die_with_parent,
    limit_address_space,
    worker_threads,
)
from assetcheck.sandbox.cores import available_cores
from tests.process_tree import kill_all, process, wait_until_gone


def exit_status_of(function) -> int:
    """The exit code of a forked child that runs ``function`` and then exits 0."""
    pid = os.fork()
    if pid == 0:
        try:
            function()
        finally:
            os._exit(0)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_a_child_whose_parent_is_already_gone_exits_at_once():
    """Named parent and real parent differ, as when the parent died before the request."""
    parent = os.getpid()
    assert exit_status_of(lambda: die_with_parent(parent, 9)) == 0
    assert exit_status_of(lambda: die_with_parent(1, 9)) == 1


def limits_after(limit_mb: int) -> tuple[int, int, bool]:
    limit_address_space(limit_mb)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (hard + (1 << 20), hard + (1 << 20)))
    except ValueError:
        return soft, hard, False
    return soft, hard, True


def test_the_address_space_limit_binds_and_cannot_be_raised_again():
    soft, hard, raised = run_in_child(lambda: limits_after(64), timeout=10, memory_limit_mb=512)
    assert soft == hard != resource.RLIM_INFINITY
    assert not raised


def test_a_child_gets_at_most_what_is_left_of_its_parent_s_limit():
    def nested() -> tuple[int, int]:
        _, outer = resource.getrlimit(resource.RLIMIT_AS)
        inner = run_in_child(lambda: limits_after(1 << 20)[1], timeout=10, memory_limit_mb=1 << 20)
        return outer, inner

    outer, inner = run_in_child(nested, timeout=10, memory_limit_mb=256)
    assert inner == outer


def test_a_child_starts_only_the_threads_its_address_space_has_room_for():
    def threads_allowed() -> tuple[int, int]:
        return worker_threads(64), worker_threads(1)

    cores = available_cores()
    assert worker_threads(64) == cores  # no limit in this process: one per core
    tight = run_in_child(threads_allowed, timeout=10, memory_limit_mb=8)
    assert tight == (1, 1)
    room_for_one_more = (THREAD_ADDRESS_SPACE >> 20) + 16
    assert run_in_child(threads_allowed, timeout=10, memory_limit_mb=room_for_one_more) == (
        min(2, cores),
        1,
    )


def test_a_child_may_use_its_time_limit_in_cpu_time_on_every_core_and_no_more():
    def cpu_limits() -> tuple[int, int, bool]:
        soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (hard + 1, hard + 1))
        except ValueError:
            return soft, hard, False
        return soft, hard, True

    soft, hard, raised = run_in_child(cpu_limits, timeout=2.5, memory_limit_mb=256)
    assert soft == hard == math.ceil(2.5 * available_cores())
    assert not raised


#: Starts a child that spins for ever, with a time limit of 2 s on one core, prints its pid,
#: then stops itself (SIGSTOP) before the deadline: nobody is left to kill the child at it.
#: Once continued, prints how the child ended.
STOPPED_CALLER = """
import os, signal
from assetcheck.sandbox.child import ChildTimeout, start_child

os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

def spin():
    while True:
        pass

with start_child(spin, timeout=2, memory_limit_mb=256) as child:
    print(child.pid, flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)
    try:
        child.result()
    except ChildTimeout:
        print("timed out")
"""


def is_stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"


def test_a_child_whose_caller_stops_watching_ends_at_its_cpu_time_limit():
    caller = subprocess.Popen(
        [sys.executable, "-c", STOPPED_CALLER], stdout=subprocess.PIPE, text=True
    )
    started = set()
    try:
        child = process(int(caller.stdout.readline()))
        started = {child} if child else set()
        assert wait_until_gone(started, timeout=120) == set()
        assert is_stopped(caller.pid), "the caller, not the kernel, ended the child"
        caller.send_signal(signal.SIGCONT)
        assert caller.communicate(timeout=60)[0] == "timed out\n"
    finally:
        kill_all(started)
        caller.kill()
        caller.wait()


#: Lowers its own CPU-time limit to about a second more than it has used, then runs a child
#: that spins for ever under a time limit of ten minutes; prints how the child ended.
LIMITED_CALLER = """
import math, resource
from assetcheck.sandbox.child import ChildFailure, run_in_child

usage = resource.getrusage(resource.RUSAGE_SELF)
limit = math.ceil(usage.ru_utime + usage.ru_stime) + 1
resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))

def spin():
    while True:
        pass

try:
    run_in_child(spin, timeout=600, memory_limit_mb=256)
except ChildFailure as failure:
    print(type(failure).__name__, failure)
"""


def test_a_child_that_uses_up_a_lower_cpu_time_limit_it_inherited_has_timed_out():
    """Killed by the kernel long before its deadline: a timeout, not the OOM killer's SIGKILL."""
    run = subprocess.run(
        [sys.executable, "-c", LIMITED_CALLER], capture_output=True, text=True, timeout=300
    )
    assert run.stdout.startswith("ChildTimeout used its"), run.stdout + run.stderr


@dataclass
class Allowed:
    value: object


class RunsCode:
    def __reduce__(self):
        return (os.getpid, ())


def test_the_unpickler_builds_allowed_types_and_refuses_what_they_carry_otherwise():
    assert RestrictedUnpickler(pickle.dumps(Allowed([1, "a"])), [Allowed]).load() == Allowed(
        [1, "a"]
    )
    with pytest.raises(pickle.UnpicklingError, match="getpid is not an expected type"):
        RestrictedUnpickler(pickle.dumps(Allowed(RunsCode())), [Allowed]).load()
