"""The upload page, the jobs list, a job's page, and what the job page loads: its live status,
its preview pictures, its 3D viewer's models and overlays, and its reports; deleting a job."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, BinaryIO

import tornado.web
from markupsafe import Markup

from assetcheck.plugins.manager import build_registry
from assetcheck.previews.job_files import CONTENT_TYPES, model_file_name
from assetcheck.reports import ReportFormat
from assetcheck.reports.failures import failure_advice
from assetcheck.service.accounts.credentials import is_fresh_install
from assetcheck.service.dashboard import comparison_page, job_page, report_pages
from assetcheck.service.dashboard.handlers.base import (
    DashboardHandler,
    DashboardJsonHandler,
    SessionAuthentication,
)
from assetcheck.service.dashboard.model_names import ModelFileNames
from assetcheck.service.dashboard.page_cache import RenderedPages
from assetcheck.service.dashboard.render_turns import RenderTurns
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.queue import COMPLETED, FAILED, STATES
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import bounded_number, limits_of_plan
from assetcheck.service.webapp.job_options import DEFAULT_ENGINE
from assetcheck.service.webapp.job_views import (
    badge_path,
    completed_report_text,
    decode_cursor,
    expired,
    find_job,
    list_jobs,
    parse_list_query,
    remove_job,
    summary_body,
)
from assetcheck.service.webapp.ratelimit import RateLimiter
from assetcheck.service.webapp.reports import ReportHandler, report_extension

RECENT_JOBS = 5
#: No upload has more model files than this (``[validation] max_archive_entries`` is smaller).
MAX_PREVIEW_INDEX = 10**9
#: The viewer's files of a model file: suffix in the URL -> ``job_files`` kind.
VIEWER_FILES = {"glb": "viewer_model", "json": "overlays"}
#: A job's pictures and models stay out of the browser's cache: a cached copy would outlive
#: the job's deletion, its expiry and the owner's log-out.
JOB_FILE_CACHE_CONTROL = "no-store"
#: Bytes read from disk and sent at a time when streaming a viewer file.
STREAM_CHUNK = 1 << 20


@dataclass(frozen=True)
class Download:
    """A report format the job page offers to save: its name in the URL, what people call it,
    the extension of the saved file and what it is for."""

    name: str
    title: str
    extension: str
    description: str


def report_downloads(formats: Mapping[str, ReportFormat]) -> list[Download]:
    """Every report format the service renders that is a file to save, in the registry's
    order: all of them but images (the badge, which the page shows with its own snippet)."""
    return [
        Download(name, chosen.label, extension, chosen.description)
        for name, chosen in formats.items()
        if (extension := report_extension(name, chosen.content_type)) is not None
    ]


class HomeHandler(DashboardHandler):
    """The upload page (the front page once logged in)."""

    async def get(self) -> None:
        if self.account is None:
            fresh = await self.run_blocking(is_fresh_install)
            self.redirect("/signup" if fresh else "/login")
            return
        recent, _ = await self.run_blocking(
            partial(list_jobs, self.account.id, status=None, limit=RECENT_JOBS, cursor=None)
        )
        self.render_page(
            "upload.html",
            engines=self.engines.values(),
            default_engine=DEFAULT_ENGINE,
            recent=recent,
            max_upload_mb=limits_of_plan(self.config, self.account.plan).max_upload_mb,
        )


class JobsHandler(DashboardHandler):
    """The account's jobs, newest first, filtered by status, a page at a time."""

    @tornado.web.authenticated
    async def get(self) -> None:
        status = self.get_query_argument("status", None) or None
        cursor = self.get_query_argument("cursor", None)
        problem = None
        if status is not None and status not in STATES:
            problem = f"There is no status “{status}”: all jobs are shown."
            status = cursor = None
        elif cursor is not None and not _is_cursor(cursor):
            problem = "That page of the list is not one this service made: the newest are shown."
            cursor = None
        _, limit = parse_list_query(status, None)
        jobs, next_cursor = await self.run_blocking(
            partial(list_jobs, self.logged_in_account.id, status=status, limit=limit, cursor=cursor)
        )
        self.render_page(
            "jobs.html",
            400 if problem else 200,
            jobs=jobs,
            next_cursor=next_cursor,
            status=status,
            states=STATES,
            first_page=cursor is None,
            deleted=self.get_query_argument("deleted", None) == "1",
            problem=problem,
        )


