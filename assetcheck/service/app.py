"""``make_app``: the Tornado application of the service (the API and the dashboard), its
routes in one explicit order and its services in the settings, where handlers reach them
through ``BaseHandler`` properties."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor

import peewee
import pluggy
from prometheus_client.registry import Collector

from assetcheck.config.settings import Config
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import report_formats
from assetcheck.scoring.profiles import engine_profiles
from assetcheck.service.api import handlers as api
from assetcheck.service.api.openapi.document import openapi_document
from assetcheck.service.dashboard import application as dashboard
from assetcheck.service.jobs.gauges import JobGauges
from assetcheck.service.jobs.queue import JobQueue
from assetcheck.service.jobs.storage import JobStorage, open_storage
from assetcheck.service.webapp.access_log import log_request
from assetcheck.service.webapp.handlers import NotFoundHandler
from assetcheck.service.webapp.limits import LimitedApplication
from assetcheck.service.webapp.ratelimit import RateLimiter
from assetcheck.service.webapp.request_ids import RequestIdHeader
from assetcheck.service.webapp.server_secret import load_server_secret
from assetcheck.service.webhooks.secret_box import SecretBox

#: Threads for database and disk work, so the event loop never waits on either.
BLOCKING_THREADS = 8


def make_app(
    config: Config,
    database: peewee.Database,
    *,
    plugin_manager: pluggy.PluginManager | None = None,
    executor: Executor | None = None,
    job_queue: JobQueue | None = None,
    storage: JobStorage | None = None,
    worker_processes: int | None = None,
    node_collectors: Sequence[Collector] = (),
) -> LimitedApplication:
    """The application for ``config`` on a connected ``database`` (see ``assetcheck.service.db``):
    the API's routes, then the dashboard's. ``job_queue``, ``storage`` and
    ``worker_processes`` are the node's, when it runs one (``/readyz`` warns when it runs no
    workers); ``node_collectors`` are the node's figures that ``/metrics`` reads when scraped."""
    pm = plugin_manager or get_plugin_manager(config.plugin_config())
    engines = engine_profiles(pm)
    formats = report_formats(pm)
    secret = load_server_secret(config)
    return LimitedApplication(
        [*api.default_handlers, *dashboard.default_handlers],
        default_handler_class=NotFoundHandler,
        transforms=[RequestIdHeader],
        log_function=log_request,
        assetcheck_config=config,
        job_queue=job_queue or JobQueue.for_config(database, config),
        upload_storage=storage or open_storage(config.storage),
        worker_processes=(
            config.workers.processes if worker_processes is None else worker_processes
        ),
        plugin_manager=pm,
        engine_profiles=engines,
        report_formats=formats,
        rate_limiter=RateLimiter(),
        executor=executor or ThreadPoolExecutor(BLOCKING_THREADS, thread_name_prefix="blocking"),
        openapi_document=openapi_document(engines, formats),
        metrics_collectors=[JobGauges(), *node_collectors],
        server_secret=secret,
        webhook_secret_box=SecretBox(secret),  # seals and opens webhook secrets
        cookie_secret=secret,  # signs the dashboard's session cookies
        xsrf_cookies=True,  # API handlers are exempt: they take keys, never cookies
        **dashboard.settings(config),
    )
