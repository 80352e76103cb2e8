"""Jobs as the API shows them: one account's jobs, the body of each state, the list pages.

Reads are always scoped to the requesting account, so another account's job is simply not
found (404, never 403: its existence does not leak).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import peewee

from assetcheck.reports import Report
from assetcheck.reports.document import build_failure_report
from assetcheck.scoring.profiles import EngineProfile
from assetcheck.service.db.tables import Job, iso
from assetcheck.service.jobs.deletion import delete_job
from assetcheck.service.jobs.queue import COMPLETED, FAILED, STATES
from assetcheck.service.jobs.storage import JobStorage
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import bounded_number
from assetcheck.service.webapp.json_input import parse_json

DEFAULT_PAGE_SIZE = 20
#: The longest polling hint (``Retry-After``) a waiting job's answers give, in seconds.
MAX_POLL_SECONDS = 30
MAX_PAGE_SIZE = 100
BADGE_TOKEN_HEX_DIGITS = 32

#: The columns a list page needs: never the stored report.
_SUMMARY_COLUMNS = (
    Job.id,
    Job.status,
    Job.progress,
    Job.filename,
    Job.engine,
    Job.created_at,
    Job.finished_at,
    Job.health_score,
    Job.grade,
    Job.error_code,
    Job.error_message,
    Job.expired_at,
)

_ROW_WITHOUT_REPORT = tuple(field for field in Job._meta.sorted_fields if field is not Job.result)


def find_job(account_id: int, job_id: str, *, with_report: bool = True) -> Job:
    """The account's job ``job_id``; 404 JOB_NOT_FOUND when it has none by that id. Without
    its report, the row is read without decoding the stored JSON (which may be megabytes)."""
    query = Job.select() if with_report else Job.select(*_ROW_WITHOUT_REPORT)
    job = query.where((Job.id == job_id) & (Job.account == account_id)).first()
    if job is None:
        raise _not_found(job_id)
    return job


def report_text(job_id: str) -> str | None:
    """The stored report of the job as its JSON text, undecoded (None when it has none)."""
    row = Job.select(Job.result.cast("TEXT")).where(Job.id == job_id).tuples().first()
    return None if row is None else row[0]


def completed_report_text(job: Job) -> str:
    """The stored report of ``job``, a completed job read without it, as its JSON text. It may
    have gone since the row was read: 404 JOB_NOT_FOUND once the job was deleted, else 410
    JOB_EXPIRED (retention removed it)."""
    text = report_text(job.id)
    if text is None:
        raise expired(find_job(job.account_id, job.id, with_report=False))
    return text


def remove_job(
    database: peewee.Database, storage: JobStorage, account_id: int, job_id: str
) -> None:
    """Delete the account's job ``job_id`` and all it stored, cancelling it if it has not ended
    (:mod:`assetcheck.service.jobs.deletion`); 404 JOB_NOT_FOUND when it has none by that id."""
    if not delete_job(database, storage, account_id, job_id):
        raise _not_found(job_id)


def _not_found(job_id: str) -> RequestError:
    return RequestError(404, "JOB_NOT_FOUND", f"No job {job_id} exists for this account.")


def expired(job: Job) -> RequestError:
    """410 JOB_EXPIRED: retention removed the job's files and report."""
    return RequestError(
        410,
        "JOB_EXPIRED",
        f"Job {job.id} expired on {iso(job.expired_at)}: "
        "its plan's retention removed its upload, previews and report; its "
        "summary remains.",
    )


def status_body(job: Job) -> dict[str, Any]:
    """``GET /api/v1/validate/{jobId}``: the fields of the job's state (docs/api.md); an
    expired job has only its summary."""
    if job.expired_at is not None:
        return summary_body(job)
    body: dict[str, Any] = {"job_id": job.id, "status": job.status}
    if job.status == COMPLETED:
        report = job.result
        body.update(
            progress=100,
            filename=job.filename,
            health_score=job.health_score,
            grade=job.grade,
            result=report["result"],
            engine=job.engine,
            valid=report["valid"],
            created_at=iso(job.created_at),
            completed_at=iso(job.finished_at),
            stored_bytes=job.size + job.derived_bytes,
        )
        withheld = (report.get("job") or {}).get("previews_withheld")
        if withheld:
            body["previews_withheld"] = withheld
        if "comparison" in report:
            body["comparison"] = report["comparison"]
        return body
    body.update(
        progress=min(job.progress, 99), filename=job.filename, created_at=iso(job.created_at)
    )
    if job.status == FAILED:
        body["error"] = error_body(job)
    return body


