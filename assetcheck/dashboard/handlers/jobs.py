"""The upload page, the jobs list, a job's page, and what the job page loads: its live status,
its preview pictures, its 3D viewer's models and overlays, and its reports; deleting a job."""

from __future__ import annotations

from functools import partial
from typing import Any, BinaryIO

import tornado.web

from assetcheck.accounts.credentials import is_fresh_install
from assetcheck.dashboard import job_page
from assetcheck.dashboard.handlers.base import (
    DashboardHandler,
    DashboardJsonHandler,
    SessionAuthentication,
)
from assetcheck.db.tables import Job
from assetcheck.jobs.queue import COMPLETED, STATES
from assetcheck.previews.drawing import DRAWN_FORMATS
from assetcheck.previews.job_files import CONTENT_TYPES, model_file_name
from assetcheck.webapp.errors import RequestError
from assetcheck.webapp.handlers import bounded_number
from assetcheck.webapp.job_options import DEFAULT_ENGINE
from assetcheck.webapp.job_views import (
    badge_path,
    expired,
    find_job,
    list_jobs,
    parse_list_query,
    remove_job,
    summary_body,
)
from assetcheck.webapp.reports import ReportHandler

RECENT_JOBS = 5
#: No upload has more model files than this (``[validation] max_archive_entries`` is smaller).
MAX_PREVIEW_INDEX = 10**9
#: Report formats offered as downloads on the job page: their titles and file extensions.
DOWNLOADS = {"json": ("JSON", "json"), "markdown": ("Markdown", "md"),
             "junit": ("JUnit", "xml")}
#: The viewer's files of a model file: suffix in the URL -> ``job_files`` kind.
VIEWER_FILES = {"glb": "viewer_model", "json": "overlays"}
#: Bytes read from disk and sent at a time when streaming a viewer file.
STREAM_CHUNK = 1 << 20


class HomeHandler(DashboardHandler):
    """The upload page (the front page once logged in)."""

    async def get(self) -> None:
        if self.account is None:
            fresh = await self.run_blocking(is_fresh_install)
            self.redirect("/signup" if fresh else "/login")
            return
        recent, _ = await self.run_blocking(partial(
            list_jobs, self.account.id, status=None, limit=RECENT_JOBS, cursor=None))
        self.render_page("upload.html", engines=self.engines.values(),
                         default_engine=DEFAULT_ENGINE, recent=recent,
                         max_upload_mb=self.config["plans"][self.account.plan]["max_upload_mb"])


class JobsHandler(DashboardHandler):
    """The account's jobs, newest first, filtered by status, a page at a time."""

    @tornado.web.authenticated
    async def get(self) -> None:
        status, limit = parse_list_query(self.get_query_argument("status", None) or None, None)
        cursor = self.get_query_argument("cursor", None)
        jobs, next_cursor = await self.run_blocking(partial(
            list_jobs, self.account.id, status=status, limit=limit, cursor=cursor))
        self.render_page("jobs.html", jobs=jobs, next_cursor=next_cursor, status=status,
                         states=STATES, first_page=cursor is None,
                         deleted=self.get_query_argument("deleted", None) == "1")


class JobPageHandler(DashboardHandler):
    """One job: its live status until it ends, then its report. The report is read, arranged
    and rendered on the thread pool, never on the event loop: it may be megabytes."""

    @tornado.web.authenticated
    async def get(self, job_id: str) -> None:
        job = await self.run_blocking(find_job, self.account.id, job_id)
        engine = self.engines.get(job.engine)
        context: dict[str, Any] = {"job": job, "report": None, "downloads": DOWNLOADS,
                                   "viewer_formats": {},
                                   "engine_title": engine.title if engine else job.engine}
        if job.status == COMPLETED and job.expired_at is None:
            context.update(await self.run_blocking(self._report_context, job),
                           badge_path=badge_path(self.server_secret, job.id),
                           site_url=f"{self.request.protocol}://{self.request.host}")
        await self.render_large_page("job.html", **context)

    def _report_context(self, job: Job) -> dict[str, Any]:
        """What the page shows of a completed job's report."""
        report = job.result
        previews = self._previews(job, report)
        return {"report": report, "verdict": job_page.verdict(report), "previews": previews,
                "viewer_formats": {preview["filename"]: preview["format"] for preview in previews
                                   if preview["model_size"] is not None},
                "viewer_autoload_bytes": job_page.VIEWER_AUTOLOAD_BYTES,
                "issue_groups": job_page.issues_by_severity(report),
                "security": job_page.security_warnings(report)}

    def _previews(self, job: Job, report: dict[str, Any]) -> list[dict[str, Any]]:
        """For each model file: its index, name, format, whether a picture was drawn, the
        size of the viewer's model (None when there is none), and why its files were not
        kept (None when nothing was withheld)."""
        formats = job_page.file_formats(report)
        stored = self.storage.preview_sizes(job.id)
        withheld = {entry["file"]: entry["reason"]
                    for entry in (report.get("job") or {}).get("previews_withheld", [])}
        return [{"index": index, "filename": mesh["filename"],
                 "format": formats.get(mesh["filename"], ""),
                 "drawable": formats.get(mesh["filename"]) in DRAWN_FORMATS,
                 "drawn": model_file_name("preview", mesh["filename"]) in stored,
                 "model_size": stored.get(model_file_name("viewer_model", mesh["filename"])),
                 "withheld": withheld.get(mesh["filename"])}
                for index, mesh in enumerate(report["result"]["meshes"])]


