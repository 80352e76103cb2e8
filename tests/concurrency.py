"""Racing claimers against one database, for the tests of job and delivery claims."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import peewee


def claim_in_threads(
    claim: Callable[[str], Any], database: peewee.Database, owners: int = 4
) -> list[Any]:
    """The ids ``owners`` threads claimed by calling ``claim(owner)`` until it returns None,
    all at once; each thread closes its own database connection when done."""
    claimed: list[Any] = []

    def claim_all(owner: str) -> None:
        while (row := claim(owner)) is not None:
            claimed.append(row.id)
        database.close()

    threads = [threading.Thread(target=claim_all, args=(f"owner-{i}",)) for i in range(owners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return claimed


def run_in_threads(work: Callable[[str], None], database: peewee.Database, owners: int = 4) -> None:
    """Run ``work(owner)`` in ``owners`` threads released at the same moment; each closes its
    own database connection when done. An exception in a thread fails the caller."""
    barrier = threading.Barrier(owners)
    errors: list[BaseException] = []

    def run(owner: str) -> None:
        barrier.wait()
        try:
            work(owner)
        except BaseException as error:
            errors.append(error)
        finally:
            database.close()

    threads = [threading.Thread(target=run, args=(f"owner-{i}",)) for i in range(owners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
