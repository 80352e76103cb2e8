"""The report part of a job page: arranged and rendered once per report and view, then served
from memory (``docs/dashboard.md``, The job page).

The key is a digest of the stored report's text, the job, the view (which model files, which
issue code expanded) and what the worker stored for its model files, so a page is rendered
again only when one of these changes. Rendering runs on the thread pool, in turns between
accounts (:mod:`assetcheck.service.dashboard.render_turns`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import jinja2
from markupsafe import Markup

from assetcheck.issues import IssueRegistry
from assetcheck.previews.drawing import DRAWN_FORMATS
from assetcheck.previews.job_files import model_file_name
from assetcheck.reports import titles_by_code
from assetcheck.service.dashboard import job_page


def page_key(job: Any, view: job_page.JobView, stored: Mapping[str, int]) -> str:
    """What identifies one rendering of a completed job's report part. A report never changes
    once its job has completed, so the job's id and end time stand for its text, which need
    not be read (it may be megabytes) to find the page in the cache."""
    identity = [
        job.id,
        job.finished_at.isoformat() if job.finished_at else None,
        view.key(),
        sorted(stored.items()),
    ]
    return hashlib.sha256(json.dumps(identity).encode()).hexdigest()


def render_report(
    template: jinja2.Template,
    report_text: str,
    *,
    job: Any,
    view: job_page.JobView,
    stored: Mapping[str, int],
    registry: IssueRegistry,
    static_url: Callable[[str], str],
) -> Markup:
    """The report part of ``job``'s page for ``view``, from the stored report's text."""
    report = json.loads(report_text)
    previews = model_files(report, view, stored)
    return Markup(
        template.render(
            job=job,
            report=report,
            view=view,
            verdict=job_page.verdict(report),
            previews=previews,
            files_shown=job_page.FILES_SHOWN,
            viewer_formats={
                preview["filename"]: preview["format"]
                for preview in previews
                if preview["model_size"] is not None
            },
            viewer_autoload_bytes=job_page.VIEWER_AUTOLOAD_BYTES,
            issue_groups=job_page.issues_by_severity(report),
            model_target=partial(job_page.model_target, registry),
            security=job_page.security_warnings(report),
            titles=titles_by_code(report),
            static_url=static_url,
        )
    )


def model_files(
    report: dict[str, Any], view: job_page.JobView, stored: Mapping[str, int]
) -> list[dict[str, Any]]:
    """For each model file the view shows: its index, name, format, whether a picture was
    drawn, the size of the viewer's model (None when there is none), and why its files were
    not kept (None when nothing was withheld)."""
    formats = job_page.file_formats(report)
    withheld = {
        entry["file"]: entry["reason"]
        for entry in (report.get("job") or {}).get("previews_withheld", [])
    }
    meshes = list(enumerate(report["result"]["meshes"]))
    return [
        {
            "index": index,
            "filename": mesh["filename"],
            "format": formats.get(mesh["filename"], ""),
            "drawable": formats.get(mesh["filename"]) in DRAWN_FORMATS,
            "drawn": model_file_name("preview", mesh["filename"]) in stored,
            "model_size": stored.get(model_file_name("viewer_model", mesh["filename"])),
            "withheld": withheld.get(mesh["filename"]),
        }
        for index, mesh in view.files(meshes)
    ]
