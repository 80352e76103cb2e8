"""The ``options`` part of an upload: a JSON object with ``engine`` and ``webhook_url``."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any
from urllib.parse import urlsplit

from assetcheck.service.errors import ApiError

DEFAULT_ENGINE = "generic"
KNOWN_OPTIONS = ("engine", "webhook_url")
WEBHOOK_URL_MAX_LENGTH = 2048


def parse_job_options(raw: bytes | None, engines: Collection[str]) -> dict[str, Any]:
    """The job's options, with ``engine`` always set; raises 400 INVALID_OPTIONS,
    UNKNOWN_ENGINE or INVALID_WEBHOOK_URL.

    ``webhook_url`` is only checked to be an absolute http(s) URL here; where it may point
    is the webhook delivery's decision.
    """
    options = _decode(raw)
    unknown = sorted(set(options) - set(KNOWN_OPTIONS))
    if unknown:
        raise _invalid(f"Unknown option {', '.join(unknown)}: the options are "
                       f"{', '.join(KNOWN_OPTIONS)}.")
    engine = options.get("engine", DEFAULT_ENGINE)
    if not isinstance(engine, str) or engine not in engines:
        raise ApiError(400, "UNKNOWN_ENGINE", f"Unknown engine {engine!r}: choose one of "
                       f"{', '.join(sorted(engines))}.")
    parsed: dict[str, Any] = {"engine": engine}
    if "webhook_url" in options:
        parsed["webhook_url"] = _webhook_url(options["webhook_url"])
    return parsed


def _decode(raw: bytes | None) -> dict[str, Any]:
    if raw is None or not raw.strip():
        return {}
    try:
        options = json.loads(raw)
    except (UnicodeDecodeError, ValueError) as error:
        raise _invalid(f"The options part is not valid JSON ({error}).") from None
    if not isinstance(options, dict):
        raise _invalid("The options part must be a JSON object.")
    return options


def _webhook_url(value: object) -> str:
    if isinstance(value, str) and len(value) <= WEBHOOK_URL_MAX_LENGTH and _is_http_url(value):
        return value
    raise ApiError(400, "INVALID_WEBHOOK_URL", "webhook_url must be an absolute http:// or "
                   f"https:// URL of at most {WEBHOOK_URL_MAX_LENGTH} characters.")


def _is_http_url(value: str) -> bool:
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises ValueError for a port out of range)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _invalid(message: str) -> ApiError:
    return ApiError(400, "INVALID_OPTIONS", message)
