"""The ways a job can fail, each with a stable code and what someone can do about it.

A job *fails* when the service could not do its work (a file that cannot be parsed is not a
failure: its report says so). The worker, the queue and the report builder all take the codes
and the advice from :data:`JOB_FAILURES`; ``docs/api.md`` lists them for clients.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class JobFailure:
    """A way a job fails: its ``code`` (``job.error.code``) and the ``advice`` reports give."""

    code: str
    advice: str


_SERVICE_FAULT = (
    "This is a fault of the service, not a verdict on the file. Upload it again; "
    "if it fails the same way, send the job id to the operators."
)

VALIDATION_TIMEOUT = JobFailure(
    "VALIDATION_TIMEOUT",
    "Very large or deeply nested files can take longer than the service allows. Try a lighter "
    "export (fewer or decimated meshes), or ask the operators to raise [workers] job_timeout.",
)
RESOURCE_LIMIT = JobFailure(
    "RESOURCE_LIMIT",
    "The file needed more memory than one validation may use. Try a lighter export, or ask the "
    "operators to raise [workers] memory_limit_mb.",
)
UPLOAD_MISSING = JobFailure("UPLOAD_MISSING", "The stored upload was lost. Upload the file again.")
UNKNOWN_ENGINE = JobFailure(
    "UNKNOWN_ENGINE",
    "The job's engine profile is no longer installed. Upload the file again with an engine "
    "that GET /api/v1/engines lists.",
)
#: The validation raised (a bug), or its process died on every attempt.
VALIDATION_CRASHED = JobFailure("VALIDATION_CRASHED", _SERVICE_FAULT)

JOB_FAILURES = {
    failure.code: failure
    for failure in (
        VALIDATION_TIMEOUT,
        RESOURCE_LIMIT,
        UPLOAD_MISSING,
        UNKNOWN_ENGINE,
        VALIDATION_CRASHED,
    )
}


def failure_advice(code: str) -> str:
    """The advice for a failure ``code``; a code this version does not know (from a newer
    node, say) gets the advice for a fault of the service."""
    failure = JOB_FAILURES.get(code)
    return failure.advice if failure is not None else _SERVICE_FAULT
