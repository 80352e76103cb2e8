"""``/api/v1/validate``: upload a file to queue a job, list the account's jobs, poll one job,
delete one."""

from __future__ import annotations

from functools import partial

from assetcheck.service.api.handlers.base import ApiHandler, KeyAuthentication
from assetcheck.service.jobs.queue import COMPLETED, FAILED
from assetcheck.service.webapp.job_views import (
    badge_path,
    find_job,
    list_jobs,
    parse_list_query,
    polling_interval,
    remove_job,
    status_body,
    summary_body,
)
from assetcheck.service.webapp.uploads import UploadHandler


class ValidationsHandler(KeyAuthentication, UploadHandler):
    """POST uploads a file and queues a job (see :class:`UploadHandler`); GET lists jobs."""

    async def get(self) -> None:
        status, limit = parse_list_query(
            self.get_query_argument("status", None), self.get_query_argument("limit", None)
        )
        jobs, next_cursor = await self.run_blocking(
            partial(
                list_jobs,
                self.principal.account_id,
                status=status,
                limit=limit,
                cursor=self.get_query_argument("cursor", None) or None,
            )
        )  # empty: the first page
        self.write_json({"jobs": [summary_body(job) for job in jobs], "next_cursor": next_cursor})


class JobHandler(ApiHandler):
    """GET one job: its state, and its result and public badge link once completed; while it
    is queued or processing, ``Retry-After`` says when to ask again. DELETE it: cancelled if
    queued or processing, then removed with all it stored (204)."""

    async def get(self, job_id: str) -> None:
        job = await self.run_blocking(find_job, self.principal.account_id, job_id)
        body = status_body(job)
        if job.status == COMPLETED:
            body["badge_url"] = badge_path(self.server_secret, job.id)
        elif job.status != FAILED:
            typical = await self.run_blocking(self.queue.typical_duration)
            self.set_header("Retry-After", str(polling_interval(typical)))
        self.write_json(body)

    async def delete(self, job_id: str) -> None:
        await self.run_blocking(
            remove_job, self.queue.database, self.storage, self.principal.account_id, job_id
        )
        self.set_status(204)
        self.finish()


default_handlers = [
    (r"/api/v1/validate", ValidationsHandler),
    (r"/api/v1/validate/([^/]+)", JobHandler),
]