def _is_cursor(cursor: str) -> bool:
    try:
        decode_cursor(cursor)
    except RequestError:
        return False
    return True


class JobPageHandler(DashboardHandler):
    """One job: its live status until it ends, then its report. The report part is rendered
    once per report and view (``?files=`` the first model file shown, ``?code=`` the issue
    code shown whole) and then served from memory; a render the cache cannot answer counts
    against the plan's ``page_renders_per_minute`` (429 once spent) and waits its account's
    turn. The stored report is read, digested and rendered off the event loop: it may be
    megabytes."""

    @tornado.web.authenticated
    async def get(self, job_id: str) -> None:
        job = await self.run_blocking(
            partial(find_job, self.logged_in_account.id, job_id, with_report=False)
        )
        engine = self.engines.get(job.engine)
        context: dict[str, Any] = {
            "job": job,
            "report_html": None,
            "downloads": report_downloads(self.report_formats),
            "engine_title": engine.title if engine else job.engine,
            "advice": failure_advice(job.error_code or "") if job.status == FAILED else None,
        }
        if job.status == COMPLETED and job.expired_at is None:
            context.update(
                report_html=await self._report_part(job),
                badge_path=badge_path(self.server_secret, job.id),
                site_url=f"{self.request.protocol}://{self.request.host}",
                comparison=await self._comparison(job),
                viewer_autoload_bytes=job_page.VIEWER_AUTOLOAD_BYTES,
            )
        self.render_page("job.html", **context)

    async def _comparison(self, job: Job) -> comparison_page.PageComparison | None:
        """The comparison with the previous upload of the same file, when there is one."""
        previous = await self.run_blocking(
            comparison_page.previous_upload, self.logged_in_account.id, job
        )
        if previous is None:
            return None
        return await self.run_blocking(self._compare, previous, job)

    def _compare(self, previous: Job, job: Job) -> comparison_page.PageComparison:
        return comparison_page.page_comparison(
            previous,
            json.loads(completed_report_text(previous)),
            job,
            json.loads(completed_report_text(job)),
            self.storage,
        )

    async def _report_part(self, job: Job) -> Markup:
        stored = await self.run_blocking(self.storage.preview_sizes, job.id)
        view = self._view()
        key = report_pages.page_key(job, view, stored)
        cached = self.page_cache.get(key)
        self.set_header("X-Page-Cache", "miss" if cached is None else "hit")
        if cached is not None:
            return Markup(cached)
        account = self.logged_in_account
        wait = self.page_rate.acquire(
            ("page-render", account.id),
            limits_of_plan(self.config, account.plan).page_renders_per_minute,
        )
        if wait:
            raise RequestError(
                429,
                "RATE_LIMITED",
                "You opened many large report pages in a "
                f"short time: this one will be ready in {wait} s. Reload it "
                "then.",
                {"Retry-After": str(wait)},
            )
        text = await self.run_blocking(completed_report_text, job)
        render = partial(
            report_pages.render_report,
            self.templates.get_template("job_report.html"),
            text,
            job=job,
            view=view,
            stored=stored,
            registry=build_registry(self.plugin_manager),
            static_url=self.static_url,
        )
        async with self.render_turns.turn(account.id):
            page = await self.run_blocking(render)
        self.page_cache.put(key, page)
        return page

    def _view(self) -> job_page.JobView:
        first = bounded_number(self.get_query_argument("files", "0"), job_page.MAX_FILE_INDEX)
        code = self.get_query_argument("code", None)
        return job_page.JobView(
            first_file=first or 0,
            expanded=code if code and job_page.ISSUE_CODE.fullmatch(code) else None,
        )

    @property
    def page_cache(self) -> RenderedPages:
        return self.settings["dashboard_page_cache"]

    @property
    def render_turns(self) -> RenderTurns:
        return self.settings["dashboard_render_turns"]

    @property
    def page_rate(self) -> RateLimiter:
        return self.settings["dashboard_page_rate"]


class JobStatusHandler(DashboardJsonHandler):
    """The job's summary as JSON (the API's list entry), polled by the page's script."""

    async def get(self, job_id: str) -> None:
        job = await self.run_blocking(find_job, self.logged_in_account.id, job_id)
        self.write_json(summary_body(job))


