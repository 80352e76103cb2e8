"""Uploads: a streamed multipart body becomes a stored file and a queued job. The API takes
them with a key (``POST /api/v1/validate``), the dashboard with a session (``POST /uploads``);
both answer the same JSON."""

from __future__ import annotations

import asyncio
import contextlib
import math
from functools import partial
from typing import Any, cast

import pluggy
from tornado.http1connection import HTTP1Connection
from tornado.web import stream_request_body

from assetcheck.formats.registry import format_registry
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import build_registry
from assetcheck.service.db.tables import Job, iso
from assetcheck.service.jobs.queue import JobQueue, QueueFull, QuotaExceeded, new_job_id
from assetcheck.service.jobs.storage import StorageUnavailable, UploadFile
from assetcheck.service.webapp.baselines import check_baseline
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import AccountHandler
from assetcheck.service.webapp.job_options import check_webhook_option, parse_job_options
from assetcheck.service.webapp.job_views import badge_path
from assetcheck.service.webapp.multipart import MULTIPART_ALLOWANCE, MultipartUpload, file_too_large

_TORNADO_MARGIN = 1 << 20
#: The HTTP status of each code ``FormatRegistry.refusal`` may answer.
CONTENT_REFUSAL_STATUS = {"EMPTY_FILE": 400, "UNSUPPORTED_FILE_TYPE": 415}


@stream_request_body
class UploadHandler(AccountHandler):
    """POST streams a multipart upload into the job storage and queues a job (202) for the
    principal: the plan's size limit is enforced as the body arrives and the type is decided
    by content.

    An account with the plan's ``max_queued_jobs`` jobs waiting gets 429 QUEUE_FULL, and one
    whose stored uploads would pass the plan's ``max_storage_mb`` 403 QUOTA_EXCEEDED: before
    the body is read when it is so already, or after, when the upload's size (or uploads of the
    same account racing it) takes it there (the queue counts under the account's lock).

    The upload is stored durably before the job row is committed; a refused, abandoned or
    stalled upload leaves nothing behind (its file is removed, or its multipart upload
    aborted, as the error is sent or the connection closes). With object storage, a part
    that fills is sent off the event loop before more of the body is read. Only here, once
    the key or session is accepted and the plan is known, may a body be larger than
    ``[server] max_body_kb`` or take longer than ``body_timeout``.
    """

    sets_own_body_limit = True
    upload: MultipartUpload | None = None
    job_id: str | None = None
    receiving = False
    stored = False  # the job row is committed: its files are no longer ours to remove
    flushing: asyncio.Future | None = None
    aborting: asyncio.Future | None = None

    async def prepare(self) -> None:
        await super().prepare()
        if self.request.method == "POST":
            await self._refuse_when_queue_full()
            await self._refuse_when_over_quota(0)
            self.upload = self._start_upload()
            self.receiving = True

    async def _refuse_when_queue_full(self) -> None:
        """429 QUEUE_FULL when the account already has its plan's ``max_queued_jobs``."""
        limit = self.plan_limits.max_queued_jobs
        queued = await self.run_blocking(self.queue.queued_count, self.principal.account_id)
        if queued >= limit:
            raise await self._queue_full(QueueFull(queued, limit))

    async def _refuse_when_over_quota(self, size: int) -> None:
        """403 QUOTA_EXCEEDED when the account's stored uploads already fill its plan's
        ``max_storage_mb``."""
        limit = self.plan_limits.max_storage_bytes
        if limit:
            stored = await self.run_blocking(self.queue.stored_bytes, self.principal.account_id)
            if stored >= limit:
                raise quota_exceeded(QuotaExceeded(stored, size, limit))

    async def _queue_full(self, full: QueueFull) -> RequestError:
        """The 429 for ``full``; ``Retry-After`` is a typical validation's duration, after which
        one of the account's jobs has usually started and left the queue."""
        wait = max(1, math.ceil(await self.run_blocking(self.queue.typical_duration)))
        return RequestError(
            429,
            "QUEUE_FULL",
            (
                f"Your account already has {full.queued} files waiting to be validated, the most "
                f"its plan allows ({full.limit}): retry in {wait} s, once some have started."
            ),
            {"Retry-After": str(wait)},
        )

    def _start_upload(self) -> MultipartUpload:
        limit = self.plan_limits.max_upload_bytes
        allowed = limit + MULTIPART_ALLOWANCE
        declared = int(self.request.headers.get("Content-Length", 0))
        # Tornado's own body-size check answers a bare 400, so it must never fire before ours,
        # which sees a chunked body up to one read buffer later: give it room.
        # Tornado's HTTPServer serves every request over an HTTP1Connection.
        connection = cast(HTTP1Connection, self.request.connection)
        connection.set_max_body_size(max(allowed, declared) + _TORNADO_MARGIN)
        connection.set_body_timeout(self.config.server.upload_timeout)
        if declared > allowed:
            raise file_too_large(limit)
        job_id = self.job_id = new_job_id()
        return MultipartUpload(
            self.request.headers.get("Content-Type"),
            partial(self.storage.create_upload, job_id),
            limit,
        )

    async def data_received(self, chunk: bytes) -> None:
        if self.upload is None or self._finished:
            return
        try:
            self.upload.feed(chunk)
            file = self.upload.file
            if file is not None and file.needs_flush:  # Tornado reads on once this returns
                self.flushing = asyncio.ensure_future(self.run_blocking(file.flush))
                await self.flushing
        except RequestError as error:  # a file over the limit: answer now, the rest is not read
            self.send_error(error.status_code, exc_info=(type(error), error, None))
        except StorageUnavailable as error:  # answer now, the rest is not read
            self.send_error(503, exc_info=(type(error), error, None))

    async def post(self) -> None:
        assert self.upload is not None and self.job_id is not None
        self.receiving = False
        file = self.upload.finish()
        options = parse_job_options(self.upload.options, self.engines)
        refused = format_registry(self.plugin_manager).refusal(file.head)
        if refused is not None:
            raise content_refusal(self.plugin_manager, refused, self.upload.filename)
        await self.run_blocking(
            check_webhook_option,
            options,
            self.principal.plan,
            self.config.webhooks.allowed_cidrs,
        )
        if "baseline_job" in options:
            await self.run_blocking(
                check_baseline, self.principal.account_id, options["baseline_job"]
            )
        await self._refuse_when_over_quota(file.size)
        try:
            job = await self.run_blocking(
                partial(
                    _store,
                    self.queue,
                    file,
                    id=self.job_id,
                    account=self.principal.account_id,
                    filename=self.upload.filename,
                    request_id=self.request_id,
                    engine=options["engine"],
                    options=options,
                    max_queued=self.plan_limits.max_queued_jobs,
                    max_stored_bytes=self.plan_limits.max_storage_bytes,
                )
            )
        except QueueFull as full:
            raise await self._queue_full(full) from None
        except QuotaExceeded as over:
            raise quota_exceeded(over) from None
        self.stored = True
        eta = await self.run_blocking(self.queue.estimate_completion)
        status_url = f"/api/v1/validate/{job.id}"
        self.set_header("Location", status_url)
        self.write_json(
            {
                "job_id": job.id,
                "status": job.status,
                "estimated_completion": iso(eta),
                "status_url": status_url,
                "badge_url": badge_path(self.server_secret, job.id),
            },
            202,
        )

    def on_connection_close(self) -> None:
        super().on_connection_close()
        if self.receiving:  # the client went away mid-upload
            self._discard_upload()

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self._discard_upload()  # before the client hears of the refusal
        super().write_error(status_code, **kwargs)

    def _discard_upload(self) -> None:
        """Remove what was stored of the upload: at once from a local directory; on the
        thread pool from object storage, once a part being sent has gone."""
        if self.job_id is None or self.stored:
            return
        self.job_id = None
        file = self.upload.file if self.upload is not None else None
        if file is None:
            return
        if self.storage.remote:
            self.aborting = asyncio.ensure_future(self._abort_after_flush(file))
        else:
            file.abort()

    async def _abort_after_flush(self, file: UploadFile) -> None:
        if self.flushing is not None:
            with contextlib.suppress(Exception):
                await self.flushing
        await self.run_blocking(file.abort)


