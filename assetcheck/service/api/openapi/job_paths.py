"""The operations on jobs: upload a file, list the jobs, read and delete one, compare two."""

from __future__ import annotations

from assetcheck.service.api.openapi.fragments import (
    error,
    job_id_parameter,
    json_content,
    link,
    page_parameters,
    retry_after,
    schema_ref,
)
from assetcheck.service.api.openapi.responses import authenticated
from assetcheck.service.jobs.comparison import COMPARISON_FORMATS
from assetcheck.service.jobs.queue import STATES
from assetcheck.service.webapp.job_options import JOB_ID_MAX_LENGTH

#: How the content of an upload starts, for each built-in format (decided from the bytes,
#: never the name: ``assetcheck.formats.registry``): GLB, ZIP, binary FBX, glTF JSON (after an
#: optional byte order mark and blanks) or ASCII FBX: the interface's four types. OBJ, which has
#: no fixed start (its content is OBJ when its first lines are OBJ statements), and USD layers
#: (``PXR-USDC``, ``#usda``) are accepted too but left out of the pattern, as are the formats of
#: plugins (``docs/api.md``); a USDZ package is a ZIP and matches it.
MODEL_CONTENT_PATTERN = (
    r"^(glTF|PK\u0003\u0004|PK\u0005\u0006|Kaydara FBX Binary  \u0000|"
    r"\ufeff?[ \t\n\r\u000b\u000c]*(\{|; FBX))"
)

#: The token of a ``badge_url``, for the links to ``getBadge``. OpenAPI's runtime expressions
#: cannot take part of a value; ``#regex:`` (one capturing group) is schemathesis's extension.
_BADGE_TOKEN = r"$response.body#/badge_url#regex:/([0-9a-f]+)\.svg$"


def job_paths(engines: list[str]) -> dict:
    """The paths of the jobs, for a server offering the engine profiles ``engines``."""
    return {
        "/api/v1/validate": {"post": _submit(engines), "get": _list()},
        "/api/v1/validate/{jobId}": {"get": _status(), "delete": _delete()},
        "/api/v1/validate/{jobId}/compare/{otherJobId}": {"get": _compare()},
    }


def _submit(engines: list[str]) -> dict:
    return {
        "operationId": "submitValidation",
        "summary": "Upload a file and queue its validation",
        "requestBody": {
            "required": True,
            "content": {
                "multipart/form-data": {
                    "schema": _upload(engines),
                    "encoding": {"options": {"contentType": "application/json"}},
                }
            },
        },
        "responses": {
            "202": {
                "description": "Queued",
                "headers": {
                    "Location": {
                        "description": "The job's status_url",
                        "schema": {"type": "string"},
                    }
                },
                "content": json_content("JobCreated"),
                "links": {
                    "GetValidation": link("getValidation", jobId="$response.body#/job_id"),
                    "GetReport": link("getReport", jobId="$response.body#/job_id"),
                    "CompareValidations": _compare_with_itself(),
                    "GetBadge": link(
                        "getBadge", jobId="$response.body#/job_id", token=_BADGE_TOKEN
                    ),
                },
            },
            **_upload_refusals(),
        },
    }


def _upload(engines: list[str]) -> dict:
    """The multipart body of an upload: the ``file`` and its ``options``."""
    return {
        "type": "object",
        "required": ["file"],
        "properties": {
            "file": {
                "type": "string",
                "contentMediaType": "application/octet-stream",
                "minLength": 1,
                "pattern": MODEL_CONTENT_PATTERN,
                "examples": ['{"asset": {"version": "2.0"}}'],
                "description": "A GLB, glTF, FBX or ZIP file, told apart by how "
                "its content starts (the pattern), never by its name. The service also "
                "accepts OBJ (recognised by its statements), USD layers and packages, and the "
                "formats of its plugins; "
                "see docs/api.md.",
            },
            "options": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "engine": {
                        "type": "string",
                        "enum": engines,
                        "default": "generic",
                    },
                    "webhook_url": {
                        "type": ["string", "null"],
                        "format": "uri",
                        "pattern": "^https?://[^/?#]+",
                        "maxLength": 2048,
                        "description": "Receives this job's webhook instead of the account's "
                        "default; null, like no webhook_url, means the account's default.",
                    },
                    "dimensions": {
                        "type": ["object", "null"],
                        "additionalProperties": False,
                        "minProperties": 1,
                        "properties": {
                            side: {"type": "number", "exclusiveMinimum": 0, "maximum": 10000}
                            for side in ("width", "height", "depth")
                        },
                        "description": "The real product's width (X), height (Y, up) and "
                        "depth (Z) in metres, any of them; the model must match them within "
                        "3 % (MODEL_DIMENSIONS_MISMATCH, docs/scale.md).",
                    },
                    "baseline_job": {
                        "type": ["string", "null"],
                        "minLength": 1,
                        "maxLength": JOB_ID_MAX_LENGTH,
                        "description": "One of the account's completed jobs: the completed "
                        "job then carries its comparison with it (comparison). null, like no "
                        "baseline_job, compares with nothing.",
                    },
                },
            },
        },
    }


