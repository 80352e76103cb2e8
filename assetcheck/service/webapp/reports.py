"""Sending rendered reports, and a job's report for the account a request acts for (the API
with a key, the dashboard's downloads with a session).

Every report answer carries a strong ``ETag`` (a digest of the format and the rendered bytes)
and ``Cache-Control``; a request whose ``If-None-Match`` names the current ETag gets 304. A
report is a file to save (``Content-Disposition: attachment``, named by the service), never a
page for the browser to show; only an image (the badge) is shown inline, under the same
``default-src 'none'`` policy as every answer of the API (``docs/security.md``, Headers).
"""

from __future__ import annotations

import hashlib
import re

from assetcheck.reports import ReportFormat
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.queue import COMPLETED, FAILED
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import AccountHandler, BaseHandler
from assetcheck.service.webapp.job_views import find_job, finished_report, polling_interval

#: Reports of the API are the account's own: caches may keep them, but must ask again first.
API_CACHE_CONTROL = "private, no-cache"
#: The extension of a saved report by its media type; other types use the format's name.
FILE_EXTENSIONS = {
    "application/json": "json",
    "text/markdown": "md",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/plain": "txt",
    "text/html": "html",
}


def report_extension(format_name: str, content_type: str) -> str | None:
    """The file extension of a saved report, from characters that need no quoting; None for
    an image, which is shown inline, not saved."""
    media_type = content_type.split(";")[0].strip().lower()
    if media_type.startswith("image/"):
        return None
    return FILE_EXTENSIONS.get(media_type) or _file_safe(format_name) or "txt"


def report_disposition(job_id: str, format_name: str, content_type: str) -> str | None:
    """The ``Content-Disposition`` of a report: an attachment named ``<job>-report.<ext>``
    from characters that need no quoting, or None for an image, which is shown inline."""
    extension = report_extension(format_name, content_type)
    if extension is None:
        return None
    return f'attachment; filename="{_file_safe(job_id)}-report.{extension}"'


def _file_safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "", text)[:64]


class RenderedReportHandler(BaseHandler):
    """Sends a rendered report with its validators and caching rules."""

    def send_rendered(
        self, format_name: str, content_type: str, text: str, cache_control: str
    ) -> None:
        """Send a small rendered report (a badge), digested here on the event loop."""
        self.send_body(*rendered_body(format_name, text), content_type, cache_control)

    def send_body(self, body: bytes, etag: str, content_type: str, cache_control: str) -> None:
        """Send ``body`` (from :func:`rendered_body`), or 304 when the client has it."""
        self.set_header("ETag", etag)
        self.set_header("Cache-Control", cache_control)
        self.set_header("Content-Type", content_type)
        if self.check_etag_header():
            self.set_status(304)
            self.finish()
        else:
            self.finish(body)


class ReportHandler(AccountHandler, RenderedReportHandler):
    """A job's report for the principal: 400 INVALID_REPORT_FORMAT, 404 JOB_NOT_FOUND, 409
    JOB_NOT_READY (with Retry-After) while the job is queued or processing; otherwise the
    report in the format's content type, as an attachment unless it is an image. A failed
    job's report, in any format, explains the failure. Rendering, encoding and digesting run
    on the thread pool, never on the event loop: a report may be megabytes."""

    async def get(self, job_id: str, format_name: str) -> None:
        chosen = self.report_formats.get(format_name)
        if chosen is None:
            raise RequestError(
                400,
                "INVALID_REPORT_FORMAT",
                f"Unknown report format "
                f"{format_name!r}: choose one of {', '.join(self.report_formats)}.",
            )
        job = await self.run_blocking(find_job, self.principal.account_id, job_id)
        if job.status not in (COMPLETED, FAILED):
            wait = polling_interval(await self.run_blocking(self.queue.typical_duration))
            raise RequestError(
                409,
                "JOB_NOT_READY",
                f"The job is {job.status}: its report is ready when it ends.",
                {"Retry-After": str(wait)},
            )
        disposition = report_disposition(job.id, format_name, chosen.content_type)
        if disposition is not None:
            self.set_header("Content-Disposition", disposition)
        body, etag = await self.run_blocking(self._render, chosen, format_name, job)
        self.send_body(body, etag, chosen.content_type, API_CACHE_CONTROL)

    def _render(self, chosen: ReportFormat, format_name: str, job: Job) -> tuple[bytes, str]:
        return rendered_body(format_name, chosen.render(finished_report(job, self.engines)))


def rendered_body(format_name: str, text: str) -> tuple[bytes, str]:
    """The bytes of a rendered report and its strong ETag (a digest of the format and the
    bytes). Proportional to the report's size: call it off the event loop for a stored one."""
    body = text.encode()
    digest = hashlib.sha256(format_name.encode() + b"\0" + body).hexdigest()[:32]
    return body, f'"{digest}"'
