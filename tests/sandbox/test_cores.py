"""The share of the cores a process's threads take when it validates beside others."""

from __future__ import annotations

from assetcheck.sandbox.child import run_in_child
from assetcheck.sandbox.containment import worker_threads
from assetcheck.sandbox.cores import available_cores, share_cores, thread_cores


def shared_by(processes: int) -> tuple[int, int]:
    share_cores(processes)
    return thread_cores(), worker_threads(64)


def test_a_process_alone_takes_every_core_for_its_threads():
    assert thread_cores() == available_cores()


def test_processes_validating_side_by_side_share_the_cores_and_never_ask_for_more():
    cores = available_cores()
    for processes in (1, 2, 3, cores, 2 * cores):
        # In a child: the share is this process's state, and a forked child inherits it.
        threads, workers = run_in_child(
            lambda p=processes: shared_by(p), timeout=10, memory_limit_mb=1 << 20
        )
        assert threads == workers == max(cores // processes, 1)
        assert processes * threads <= cores or threads == 1
