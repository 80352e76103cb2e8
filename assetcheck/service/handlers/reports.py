"""A job's report: ``/api/v1/report/{jobId}/{format}`` with a key, and its badge without one.

Every report answer carries a strong ``ETag`` (a digest of the format and the rendered bytes)
and ``Cache-Control``; a request whose ``If-None-Match`` names the current ETag gets 304.
The public badge lives at an unguessable path per job (``badge_url`` in the job's body), so it
can be embedded in a README; a wrong token answers exactly like an unknown path.
"""

from __future__ import annotations

import hashlib

from assetcheck.jobs.queue import COMPLETED, FAILED
from assetcheck.models import Job
from assetcheck.reports.badge import pending_badge, render_badge
from assetcheck.service.errors import ApiError
from assetcheck.service.handlers.base import ApiHandler, BaseHandler
from assetcheck.service.job_views import badge_token_matches, find_job, finished_report

#: Reports of the API are the account's own: caches may keep them, but must ask again first.
API_CACHE_CONTROL = "private, no-cache"
#: A finished job's badge never changes (short of a new AssetCheck version).
FINAL_BADGE_CACHE_CONTROL = "public, max-age=86400"
#: A waiting job's badge changes when the job ends.
PENDING_BADGE_CACHE_CONTROL = "public, max-age=10"
BADGE_CONTENT_TYPE = "image/svg+xml"


class RenderedReportHandler(BaseHandler):
    """Sends a rendered report with its validators and caching rules."""

    def send_rendered(self, format_name: str, content_type: str, text: str,
                      cache_control: str) -> None:
        body = text.encode()
        digest = hashlib.sha256(format_name.encode() + b"\0" + body).hexdigest()[:32]
        self.set_header("ETag", f'"{digest}"')
        self.set_header("Cache-Control", cache_control)
        self.set_header("Content-Type", content_type)
        if self.check_etag_header():
            self.set_status(304)
            self.finish()
        else:
            self.finish(body)


class ReportHandler(ApiHandler, RenderedReportHandler):
    """400 INVALID_REPORT_FORMAT, 404 JOB_NOT_FOUND, 409 JOB_NOT_READY (with Retry-After) while
    the job is queued or processing; otherwise the report in the format's content type. A
    failed job's report, in any format, explains the failure."""

    async def get(self, job_id: str, format_name: str) -> None:
        chosen = self.report_formats.get(format_name)
        if chosen is None:
            raise ApiError(400, "INVALID_REPORT_FORMAT", f"Unknown report format "
                           f"{format_name!r}: choose one of {', '.join(self.report_formats)}.")
        job = await self.run_blocking(find_job, self.principal.account_id, job_id)
        if job.status not in (COMPLETED, FAILED):
            wait = max(1, round(await self.run_blocking(self.queue.typical_duration)))
            raise ApiError(409, "JOB_NOT_READY", f"The job is {job.status}: its report is ready "
                           "when it ends.", {"Retry-After": str(wait)})
        report = finished_report(job, self.engines)
        text = await self.run_blocking(chosen.render, report)
        self.send_rendered(format_name, chosen.content_type, text, API_CACHE_CONTROL)


class BadgeHandler(RenderedReportHandler):
    """``GET /badge/{jobId}/{token}.svg``: the job's badge, for anyone holding the link.

    The token is checked before the database is asked, so a wrong one costs nothing and says
    nothing about whether the job exists. Only the job's state, grade and score are read.
    """

    async def get(self, job_id: str, token: str) -> None:
        job = None
        if badge_token_matches(self.server_secret, job_id, token):
            job = await self.run_blocking(_badge_facts, job_id)
        if job is None:
            raise ApiError(404, "NOT_FOUND", "No badge at this address.")
        if job.status in (COMPLETED, FAILED):
            svg = render_badge({"grade": job.grade, "health_score": job.health_score})
            self.send_rendered("badge", BADGE_CONTENT_TYPE, svg, FINAL_BADGE_CACHE_CONTROL)
        else:
            self.send_rendered("badge", BADGE_CONTENT_TYPE, pending_badge(job.status),
                               PENDING_BADGE_CACHE_CONTROL)


def _badge_facts(job_id: str) -> Job | None:
    return (Job.select(Job.status, Job.grade, Job.health_score)
            .where(Job.id == job_id).first())


default_handlers = [
    (r"/api/v1/report/([^/]+)/([^/]+)", ReportHandler),
    (r"/badge/([^/]+)/([^/]+)\.svg", BadgeHandler),
]
