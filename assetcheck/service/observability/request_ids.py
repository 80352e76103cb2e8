"""Request ids: the ``X-Request-Id`` a client or a proxy sent, when it is safe to log and
store, or a new one (``docs/operations.md``, Logs)."""

from __future__ import annotations

import re
import secrets

REQUEST_ID_HEADER = "X-Request-Id"
#: Longest accepted request id: what ``job.request_id`` holds.
MAX_REQUEST_ID = 64
#: Letters, digits and ``-_.:@``: enough for UUIDs, trace ids and proxies' ids, nothing that
#: could split a log line, forge a JSON field or a header.
_SAFE_REQUEST_ID = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.:@-]{{0,{MAX_REQUEST_ID - 1}}}")


def new_request_id() -> str:
    """A fresh id: 32 hex digits (128 random bits)."""
    return secrets.token_hex(16)


def accepted_request_id(given: str | None) -> str:
    """``given`` when it is a safe request id (at most :data:`MAX_REQUEST_ID` characters of
    :data:`_SAFE_REQUEST_ID`), otherwise a new one."""
    if given is not None and _SAFE_REQUEST_ID.fullmatch(given):
        return given
    return new_request_id()