def content_refusal(pm: pluggy.PluginManager, code: str, filename: str) -> RequestError:
    """The refusal of an upload no format reads (``FormatRegistry.refusal``): 400 EMPTY_FILE or
    415 UNSUPPORTED_FILE_TYPE, whose message is the issue's message and fix from the issue
    registry, word for word what ``assetcheck validate`` reports of the same file."""
    formats = format_registry(pm)
    collector = IssueCollector(build_registry(pm))
    collector.add(code, file=filename, **formats.message_fields())
    (issue,) = collector.issues
    return RequestError(CONTENT_REFUSAL_STATUS[code], code, f"{issue.message} {issue.fix}")


def quota_exceeded(over: QuotaExceeded) -> RequestError:
    """403 QUOTA_EXCEEDED with the figures: bytes stored, this upload's, and the limit."""
    return RequestError(
        403,
        "QUOTA_EXCEEDED",
        (
            f"Your account stores {_megabytes(over.stored)} MB of uploads; with this one it would "
            f"pass the {_megabytes(over.limit)} MB its plan allows: delete jobs you no longer "
            "need, then retry."
        ),
        details={"stored_bytes": over.stored, "upload_bytes": over.size, "limit_bytes": over.limit},
    )


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f}"


def _store(queue: JobQueue, file: UploadFile, **fields: Any) -> Job:
    """Store the upload durably, then commit its job: a crash in between leaves stored files
    without a row (which the sweeper removes), never a row without its file."""
    file.commit()
    return queue.enqueue(stored_path=file.stored_path, sha256=file.sha256, size=file.size, **fields)
