"""Where the job page's heavy work runs: reading a stored report (it may be megabytes) and
rendering it go to the service's thread pool, never onto the event loop, which keeps
answering every other request meanwhile. Proven on an application served in this process,
whose thread pool records what it is given."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from assetcheck.config.loading import load_config
from assetcheck.service.accounts.store import create_account, find_account
from assetcheck.service.app import make_app
from assetcheck.service.db import migrations
from tests.reports.test_schema import many_files_report
from tests.service.dashboard.conftest import PASSWORD
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import (
    bind_database,
    service_settings,
    stored_completed_job,
    write_config,
)


class RecordingExecutor(ThreadPoolExecutor):
    """A thread pool that records the name of each function it is given to run."""

    def __init__(self) -> None:
        super().__init__(4, thread_name_prefix="blocking")
        self.ran: list[str] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        function = args[0] if args else fn  # run_blocking hands over ``context.run``
        while isinstance(function, partial):
            function = function.func
        self.ran.append(getattr(function, "__name__", repr(function)))
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, RecordingExecutor]]:
    """The service's application on a loopback port, served by a thread of this process; its
    URL and its thread pool."""
    config = load_config(write_config(tmp_path, service_settings(tmp_path, "")))
    database = bind_database(config)
    migrations.upgrade(database)
    executor = RecordingExecutor()
    app = make_app(config, database, executor=executor, worker_processes=0)
    sockets = bind_sockets(0, "127.0.0.1")
    loop = asyncio.new_event_loop()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        HTTPServer(app).add_sockets(sockets)
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sockets[0].getsockname()[1]}", executor
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=30)
    for sock in sockets:
        sock.close()
    loop.close()
    executor.shutdown()


def test_a_job_pages_report_is_read_and_rendered_on_the_thread_pool(served):
    url, executor = served
    create_account("threads@example.com", "pro", ["pro"], PASSWORD)
    job = stored_completed_job(
        find_account("threads@example.com"), many_files_report(100), "members.zip"
    )
    visitor = Visitor(url)
    assert visitor.log_in("threads@example.com").status_code == 302
    executor.ran.clear()

    assert visitor.get(f"/jobs/{job.id}").status_code == 200
    assert {"completed_report_text", "render_report"} <= set(executor.ran), executor.ran
