"""A job's report: ``/api/v1/report/{jobId}/{format}`` with a key, and its badge without one.

The public badge lives at an unguessable path per job (``badge_url`` in the job's body), so it
can be embedded in a README; a wrong token answers exactly like an unknown path.
"""

from __future__ import annotations

from assetcheck.reports.badge import pending_badge, render_badge
from assetcheck.service.api.handlers.base import KeyAuthentication
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.queue import COMPLETED, FAILED
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_views import badge_token_matches
from assetcheck.service.webapp.reports import RenderedReportHandler, ReportHandler

#: A finished job's badge never changes (short of a new AssetCheck version).
FINAL_BADGE_CACHE_CONTROL = "public, max-age=86400"
#: A waiting job's badge changes when the job ends.
PENDING_BADGE_CACHE_CONTROL = "public, max-age=10"
BADGE_CONTENT_TYPE = "image/svg+xml"


class ApiReportHandler(KeyAuthentication, ReportHandler):
    """``/api/v1/report/{jobId}/{format}`` with an API key."""


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
            raise RequestError(404, "NOT_FOUND", "No badge at this address.")
        if job.status in (COMPLETED, FAILED):
            svg = render_badge({"grade": job.grade, "health_score": job.health_score})
            self.send_rendered("badge", BADGE_CONTENT_TYPE, svg, FINAL_BADGE_CACHE_CONTROL)
        else:
            self.send_rendered(
                "badge", BADGE_CONTENT_TYPE, pending_badge(job.status), PENDING_BADGE_CACHE_CONTROL
            )


def _badge_facts(job_id: str) -> Job | None:
    return Job.select(Job.status, Job.grade, Job.health_score).where(Job.id == job_id).first()


default_handlers = [
    (r"/api/v1/report/([^/]+)/([^/]+)", ApiReportHandler),
    (r"/badge/([^/]+)/([^/]+)\.svg", BadgeHandler),
]
