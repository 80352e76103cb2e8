"""A job's comparison with another of its account's jobs (``docs/api.md``, Comparing jobs).

The diff core (:mod:`assetcheck.diff`) compares the two jobs' stored JSON reports, the older
job's as the old side; the sides are labelled with the job ids. A job uploaded with
``options.baseline_job`` carries its comparison in its report (``comparison``), computed here
by the worker when the validation completes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from assetcheck.diff import Diff, diff_reports
from assetcheck.diff.markdown import render_markdown
from assetcheck.diff.text import render_text
from assetcheck.reports import Report
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.queue import COMPLETED

#: Each ``format`` of ``GET /api/v1/validate/{jobId}/compare/{otherJobId}``: its content type
#: and how the diff is written in it.
COMPARISON_FORMATS: dict[str, tuple[str, Callable[[Diff], str]]] = {
    "json": ("application/json", lambda diff: json.dumps(diff.to_dict(), ensure_ascii=False)),
    "markdown": ("text/markdown; charset=utf-8", render_markdown),
    "text": ("text/plain; charset=utf-8", render_text),
}


def compare_reports(old_job: str, old: Report, new_job: str, new: Report) -> Diff:
    """The comparison of job ``new_job``'s report with job ``old_job``'s, each report one
    upload (a ZIP's model files are one file of the comparison, ``docs/diff.md``)."""
    return diff_reports([old], [new], old_label=old_job, new_label=new_job)


def baseline_comparison(job: Job, report: Report) -> dict[str, Any] | None:
    """What ``job``, completed with ``report``, carries as its ``comparison``: None without a
    ``baseline_job`` option; the diff document against the baseline's stored report; or, when
    the baseline was deleted or expired since the upload named it, the two job ids and why
    there is no diff (``unavailable``)."""
    baseline_id = (job.options or {}).get("baseline_job")
    if baseline_id is None:
        return None
    row = (
        Job.select(Job.status, Job.result)
        .where((Job.id == baseline_id) & (Job.account == job.account_id))
        .first()
    )
    if row is None or row.status != COMPLETED or row.result is None:
        reason = (
            f"The baseline job {baseline_id} was deleted before this job completed."
            if row is None
            else f"The baseline job {baseline_id}'s report was removed by retention before "
            "this job completed."
        )
        return {"old": baseline_id, "new": job.id, "unavailable": reason}
    return compare_reports(baseline_id, row.result, job.id, report).to_dict()