def polling_interval(typical_seconds: float) -> int:
    """The ``Retry-After`` of a queued or processing job's answers: half a typical
    validation, so a client polling at that pace hears of the end soon after it happens, from
    1 to :data:`MAX_POLL_SECONDS` seconds."""
    return min(MAX_POLL_SECONDS, max(1, math.ceil(typical_seconds / 2)))


def summary_body(job: Job) -> dict[str, Any]:
    """One entry of ``GET /api/v1/validate``: the job without its result."""
    body: dict[str, Any] = {
        "job_id": job.id,
        "status": job.status,
        "progress": 100 if job.status == COMPLETED else min(job.progress, 99),
        "filename": job.filename,
        "engine": job.engine,
        "created_at": iso(job.created_at),
    }
    if job.status == COMPLETED:
        body.update(
            health_score=job.health_score, grade=job.grade, completed_at=iso(job.finished_at)
        )
    elif job.status == FAILED:
        body["error"] = error_body(job)
    if job.expired_at is not None:
        body["expired_at"] = iso(job.expired_at)
    return body


def error_body(job: Job) -> dict[str, str]:
    return {"code": job.error_code or "", "message": job.error_message or ""}


def list_jobs(
    account_id: int, *, status: str | None, limit: int, cursor: str | None
) -> tuple[list[Job], str | None]:
    """A page of the account's jobs, newest first, and the cursor of the next page (or None)."""
    query = (
        Job.select(*_SUMMARY_COLUMNS)
        .where(Job.account == account_id)
        .order_by(Job.created_at.desc(), Job.id.desc())
        .limit(limit + 1)
    )
    if status is not None:
        query = query.where(Job.status == status)
    if cursor is not None:
        created_at, job_id = decode_cursor(cursor)
        query = query.where(
            (Job.created_at < created_at) | ((Job.created_at == created_at) & (Job.id < job_id))
        )
    jobs = list(query)
    if len(jobs) <= limit:
        return jobs, None
    last = jobs[limit - 1]
    return jobs[:limit], encode_cursor(last.created_at, last.id)


def parse_list_query(status: str | None, limit: str | None) -> tuple[str | None, int]:
    """Validate ``status`` and ``limit``; 400 INVALID_PARAMETER names what is wrong."""
    if status is not None and status not in STATES:
        raise invalid_parameter(f"status must be one of {', '.join(STATES)}")
    if limit is None:
        return status, DEFAULT_PAGE_SIZE
    number = bounded_number(limit, MAX_PAGE_SIZE)
    if number is None or number < 1:
        raise invalid_parameter(f"limit must be an integer from 1 to {MAX_PAGE_SIZE}")
    return status, number


def encode_cursor(created_at: datetime, job_id: str) -> str:
    text = json.dumps([created_at.isoformat(), job_id])
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        created_at, job_id = parse_json(base64.urlsafe_b64decode(padded), "The cursor")
        return datetime.fromisoformat(created_at), str(job_id)
    except (binascii.Error, ValueError, TypeError, UnicodeDecodeError):
        raise invalid_parameter("cursor is not one this service returned") from None


def invalid_parameter(message: str) -> RequestError:
    return RequestError(400, "INVALID_PARAMETER", f"Invalid query: {message}.")


def finished_report(job: Job, engines: Mapping[str, EngineProfile]) -> Report:
    """The report of a completed job (stored), or of a failed one (built from its error);
    410 JOB_EXPIRED once retention removed it."""
    if job.expired_at is not None:
        raise expired(job)
    if job.status == COMPLETED:
        return job.result
    return build_failure_report(
        job.filename,
        engines.get(job.engine, job.engine),
        error_body(job),
        job={
            "job_id": job.id,
            "created_at": iso(job.created_at),
            "failed_at": iso(job.finished_at),
        },
    )


def badge_path(secret: str, job_id: str) -> str:
    """The public path of the job's badge: ``/badge/<job id>/<token>.svg``, needing no key."""
    return f"/badge/{job_id}/{_badge_token(secret, job_id)}.svg"


def badge_token_matches(secret: str, job_id: str, token: str) -> bool:
    """Whether ``token`` is the job's badge token, compared in constant time."""
    return hmac.compare_digest(_badge_token(secret, job_id).encode(), token.encode())


def _badge_token(secret: str, job_id: str) -> str:
    """128 bits of HMAC-SHA256 over the job id; the prefix keeps badge tokens from ever
    matching a signature the same secret makes for something else (session cookies)."""
    digest = hmac.new(secret.encode(), f"badge:{job_id}".encode(), hashlib.sha256)
    return digest.hexdigest()[:BADGE_TOKEN_HEX_DIGITS]
