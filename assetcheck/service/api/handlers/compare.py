"""``/api/v1/validate/{jobId}/compare/{otherJobId}``: what changed from one of the account's
completed jobs (the other, the old side) to another (the job, the new side)."""

from __future__ import annotations

from assetcheck.service.api.handlers.base import ApiHandler
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.comparison import COMPARISON_FORMATS, compare_reports
from assetcheck.service.jobs.queue import COMPLETED
from assetcheck.service.webapp.baselines import refuse_uncomparable
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_views import find_job, invalid_parameter, polling_interval


class CompareHandler(ApiHandler):
    """GET the comparison of job ``job_id`` (new) with job ``other_id`` (old): the diff
    document (``docs/diff.md``), or its Markdown or text with ``?format=``. 404 JOB_NOT_FOUND
    for a job the account does not have, 409 JOB_NOT_READY (with ``Retry-After``) while one
    is queued or processing, 409 JOB_FAILED, 410 JOB_EXPIRED, 400 INVALID_PARAMETER for an
    unknown format. The diff is computed and rendered on the thread pool."""

    async def get(self, job_id: str, other_id: str) -> None:
        format_name = self.get_query_argument("format", "json")
        if format_name not in COMPARISON_FORMATS:
            raise invalid_parameter(f"format must be one of {', '.join(COMPARISON_FORMATS)}")
        new = await self._completed(job_id)
        old = new if other_id == job_id else await self._completed(other_id)
        content_type, render = COMPARISON_FORMATS[format_name]
        body = await self.run_blocking(
            lambda: render(compare_reports(old.id, old.result, new.id, new.result))
        )
        self.set_header("Content-Type", content_type)
        self.finish(body)

    async def _completed(self, job_id: str) -> Job:
        job = await self.run_blocking(find_job, self.principal.account_id, job_id)
        refuse_uncomparable(job)
        if job.status != COMPLETED:
            wait = polling_interval(await self.run_blocking(self.queue.typical_duration))
            raise RequestError(
                409,
                "JOB_NOT_READY",
                f"Job {job.id} is {job.status}: it can be compared once it completes.",
                {"Retry-After": str(wait)},
            )
        return job


default_handlers = [(r"/api/v1/validate/([^/]+)/compare/([^/]+)", CompareHandler)]
