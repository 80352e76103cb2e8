"""Periodic tasks shared by every node: each node's scheduler asks for the task's turn, and
only the one that gets it does the work, so N nodes do not do it N times.

A turn is one guarded ``UPDATE task_run SET next_run_at = now + interval WHERE name = ? AND
next_run_at <= now``: of nodes racing for it, the first changes the row and every other finds
the condition false (PostgreSQL re-checks it after the first commits; SQLite has one writer).
A node that dies mid-task loses that turn only: the task runs again one interval later.
"""

from __future__ import annotations

from datetime import timedelta

from assetcheck.service.db.tables import TaskRun, utcnow


def take_turn(name: str, interval_seconds: float, node: str) -> bool:
    """True when ``node`` should run the task ``name`` now (and no other node until
    ``interval_seconds`` have passed)."""
    now = utcnow()
    TaskRun.insert(name=name, next_run_at=now).on_conflict_ignore().execute()
    taken = (
        TaskRun.update(next_run_at=now + timedelta(seconds=interval_seconds), node=node)
        .where(TaskRun.name == name, TaskRun.next_run_at <= now)
        .execute()
    )
    return taken == 1