class JobStatusHandler(DashboardJsonHandler):
    """The job's summary as JSON (the API's list entry), polled by the page's script."""

    async def get(self, job_id: str) -> None:
        job = await self.run_blocking(find_job, self.account.id, job_id)
        self.write_json(summary_body(job))


class PreviewHandler(DashboardHandler):
    """The preview picture of the job's ``n``-th model file (drawn by the worker)."""

    @tornado.web.authenticated
    async def get(self, job_id: str, number: str) -> None:
        index = bounded_number(number, MAX_PREVIEW_INDEX)
        picture = None if index is None else await self.run_blocking(self._read, job_id, index)
        if picture is None:
            raise RequestError(404, "PREVIEW_NOT_FOUND", "This model file has no preview picture.")
        self.set_header("Content-Type", "image/png")
        self.set_header("Cache-Control", "private, max-age=86400")  # a job's files never change
        self.finish(picture)

    def _read(self, job_id: str, number: int) -> bytes | None:
        filename = model_filename(self.account.id, job_id, number)
        return None if filename is None else self.storage.read_preview(
            job_id, model_file_name("preview", filename))


class JobDeleteHandler(DashboardHandler):
    """Delete the job and all it stored (the page asks first), then show the jobs list."""

    @tornado.web.authenticated
    async def post(self, job_id: str) -> None:
        await self.run_blocking(remove_job, self.queue.database, self.storage, self.account.id,
                                job_id)
        self.redirect("/jobs?deleted=1")


class ViewerFileHandler(DashboardHandler):
    """The 3D viewer's model (``.glb``) or overlays (``.json``) of the job's ``n``-th model
    file, written by the worker: to the job's owner only, same-origin only, never sniffed,
    streamed a chunk at a time (a model may be hundreds of megabytes)."""

    @tornado.web.authenticated
    async def get(self, job_id: str, number: str, kind: str) -> None:
        index = bounded_number(number, MAX_PREVIEW_INDEX)
        opened = None if index is None else await self.run_blocking(self._open, job_id, index,
                                                                     kind)
        if opened is None:
            raise RequestError(404, "VIEWER_FILE_NOT_FOUND",
                               "This model file cannot be shown in the 3D viewer.")
        handle, size = opened
        try:
            self.set_header("Content-Type", CONTENT_TYPES[f".{kind}"])
            self.set_header("Content-Length", str(size))
            self.set_header("Cache-Control", "private, max-age=86400")  # never changes
            self.set_header("Cross-Origin-Resource-Policy", "same-origin")
            while chunk := await self.run_blocking(handle.read, STREAM_CHUNK):
                self.write(chunk)
                await self.flush()
        finally:
            handle.close()
        self.finish()

    def _open(self, job_id: str, number: int, kind: str) -> tuple[BinaryIO, int] | None:
        filename = model_filename(self.account.id, job_id, number)
        return None if filename is None else self.storage.open_preview(
            job_id, model_file_name(VIEWER_FILES[kind], filename))


def model_filename(account_id: int, job_id: str, number: int) -> str | None:
    """The name of the ``number``-th model file of the account's completed job, or None;
    410 ``JOB_EXPIRED`` for a job whose files retention removed."""
    job = find_job(account_id, job_id)
    if job.expired_at is not None:
        raise expired(job)
    meshes = (job.result or {}).get("result", {}).get("meshes", [])
    if job.status != COMPLETED or number >= len(meshes):
        return None
    return meshes[number]["filename"]


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
