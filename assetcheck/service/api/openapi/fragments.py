"""The small pieces the schemas, the operations and the shared responses are made of."""

from __future__ import annotations

from assetcheck.service.webapp.job_views import MAX_PAGE_SIZE

ISO = {"type": "string", "format": "date-time"}
JOB_ID = {"type": "string", "pattern": "^val_[A-Za-z0-9]+$"}


def schema_ref(name: str) -> dict:
    """A reference to the component schema ``name``."""
    return {"$ref": "#/components/schemas/" + name}


def json_content(schema: str) -> dict:
    """A JSON body of the component schema ``schema``."""
    return {"application/json": {"schema": schema_ref(schema)}}


def error(description: str) -> dict:
    """An answer whose body is an ``Error``."""
    return {"description": description, "content": json_content("Error")}


def object_schema(required: list[str], properties: dict) -> dict:
    return {"type": "object", "required": required, "properties": properties}


def progress(maximum: int) -> dict:
    """A whole number from 0 to ``maximum`` (a progress or a score)."""
    return {"type": "integer", "minimum": 0, "maximum": maximum}


def count() -> dict:
    return {"type": "integer", "minimum": 0}


def nullable_iso() -> dict:
    return {"type": ["string", "null"], "format": "date-time"}


def link(operation_id: str, **parameters: str) -> dict:
    """A link to ``operation_id`` whose parameters are runtime expressions."""
    return {"operationId": operation_id, "parameters": parameters}


def retry_after() -> dict:
    """The ``Retry-After`` header of an answer that asks the client to come back later."""
    return {
        "Retry-After": {
            "description": "Seconds to wait",
            "schema": {"type": "integer", "minimum": 1},
        }
    }


def job_id_parameter() -> dict:
    return {"name": "jobId", "in": "path", "required": True, "schema": {"type": "string"}}


def page_parameters() -> list[dict]:
    """``limit`` and ``cursor``, the parameters of every paged list."""
    return [
        {
            "name": "limit",
            "in": "query",
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
        },
        {
            "name": "cursor",
            "in": "query",
            "schema": {"type": "string"},
            "description": "next_cursor of the previous page (empty: the first page); any "
            "other value is 400 INVALID_PARAMETER",
        },
    ]
