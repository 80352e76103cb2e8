"""``/api/v1/report/{jobId}/{format}``: a job's report, rendered by a registered renderer."""

from __future__ import annotations

import json

from assetcheck.jobs.queue import COMPLETED, FAILED
from assetcheck.models import Job
from assetcheck.service.errors import ApiError
from assetcheck.service.handlers.base import ApiHandler
from assetcheck.service.job_views import failure_markdown, failure_report, find_job

#: Formats that can explain a failed job; other renderers need a validation result.
_FAILURE_RENDERERS = {
    "json": lambda job: json.dumps(failure_report(job), indent=2, ensure_ascii=False) + "\n",
    "markdown": failure_markdown,
}


class ReportHandler(ApiHandler):
    """400 INVALID_REPORT_FORMAT, 404 JOB_NOT_FOUND, 409 JOB_NOT_READY (with Retry-After) while
    the job is queued or processing, 409 JOB_FAILED for a failed job in a format that needs a
    result; otherwise the report in the format's content type."""

    async def get(self, job_id: str, format_name: str) -> None:
        chosen = self.report_formats.get(format_name)
        if chosen is None:
            raise ApiError(400, "INVALID_REPORT_FORMAT", f"Unknown report format "
                           f"{format_name!r}: choose one of {', '.join(self.report_formats)}.")
        job = await self.run_blocking(find_job, self.principal.account_id, job_id)
        if job.status == COMPLETED:
            text = await self.run_blocking(chosen.render, job.result)
        elif job.status == FAILED:
            text = self._render_failure(job, format_name)
        else:
            wait = max(1, round(await self.run_blocking(self.queue.typical_duration)))
            raise ApiError(409, "JOB_NOT_READY", f"The job is {job.status}: its report is ready "
                           "when it completes.", {"Retry-After": str(wait)})
        self.set_header("Content-Type", chosen.content_type)
        self.finish(text)

    def _render_failure(self, job: Job, format_name: str) -> str:
        render = _FAILURE_RENDERERS.get(format_name)
        if render is None:
            raise ApiError(409, "JOB_FAILED", f"The job failed, so it has no {format_name} "
                           f"report: {job.error_message} ({job.error_code}).")
        return render(job)


default_handlers = [
    (r"/api/v1/report/([^/]+)/([^/]+)", ReportHandler),
]