def _upload_refusals() -> dict:
    """Every status but 202 an upload can answer."""
    return {
        "400": error(
            "MISSING_FILE, EMPTY_FILE, PART_HEADERS_TOO_LARGE, INVALID_OPTIONS, "
            "UNKNOWN_ENGINE, INVALID_WEBHOOK_URL, INVALID_DIMENSIONS or BASELINE_NOT_FOUND "
            "(baseline_job names no job of the account)"
        ),
        "409": error(
            "BASELINE_NOT_COMPLETED: the baseline job is queued, processing or failed; or "
            "BASELINE_EXPIRED: retention removed its report"
        ),
        "413": error("FILE_TOO_LARGE: over the plan's upload limit"),
        "415": error("UNSUPPORTED_FILE_TYPE: the content is not GLB, glTF, FBX, OBJ, USD or ZIP"),
        **authenticated(),
        "403": _quota_exceeded(),
        "503": _storage_unavailable(),
        "429": {
            **error(
                "RATE_LIMITED: too many requests for this account; or QUEUE_FULL: "
                "the account already has its plan's max_queued_jobs waiting"
            ),
            "headers": retry_after(),
        },
    }


def _list() -> dict:
    return {
        "operationId": "listValidations",
        "summary": "The account's jobs, newest first",
        "parameters": [
            {"name": "status", "in": "query", "schema": {"type": "string", "enum": list(STATES)}},
            *page_parameters(),
        ],
        "responses": {
            "200": {"description": "A page of jobs", "content": json_content("JobList")},
            "400": error("INVALID_PARAMETER"),
            **authenticated(),
        },
    }


def _status() -> dict:
    return {
        "operationId": "getValidation",
        "summary": "A job's state, and its result once completed",
        "parameters": [job_id_parameter()],
        "responses": {
            "200": {
                "description": "The job",
                "content": json_content("JobStatus"),
                "headers": {
                    "Retry-After": {
                        "description": "While the job is queued or processing: "
                        "seconds to wait before asking again",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 30},
                    }
                },
                "links": {
                    "GetReport": link("getReport", jobId="$response.body#/job_id"),
                    "CompareValidations": _compare_with_itself(),
                },
            },
            "404": error("JOB_NOT_FOUND"),
            **authenticated(),
        },
    }


def _compare_with_itself() -> dict:
    """The link to the comparison of the job in the answer with itself."""
    job_id = "$response.body#/job_id"
    return link("compareValidations", jobId=job_id, otherJobId=job_id)


def _compare() -> dict:
    text = {"schema": {"type": "string"}}
    return {
        "operationId": "compareValidations",
        "summary": "What changed from the job otherJobId (old) to the job jobId (new)",
        "parameters": [
            job_id_parameter(),
            {"name": "otherJobId", "in": "path", "required": True, "schema": {"type": "string"}},
            {
                "name": "format",
                "in": "query",
                "schema": {"type": "string", "enum": list(COMPARISON_FORMATS), "default": "json"},
            },
        ],
        "responses": {
            "200": {
                "description": "The comparison: the diff document (docs/diff.md), or its "
                "Markdown or text",
                "content": {
                    **json_content("Comparison"),
                    "text/markdown": text,
                    "text/plain": text,
                },
            },
            "400": error("INVALID_PARAMETER: an unknown format"),
            "404": error("JOB_NOT_FOUND: either job is not the account's"),
            "409": {
                **error(
                    "JOB_NOT_READY: a job is queued or processing (with Retry-After); or "
                    "JOB_FAILED: a job failed and has no report"
                ),
                "headers": retry_after(),
            },
            "410": error("JOB_EXPIRED: the plan's retention removed a job's report"),
            **authenticated(),
        },
    }


def _delete() -> dict:
    return {
        "operationId": "deleteValidation",
        "summary": "Delete a job and all it stored, cancelling it if it has not ended",
        "parameters": [job_id_parameter()],
        "responses": {
            "204": {
                "description": "Deleted: the upload, previews, report and "
                "webhook deliveries are gone"
            },
            "404": error("JOB_NOT_FOUND"),
            "503": _storage_unavailable(),
            **authenticated(),
        },
    }


def _quota_exceeded() -> dict:
    return {
        "description": "PLAN_REQUIRED: the account's plan has no API access, or no "
        "webhooks (webhook_url); or "
        "QUOTA_EXCEEDED: the upload would take the account's stored uploads "
        "past its plan's max_storage_mb (with the figures)",
        "content": {
            "application/json": {
                "schema": {"oneOf": [schema_ref("Error"), schema_ref("QuotaExceeded")]}
            }
        },
    }


def _storage_unavailable() -> dict:
    return {
        **error("STORAGE_UNAVAILABLE: the job storage cannot be reached"),
        "headers": retry_after(),
    }
