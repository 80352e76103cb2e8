"""Spreading a mesh's passes over threads: the spans, the runner and how many threads."""

from __future__ import annotations

import itertools
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assetcheck.mesh.threads import TRIANGLES_PER_THREAD, mesh_threads, run_all, spans
from assetcheck.sandbox.containment import worker_threads


@given(st.integers(0, 1000), st.integers(1, 40))
def test_spans_cover_every_item_once_in_order_and_nearly_evenly(count, pieces):
    cut = spans(count, pieces)
    assert cut[0][0] == 0 and cut[-1][1] == count
    assert all(last == first for (_, last), (first, _) in itertools.pairwise(cut))
    sizes = [last - first for first, last in cut]
    assert len(cut) == max(1, min(pieces, count))
    assert max(sizes) - min(sizes) <= 1


def test_run_all_gives_each_task_s_result_in_order_each_run_once():
    ran: list[int] = []
    lock = threading.Lock()

    def task(number: int) -> int:
        with lock:
            ran.append(number)
        return number * number

    tasks = [lambda n=n: task(n) for n in range(50)]
    assert run_all(tasks, 4) == [n * n for n in range(50)]
    assert sorted(ran) == list(range(50))


def test_run_all_raises_the_first_failure_in_order_after_every_task_ended():
    ended: list[int] = []

    def task(number: int) -> int:
        ended.append(number)
        if number in (3, 7):
            raise ValueError(f"task {number}")
        return number

    with pytest.raises(ValueError, match="task 3"):
        run_all([lambda n=n: task(n) for n in range(10)], 3)
    assert sorted(ended) == list(range(10))


def test_run_all_on_one_thread_runs_the_tasks_here_in_order():
    names: list[str] = []
    run_all([lambda: names.append(threading.current_thread().name)] * 3, 1)
    assert names == [threading.current_thread().name] * 3


def test_small_meshes_take_one_thread_big_ones_one_per_share_of_triangles():
    assert mesh_threads(0) == mesh_threads(2 * TRIANGLES_PER_THREAD - 1) == 1
    assert mesh_threads(2 * TRIANGLES_PER_THREAD) == worker_threads(2)
    assert mesh_threads(100 * TRIANGLES_PER_THREAD) == worker_threads(100)


def test_run_all_runs_tasks_at_the_same_time_on_the_threads_given():
    # Each task waits for the other: they end only if two threads run them together.
    meeting = threading.Barrier(2, timeout=30)
    assert run_all([meeting.wait, meeting.wait], 2) in ([0, 1], [1, 0])