class JobFileHandler(DashboardHandler):
    """A file the worker stored for one of a completed job's model files, found by the model
    file's number."""

    @property
    def model_names(self) -> ModelFileNames:
        return self.settings["dashboard_model_names"]

    def model_filename(self, job_id: str, number: int) -> str | None:
        """The name of the ``number``-th model file of the account's completed job, or None;
        410 ``JOB_EXPIRED`` for a job whose files retention removed. The job's row is read
        without its report: :class:`ModelFileNames` decodes a report once."""
        job = find_job(self.logged_in_account.id, job_id, with_report=False)
        if job.expired_at is not None:
            raise expired(job)
        if job.status != COMPLETED:
            return None
        files = self.model_names.of(job)
        return files[number] if number < len(files) else None


class PreviewHandler(JobFileHandler):
    """The preview picture of the job's ``n``-th model file (drawn by the worker)."""

    @tornado.web.authenticated
    async def get(self, job_id: str, number: str) -> None:
        index = bounded_number(number, MAX_PREVIEW_INDEX)
        picture = None if index is None else await self.run_blocking(self._read, job_id, index)
        if picture is None:
            raise RequestError(404, "PREVIEW_NOT_FOUND", "This model file has no preview picture.")
        self.set_header("Content-Type", "image/png")
        self.set_header("Cache-Control", JOB_FILE_CACHE_CONTROL)
        self.finish(picture)

    def _read(self, job_id: str, number: int) -> bytes | None:
        filename = self.model_filename(job_id, number)
        return (
            None
            if filename is None
            else self.storage.read_preview(job_id, model_file_name("preview", filename))
        )


class JobDeleteHandler(DashboardHandler):
    """Delete the job and all it stored (the page asks first), then show the jobs list."""

    @tornado.web.authenticated
    async def post(self, job_id: str) -> None:
        await self.run_blocking(
            remove_job, self.queue.database, self.storage, self.logged_in_account.id, job_id
        )
        self.redirect("/jobs?deleted=1")


class ViewerFileHandler(JobFileHandler):
    """The 3D viewer's model (``.glb``) or overlays (``.json``) of the job's ``n``-th model
    file, written by the worker: to the job's owner only, same-origin only, never sniffed,
    streamed a chunk at a time (a model may be hundreds of megabytes)."""

    @tornado.web.authenticated
    async def get(self, job_id: str, number: str, kind: str) -> None:
        index = bounded_number(number, MAX_PREVIEW_INDEX)
        opened = None if index is None else await self.run_blocking(self._open, job_id, index, kind)
        if opened is None:
            raise RequestError(
                404, "VIEWER_FILE_NOT_FOUND", "This model file cannot be shown in the 3D viewer."
            )
        handle, size = opened
        try:
            self.set_header("Content-Type", CONTENT_TYPES[f".{kind}"])
            self.set_header("Content-Length", str(size))
            self.set_header("Cache-Control", JOB_FILE_CACHE_CONTROL)
            self.set_header("Cross-Origin-Resource-Policy", "same-origin")
            while chunk := await self.run_blocking(handle.read, STREAM_CHUNK):
                self.write(chunk)
                await self.flush()
        finally:
            handle.close()
        self.finish()

    def _open(self, job_id: str, number: int, kind: str) -> tuple[BinaryIO, int] | None:
        filename = self.model_filename(job_id, number)
        return (
            None
            if filename is None
            else self.storage.open_preview(job_id, model_file_name(VIEWER_FILES[kind], filename))
        )


class ReportDownloadHandler(SessionAuthentication, ReportHandler):
    """``/api/v1/report/{jobId}/{format}`` for the session's account: the same renderers and
    answers, files to save included (the badge, an image, is shown inline)."""


default_handlers = [
    (r"/", HomeHandler),
    (r"/jobs", JobsHandler),
    (r"/jobs/([A-Za-z0-9_]+)", JobPageHandler),
    (r"/jobs/([A-Za-z0-9_]+)/status", JobStatusHandler),
    (r"/jobs/([A-Za-z0-9_]+)/delete", JobDeleteHandler),
    (r"/jobs/([A-Za-z0-9_]+)/previews/(\d+)\.png", PreviewHandler),
    (r"/jobs/([A-Za-z0-9_]+)/models/(\d+)\.(glb|json)", ViewerFileHandler),
    (r"/jobs/([A-Za-z0-9_]+)/report/(\w+)", ReportDownloadHandler),
]
